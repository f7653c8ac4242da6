// The facet data of one document, computed from the document and the compiled config alone (so
// the extractor thread can run it). Walks the document like milli's `extract_document_facets`:
//
//   top-level key ─ select ─ noMatch: skipped (its nested fields too)
//        │                   match: the value is recorded under the key
//        └─ objects and arrays of a non-noMatch key are walked; keys of objects, even inside
//           arrays, are "on their base key" (null/empty count), array items are not
//
// Recorded per faceted path: numbers, non-empty strings (normalized, original kept; "   "
// normalizes to "" and is a value), booleans as "true"/"false", exists for any occurrence,
// null / empty ("" [] {}) only on a base key. `_vectors`, `_geo` and `_geojson` are never walked;
// `_geo`, when geo is on, is validated and gives the point (milli's `_geo.lat` / `_geo.lng` facet
// numbers are answered from the geo tables by the reader); `_geojson`, when `"_geojson"` is
// filterable, is validated and gives the shape (geojson.ts).
import type { CompiledFacetConfig } from './config.ts';
import { parseGeoField, type GeoPoint } from './geo-field.ts';
import { geoJsonShapeOf, parseGeoJsonField, type Shape } from './geojson.ts';
import { facetNumber, normalizeFacetString } from './normalize.ts';

/** The values of one faceted field path of a document. */
export interface FieldFacets {
  path: string;
  /** distinct, in document order */
  numbers: number[];
  /** distinct normalized strings, in document order */
  strings: string[];
  /** the first original spelling of each of `strings` */
  originals: string[];
  isNull: boolean;
  isEmpty: boolean;
}

/** Facet data of a document: plain data (structured-clone safe). */
export interface FacetRecord {
  fields: FieldFacets[];
  geo: GeoPoint | null;
  /** the `_geojson` shape (absent: none) */
  shape?: Shape | null;
}

const EMPTY_RECORD: FacetRecord = Object.freeze({ fields: [], geo: null }) as FacetRecord;

/**
 * Extracts a document's facet data. `externalId` names the document in `_geo` and `_geojson`
 * errors; without it an invalid value is ignored (an old version being removed was valid when
 * indexed). `shape: false` skips `_geojson` (a removal takes the stored shape instead).
 */
export function extractFacets(doc: Record<string, unknown>, compiled: CompiledFacetConfig, externalId?: string, opts: { shape?: boolean } = {}): FacetRecord {
  if (compiled.empty) return EMPTY_RECORD;
  const walk = new Walk(compiled);
  for (const key of Object.keys(doc)) {
    if (key === '_geo' || key === '_vectors' || key === '_geojson') continue;
    const selection = compiled.select(key);
    if (selection === 'noMatch') continue;
    const value = doc[key];
    if (selection === 'match') walk.emit(key, true, value);
    walk.descend(key, value);
  }
  let geo: GeoPoint | null = null;
  if (compiled.config.geo && Object.prototype.hasOwnProperty.call(doc, '_geo')) {
    const point = externalId === undefined ? lenientPoint(doc._geo) : parseGeoField(doc._geo, externalId);
    if (point) geo = point;
  }
  const fields = [...walk.fields.values()];
  if (compiled.config.geojson && opts.shape !== false && Object.prototype.hasOwnProperty.call(doc, '_geojson')) {
    const shape = externalId === undefined ? geoJsonShapeOf(doc._geojson) : parseGeoJsonField(doc._geojson, externalId);
    if (shape !== undefined) return { fields, geo, shape };
  }
  return { fields, geo };
}

function lenientPoint(value: unknown): GeoPoint | undefined {
  try {
    return parseGeoField(value, '');
  } catch {
    return undefined;
  }
}

class Walk {
  readonly fields = new Map<string, FieldFacets>();
  readonly #compiled: CompiledFacetConfig;

  constructor(compiled: CompiledFacetConfig) {
    this.#compiled = compiled;
  }

  /** Walks into objects and arrays under `path` (whose selection is not noMatch). */
  descend(path: string, value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) this.#array(value, path, true);
    else this.#object(value as Record<string, unknown>, path, true);
  }

  #object(obj: Record<string, unknown>, base: string, onBaseKey: boolean): void {
    const keys = Object.keys(obj);
    if (keys.length === 0) this.#leaf(base, onBaseKey, obj);
    for (const key of keys) {
      const path = `${base}.${key}`;
      const selection = this.#compiled.select(path);
      if (selection === 'noMatch') continue;
      const value = obj[key];
      if (selection === 'match') this.emit(path, true, value);
      this.descend(path, value);
    }
  }

  #array(items: unknown[], base: string, onBaseKey: boolean): void {
    if (items.length === 0) this.#leaf(base, onBaseKey, items);
    for (const item of items) {
      if (item !== null && typeof item === 'object') {
        if (Array.isArray(item)) this.#array(item, base, false);
        else this.#object(item as Record<string, unknown>, base, false);
      } else this.#leaf(base, false, item);
    }
  }

  #leaf(path: string, onBaseKey: boolean, value: unknown): void {
    if (this.#compiled.select(path) === 'match') this.emit(path, onBaseKey, value);
  }

  /** Records one occurrence of a faceted path. */
  emit(path: string, onBaseKey: boolean, value: unknown): void {
    const f = this.#field(path);
    switch (typeof value) {
      case 'number':
        addNumber(f, value);
        return;
      case 'string':
        if (value.length > 0) addString(f, normalizeFacetString(value), value);
        else if (onBaseKey) f.isEmpty = true;
        return;
      case 'boolean':
        addString(f, value ? 'true' : 'false', value ? 'true' : 'false');
        return;
      case 'object':
        if (!onBaseKey) return;
        if (value === null) f.isNull = true;
        else if (Array.isArray(value) ? value.length === 0 : isEmptyObject(value)) f.isEmpty = true;
        return;
      default:
        return;
    }
  }

  #field(path: string): FieldFacets {
    let f = this.fields.get(path);
    if (f === undefined) {
      f = { path, numbers: [], strings: [], originals: [], isNull: false, isEmpty: false };
      this.fields.set(path, f);
    }
    return f;
  }
}

// arrays are searched while short; a set takes over for long multi-valued fields
const LINEAR = 16;
const seenNumbers = new WeakMap<FieldFacets, Set<number>>();
const seenStrings = new WeakMap<FieldFacets, Set<string>>();

function addNumber(f: FieldFacets, value: number): void {
  if (!Number.isFinite(value)) return;
  const n = facetNumber(value);
  if (!isNew(f.numbers, n, seenNumbers, f)) return;
  f.numbers.push(n);
}

function addString(f: FieldFacets, normalized: string, original: string): void {
  if (!isNew(f.strings, normalized, seenStrings, f)) return;
  f.strings.push(normalized);
  f.originals.push(original);
}

function isNew<T>(list: T[], value: T, sets: WeakMap<FieldFacets, Set<T>>, f: FieldFacets): boolean {
  if (list.length < LINEAR) return !list.includes(value);
  let set = sets.get(f);
  if (set === undefined) sets.set(f, (set = new Set(list)));
  if (set.has(value)) return false;
  set.add(value);
  return true;
}

function isEmptyObject(value: object): boolean {
  for (const _ in value) return false;
  return true;
}
