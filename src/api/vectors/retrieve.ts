// `retrieveVectors` (vectors-embedders.md §4, "Retrieving vectors"): each configured embedder's
// stored entry of a document as `{ embeddings, regenerate }`, embeddings always an array of
// arrays (f32 values widened; 0/1 components when binary-quantized).
import type { Index } from '../../engine/index/index.ts';
import { embedderSpecs, VectorReader } from '../../engine/vector/index.ts';
import { setKey } from '../../engine/json.ts';
import { embedderConfigs, settingsOf, type Settings } from '../settings/index.ts';

export interface RetrievedEmbeddings {
  embeddings: number[][];
  regenerate: boolean;
}

/** The embeddings of a document by internal id, for every configured embedder it has an entry of. */
export type VectorsOf = (id: number) => Record<string, RetrievedEmbeddings>;

export function vectorsOf(index: Index, settings: Settings): VectorsOf {
  const specs = embedderSpecs(index, embedderConfigs(settings.embedders), false);
  const reader = new VectorReader(index);
  return (id) => {
    const out: Record<string, RetrievedEmbeddings> = {};
    for (const spec of specs) {
      const e = reader.embeddings(spec.id, id);
      if (e !== undefined) setKey(out, spec.name, { embeddings: e.vectors(), regenerate: e.regenerate });
    }
    return out;
  };
}

/** One document's embeddings (the single-document route). */
export function documentVectors(index: Index, id: number): Record<string, RetrievedEmbeddings> {
  return vectorsOf(index, settingsOf(index))(id);
}
