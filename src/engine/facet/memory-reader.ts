// Test support: an in-memory FacetReader over a list of JSON documents, the one fake of the facet
// index (the real reader is reader.ts, on LMDB). Used by the tests of filter evaluation
// (engine/filter/eval), of the filter API (api/filter) and of facet distribution and facet
// search (api/search). It applies the extraction rules of filters.md §3 the way milli's
// `extract_document_facets` + `facet_fn` walk a document, with every field faceted:
//
//   top-level key k = v      object → walk its keys, then k itself; array → walk its items,
//                            then k itself; scalar → k
//   object key  p.k = v      p.k itself (at its own key), then its object keys / array items
//   array item  v            objects' keys and nested items are walked; scalars are values of
//                            the array's field, "inside an array"
//   every visit              EXISTS; number → numeric value (−0 is 0); non-empty string →
//                            normalized (trim, NFKD, lowercase, ≤ 468 bytes) string value with
//                            its original spelling; boolean → "true"/"false"; and, only when
//                            directly the value of a key (not an array item): null → IS NULL,
//                            "" [] {} → IS EMPTY
//
// So `"  "` is the string value "" (not empty), `[null]` is not null, `{a: [{b: null}]}` makes
// `a.b` null. `_geo` points come from `_geo.lat`/`_geo.lng` (numbers or numeric strings), `_geojson`
// shapes from `_geojson` (invalid ones ignored), tested one by one against a geo filter's area.
// A string value keeps the spelling of the first document holding it; each document keeps its
// own spellings (`docOriginals`). Options leave out the optional reads of api/search's
// `FacetValues` (to test their fallbacks) and `reads` counts the reads made.

import { Bitmap } from '../bitmap/index.ts';
import { compareUtf8 } from '../words/index.ts';
import { geoPointOf } from './geo-field.ts';
import { haversineMeters } from './geo-grid.ts';
import { queryRegion, regionMeetsShape, type ShapeQuery } from './geojson-reader.ts';
import { geoJsonShapeOf, type Shape } from './geojson.ts';
import { facetNumber, normalizeFacetString } from './normalize.ts';
import type { Bound, FacetReader } from './reader.ts';
import type { Json } from '../json.ts';

/** The facet values one document has for one field. */
export interface FieldFacets {
  strings: Set<string>;
  numbers: Set<number>;
  exists: boolean;
  isNull: boolean;
  isEmpty: boolean;
  /** normalized string → the document's first spelling of it */
  originals: Map<string, string>;
}

type Depth = 'key' | 'item';

/** Every field path of `document` with its facet values (filters.md §3). */
export function documentFacets(document: { [key: string]: Json }): Map<string, FieldFacets> {
  const out = new Map<string, FieldFacets>();
  const visit = (path: string, depth: Depth, value: Json): void => {
    let facets = out.get(path);
    if (facets === undefined) {
      facets = { strings: new Set(), numbers: new Set(), exists: false, isNull: false, isEmpty: false, originals: new Map() };
      out.set(path, facets);
    }
    facets.exists = true;
    if (typeof value === 'number') facets.numbers.add(facetNumber(value));
    else if (typeof value === 'boolean' || (typeof value === 'string' && value !== '')) {
      const original = String(value);
      const normalized = normalizeFacetString(original);
      facets.strings.add(normalized);
      if (!facets.originals.has(normalized)) facets.originals.set(normalized, original);
    } else if (depth === 'key') {
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

export interface MemoryFacetOptions {
  /** provide `stringsWithPrefix` (default true) */
  withPrefix?: boolean;
  /** provide `docOriginals` (default true) */
  withOriginals?: boolean;
  /** honour `within` in `numbers` / `strings` (default true) */
  withWithin?: boolean;
}

interface FieldIndex {
  strings: Map<string, { original: string; docids: Bitmap }>;
  numbers: Map<number, Bitmap>;
  exists: Bitmap;
  isNull: Bitmap;
  isEmpty: Bitmap;
  /** per document: numbers ascending, normalized strings in byte order and their spellings */
  docNumbers: Map<number, number[]>;
  docStrings: Map<number, string[]>;
  docOriginals: Map<number, string[]>;
}

type OptionalReads = 'stringsWithPrefix' | 'docOriginals';

/** A FacetReader over documents held in memory, keyed by internal id. */
export class MemoryFacetReader implements Omit<FacetReader, OptionalReads>, Partial<Pick<FacetReader, OptionalReads>> {
  readonly documents = new Bitmap();
  /** reads made, to tell which algorithm ran: per-document reads and value walks */
  readonly reads = { documents: 0, walks: 0 };
  readonly stringsWithPrefix?: FacetReader['stringsWithPrefix'];
  readonly docOriginals?: FacetReader['docOriginals'];
  readonly #ids = new Map<string, number>();
  readonly #fields: FieldIndex[] = [];
  readonly #points = new Map<number, [number, number]>();
  readonly #shapes = new Map<number, Shape>();
  readonly #within: boolean;

  /** Documents with their internal ids. */
  constructor(documents: Iterable<readonly [id: number, document: object]>, options: MemoryFacetOptions = {}) {
    for (const [id, document] of documents) this.#add(id, document as { [key: string]: Json });
    this.#within = options.withWithin !== false;
    if (options.withOriginals !== false) {
      this.docOriginals = (fid, docid) => {
        this.reads.documents++;
        return this.#fields[fid]!.docOriginals.get(docid) ?? [];
      };
    }
    if (options.withPrefix !== false) {
      this.stringsWithPrefix = (fid, prefix) =>
        this.#sortedStrings(fid)
          .filter(([value]) => value.startsWith(prefix))
          .map(([value, { original, docids }]) => [value, original, docids]);
    }
  }

  /** Documents of a list, document i having the internal id i. */
  static of(documents: readonly object[], options: MemoryFacetOptions = {}): MemoryFacetReader {
    return new MemoryFacetReader(
      documents.map((document, id) => [id, document] as const),
      options,
    );
  }

  #add(id: number, document: { [key: string]: Json }): void {
    this.documents.add(id);
    for (const [path, facets] of documentFacets(document)) {
      const field = this.#field(path);
      if (facets.exists) field.exists.add(id);
      if (facets.isNull) field.isNull.add(id);
      if (facets.isEmpty) field.isEmpty.add(id);
      for (const [normalized, original] of facets.originals) {
        let entry = field.strings.get(normalized);
        if (entry === undefined) field.strings.set(normalized, (entry = { original, docids: new Bitmap() }));
        entry.docids.add(id);
      }
      for (const n of facets.numbers) bitmapOf(field.numbers, n).add(id);
      if (facets.numbers.size > 0) field.docNumbers.set(id, [...facets.numbers].sort((a, b) => a - b));
      if (facets.strings.size > 0) {
        const strings = [...facets.strings].sort(compareUtf8);
        field.docStrings.set(id, strings);
        field.docOriginals.set(id, strings.map((s) => facets.originals.get(s)!));
      }
    }
    const point = geoPoint(document);
    if (point !== null) this.#points.set(id, point);
    const shape = document._geojson === undefined ? undefined : geoJsonShapeOf(document._geojson);
    if (shape !== undefined) this.#shapes.set(id, shape);
  }

  #field(path: string): FieldIndex {
    let fid = this.#ids.get(path);
    if (fid === undefined) {
      fid = this.#fields.length;
      this.#ids.set(path, fid);
      this.#fields.push({
        strings: new Map(),
        numbers: new Map(),
        exists: new Bitmap(),
        isNull: new Bitmap(),
        isEmpty: new Bitmap(),
        docNumbers: new Map(),
        docStrings: new Map(),
        docOriginals: new Map(),
      });
    }
    return this.#fields[fid]!;
  }

  #sortedStrings(fid: number): [string, { original: string; docids: Bitmap }][] {
    return [...this.#fields[fid]!.strings].sort((a, b) => compareUtf8(a[0], b[0]));
  }

  /** `within` as the real reader applies it: values none of those documents hold are skipped. */
  #restrict(docids: Bitmap, within: Bitmap | undefined): Bitmap | null {
    if (within === undefined || !this.#within) return docids;
    const kept = docids.clone().andInPlace(within);
    return kept.size === 0 ? null : kept;
  }

  fieldId(path: string): number | undefined {
    return this.#ids.get(path);
  }
  stringEquals(fid: number, normalized: string): Bitmap {
    return this.#fields[fid]!.strings.get(normalized)?.docids ?? new Bitmap();
  }
  stringRange(fid: number, lo: Bound<string> | null, hi: Bound<string> | null): Bitmap {
    return unionOf(this.#fields[fid]!.strings, (s) => within(compareUtf8, s, lo, hi));
  }
  stringStartsWith(fid: number, prefix: string): Bitmap {
    return unionOf(this.#fields[fid]!.strings, (s) => s.startsWith(prefix));
  }
  stringContains(fid: number, part: string): Bitmap {
    return unionOf(this.#fields[fid]!.strings, (s) => s.includes(part));
  }
  numberEquals(fid: number, n: number): Bitmap {
    return this.#fields[fid]!.numbers.get(facetNumber(n)) ?? new Bitmap();
  }
  numberRange(fid: number, lo: Bound<number> | null, hi: Bound<number> | null): Bitmap {
    return unionOf(this.#fields[fid]!.numbers, (n) => within((a, b) => a - b, n, lo, hi));
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

  *numbers(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[number, Bitmap]> {
    this.reads.walks++;
    const sorted = [...this.#fields[fid]!.numbers].sort((a, b) => a[0] - b[0]);
    if (order === 'desc') sorted.reverse();
    for (const [n, docids] of sorted) {
      const kept = this.#restrict(docids, within);
      if (kept !== null) yield [n, kept];
    }
  }
  *strings(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[string, string, Bitmap]> {
    this.reads.walks++;
    const sorted = this.#sortedStrings(fid);
    if (order === 'desc') sorted.reverse();
    for (const [value, { original, docids }] of sorted) {
      const kept = this.#restrict(docids, within);
      if (kept !== null) yield [value, original, kept];
    }
  }
  docNumbers(fid: number, docid: number): readonly number[] {
    this.reads.documents++;
    return this.#fields[fid]!.docNumbers.get(docid) ?? [];
  }
  docStrings(fid: number, docid: number): readonly string[] {
    this.reads.documents++;
    return this.#fields[fid]!.docStrings.get(docid) ?? [];
  }

  geoPoint(docid: number): [number, number] | undefined {
    return this.#points.get(docid);
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
  geoShapes(query: ShapeQuery): Bitmap {
    const region = queryRegion(query);
    const out = new Bitmap();
    for (const [id, shape] of this.#shapes) if (regionMeetsShape(region, shape)) out.add(id);
    return out;
  }

  *geoNearest(lat: number, lng: number, within: Bitmap, order: 'asc' | 'desc' = 'asc'): Iterable<[number, number]> {
    const found: [number, number][] = [];
    for (const [id, point] of this.#points) {
      if (within.has(id)) found.push([id, haversineMeters(lat, lng, point[0], point[1])]);
    }
    found.sort((a, b) => (order === 'asc' ? a[1] - b[1] : b[1] - a[1]) || a[0] - b[0]);
    yield* found;
  }
}

function bitmapOf<K>(map: Map<K, Bitmap>, key: K): Bitmap {
  let bits = map.get(key);
  if (bits === undefined) map.set(key, (bits = new Bitmap()));
  return bits;
}

function unionOf<K>(map: Map<K, Bitmap | { docids: Bitmap }>, keep: (key: K) => boolean): Bitmap {
  const parts: Bitmap[] = [];
  for (const [key, value] of map) if (keep(key)) parts.push(value instanceof Bitmap ? value : value.docids);
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
