// Reads the facet tables of an index (docs/decisions/0004) for filters, sort, distinct, facet
// distribution and stats, facet search and geo. Every method reads the index's current snapshot
// and returns fresh bitmaps; callers must still treat them as read-only (a later version may cache).
// Strings passed in must already be normalized (normalizeFacetString). The numbers of
// `_geo.lat` / `_geo.lng` (milli's geo facets, filterable and sortable with `_geo`) come from
// the geo tables.
import { Bitmap } from '../bitmap/index.ts';
import { FIELD_EMPTY, FIELD_EXISTS, FIELD_NULL, type FacetTables } from '../index/facet-layout.ts';
import type { Index } from '../index/index.ts';
import { compareUtf8 } from '../words/index.ts';
import { decodeBitmap, decodeStringEntry, docRecordField, type DocValues } from './codec.ts';
import { geoAll, geoAxisRange, geoAxisValues, geoBox, geoNearest, geoPoint, geoRadius } from './geo-reader.ts';
import { shapeDocids, type ShapeQuery } from './geojson-reader.ts';
import { boundsTest, levelSizes, numberKind, orderedValues, prefixTest, rangeDocids, stringKind, type LevelKind } from './levels.ts';
import { facetNumber } from './normalize.ts';

/** A range bound. */
export interface Bound<T> {
  value: T;
  inclusive: boolean;
}

export interface FacetReader {
  /** The field id of a dotted path (same ids as `index.fieldsOrder()`), undefined for unknown fields. */
  fieldId(path: string): number | undefined;
  stringEquals(fid: number, normalized: string): Bitmap;
  stringRange(fid: number, lo: Bound<string> | null, hi: Bound<string> | null): Bitmap;
  stringStartsWith(fid: number, normalizedPrefix: string): Bitmap;
  stringContains(fid: number, normalizedPart: string): Bitmap;
  numberEquals(fid: number, n: number): Bitmap;
  numberRange(fid: number, lo: Bound<number> | null, hi: Bound<number> | null): Bitmap;
  exists(fid: number): Bitmap;
  isNull(fid: number): Bitmap;
  isEmpty(fid: number): Bitmap;
  /**
   * Values in order with their documents (sort buckets, facet distribution). With `within`,
   * only values some of those documents hold, paired with those documents (groups holding none
   * of them are skipped without reading their values).
   */
  numbers(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[number, Bitmap]>;
  strings(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[normalized: string, original: string, Bitmap]>;
  /** String values starting with `prefix`, in order (facet search). */
  stringsWithPrefix(fid: number, prefix: string): Iterable<[string, string, Bitmap]>;
  /** A document's numbers of a field, ascending. */
  docNumbers(fid: number, docid: number): readonly number[];
  /** A document's normalized strings of a field, in byte order. */
  docStrings(fid: number, docid: number): readonly string[];
  /** The original spellings of `docStrings`, in the same order. */
  docOriginals(fid: number, docid: number): readonly string[];
  /** `docNumbers`, `docStrings` and `docOriginals` of a document together, from one read. */
  docValues?(fid: number, docid: number): Readonly<DocValues>;
  /** The same for every field of a document, from one read of its record (read when called, decoded per field). */
  docRecord?(docid: number): (fid: number) => Readonly<DocValues>;
  /** How many distinct values (strings and numbers) a field has (not counting `_geo.lat` / `_geo.lng`). */
  valueCount?(fid: number): number;
  geoPoint(docid: number): [lat: number, lng: number] | undefined;
  geoRadius(lat: number, lng: number, meters: number): Bitmap;
  /** Antimeridian crossing when `right < left`. */
  geoBox(top: number, right: number, bottom: number, left: number): Bitmap;
  /** Documents of `within` having a point, nearest first (farthest first with `desc`), lazily. */
  geoNearest(lat: number, lng: number, within: Bitmap, order?: 'asc' | 'desc'): Iterable<[docid: number, meters: number]>;
  /** Documents whose `_geojson` shape meets the area of a geo filter (geojson-reader.ts). */
  geoShapes(query: ShapeQuery): Bitmap;
}

const NO_VALUES: DocValues = Object.freeze({ numbers: [], strings: [], originals: [] }) as unknown as DocValues;
// the greatest string of a prefix range ends with the last code point (U+10FFFF)
const MAX_CHAR = String.fromCodePoint(0x10ffff);

/** A reader over `index`; field ids are reloaded when the index generation changes. */
export function facetReader(index: Index): FacetReader {
  return new IndexFacetReader(index);
}

class IndexFacetReader implements FacetReader {
  readonly #index: Index;
  readonly #t: FacetTables;
  readonly #numbers: LevelKind<number>;
  readonly #strings: LevelKind<string>;
  #fids = new Map<string, number>();
  #generation = -1;
  /** field ids of `_geo.lat` and `_geo.lng` (−1 when unknown) */
  #geoFids: [number, number] = [-1, -1];
  /** how many fields the index had at the last refresh */
  #knownFields = 0;

  constructor(index: Index) {
    this.#index = index;
    this.#t = index.facets;
    this.#numbers = numberKind(this.#t);
    this.#strings = stringKind(this.#t);
  }

  fieldId(path: string): number | undefined {
    this.#refresh();
    return this.#fids.get(path);
  }

  #refresh(): void {
    const generation = this.#index.generation();
    if (generation === this.#generation) return;
    this.#fids = new Map(this.#index.fieldsOrder().map((f, i) => [f, i]));
    this.#generation = generation;
    this.#geoFids = [this.#fids.get('_geo.lat') ?? -1, this.#fids.get('_geo.lng') ?? -1];
    this.#knownFields = this.#fids.size;
  }

  /** 0 for `_geo.lat`, 1 for `_geo.lng`, else null. */
  #geoAxis(fid: number): 0 | 1 | null {
    // field ids are never reassigned (fields are only appended to the index's field order): a
    // field known at the last refresh is a geo axis now exactly when it was one then (this check
    // runs once per document in facet counts and sorts; a refresh reads the generation)
    if (fid >= this.#knownFields) this.#refresh();
    return fid === this.#geoFids[0] ? 0 : fid === this.#geoFids[1] ? 1 : null;
  }

  stringEquals(fid: number, normalized: string): Bitmap {
    const bytes = this.#t.strings.get([fid, 0, normalized]);
    return bytes === undefined ? new Bitmap() : decodeStringEntry(bytes).docids;
  }

  stringRange(fid: number, lo: Bound<string> | null, hi: Bound<string> | null): Bitmap {
    if (lo !== null && hi !== null && emptyRange(compareUtf8(lo.value, hi.value), lo, hi)) return new Bitmap();
    return rangeDocids(this.#strings, fid, boundsTest(compareUtf8, lo, hi));
  }

  stringStartsWith(fid: number, normalizedPrefix: string): Bitmap {
    return rangeDocids(this.#strings, fid, prefixTest(normalizedPrefix));
  }

  stringContains(fid: number, normalizedPart: string): Bitmap {
    const parts: Bitmap[] = [];
    for (const key of this.#t.strings.keys({ start: [fid, 0], end: [fid, 1] } as never)) {
      const value = (key as [number, number, string])[2];
      if (value.includes(normalizedPart)) parts.push(this.stringEquals(fid, value));
    }
    return parts.length === 0 ? new Bitmap() : Bitmap.orMany(parts);
  }

  numberEquals(fid: number, n: number): Bitmap {
    const axis = this.#geoAxis(fid);
    if (axis !== null) return geoAxisRange(this.#t, axis, { value: n, inclusive: true }, { value: n, inclusive: true });
    return decodeBitmap(this.#t.numbers.get([fid, 0, facetNumber(n)]));
  }

  numberRange(fid: number, lo: Bound<number> | null, hi: Bound<number> | null): Bitmap {
    if (lo !== null && hi !== null && emptyRange(lo.value - hi.value, lo, hi)) return new Bitmap();
    const axis = this.#geoAxis(fid);
    if (axis !== null) return geoAxisRange(this.#t, axis, lo, hi);
    const norm = (b: Bound<number> | null) => (b === null ? null : { value: facetNumber(b.value), inclusive: b.inclusive });
    return rangeDocids(this.#numbers, fid, boundsTest((a, b) => a - b, norm(lo), norm(hi)));
  }

  exists(fid: number): Bitmap {
    if (this.#geoAxis(fid) !== null) return geoAll(this.#t);
    return decodeBitmap(this.#t.fieldDocids.get([fid, FIELD_EXISTS]));
  }

  isNull(fid: number): Bitmap {
    return decodeBitmap(this.#t.fieldDocids.get([fid, FIELD_NULL]));
  }

  isEmpty(fid: number): Bitmap {
    return decodeBitmap(this.#t.fieldDocids.get([fid, FIELD_EMPTY]));
  }

  *numbers(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[number, Bitmap]> {
    const axis = this.#geoAxis(fid);
    if (axis !== null) {
      yield* geoAxisValues(this.#t, axis, order === 'desc', within);
      return;
    }
    for (const [n, bytes] of orderedValues(this.#numbers, fid, order === 'desc', within)) {
      const docids = decodeBitmap(bytes);
      yield [n, within === undefined ? docids : docids.andInPlace(within)];
    }
  }

  *strings(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[string, string, Bitmap]> {
    for (const [s, bytes] of orderedValues(this.#strings, fid, order === 'desc', within)) {
      const e = decodeStringEntry(bytes);
      yield [s, e.original, within === undefined ? e.docids : e.docids.andInPlace(within)];
    }
  }

  *stringsWithPrefix(fid: number, prefix: string): Iterable<[string, string, Bitmap]> {
    const start: [number, number, string] = [fid, 0, prefix];
    const end: [number, number, string] = [fid, 0, prefix + MAX_CHAR];
    for (const [key, bytes] of this.#t.strings.entries({ start, end })) {
      if (!key[2].startsWith(prefix)) continue;
      const e = decodeStringEntry(bytes);
      yield [key[2], e.original, e.docids];
    }
  }

  docNumbers(fid: number, docid: number): readonly number[] {
    const axis = this.#geoAxis(fid);
    if (axis !== null) {
      const p = geoPoint(this.#t, docid);
      return p === undefined ? [] : [p[axis]];
    }
    return this.#docValues(fid, docid).numbers;
  }

  docStrings(fid: number, docid: number): readonly string[] {
    return this.#docValues(fid, docid).strings;
  }

  docOriginals(fid: number, docid: number): readonly string[] {
    return this.#docValues(fid, docid).originals;
  }

  docValues(fid: number, docid: number): Readonly<DocValues> {
    const axis = this.#geoAxis(fid);
    if (axis === null) return this.#docValues(fid, docid);
    const p = geoPoint(this.#t, docid);
    return p === undefined ? NO_VALUES : { numbers: [p[axis]], strings: [], originals: [] };
  }

  valueCount(fid: number): number {
    return levelSizes(this.#strings, fid)[0]! + levelSizes(this.#numbers, fid)[0]!;
  }

  docRecord(docid: number): (fid: number) => Readonly<DocValues> {
    const bytes = this.#t.docValues.get(docid);
    return (fid) => {
      const axis = this.#geoAxis(fid);
      if (axis !== null) return this.docValues(fid, docid);
      return (bytes === undefined ? undefined : docRecordField(bytes, fid)) ?? NO_VALUES;
    };
  }

  #docValues(fid: number, docid: number): DocValues {
    const bytes = this.#t.docValues.get(docid);
    return (bytes === undefined ? undefined : docRecordField(bytes, fid)) ?? NO_VALUES;
  }

  geoPoint(docid: number): [number, number] | undefined {
    return geoPoint(this.#t, docid);
  }

  geoRadius(lat: number, lng: number, meters: number): Bitmap {
    return geoRadius(this.#t, lat, lng, meters);
  }

  geoBox(top: number, right: number, bottom: number, left: number): Bitmap {
    return geoBox(this.#t, top, right, bottom, left);
  }

  geoShapes(query: ShapeQuery): Bitmap {
    return shapeDocids(this.#t, query);
  }

  geoNearest(lat: number, lng: number, within: Bitmap, order: 'asc' | 'desc' = 'asc'): Iterable<[number, number]> {
    return geoNearest(this.#t, lat, lng, within, order);
  }
}

/** lo above hi, or equal with one side exclusive. */
function emptyRange(cmp: number, lo: Bound<unknown>, hi: Bound<unknown>): boolean {
  return cmp > 0 || (cmp === 0 && !(lo.inclusive && hi.inclusive));
}
