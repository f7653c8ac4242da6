// The writer's side of an extractor thread (protocol.ts): a synchronous iterator over the
// documents of a payload file, parsed on another core.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { EngineError, type EngineErrorKind } from '../../errors.ts';
import { siblingModule, WORKER_BOOT } from '../../threads/entry.ts';
import type { SearchConfig } from '../search-config.ts';
import type { RecordSource } from '../search-data.ts';
import type { SearchChunk } from '../search-delta.ts';
import type { DocumentFields } from '../../index/fields.ts';
import type { FacetConfig, FacetSource, SourcedFacetChunk } from '../../facet/index.ts';
import { requestBuffers, type FlushRequest, type FlushSlice } from '../flush-prepare.ts';
import { CONSUMED, CONTROL_WORDS, HEARTBEAT, PRODUCED, SILENCE_LIMIT_MS, STOP, type Chunk, type ExtractJob, type FlushJob, type FromExtractor } from './protocol.ts';

export interface ExtractedDocument {
  id: string;
  /** the document's JSON text; valid until the next iteration */
  json: Uint8Array;
  /** its field paths and top-level keys */
  fields: DocumentFields;
  /** its chunk's search data and its place in it, when the job asked for them */
  search: { chunk: SearchChunk; index: number } | null;
  /** its chunk's facet data and its place in it, when the job asked for them */
  facets: { chunk: SourcedFacetChunk; index: number } | null;
}

export class Extractor {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #control = new Int32Array(new SharedArrayBuffer(4 * CONTROL_WORDS));
  #jobId = 0;
  #dead = false;

  private constructor() {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(WORKER_BOOT, {
      workerData: { entry: siblingModule('worker', import.meta.url), control: this.#control.buffer, port: port2 },
      transferList: [port2],
    });
    this.#worker.unref();
  }

  static start(): Extractor {
    return new Extractor();
  }

  /**
   * The documents of an NDJSON payload file in order, with their chunk's search data when `search`
   * is given and facet data when `facets` is. Throws the extractor's EngineError at the document
   * that has one (an invalid `_geo` is the writer's to raise); `shouldAbort` is polled between chunks.
   */
  *documents(
    file: string,
    primaryKey: string,
    shouldAbort: () => boolean = () => false,
    search: SearchConfig | null = null,
    facets: FacetConfig | null = null,
  ): Generator<ExtractedDocument> {
    const jobId = this.#start();
    this.#port.postMessage({ type: 'job', jobId, file, primaryKey, search, facets } satisfies ExtractJob);
    const shapes = new Map<number, DocumentFields>();
    const source: RecordSource = { words: [], fields: [] };
    const facetSource: FacetSource | null = facets === null ? null : { config: facets, fields: [], strings: [] };
    let done = false;
    try {
      while (!done) {
        const m = this.#next(jobId, shouldAbort);
        if (m.type === 'error') throw new EngineError(m.kind as EngineErrorKind, m.message, { prefixed: m.prefixed });
        if (m.type !== 'chunk') continue;
        for (const [id, paths, keys] of m.newShapes) shapes.set(id, { paths, keys: keys ?? paths });
        if (m.search) {
          for (const w of m.search.newWords) source.words.push(w);
          for (const f of m.search.newFields) source.fields.push(f);
        }
        if (m.facets && facetSource) {
          for (const f of m.facets.newFields) facetSource.fields.push(f);
          for (const s of m.facets.newStrings) facetSource.strings.push(s);
        }
        yield* unpack(m, shapes, source, facetSource);
        done = m.last;
      }
    } finally {
      if (!done) this.#stop();
    }
  }

  /**
   * Prepares the writing of a search delta on the extractor thread (search-flush.ts): slices in
   * order, the next one prepared while the caller writes this one. Only between `documents` jobs.
   * The request's arrays are transferred: the caller must not use them afterwards.
   */
  *prepare(request: FlushRequest): Generator<FlushSlice> {
    const jobId = this.#start();
    this.#port.postMessage({ type: 'flush', jobId, request } satisfies FlushJob, requestBuffers(request));
    let done = false;
    try {
      while (!done) {
        const m = this.#next(jobId, () => false);
        if (m.type === 'error') throw new EngineError(m.kind as EngineErrorKind, m.message, { prefixed: m.prefixed });
        if (m.type !== 'slice') continue;
        done = m.last;
        if (m.slice) yield m.slice;
      }
    } finally {
      if (!done) this.#stop();
    }
  }

  /** A new job id, the counters reset and what an interrupted job left behind dropped. */
  #start(): number {
    const jobId = ++this.#jobId;
    const c = this.#control;
    Atomics.store(c, PRODUCED, 0);
    Atomics.store(c, CONSUMED, 0);
    Atomics.store(c, STOP, 0);
    while (receiveMessageOnPort(this.#port)) {
      // drop what an interrupted job left behind
    }
    return jobId;
  }

  #stop(): void {
    Atomics.store(this.#control, STOP, 1);
    Atomics.notify(this.#control, CONSUMED);
  }

  /** Blocks until the next message of this job arrives; fails if the extractor falls silent. */
  #next(jobId: number, shouldAbort: () => boolean): FromExtractor {
    const c = this.#control;
    let beat = Atomics.load(c, HEARTBEAT);
    let lastBeatAt = Date.now();
    for (;;) {
      if (shouldAbort()) throw new ExtractionStopped();
      const got = receiveMessageOnPort(this.#port);
      if (got) {
        Atomics.add(c, CONSUMED, 1);
        Atomics.notify(c, CONSUMED);
        const m = got.message as FromExtractor;
        if (m.jobId === jobId) return m;
        continue;
      }
      Atomics.wait(c, PRODUCED, Atomics.load(c, PRODUCED), 20);
      const now = Atomics.load(c, HEARTBEAT);
      if (now !== beat) {
        beat = now;
        lastBeatAt = Date.now();
      } else if (Date.now() - lastBeatAt > SILENCE_LIMIT_MS) {
        // the thread died (its exit event cannot reach us while we wait synchronously)
        this.#dead = true;
        throw new EngineError('internal', 'the document extractor thread stopped responding', { prefixed: false });
      }
    }
  }

  /** True once the thread is known to be gone: the owner starts a new extractor. */
  get dead(): boolean {
    return this.#dead;
  }

  async close(): Promise<void> {
    Atomics.store(this.#control, STOP, 1);
    Atomics.notify(this.#control, CONSUMED);
    this.#port.close();
    await this.#worker.terminate();
  }
}

/** Raised inside `documents` when `shouldAbort` turns true; callers map it to their own abort. */
export class ExtractionStopped extends Error {
  constructor() {
    super('extraction stopped');
  }
}

function* unpack(m: Chunk, shapes: Map<number, DocumentFields>, source: RecordSource, facetSource: FacetSource | null): Generator<ExtractedDocument> {
  const json = new Uint8Array(m.json.buffer, m.json.byteOffset, m.json.byteLength);
  const chunk: SearchChunk | null = m.search === null ? null : { source, tables: m.search.tables, ids: new Int32Array(m.ids.length).fill(-1) };
  const facetChunk: SourcedFacetChunk | null = m.facets === null || facetSource === null ? null : { ...m.facets, source: facetSource };
  let start = 0;
  for (let i = 0; i < m.ids.length; i++) {
    const end = m.ends[i]!;
    const search = chunk === null ? null : { chunk, index: i };
    const facets = facetChunk === null ? null : { chunk: facetChunk, index: i };
    yield { id: m.ids[i]!, json: json.subarray(start, end), fields: shapes.get(m.shapes[i]!)!, search, facets };
    start = end;
  }
}
