// The channel between the writer (scheduler worker) and an extractor thread.
//
//   writer ──job──► extractor: reads the payload file, parses each document, computes its
//      ▲            external id and field shape, packs chunks of documents
//      └──chunk◄──  (transferred buffers; at most IN_FLIGHT chunks ahead of the writer)
//
// The writer consumes inside a synchronous LMDB transaction, so it cannot await messages:
// it pulls them with receiveMessageOnPort and sleeps on a shared counter with Atomics.wait.

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
  /** shapes first seen in this chunk: id → field paths */
  newShapes: [number, string[]][];
  last: boolean;
}

export interface ChunkError {
  type: 'error';
  jobId: number;
  kind: string;
  message: string;
  prefixed: boolean;
}

export type FromExtractor = Chunk | ChunkError;
