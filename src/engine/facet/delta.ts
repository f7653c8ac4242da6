// Pending changes of the facet tables: per key, the documents added (id) and removed (~id) in
// the order they happened (the last operation on a document decides); per (field, document),
// the final values; per document, the final `_geo` point.
import { compareUtf8 } from '../words/index.ts';
import type { DocRecord, DocValues } from './codec.ts';
import type { FacetRecord } from './extract.ts';
import type { GeoPoint } from './geo-field.ts';

/** Rough bytes of one pending operation and of one key (map entry, array). */
const OP_BYTES = 8;
const KEY_BYTES = 80;

export class FacetDelta {
  /** field id → normalized string → signed ids */
  readonly strings = new Map<number, Map<string, number[]>>();
  /** field id → number → signed ids */
  readonly numbers = new Map<number, Map<number, number[]>>();
  /** field id → signed ids of [exists, null, empty] */
  readonly fields = new Map<number, [number[], number[], number[]]>();
  /** document → its values per field id, or null when it has none left */
  readonly docValues = new Map<number, DocRecord | null>();
  /** (signed id, lat, lng) triples, in order */
  geoOps: number[] = [];
  /** document → its point, or null when it has none left */
  readonly geoPoints = new Map<number, GeoPoint | null>();
  bytes = 0;

  get empty(): boolean {
    return this.strings.size === 0 && this.numbers.size === 0 && this.fields.size === 0 && this.docValues.size === 0 && this.geoOps.length === 0;
  }

  /** Records a document's facet data as added, or as removed when `remove`. */
  apply(record: FacetRecord, id: number, remove: boolean, fid: (path: string) => number): void {
    const sid = remove ? ~id : id;
    const values: DocRecord | null = remove ? null : new Map();
    for (const f of record.fields) {
      const field = fid(f.path);
      if (f.strings.length > 0) {
        const keys = inner(this.strings, field);
        for (const s of f.strings) this.#op(keys, s, sid);
      }
      if (f.numbers.length > 0) {
        const keys = inner(this.numbers, field);
        for (const n of f.numbers) this.#op(keys, n, sid);
      }
      let sets = this.fields.get(field);
      if (sets === undefined) this.fields.set(field, (sets = [[], [], []]));
      sets[0].push(sid);
      if (f.isNull) sets[1].push(sid);
      if (f.isEmpty) sets[2].push(sid);
      this.bytes += OP_BYTES * 3;
      values?.set(field, sortedValues(f.numbers, f.strings, f.originals));
    }
    // a document's record is replaced as a whole (its old version was removed first)
    if (record.fields.length > 0) {
      this.docValues.set(id, values);
      this.bytes += KEY_BYTES;
    }
    if (record.geo !== null) {
      this.geoOps.push(sid, record.geo[0], record.geo[1]);
      this.geoPoints.set(id, remove ? null : record.geo);
      this.bytes += KEY_BYTES;
    }
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
    for (const [id, values] of later.docValues) this.docValues.set(id, values);
    for (const op of later.geoOps) this.geoOps.push(op);
    for (const [id, p] of later.geoPoints) this.geoPoints.set(id, p);
    this.bytes += later.bytes;
  }
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

/** A document's values of one field, sorted (numbers ascending, strings by UTF-8 bytes). */
export function sortedValues(numbers: readonly number[], strings: readonly string[], originals: readonly string[]): DocValues {
  const order = strings.map((_, i) => i).sort((a, b) => compareUtf8(strings[a]!, strings[b]!));
  return {
    numbers: [...numbers].sort((a, b) => a - b),
    strings: order.map((i) => strings[i]!),
    originals: order.map((i) => originals[i]!),
  };
}
