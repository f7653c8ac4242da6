// The channel between the writer (scheduler worker) and an extractor thread.
//
//   writer ──job──► extractor: reads the payload file, parses each document, computes its
//      ▲            external id, field shape, search data and facet data, packs chunks of documents
//      └──chunk◄──  (transferred buffers; at most IN_FLIGHT chunks ahead of the writer)
//
//   writer ──flush─► extractor: groups and orders a search delta, encodes its bitmaps
//      ▲             (between jobs only: the extractor does one thing at a time)
//      └──slice◄──   (keys in table order, written by the writer while the next is prepared)
//
// The writer consumes inside a synchronous LMDB transaction, so it cannot await messages:
// it pulls them with receiveMessageOnPort and sleeps on a shared counter with Atomics.wait.
import type { FacetChunk, FacetConfig } from '../../facet/index.ts';
import type { GroupedPostings } from '../postings.ts';
import type { SearchConfig } from '../search-config.ts';
import type { FlushRequest, FlushSlice } from '../flush-prepare.ts';

/** Shared Int32 words. */
export const PRODUCED = 0;
export const CONSUMED = 1;
export const STOP = 2;
/** bumped by the extractor as it works: the writer's proof that the thread is alive */
export const HEARTBEAT = 3;
export const CONTROL_WORDS = 4;
/** with no heartbeat for this long, the writer gives up on the extractor */
export const SILENCE_LIMIT_MS = 60_000;
export const IN_FLIGHT = 8;
export const CHUNK_DOCS = 2048;

export interface ExtractJob {
  type: 'job';
  jobId: number;
  file: string;
  primaryKey: string;
  /** extract search data with this configuration (null: none) */
  search: SearchConfig | null;
  /** extract facet data with this configuration (null: none) */
  facets: FacetConfig | null;
}

/**
 * The search data of a chunk (engine/indexing/search-delta.ts): per table, in TABLE_NAMES order,
 * each key with the positions in the chunk of the documents that hold it.
 */
export interface ChunkSearch {
  /** words and field paths first met in this chunk: they continue the job's tables */
  newWords: string[];
  newFields: string[];
  tables: GroupedPostings[];
}

/** A packed run of documents: ids, JSON texts (one buffer), and a shape id per document. */
export interface Chunk {
  type: 'chunk';
  jobId: number;
  ids: string[];
  json: Uint8Array;
  /** end offset of each document's JSON in `json` */
  ends: Uint32Array;
  shapes: Uint32Array;
  /** shapes first seen in this chunk: id → field paths, top-level keys (null: the same as the paths) */
  newShapes: [number, string[], string[] | null][];
  search: ChunkSearch | null;
  /** the chunk's facet data (engine/facet/chunk.ts) when the job asked for it */
  facets: FacetChunk | null;
  last: boolean;
}

export interface ChunkError {
  type: 'error';
  jobId: number;
  kind: string;
  message: string;
  prefixed: boolean;
}

/** Prepare the writing of a search delta (search-flush.ts); the extractor answers with slices. */
export interface FlushJob {
  type: 'flush';
  jobId: number;
  request: FlushRequest;
}

export interface SliceMessage {
  type: 'slice';
  jobId: number;
  /** null in the closing message */
  slice: FlushSlice | null;
  last: boolean;
}

export type ToExtractor = ExtractJob | FlushJob;
export type FromExtractor = Chunk | ChunkError | SliceMessage;
