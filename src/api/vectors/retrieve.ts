// `retrieveVectors` (vectors-embedders.md §4, "Retrieving vectors"): each configured embedder's
// stored entry of a document as `{ embeddings, regenerate }`, embeddings always an array of
// arrays (f32 values widened; 0/1 components when binary-quantized).
import type { Index } from '../../engine/index/index.ts';
import { Bitmap } from '../../engine/bitmap/index.ts';
import type { VectorFilterSource } from '../../engine/filter/eval/index.ts';
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

/**
 * What `_vectors … EXISTS` filters select (filters.md §9): documents with embeddings (`all`), with
 * a stored entry the user gave (`userProvided`, empty ones too), or in regenerate mode
 * (`regenerate`; `documentTemplate` too for embedders that compute vectors).
 */
export function vectorFilterSource(index: Index, settings: Settings): VectorFilterSource {
  const configs = embedderConfigs(settings.embedders);
  return {
    embedders: configs.map((c) => c.name),
    docids(embedder, subset) {
      // read only when a filter asks: most filters have no `_vectors` condition
      const specs = embedderSpecs(index, configs, false);
      const reader = new VectorReader(index);
      const out = new Bitmap();
      for (const spec of specs) {
        if (embedder !== null && spec.name !== embedder) continue;
        if (subset === 'all') {
          out.orInPlace(reader.docids(spec.id));
          continue;
        }
        if (subset === 'documentTemplate' && spec.userProvided) continue;
        for (const [id, { regenerate, notGiven }] of reader.entryFlags(spec.id)) {
          // the user's vectors: what documents gave (`null` included, `{ regenerate: false }`
          // alone not); for a userProvided embedder, whatever is stored (Meilisearch 1.50)
          if (subset === 'userProvided' ? !notGiven && (spec.userProvided === true || !regenerate) : regenerate) out.add(id);
        }
      }
      return out;
    },
  };
}
