// Pending changes of the facet tables: per key, the documents added (id) and removed (~id) in
// the order they happened (the last operation on a document decides); per document, the final
// `_geo` point. A document's data comes from a FacetRecord (extracted on the writer) or from a
// chunk of the extractor thread's (chunk.ts): both record the same operations, at the moment the
// writer indexes the document.
//
// The per-document rows (values record, point) are not kept: they go to `DocWrites` at once (the
// writer puts them in the task's transaction, while it waits for the extractor's next chunk
// rather than at the end of the batch). A document whose record was rewritten has an addition in
// the operations of each of its values (a replaced document is removed, then added, as a whole).
import { DocRecordEncoder } from './codec.ts';
import { IS_EMPTY, IS_NULL, type SourcedFacetChunk } from './chunk.ts';
import type { FacetRecord } from './extract.ts';
import type { GeoPoint } from './geo-field.ts';
import { ShapeDelta } from './geojson-delta.ts';
import { decodeShape, encodeShape, type Shape } from './geojson.ts';

/** Rough bytes of one pending operation and of one key (map entry, array). */
const OP_BYTES = 8;
const KEY_BYTES = 80;

/** Where the rows of one document go as soon as they are known (facet-doc-values, geo-points). */
export interface DocWrites {
  /** its values record (codec.ts; the bytes are valid during the call only), or null: it has none left */
  record(id: number, bytes: Uint8Array | null): void;
  /** its point, or null: it has none left */
  point(id: number, lat: number, lng: number): void;
  noPoint(id: number): void;
  /** its encoded `_geojson` shape, or null: it has none left (writers that never see shapes may leave it out) */
  shape?(id: number, bytes: Uint8Array | null): void;
}

/** The pending operations of one field, looked up once per field id. */
interface FieldOps {
  strings: Map<string, number[]> | undefined;
  numbers: Map<number, number[]> | undefined;
  sets: [number[], number[], number[]];
}

export class FacetDelta {
  /** field id → normalized string → signed ids */
  readonly strings = new Map<number, Map<string, number[]>>();
  /** field id → number → signed ids */
  readonly numbers = new Map<number, Map<number, number[]>>();
  /** field id → signed ids of [exists, null, empty] */
  readonly fields = new Map<number, [number[], number[], number[]]>();
  /** (signed id, lat, lng) triples, in order */
  geoOps: number[] = [];
  /** document → its point, or null when it has none left */
  readonly geoPoints = new Map<number, GeoPoint | null>();
  /** the `_geojson` cells' changes (geojson-delta.ts) */
  readonly shapes = new ShapeDelta();
  bytes = 0;
  readonly #writes: DocWrites;
  /** field id → its entries of the maps above */
  readonly #byField: (FieldOps | undefined)[] = [];

  constructor(writes: DocWrites) {
    this.#writes = writes;
  }

  get empty(): boolean {
    return this.strings.size === 0 && this.numbers.size === 0 && this.fields.size === 0 && this.geoOps.length === 0 && this.shapes.empty;
  }

  /** Records a document's facet data as added, or as removed when `remove`. */
  apply(record: FacetRecord, id: number, remove: boolean, fid: (path: string) => number): void {
    const sid = remove ? ~id : id;
    const encoder = remove ? null : (sharedEncoder ??= new DocRecordEncoder(4096));
    for (const f of record.fields) {
      const field = fid(f.path);
      const ops = this.#field(field);
      if (f.strings.length > 0) {
        const keys = (ops.strings ??= inner(this.strings, field));
        for (const s of f.strings) this.#op(keys, s, sid);
      }
      if (f.numbers.length > 0) {
        const keys = (ops.numbers ??= inner(this.numbers, field));
        for (const n of f.numbers) this.#op(keys, n, sid);
      }
      ops.sets[0].push(sid);
      if (f.isNull) ops.sets[1].push(sid);
      if (f.isEmpty) ops.sets[2].push(sid);
      this.bytes += OP_BYTES * 3;
      encoder?.field(field, f.numbers, f.strings, f.originals);
    }
    // a document's record is replaced as a whole (its old version was removed first)
    if (record.fields.length > 0) this.#writes.record(id, encoder === null ? null : encoder.take());
    if (record.geo !== null) {
      this.geoOps.push(sid, record.geo[0], record.geo[1]);
      this.geoPoints.set(id, remove ? null : record.geo);
      if (remove) this.#writes.noPoint(id);
      else this.#writes.point(id, record.geo[0], record.geo[1]);
      this.bytes += KEY_BYTES;
    }
    // a removed shape is taken from the table (removeShape), never from the old document
    if (!remove && record.shape) this.#addShape(id, record.shape, encodeShape(record.shape));
  }

  /** Records the removal of a document's stored shape. */
  removeShape(id: number, shape: Shape): void {
    const before = this.shapes.bytes;
    this.shapes.remove(id, shape);
    this.#writes.shape?.(id, null);
    this.bytes += this.shapes.bytes - before;
  }

  #addShape(id: number, shape: Shape, bytes: Uint8Array): void {
    const before = this.shapes.bytes;
    this.shapes.add(id, shape);
    this.#writes.shape?.(id, bytes);
    this.bytes += this.shapes.bytes - before;
  }

  /**
   * Records document `index` of an extractor chunk as added under `id`: the operations `apply`
   * records for its FacetRecord. `fid` maps a job field id to a field id. Its values record is
   * the chunk's bytes, their fid words rewritten in place (a chunk's document is indexed once).
   */
  applyExtracted(chunk: SourcedFacetChunk, index: number, id: number, fid: (jobField: number) => number): void {
    const { entryField, entryFlags, numberEnd, stringEnd, numbers, strings } = chunk;
    const words = chunk.source.strings;
    const first = chunk.docStart[index]!;
    const end = chunk.docStart[index + 1]!;
    let n = first === 0 ? 0 : numberEnd[first - 1]!;
    let s = first === 0 ? 0 : stringEnd[first - 1]!;
    for (let e = first; e < end; e++) {
      const field = fid(entryField[e]!);
      const ops = this.#field(field);
      const nEnd = numberEnd[e]!;
      const sEnd = stringEnd[e]!;
      if (sEnd > s) {
        const keys = (ops.strings ??= inner(this.strings, field));
        for (; s < sEnd; s++) this.#op(keys, words[strings[s]!]!, id);
      }
      if (nEnd > n) {
        const keys = (ops.numbers ??= inner(this.numbers, field));
        for (; n < nEnd; n++) this.#op(keys, numbers[n]!, id);
      }
      ops.sets[0].push(id);
      const flags = entryFlags[e]!;
      if (flags & IS_NULL) ops.sets[1].push(id);
      if (flags & IS_EMPTY) ops.sets[2].push(id);
      this.bytes += OP_BYTES * 3;
    }
    if (end > first) {
      const record = chunk.records.subarray(index === 0 ? 0 : chunk.recordEnd[index - 1]!, chunk.recordEnd[index]!);
      // each field: fid · byte length · values (codec.ts), little-endian u32s
      for (let at = 0; at + 8 <= record.length; at += 8 + u32(record, at + 4)) {
        const f = fid(u32(record, at));
        record[at] = f & 0xff;
        record[at + 1] = (f >>> 8) & 0xff;
        record[at + 2] = (f >>> 16) & 0xff;
        record[at + 3] = f >>> 24;
      }
      this.#writes.record(id, record);
    }
    const lat = chunk.geo[2 * index]!;
    if (!Number.isNaN(lat)) {
      const lng = chunk.geo[2 * index + 1]!;
      this.geoOps.push(id, lat, lng);
      this.geoPoints.set(id, [lat, lng]);
      this.#writes.point(id, lat, lng);
      this.bytes += KEY_BYTES;
    }
    const shapeFrom = index === 0 ? 0 : chunk.shapeEnd[index - 1]!;
    const shapeTo = chunk.shapeEnd[index]!;
    if (shapeTo > shapeFrom) {
      const bytes = chunk.shapes.subarray(shapeFrom, shapeTo);
      this.#addShape(id, decodeShape(bytes), bytes);
    }
  }

  #field(field: number): FieldOps {
    let ops = this.#byField[field];
    if (ops === undefined) {
      let sets = this.fields.get(field);
      if (sets === undefined) this.fields.set(field, (sets = [[], [], []]));
      ops = this.#byField[field] = { strings: this.strings.get(field), numbers: this.numbers.get(field), sets };
    }
    return ops;
  }

  #op<K>(keys: Map<K, number[]>, key: K, sid: number): void {
    const ops = keys.get(key);
    if (ops === undefined) {
      keys.set(key, [sid]);
      this.bytes += KEY_BYTES;
    } else {
      ops.push(sid);
      this.bytes += OP_BYTES;
    }
  }

  /** Appends `later`'s changes after this delta's (`later` must not be used afterwards). */
  merge(later: FacetDelta): void {
    mergeOps(this.strings, later.strings);
    mergeOps(this.numbers, later.numbers);
    for (const [field, sets] of later.fields) {
      const mine = this.fields.get(field);
      if (mine === undefined) this.fields.set(field, sets);
      else for (let i = 0; i < 3; i++) for (const op of sets[i]!) mine[i]!.push(op);
    }
    // entries of fields new here came from `later`: looked up again when needed
    this.#byField.length = 0;
    for (const op of later.geoOps) this.geoOps.push(op);
    for (const [id, p] of later.geoPoints) this.geoPoints.set(id, p);
    this.shapes.merge(later.shapes);
    this.bytes += later.bytes;
  }
}

let sharedEncoder: DocRecordEncoder | undefined;

function u32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function inner<K, V>(outer: Map<number, Map<K, V>>, field: number): Map<K, V> {
  let m = outer.get(field);
  if (m === undefined) outer.set(field, (m = new Map()));
  return m;
}

function mergeOps<K>(into: Map<number, Map<K, number[]>>, from: Map<number, Map<K, number[]>>): void {
  for (const [field, keys] of from) {
    const mine = into.get(field);
    if (mine === undefined) {
      into.set(field, keys);
      continue;
    }
    for (const [key, ops] of keys) {
      const existing = mine.get(key);
      if (existing === undefined) mine.set(key, ops);
      else for (const op of ops) existing.push(op);
    }
  }
}
