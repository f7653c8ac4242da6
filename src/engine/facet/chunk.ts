// The facet data of a chunk of documents, made on the extractor thread and applied by the writer:
//
//   extractor: document ─ extractFacets ─► per document: field entries (job field id, null/empty,
//      numbers, job string ids), its values record encoded (job field ids in the fid words),
//      its point, its `_geojson` shape (encoded); an invalid `_geo` or `_geojson` is kept as a
//      message, not thrown
//   writer: a document indexed from the chunk ─► FacetDelta.applyExtracted (job field ids → fids,
//      at the moment the writer would have extracted it: the delta's order is unchanged); its
//      `_geo` or `_geojson` message, if any, fails the task then (skipped or unchanged documents
//      fail nothing)
//
// Plain data and typed arrays only (transferred). Field paths and normalized strings are named by
// job-wide ids; each chunk carries the ones it met first.
import { EngineError } from '../errors.ts';
import { DocRecordEncoder } from './codec.ts';
import type { CompiledFacetConfig, FacetConfig } from './config.ts';
import { extractFacets, type FacetRecord } from './extract.ts';
import { encodeShape } from './geojson.ts';

/** Entry flags. */
export const IS_NULL = 1;
export const IS_EMPTY = 2;

export interface FacetChunk {
  /** field paths and normalized strings first met in this chunk: they continue the job's tables */
  newFields: string[];
  newStrings: string[];
  /** document i's entries are [docStart[i], docStart[i + 1]) */
  docStart: Uint32Array;
  /** per entry: job field id, flags, end of its numbers and of its strings */
  entryField: Uint32Array;
  entryFlags: Uint8Array;
  numberEnd: Uint32Array;
  stringEnd: Uint32Array;
  numbers: Float64Array;
  /** job string ids */
  strings: Uint32Array;
  /** document i's values record is records[recordEnd[i - 1] (0 for i = 0), recordEnd[i]); job field ids in its fid words */
  records: Uint8Array;
  recordEnd: Uint32Array;
  /** per document: lat, lng (NaN when it has no point) */
  geo: Float64Array;
  /** documents with an invalid `_geo`: position in the chunk, milli's message */
  geoErrors: [number, string][];
  /** document i's encoded `_geojson` shape is shapes[shapeEnd[i - 1] (0 for i = 0), shapeEnd[i]) (empty: none) */
  shapes: Uint8Array;
  shapeEnd: Uint32Array;
  /** documents with an invalid `_geojson`: position in the chunk, the message */
  shapeErrors: [number, string][];
}

/** What a job's chunks name by id, kept by the writer's side as the chunks arrive. */
export interface FacetSource {
  /** the configuration the job extracted with (the writer applies only chunks of its own) */
  readonly config: FacetConfig;
  readonly fields: string[];
  readonly strings: string[];
}

/** A chunk as the writer receives it: with its job's tables. */
export interface SourcedFacetChunk extends FacetChunk {
  source: FacetSource;
}

/** The buffers of a chunk, to transfer. */
export function facetChunkBuffers(c: FacetChunk): ArrayBuffer[] {
  return [c.docStart, c.entryField, c.entryFlags, c.numberEnd, c.stringEnd, c.numbers, c.strings, c.records, c.recordEnd, c.geo, c.shapes, c.shapeEnd].map(
    (a) => a.buffer as ArrayBuffer,
  );
}

/** Job-wide ids; remembers the entries the current chunk added (also the search words' interner). */
export class JobIds {
  readonly #ids = new Map<string, number>();
  fresh: string[] = [];

  id(s: string): number {
    let id = this.#ids.get(s);
    if (id === undefined) {
      id = this.#ids.size;
      this.#ids.set(s, id);
      this.fresh.push(s);
    }
    return id;
  }

  takeFresh(): string[] {
    const fresh = this.fresh;
    this.fresh = [];
    return fresh;
  }
}

/** Extractor side: the facet data of a job's documents, chunk by chunk. */
export class FacetChunkBuilder {
  readonly #compiled: CompiledFacetConfig;
  readonly #fields = new JobIds();
  readonly #strings = new JobIds();
  #docStart: number[] = [0];
  #entryField: number[] = [];
  #entryFlags: number[] = [];
  #numberEnd: number[] = [];
  #stringEnd: number[] = [];
  #numbers: number[] = [];
  #stringIds: number[] = [];
  #records = new DocRecordEncoder();
  #recordEnd: number[] = [];
  #geo: number[] = [];
  #geoErrors: [number, string][] = [];
  #shapes: Uint8Array[] = [];
  #shapeBytes = 0;
  #shapeEnd: number[] = [];
  #shapeErrors: [number, string][] = [];

  constructor(compiled: CompiledFacetConfig) {
    this.#compiled = compiled;
  }

  /** Adds the next document of the chunk; `externalId` names it in `_geo` and `_geojson` messages. */
  add(doc: Record<string, unknown>, externalId: string): void {
    let record: FacetRecord;
    try {
      record = extractFacets(doc, this.#compiled, externalId);
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      // the writer fails the task if it indexes this document (not if it skips it)
      if (err.kind === 'invalid_document_geo_field') this.#geoErrors.push([this.#recordEnd.length, err.message]);
      else if (err.kind === 'invalid_document_geojson_field') this.#shapeErrors.push([this.#recordEnd.length, err.message]);
      else throw err;
      record = { fields: [], geo: null };
    }
    for (const f of record.fields) {
      const field = this.#fields.id(f.path);
      this.#entryField.push(field);
      this.#entryFlags.push((f.isNull ? IS_NULL : 0) | (f.isEmpty ? IS_EMPTY : 0));
      for (const n of f.numbers) this.#numbers.push(n);
      for (const s of f.strings) this.#stringIds.push(this.#strings.id(s));
      this.#numberEnd.push(this.#numbers.length);
      this.#stringEnd.push(this.#stringIds.length);
      this.#records.field(field, f.numbers, f.strings, f.originals);
    }
    this.#docStart.push(this.#entryField.length);
    this.#recordEnd.push(this.#records.length);
    if (record.geo === null) this.#geo.push(NaN, NaN);
    else this.#geo.push(record.geo[0], record.geo[1]);
    if (record.shape) {
      const bytes = encodeShape(record.shape);
      this.#shapes.push(bytes);
      this.#shapeBytes += bytes.length;
    }
    this.#shapeEnd.push(this.#shapeBytes);
  }

  /** The chunk's data; starts the next chunk. */
  take(): FacetChunk {
    const records = this.#records.detach();
    const chunk: FacetChunk = {
      newFields: this.#fields.takeFresh(),
      newStrings: this.#strings.takeFresh(),
      docStart: Uint32Array.from(this.#docStart),
      entryField: Uint32Array.from(this.#entryField),
      entryFlags: Uint8Array.from(this.#entryFlags),
      numberEnd: Uint32Array.from(this.#numberEnd),
      stringEnd: Uint32Array.from(this.#stringEnd),
      numbers: Float64Array.from(this.#numbers),
      strings: Uint32Array.from(this.#stringIds),
      records,
      recordEnd: Uint32Array.from(this.#recordEnd),
      geo: Float64Array.from(this.#geo),
      geoErrors: this.#geoErrors,
      shapes: concat(this.#shapes, this.#shapeBytes),
      shapeEnd: Uint32Array.from(this.#shapeEnd),
      shapeErrors: this.#shapeErrors,
    };
    this.#docStart = [0];
    this.#entryField = [];
    this.#entryFlags = [];
    this.#numberEnd = [];
    this.#stringEnd = [];
    this.#numbers = [];
    this.#stringIds = [];
    this.#records = new DocRecordEncoder();
    this.#recordEnd = [];
    this.#geo = [];
    this.#geoErrors = [];
    this.#shapes = [];
    this.#shapeBytes = 0;
    this.#shapeEnd = [];
    this.#shapeErrors = [];
    return chunk;
  }
}

/** The `_geo` (or else `_geojson`) error of document `index` of a chunk, if it has one. */
export function chunkGeoError(chunk: FacetChunk, index: number): EngineError | undefined {
  for (const [at, message] of chunk.geoErrors) if (at === index) return new EngineError('invalid_document_geo_field', message);
  for (const [at, message] of chunk.shapeErrors) if (at === index) return new EngineError('invalid_document_geojson_field', message);
  return undefined;
}

/** The parts in one buffer of its own (a pooled Buffer's memory must not be transferred). */
function concat(parts: readonly Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
