// The extractor thread: turns payload files into packed chunks for the writer (protocol.ts),
// with the chunk's search data (search-data.ts, search-delta.ts) and facet data (facet/chunk.ts)
// when the job asks for them, and prepares the writer's search-table writes between jobs
// (search-flush.ts).
import fs from 'node:fs';
import { workerData, type MessagePort } from 'node:worker_threads';
import { EngineError } from '../../errors.ts';
import { lowerThreadPriority } from '../../threads/priority.ts';
import { documentFields } from '../../index/fields.ts';
import { documentId } from '../../index/primary-key.ts';
import { compileFacetConfig, FacetChunkBuilder, facetChunkBuffers, JobIds, type CompiledFacetConfig, type FacetConfig } from '../../facet/index.ts';
import { compileSearchConfig, type CompiledSearchConfig, type SearchConfig } from '../search-config.ts';
import { SearchDataExtractor } from '../search-data.ts';
import { SearchDelta, TABLE_NAMES } from '../search-delta.ts';
import { prepareSlices, sliceBuffers } from '../flush-prepare.ts';
import { CHUNK_DOCS, CONSUMED, HEARTBEAT, IN_FLIGHT, PRODUCED, STOP, type Chunk, type ChunkSearch, type ExtractJob, type FlushJob, type FromExtractor, type ToExtractor } from './protocol.ts';

// indexing must never slow the HTTP thread (search and enqueue latency)
lowerThreadPriority();

const control = new Int32Array(workerData.control as SharedArrayBuffer);
const port = workerData.port as MessagePort;
const READ = 4 * 1024 * 1024;

port.on('message', (job: ToExtractor) => {
  try {
    if (job.type === 'flush') prepare(job);
    else run(job);
  } catch (err) {
    const e = err instanceof EngineError ? err : new EngineError('internal', (err as Error)?.stack ?? String(err), { prefixed: false });
    send({ type: 'error', jobId: job.jobId, kind: e.kind, message: e.message, prefixed: e.prefixed }, []);
  }
});

/** Posts a message once the writer is less than IN_FLIGHT chunks behind; false when told to stop. */
function send(m: FromExtractor, transfer: ArrayBuffer[]): boolean {
  for (;;) {
    if (Atomics.load(control, STOP) !== 0) return false;
    const consumed = Atomics.load(control, CONSUMED);
    if (Atomics.load(control, PRODUCED) - consumed < IN_FLIGHT) break;
    Atomics.add(control, HEARTBEAT, 1);
    Atomics.wait(control, CONSUMED, consumed, 50);
  }
  port.postMessage(m, transfer);
  Atomics.add(control, PRODUCED, 1);
  Atomics.notify(control, PRODUCED);
  return true;
}

/** Prepares the slices of a search flush, at most IN_FLIGHT ahead of the writer. */
function prepare(job: FlushJob): void {
  for (const slice of prepareSlices(job.request)) {
    Atomics.add(control, HEARTBEAT, 1);
    if (!send({ type: 'slice', jobId: job.jobId, slice, last: false }, sliceBuffers(slice))) return;
  }
  send({ type: 'slice', jobId: job.jobId, slice: null, last: true }, []);
}

/** Documents of the chunk being filled; their JSON is copied once into one growing buffer. */
class Pending {
  ids: string[] = [];
  json = Buffer.allocUnsafe(1 << 20);
  bytes = 0;
  ends: number[] = [];
  shapes: number[] = [];
  newShapes: [number, string[], string[] | null][] = [];

  push(id: string, src: Buffer, start: number, end: number, shape: number): void {
    const len = end - start;
    if (this.bytes + len > this.json.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.json.length * 2, this.bytes + len));
      this.json.copy(bigger, 0, 0, this.bytes);
      this.json = bigger;
    }
    src.copy(this.json, this.bytes, start, end);
    this.bytes += len;
    this.ids.push(id);
    this.ends.push(this.bytes);
    this.shapes.push(shape);
  }
}

/** The search data of a job's documents, folded chunk by chunk into keys → documents. */
class JobSearch {
  // job-wide ids: the writer can take them as its own (search-delta.ts, WordDict)
  readonly #words = new JobIds();
  readonly #fields = new JobIds();
  readonly #extractor: SearchDataExtractor;
  readonly #delta = new SearchDelta();
  #docs = 0;

  constructor(config: CompiledSearchConfig) {
    this.#extractor = new SearchDataExtractor(config, this.#words, this.#fields);
  }

  add(doc: Record<string, unknown>): void {
    this.#delta.apply(this.#extractor.extract(doc), this.#docs++, false);
  }

  /** The chunk's search data; starts the next chunk. */
  take(): ChunkSearch {
    const tables = TABLE_NAMES.map((name) => this.#delta.tables[name].grouped());
    this.#delta.clear();
    this.#docs = 0;
    return { newWords: this.#words.takeFresh(), newFields: this.#fields.takeFresh(), tables };
  }
}

let compiled: { key: string; config: CompiledSearchConfig } | null = null;

function compiledFor(config: SearchConfig): CompiledSearchConfig {
  const key = JSON.stringify(config);
  if (compiled === null || compiled.key !== key) compiled = { key, config: compileSearchConfig(config) };
  return compiled.config;
}

let compiledFacets: { key: string; config: CompiledFacetConfig } | null = null;

function compiledFacetsFor(config: FacetConfig): CompiledFacetConfig {
  const key = JSON.stringify(config);
  if (compiledFacets === null || compiledFacets.key !== key) compiledFacets = { key, config: compileFacetConfig(config) };
  return compiledFacets.config;
}

function run(job: ExtractJob): void {
  const shapeIds = new Map<string, number>();
  const search = job.search === null ? null : new JobSearch(compiledFor(job.search));
  const facets = job.facets === null ? null : new FacetChunkBuilder(compiledFacetsFor(job.facets));
  let pending = new Pending();
  const flush = (last: boolean): boolean => {
    const json = pending.json.subarray(0, pending.bytes);
    const records = search?.take() ?? null;
    const facetData = facets?.take() ?? null;
    const chunk: Chunk = {
      type: 'chunk',
      jobId: job.jobId,
      ids: pending.ids,
      json,
      ends: Uint32Array.from(pending.ends),
      shapes: Uint32Array.from(pending.shapes),
      newShapes: pending.newShapes,
      search: records,
      facets: facetData,
      last,
    };
    pending = new Pending();
    const transfer = [json.buffer as ArrayBuffer, chunk.ends.buffer as ArrayBuffer, chunk.shapes.buffer as ArrayBuffer];
    if (records) for (const g of records.tables) transfer.push(g.keyA.buffer as ArrayBuffer, g.keyB.buffer as ArrayBuffer, g.start.buffer as ArrayBuffer, g.ids.buffer as ArrayBuffer);
    if (facetData) transfer.push(...facetChunkBuffers(facetData));
    return send(chunk, transfer);
  };
  const line = (data: Buffer, start: number, end: number): boolean => {
    const doc = JSON.parse(data.toString('utf8', start, end)) as Record<string, unknown>;
    const id = documentId(doc, job.primaryKey);
    const { paths, keys } = documentFields(doc);
    search?.add(doc);
    facets?.add(doc, id);
    // a nested document's shape also says which paths are its own keys (fieldDistribution)
    const flat = keys === paths;
    const key = flat ? paths.join('\u0000') : `${paths.join('\u0000')}\u0001${keys.join('\u0000')}`;
    let shape = shapeIds.get(key);
    if (shape === undefined) {
      shape = shapeIds.size;
      shapeIds.set(key, shape);
      pending.newShapes.push([shape, [...paths], flat ? null : [...keys]]);
    }
    pending.push(id, data, start, end, shape);
    if ((pending.ids.length & 255) === 0) Atomics.add(control, HEARTBEAT, 1);
    return pending.ids.length < CHUNK_DOCS || flush(false);
  };
  const fd = fs.openSync(job.file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ);
    let carry: Buffer | null = null;
    for (;;) {
      if (Atomics.load(control, STOP) !== 0) return;
      Atomics.add(control, HEARTBEAT, 1);
      const n = fs.readSync(fd, buf, 0, READ, null);
      if (n === 0) break;
      let data = buf.subarray(0, n);
      if (carry) data = Buffer.concat([carry, data]);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        if (nl > start && !line(data, start, nl)) return;
        start = nl + 1;
      }
      carry = start < data.length ? Buffer.from(data.subarray(start)) : null;
    }
    if (carry && carry.length > 0 && !line(carry, 0, carry.length)) return;
    flush(true);
  } finally {
    fs.closeSync(fd);
  }
}
