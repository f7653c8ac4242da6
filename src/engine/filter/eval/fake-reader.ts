// An in-memory FacetReader over a list of JSON documents, for tests of the evaluator and the
// filter API (the real one is `engine/facet`, on LMDB). It applies the extraction rules of
// filters.md §3 the way milli's `extract_document_facets` + `facet_fn` walk a document, with
// every field faceted:
//
//   top-level key k = v      object → walk its keys, then k itself; array → walk its items,
//                            then k itself; scalar → k
//   object key  p.k = v      p.k itself (at its own key), then its object keys / array items
//   array item  v            objects' keys and nested items are walked; scalars are values of
//                            the array's field, "inside an array"
//   every visit              EXISTS; number → numeric value; non-empty string → normalized
//                            (trim, NFKD, lowercase, ≤ 468 bytes) string value; boolean →
//                            "true"/"false"; and, only when directly the value of a key (not an
//                            array item): null → IS NULL, "" [] {} → IS EMPTY
//
// So `"  "` is the string value "" (not empty), `[null]` is not null, `{a: [{b: null}]}` makes
// `a.b` null. `_geo` points come from `_geo.lat`/`_geo.lng` (numbers or numeric strings).
// Normalization and distances are the facet index's own (`engine/facet`).

import { Bitmap } from '../../bitmap/index.ts';
import { geoPointOf, haversineMeters, normalizeFacetString } from '../../facet/index.ts';
import { compareUtf8, type Bound, type FacetReader } from './reader.ts';

/** The facet values one document has for one field. */
export interface FieldFacets {
  strings: Set<string>;
  numbers: Set<number>;
  exists: boolean;
  isNull: boolean;
  isEmpty: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Depth = 'key' | 'item';

/** Every field path of `document` with its facet values (filters.md §3). */
export function documentFacets(document: { [key: string]: Json }): Map<string, FieldFacets> {
  const out = new Map<string, FieldFacets>();
  const visit = (path: string, depth: Depth, value: Json): void => {
    let facets = out.get(path);
    if (facets === undefined) {
      facets = { strings: new Set(), numbers: new Set(), exists: false, isNull: false, isEmpty: false };
      out.set(path, facets);
    }
    facets.exists = true;
    if (typeof value === 'number') facets.numbers.add(value);
    else if (typeof value === 'boolean') facets.strings.add(String(value));
    else if (typeof value === 'string' && value !== '') facets.strings.add(normalizeFacetString(value));
    else if (depth === 'key') {
      if (value === null) facets.isNull = true;
      else if (value === '' || (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0)) {
        facets.isEmpty = true;
      }
    }
  };
  const walkObject = (object: { [key: string]: Json }, base: string, depth: Depth): void => {
    const keys = Object.keys(object);
    if (keys.length === 0) visit(base, depth, {});
    for (const key of keys) {
      const path = `${base}.${key}`;
      const value = object[key]!;
      visit(path, 'key', value);
      walkNested(value, path, 'key');
    }
  };
  const walkArray = (items: Json[], base: string, depth: Depth): void => {
    if (items.length === 0) visit(base, depth, []);
    for (const item of items) {
      if (Array.isArray(item) || (item !== null && typeof item === 'object')) walkNested(item, base, 'item');
      else visit(base, 'item', item);
    }
  };
  const walkNested = (value: Json, path: string, depth: Depth): void => {
    if (Array.isArray(value)) walkArray(value, path, depth);
    else if (value !== null && typeof value === 'object') walkObject(value, path, depth);
  };
  for (const [key, value] of Object.entries(document)) {
    visit(key, 'key', value);
    walkNested(value, key, 'key');
  }
  return out;
}

/** The `_geo` point of a document, when it has a valid one. */
export function geoPoint(document: { [key: string]: Json }): [lat: number, lng: number] | null {
  return geoPointOf(document._geo) ?? null;
}

/** Whether a point is in a bounding box (right < left: the box crosses the antimeridian). */
export function inGeoBox(point: readonly [number, number], top: number, right: number, bottom: number, left: number): boolean {
  const [lat, lng] = point;
  if (lat < bottom || lat > top) return false;
  return right >= left ? lng >= left && lng <= right : lng >= left || lng <= right;
}

interface FieldIndex {
  strings: Map<string, Bitmap>;
  numbers: Map<number, Bitmap>;
  exists: Bitmap;
  isNull: Bitmap;
  isEmpty: Bitmap;
}

/** A FacetReader over documents held in memory, keyed by internal id. */
export class MemoryFacetReader implements FacetReader {
  readonly documents = new Bitmap();
  readonly #ids = new Map<string, number>();
  readonly #fields: FieldIndex[] = [];
  readonly #points = new Map<number, [number, number]>();

  constructor(documents: Iterable<readonly [id: number, document: { [key: string]: Json }]>) {
    for (const [id, document] of documents) {
      this.documents.add(id);
      for (const [path, facets] of documentFacets(document)) {
        const field = this.#field(path);
        if (facets.exists) field.exists.add(id);
        if (facets.isNull) field.isNull.add(id);
        if (facets.isEmpty) field.isEmpty.add(id);
        for (const s of facets.strings) add(field.strings, s, id);
        for (const n of facets.numbers) add(field.numbers, n, id);
      }
      const point = geoPoint(document);
      if (point !== null) this.#points.set(id, point);
    }
  }

  #field(path: string): FieldIndex {
    let fid = this.#ids.get(path);
    if (fid === undefined) {
      fid = this.#fields.length;
      this.#ids.set(path, fid);
      this.#fields.push({ strings: new Map(), numbers: new Map(), exists: new Bitmap(), isNull: new Bitmap(), isEmpty: new Bitmap() });
    }
    return this.#fields[fid]!;
  }

  fieldId(path: string): number | undefined {
    return this.#ids.get(path);
  }
  stringEquals(fid: number, normalized: string): Bitmap {
    return this.#fields[fid]!.strings.get(normalized) ?? new Bitmap();
  }
  stringRange(fid: number, lo: Bound<string> | null, hi: Bound<string> | null): Bitmap {
    return union(this.#fields[fid]!.strings, (s) => within(compareUtf8, s, lo, hi));
  }
  stringStartsWith(fid: number, prefix: string): Bitmap {
    return union(this.#fields[fid]!.strings, (s) => s.startsWith(prefix));
  }
  stringContains(fid: number, part: string): Bitmap {
    return union(this.#fields[fid]!.strings, (s) => s.includes(part));
  }
  numberEquals(fid: number, n: number): Bitmap {
    return this.#fields[fid]!.numbers.get(n) ?? new Bitmap();
  }
  numberRange(fid: number, lo: Bound<number> | null, hi: Bound<number> | null): Bitmap {
    return union(this.#fields[fid]!.numbers, (n) => within((a, b) => a - b, n, lo, hi));
  }
  exists(fid: number): Bitmap {
    return this.#fields[fid]!.exists;
  }
  isNull(fid: number): Bitmap {
    return this.#fields[fid]!.isNull;
  }
  isEmpty(fid: number): Bitmap {
    return this.#fields[fid]!.isEmpty;
  }
  geoRadius(lat: number, lng: number, meters: number): Bitmap {
    const out = new Bitmap();
    for (const [id, point] of this.#points) {
      if (haversineMeters(lat, lng, point[0], point[1]) <= meters + Number.EPSILON) out.add(id);
    }
    return out;
  }
  geoBox(top: number, right: number, bottom: number, left: number): Bitmap {
    const out = new Bitmap();
    for (const [id, point] of this.#points) if (inGeoBox(point, top, right, bottom, left)) out.add(id);
    return out;
  }
}

function add<K>(map: Map<K, Bitmap>, key: K, id: number): void {
  let bits = map.get(key);
  if (bits === undefined) map.set(key, (bits = new Bitmap()));
  bits.add(id);
}

function union<K>(map: Map<K, Bitmap>, keep: (key: K) => boolean): Bitmap {
  const parts: Bitmap[] = [];
  for (const [key, bits] of map) if (keep(key)) parts.push(bits);
  return Bitmap.orMany(parts);
}

function within<T>(compare: (a: T, b: T) => number, value: T, lo: Bound<T> | null, hi: Bound<T> | null): boolean {
  if (lo !== null) {
    const c = compare(value, lo.value);
    if (c < 0 || (c === 0 && !lo.inclusive)) return false;
  }
  if (hi !== null) {
    const c = compare(value, hi.value);
    if (c > 0 || (c === 0 && !hi.inclusive)) return false;
  }
  return true;
}
