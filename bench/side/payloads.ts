// NDJSON payloads for the side-by-side workloads: documents cut into POSTs of at most
// DOCS_PER_PAYLOAD, sent one after another.
import type { Doc } from '../lib/text.ts';
import type { SideIndex } from './types.ts';

export const DOCS_PER_PAYLOAD = 50_000;

export function ndjsonPayloads(docs: readonly Doc[], perPayload = DOCS_PER_PAYLOAD): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < docs.length; i += perPayload) {
    out.push(Buffer.from(docs.slice(i, i + perPayload).map((d) => JSON.stringify(d)).join('\n') + '\n', 'utf8'));
  }
  return out;
}

/** An index of a dataset's documents (distinct primary keys counted for the document check). */
export function datasetIndex(uid: string, primaryKey: string, docs: readonly Doc[], settings: Record<string, unknown>): SideIndex {
  return { uid, primaryKey, settings, documents: new Set(docs.map((d) => String(d[primaryKey]))).size, payloads: () => ndjsonPayloads(docs) };
}
