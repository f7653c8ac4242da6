// One index: an LMDB environment holding its documents, ids, counters and (later) search tables.
// Reads are public here; writes go through engine/indexing.
import { Env, type Table } from '../store/index.ts';
import { Bitmap, bitmapFrom } from '../bitmap/index.ts';
import {
  DOCUMENTS,
  EXACT_WORD_DOCIDS,
  EXTERNAL_IDS,
  FID_WORD_COUNT_DOCIDS,
  MAIN,
  WORD_DOCIDS,
  WORD_FID_DOCIDS,
  WORD_PAIR_PROXIMITY_DOCIDS,
  WORD_POSITION_DOCIDS,
  VECTOR_EMBEDDERS,
  VECTOR_EMBEDDINGS,
  VECTOR_LINKS,
  type EmbedderState,
  type IndexMeta,
  type MainValues,
} from './layout.ts';
import { WordSet } from '../words/index.ts';
import { CHUNK_BITS, POSTINGS_LAYOUT, PostingsTable } from './postings-table.ts';
import { PREFIX_LENGTH } from './prefix-keys.ts';
import { openFacetTables, type FacetTables } from './facet-layout.ts';
import { countsInDistribution } from './fields.ts';
import { setKey } from '../json.ts';
import { STORAGE_VERSION, UNVERSIONED } from '../version.ts';

/** The search tables of an index (docs/decisions/0002), their postings in chunks of ids (0006). */
export interface SearchTables {
  words: PostingsTable<[string]>;
  exactWords: PostingsTable<[string]>;
  wordFid: PostingsTable<[string, number]>;
  wordPosition: PostingsTable<[string, number]>;
  wordPairProximity: PostingsTable<[number, string, string]>;
  fidWordCount: PostingsTable<[number, number]>;
}

/** The vector tables of an index (engine/vector). */
export interface VectorTables {
  embeddings: Table<[number, number], Uint8Array>;
  links: Table<[number, number, number, number], Uint8Array>;
  embedders: Table<number, EmbedderState>;
}

export interface IndexStats {
  numberOfDocuments: number;
  /** vectors of all embedders, and documents with at least one */
  numberOfEmbeddings: number;
  numberOfEmbeddedDocuments: number;
  rawDocumentDbSize: number;
  avgDocumentSize: number;
  fieldDistribution: Record<string, number>;
}

export interface DocumentsPage {
  results: Record<string, unknown>[];
  /** the internal id of each result */
  ids: number[];
  total: number;
}

export class Index {
  readonly env: Env;
  readonly main: Table<keyof MainValues, MainValues[keyof MainValues]>;
  readonly externalIds: Table<string, number>;
  readonly documents: Table<number, Uint8Array>;
  readonly search: SearchTables;
  /** facet and geo tables (docs/decisions/0004), read through engine/facet */
  readonly facets: FacetTables;
  /** embeddings and HNSW graphs, read through engine/vector */
  readonly vectors: VectorTables;

  private constructor(env: Env) {
    this.env = env;
    this.main = env.table(MAIN);
    this.externalIds = env.table(EXTERNAL_IDS);
    this.documents = env.table(DOCUMENTS);
    this.search = {
      words: new PostingsTable(env.table(WORD_DOCIDS)),
      exactWords: new PostingsTable(env.table(EXACT_WORD_DOCIDS)),
      wordFid: new PostingsTable(env.table(WORD_FID_DOCIDS)),
      wordPosition: new PostingsTable(env.table(WORD_POSITION_DOCIDS)),
      wordPairProximity: new PostingsTable(env.table(WORD_PAIR_PROXIMITY_DOCIDS)),
      fidWordCount: new PostingsTable(env.table(FID_WORD_COUNT_DOCIDS)),
    };
    this.facets = openFacetTables(env);
    this.vectors = { embeddings: env.table(VECTOR_EMBEDDINGS), links: env.table(VECTOR_LINKS), embedders: env.table(VECTOR_EMBEDDERS) };
  }

  /** Every indexed word (normal and exact-only sets), as stored by the last batch. */
  wordSets(): { words: WordSet; exactWords: WordSet } {
    const words = this.getMain('words');
    const exact = this.getMain('exactWords');
    const set = (bytes: Uint8Array | undefined) => (bytes && bytes.length > 0 ? WordSet.fromBytes(bytes) : WordSet.build([]));
    return { words: set(words), exactWords: set(exact) };
  }

  /**
   * Opens the index stored in `dir`; `create` writes a fresh one when none is there (tests may
   * pick a smaller chunk width for the search postings).
   */
  static open(dir: string, create?: { primaryKey: string | null; now: number; postingsChunkBits?: number; prefixLength?: number }): Index {
    const index = new Index(Env.open(dir));
    if (create && index.main.get('meta') === undefined) {
      index.env.write(() => {
        index.setMain('meta', { primaryKey: create.primaryKey, createdAt: create.now, updatedAt: create.now });
        index.setMain('generation', 0);
        index.setMain('postingsChunkBits', create.postingsChunkBits ?? CHUNK_BITS);
        index.setMain('postingsLayout', POSTINGS_LAYOUT);
        index.setMain('prefixPostings', create.prefixLength ?? PREFIX_LENGTH);
        index.setMain('storageVersion', STORAGE_VERSION);
      });
    }
    return index;
  }

  /** The storage format this index is in (engine/version.ts). */
  storageVersion(): string {
    return this.getMain('storageVersion') ?? UNVERSIONED;
  }

  getMain<K extends keyof MainValues>(key: K): MainValues[K] | undefined {
    return this.main.get(key) as MainValues[K] | undefined;
  }

  setMain<K extends keyof MainValues>(key: K, value: MainValues[K]): void {
    this.main.put(key, value);
  }

  removeMain(key: keyof MainValues): void {
    this.main.remove(key);
  }

  meta(): IndexMeta {
    const meta = this.getMain('meta');
    if (!meta) throw new Error(`index at ${this.env.path} has no meta`);
    return meta;
  }

  generation(): number {
    return this.getMain('generation') ?? 0;
  }

  /** log2 of the ids per chunk of the search postings; undefined when they were written before chunks. */
  postingsChunkBits(): number | undefined {
    return this.getMain('postingsChunkBits');
  }

  /**
   * Whether the search tables are in the layout this build writes and reads (chunked postings,
   * chunk first); otherwise they are rebuilt from the stored documents before any search.
   */
  searchLayoutCurrent(): boolean {
    return this.postingsChunkBits() !== undefined && this.getMain('postingsLayout') === POSTINGS_LAYOUT;
  }

  /** Longest prefix (characters) whose postings the word, field and position tables hold (0: none). */
  prefixPostings(): number {
    return this.getMain('prefixPostings') ?? 0;
  }

  /** How many chunks the search postings may use (1: every key is one read). */
  postingsChunks(): number {
    return this.getMain('postingsChunks') ?? 1;
  }

  usedIds(): Bitmap {
    return bitmapFrom(this.getMain('usedIds'));
  }

  numberOfDocuments(): number {
    return this.documents.count();
  }

  fieldsOrder(): string[] {
    return this.getMain('fieldsOrder') ?? [];
  }

  /** Top-level field → number of documents holding it (`_vectors` aside). */
  fieldDistribution(): Record<string, number> {
    const stored = this.getMain('topFieldDistribution');
    if (stored !== undefined) return stored;
    // written before top-level counts were stored: until the next batch recounts, drop nested paths
    const legacy = this.getMain('fieldDistribution') ?? {};
    const out: Record<string, number> = {};
    for (const [path, count] of Object.entries(legacy)) {
      if (countsInDistribution(path) && !hasParent(path, legacy)) setKey(out, path, count);
    }
    return out;
  }

  internalId(externalId: string): number | undefined {
    return this.externalIds.get(externalId);
  }

  /** The stored document of an external id. */
  document(externalId: string): Record<string, unknown> | undefined {
    const id = this.externalIds.get(externalId);
    return id === undefined ? undefined : this.documentById(id);
  }

  /** The stored document of an internal id. */
  documentById(id: number): Record<string, unknown> | undefined {
    const bytes = this.documents.get(id);
    return bytes === undefined ? undefined : parseDocument(bytes);
  }

  /** A page of documents in internal id order, optionally restricted to some internal ids. */
  documentsPage(opts: { offset: number; limit: number; ids?: Bitmap }): DocumentsPage {
    const { offset, limit, ids } = opts;
    const results: Record<string, unknown>[] = [];
    const found: number[] = [];
    if (ids) {
      const picked = ids.rangeUint32Array(offset, limit);
      for (const id of picked) {
        const doc = this.documentById(id);
        if (doc) (results.push(doc), found.push(id));
      }
      return { results, ids: found, total: ids.size };
    }
    if (limit > 0) {
      for (const [id, bytes] of this.documents.entries({ offset, limit })) (results.push(parseDocument(bytes)), found.push(id));
    }
    return { results, ids: found, total: this.documents.count() };
  }

  stats(): IndexStats {
    const numberOfDocuments = this.numberOfDocuments();
    const rawDocumentDbSize = this.getMain('documentBytes') ?? 0;
    const fieldDistribution = sortedObject(this.fieldDistribution());
    let numberOfEmbeddings = 0;
    const embedded = new Bitmap();
    for (const [, state] of this.vectors.embedders.entries()) {
      numberOfEmbeddings += state.embeddings;
      embedded.orInPlace(bitmapFrom(state.docids));
    }
    return {
      numberOfDocuments,
      numberOfEmbeddings,
      numberOfEmbeddedDocuments: embedded.size,
      rawDocumentDbSize,
      avgDocumentSize: numberOfDocuments === 0 ? 0 : Math.floor(rawDocumentDbSize / numberOfDocuments),
      fieldDistribution,
    };
  }

  /** Bytes of the environment's file and the part of it in use. */
  diskSizes(): { fileBytes: number; usedBytes: number } {
    return this.env.sizes();
  }

  async close(): Promise<void> {
    await this.env.close();
  }
}

const decoder = new TextDecoder();

export function parseDocument(bytes: Uint8Array): Record<string, unknown> {
  return JSON.parse(decoder.decode(bytes)) as Record<string, unknown>;
}

/** Whether a dotted prefix of `path` is itself counted (then `path` is nested; else a top-level key, dots and all). */
function hasParent(path: string, counts: Record<string, number>): boolean {
  for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) {
    if (Object.prototype.hasOwnProperty.call(counts, path.slice(0, dot))) return true;
  }
  return false;
}

function sortedObject(obj: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(obj).sort()) if (obj[key]! > 0) setKey(out, key, obj[key]!);
  return out;
}
