// Keeps the facet tables of an index in step with its documents (docs/decisions/0004), with the
// task lifecycle of the search writer:
//
//   document added / old version removed ── extractFacets ──► task delta
//   document added from an extractor chunk (chunk.ts, extracted on the extractor thread) ──► task delta
//   task delta ─(task succeeds: next beginTask or save)─► batch delta
//   batch delta ─(end of batch, or past maxDeltaBytes at a task boundary)─► tables (flush.ts)
//
// A failed task's delta is forgotten. A task that outgrows the bound writes the batch delta and
// its own inside its child transaction; if it then fails, LMDB undoes those writes and the batch
// delta, kept until the task is committed, is still pending. The rows of one document (its values
// record, its point) are put as soon as it is recorded, in the task's transaction (undone with it
// too): the writer does that while it waits for the extractor, not at the end of the batch.
import type { Index } from '../index/index.ts';
import type { Table } from '../store/index.ts';
import { compileFacetConfig, facetSignature, type CompiledFacetConfig, type FacetConfig } from './config.ts';
import { chunkGeoError, type FacetSource, type SourcedFacetChunk } from './chunk.ts';
import { FacetDelta, type DocWrites } from './delta.ts';
import { encodePoint } from './codec.ts';
import { extractFacets, type FacetRecord } from './extract.ts';
import { writeDelta } from './flush.ts';
import { decodeShape } from './geojson.ts';

/** Pending facet changes past this size are written at the next task boundary (or within a task). */
export const MAX_FACET_DELTA_BYTES = 128 * 1024 * 1024;

/** Meta key: the signature of the configuration the tables were built with. */
export const INDEXED_WITH = 'indexedWith';

export interface FacetCheckpoint {
  config: FacetConfig;
}

export interface FacetWriterOptions {
  /** bound of the pending deltas (tests lower it to exercise early writes) */
  maxDeltaBytes?: number;
}

export class FacetIndexWriter {
  readonly #index: Index;
  readonly #fid: (path: string) => number;
  readonly #maxBytes: number;
  #config: FacetConfig;
  #compiled: CompiledFacetConfig;
  /** changes of the succeeded tasks, not written yet */
  #batch: FacetDelta;
  /** changes of the task in progress (or ended and not yet committed) */
  #task: FacetDelta | null = null;
  /** the batch delta needs no writing: written inside the current task, or dead after a clear */
  #batchSettled = false;
  /** the rows of a document, put at once in the current transaction */
  readonly #docWrites: DocWrites;
  /** field ids of the job field ids of one extraction job's source (reset when fields may be rolled back) */
  #jobFids: { source: FacetSource; fids: number[] } | null = null;

  /** `fid` maps a field path to its field id (the writer's field order). */
  constructor(index: Index, config: FacetConfig, fid: (path: string) => number, opts: FacetWriterOptions = {}) {
    this.#index = index;
    this.#fid = fid;
    this.#maxBytes = opts.maxDeltaBytes ?? MAX_FACET_DELTA_BYTES;
    this.#config = config;
    this.#compiled = compileFacetConfig(config);
    const t = index.facets;
    this.#docWrites = {
      record: (id, bytes) => (bytes === null ? t.docValues.remove(id) : t.docValues.put(id, bytes)),
      point: (id, lat, lng) => t.geoPoints.put(id, encodePoint(lat, lng)),
      noPoint: (id) => t.geoPoints.remove(id),
      shape: (id, bytes) => (bytes === null ? t.geojsonShapes.remove(id) : t.geojsonShapes.put(id, bytes)),
    };
    this.#batch = this.#newDelta();
  }

  /** What the writer indexes with (also what an extractor thread must extract with). */
  get config(): FacetConfig {
    return this.#config;
  }

  /** False when nothing is faceted and geo is off: documents need not be parsed for facets. */
  get active(): boolean {
    return !this.#compiled.empty;
  }

  /** Starts a task: commits the previous one, writes the batch delta if it grew too big. */
  beginTask(): FacetCheckpoint {
    this.#commitTask();
    if (this.#batch.bytes > this.#maxBytes) this.#writeBatch();
    this.#task = this.#newDelta();
    return { config: this.#config };
  }

  /** True when the pending changes outgrew their bound (the next task would start by writing them). */
  flushDue(): boolean {
    return this.#pendingBytes() > this.#maxBytes;
  }

  /** Ends the task's writes (inside its transaction): writes everything pending if it is too big. */
  endTask(): void {
    if (this.#pendingBytes() > this.#maxBytes) this.#writeInTask();
  }

  /** Forgets the task in progress (it failed; its transaction was rolled back). */
  rollback(cp: FacetCheckpoint): void {
    this.#task = null;
    this.#batchSettled = false;
    this.#jobFids = null;
    if (cp.config !== this.#config) this.#setConfig(cp.config);
  }

  /**
   * Records a document being added; an invalid `_geo` (geo on) throws `invalid_document_geo_field`,
   * an invalid `_geojson` (`"_geojson"` filterable) `invalid_document_geojson_field`.
   */
  addDocument(id: number, doc: Record<string, unknown>, externalId: string): void {
    this.addRecord(id, extractFacets(doc, this.#compiled, externalId));
  }

  /** Records a document being added, with facet data extracted elsewhere (same config). */
  addRecord(id: number, record: FacetRecord): void {
    this.#taskDelta().apply(record, id, false, this.#fid);
  }

  /**
   * Records document `index` of an extractor chunk as added (the chunk was extracted with this
   * writer's configuration: `chunk.source.config === config`); its invalid `_geo` or `_geojson`
   * throws here.
   */
  addExtracted(id: number, chunk: SourcedFacetChunk, index: number): void {
    const error = chunkGeoError(chunk, index);
    if (error) throw error;
    const source = chunk.source;
    let cache = this.#jobFids;
    if (cache === null || cache.source !== source) cache = this.#jobFids = { source, fids: [] };
    const fids = cache.fids;
    this.#taskDelta().applyExtracted(chunk, index, id, (jobField) => fids[jobField] ?? (fids[jobField] = this.#fid(source.fields[jobField]!)));
  }

  /** Records the removal of a stored document (its old version; its shape is the stored one). */
  removeDocument(id: number, doc: Record<string, unknown>): void {
    const delta = this.#taskDelta();
    delta.apply(extractFacets(doc, this.#compiled, undefined, { shape: false }), id, true, this.#fid);
    const shape = this.#config.geojson ? this.#index.facets.geojsonShapes.get(id) : undefined;
    if (shape !== undefined) delta.removeShape(id, decodeShape(shape));
  }

  /** Empties every facet table (clear of all documents, or before a rebuild). */
  clearAll(): void {
    const t = this.#index.facets;
    const tables = [t.strings, t.numbers, t.fieldDocids, t.docValues, t.geoPoints, t.geoCells, t.geojsonShapes, t.geojsonCells, t.meta];
    for (const table of tables as Table<unknown, unknown>[]) table.clear();
    this.#task = this.#newDelta();
    this.#batchSettled = true;
  }

  /**
   * Re-indexes every document with a new configuration (a settings change); `documents` yields
   * id, document, external id. `lenient`: an invalid `_geo` is skipped instead of thrown.
   */
  rebuild(config: FacetConfig, documents: Iterable<[number, Record<string, unknown>, string]>, opts: { lenient?: boolean } = {}): void {
    this.clearAll();
    if (config !== this.#config) this.#setConfig(config);
    for (const [id, doc, externalId] of documents) {
      this.addRecord(id, extractFacets(doc, this.#compiled, opts.lenient ? undefined : externalId));
    }
  }

  /** The signature of the configuration the tables hold (undefined: never indexed). */
  indexedWith(): string | undefined {
    return this.#index.facets.meta.get(INDEXED_WITH) as string | undefined;
  }

  /** True when the tables were built with another configuration, or never (a rebuild is due). */
  stale(): boolean {
    return this.indexedWith() !== facetSignature(this.#config);
  }

  /** End of batch: writes what is pending and records the configuration. */
  save(): void {
    this.#commitTask();
    if (!this.#batch.empty) writeDelta(this.#index.facets, this.#batch);
    this.#batch = this.#newDelta();
    const signature = facetSignature(this.#config);
    if (this.indexedWith() !== signature) this.#index.facets.meta.put(INDEXED_WITH, signature);
  }

  #newDelta(): FacetDelta {
    return new FacetDelta(this.#docWrites);
  }

  #taskDelta(): FacetDelta {
    return this.#task ?? (this.#task = this.#newDelta());
  }

  #pendingBytes(): number {
    return (this.#batchSettled ? 0 : this.#batch.bytes) + (this.#task?.bytes ?? 0);
  }

  /** The ended task's changes join the batch delta. */
  #commitTask(): void {
    const task = this.#task;
    if (task === null) return;
    // an empty batch delta is replaced rather than merged into (a batch of one big task)
    if (this.#batchSettled || this.#batch.empty) this.#batch = task;
    else this.#batch.merge(task);
    this.#task = null;
    this.#batchSettled = false;
  }

  /** Writes the batch delta (between tasks, in the batch's transaction). */
  #writeBatch(): void {
    writeDelta(this.#index.facets, this.#batch);
    this.#batch = this.#newDelta();
  }

  /** Writes the batch delta (unless settled) then the task's, inside the task's transaction. */
  #writeInTask(): void {
    if (!this.#batchSettled) writeDelta(this.#index.facets, this.#batch);
    writeDelta(this.#index.facets, this.#taskDelta());
    this.#task = this.#newDelta();
    this.#batchSettled = true;
  }

  #setConfig(config: FacetConfig): void {
    this.#config = config;
    this.#compiled = compileFacetConfig(config);
  }
}
