// Every named database of an index environment, declared once.
import { table } from '../store/index.ts';

export interface IndexMeta {
  primaryKey: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Outcome of one task applied to this index, kept in the same commit as the data it wrote. */
export interface AppliedTask {
  ok: boolean;
  details: Record<string, unknown>;
  /** opaque to the engine: the error object of the task */
  error?: unknown;
}

/** Keys of the `main` table and their value types. */
export interface MainValues {
  meta: IndexMeta;
  /** field paths (nested ones included) in order of first appearance; a path's rank is its field id */
  fieldsOrder: string[];
  /** top-level field name → number of documents holding it, `_vectors` aside (the `fieldDistribution` of stats) */
  topFieldDistribution: Record<string, number>;
  /** before top-level counts: every field path → documents; read only until the next batch recounts */
  fieldDistribution: Record<string, number>;
  /** portable roaring bitmap of the internal ids in use */
  usedIds: Uint8Array;
  /** byte size of the stored documents (values only) */
  documentBytes: number;
  /** bumped by every write transaction; readers cache by it */
  generation: number;
  /** WordSet bytes of every indexed word, and of the exact-only words */
  words: Uint8Array;
  exactWords: Uint8Array;
  /** the index settings, stored as the API layer shapes them (opaque to the engine for now) */
  settings: unknown;
  /** embedder name → its id in the vector tables (ids are never reused while the index lives) */
  embedderIds: Record<string, number>;
  /** log2 of the ids per chunk of the search tables' postings; absent: tables written before chunks (rebuilt) */
  postingsChunkBits: number;
  /** key layout of the search postings (`POSTINGS_LAYOUT`); absent: the chunk last (rebuilt) */
  postingsLayout: number;
  /**
   * prefixes of 1 to this many characters have postings in the word, field and position tables,
   * under `\u0001prefix` (prefix-keys.ts); absent: none (a prefix reads its words)
   */
  prefixPostings: number;
  /** chunks the postings may use: (highest id in use >>> postingsChunkBits) + 1 */
  postingsChunks: number;
  /** outcomes of the tasks of the last batch applied, by task uid (makes a replayed batch idempotent) */
  applied: Record<string, AppliedTask>;
  /** the storage format of this index (engine/version.ts); absent: `0.1.0` */
  storageVersion: string;
}

export const MAIN = table<keyof MainValues, MainValues[keyof MainValues]>(
  'main',
  'string',
  'msgpack-keys',
  'maps a setting or counter name to its value (meta, fieldsOrder, fieldDistribution, usedIds, ...)',
);

export const EXTERNAL_IDS = table<string, number>('external-ids', 'string', 'msgpack', 'maps a document external id to its internal u32 id');

/** Documents are kept as the JSON text they were sent as (compact, one line): no re-encoding on write, and reads can splice them. */
export const DOCUMENTS = table<number, Uint8Array>('documents', 'uint32', 'binary', 'maps an internal u32 id to the JSON text of the stored document');

// Search tables (docs/decisions/0002, 0006, 0007, 0009). Each key starts with the chunk of the id space
// its value covers (`id >>> postingsChunkBits`); values are internal ids (engine/bitmap `postingsFrom`).
// The word, field and position tables also hold prefix postings under `\u0001prefix` (prefix-keys.ts).
export const WORD_DOCIDS = table<[number, string], Uint8Array>('word-docids', 'ordered', 'binary', 'maps (chunk, word) to the documents containing it');
export const EXACT_WORD_DOCIDS = table<[number, string], Uint8Array>('exact-word-docids', 'ordered', 'binary', 'maps (chunk, exact-only word) to the documents containing it');
export const WORD_FID_DOCIDS = table<[number, string, number], Uint8Array>('word-fid-docids', 'ordered', 'binary', 'maps (chunk, word, field id) to the documents with the word in that field');
export const WORD_POSITION_DOCIDS = table<[number, string, number], Uint8Array>('word-position-docids', 'ordered', 'binary', 'maps (chunk, word, bucketed position) to documents');
export const WORD_PAIR_PROXIMITY_DOCIDS = table<[number, number, string, string], Uint8Array>(
  'word-pair-proximity-docids',
  'ordered',
  'binary',
  'maps (chunk, proximity 1–3, first word, second word) to documents',
);
export const FID_WORD_COUNT_DOCIDS = table<[number, number, number], Uint8Array>('fid-word-count-docids', 'ordered', 'binary', 'maps (chunk, field id, word count ≤ 30) to documents');

// Vector tables (engine/vector): per embedder (its id in main `embedderIds`), the documents'
// embeddings and one HNSW graph per store (a document's k-th vector is in store k).
export interface EmbedderState {
  /** portable roaring bitmap of the documents with at least one embedding */
  docids: Uint8Array;
  /** embeddings of all documents */
  embeddings: number;
  /** each store's graph entry (null: empty) */
  graphs: Array<{ entry: number; top: number } | null>;
  /**
   * the index generation of the batch that last changed the embedder's vectors (readers keep their
   * caches while it stands); `base`: the version that batch changed, `changed`: the documents whose
   * vectors it changed (portable roaring bitmap)
   */
  version?: number;
  base?: number;
  changed?: Uint8Array;
  /** length of the stored vectors (the embedder's `dimensions` when they were written) */
  dimensions?: number;
}
export const VECTOR_EMBEDDINGS = table<[number, number], Uint8Array>(
  'vector-embeddings',
  'ordered',
  'binary',
  "maps (embedder id, document id) to the document's embeddings (engine/vector/embeddings.ts)",
);
export const VECTOR_LINKS = table<[number, number, number, number], Uint8Array>(
  'vector-links',
  'ordered',
  'binary',
  'maps (embedder id, store, level, document id) to the HNSW links of that node (u32 document ids)',
);
export const VECTOR_EMBEDDERS = table<number, EmbedderState>('vector-embedders', 'uint32', 'msgpack', 'maps an embedder id to its documents, embedding count and graph entries');
