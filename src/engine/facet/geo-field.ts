// The `_geo` field of a document: null, or an object with exactly `lat` and `lng`, each a finite
// number or a string Rust's f64 parser accepts. Anything else fails the task with milli's
// `invalid_document_geo_field` messages (documents.md §2.7), checked in milli's order.
import { EngineError } from '../errors.ts';
import { compactJson } from '../index/primary-key.ts';

export type GeoPoint = [lat: number, lng: number];

/** Rust's `str::parse::<f64>` grammar, finite values only (inf and NaN are refused anyway). */
const RUST_FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The point of a `_geo` value (undefined when it is null); throws the indexing error otherwise. */
export function parseGeoField(value: unknown, externalId: string): GeoPoint | undefined {
  const id = JSON.stringify(externalId);
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw geoError(
      `The \`_geo\` field in the document with the id: \`${id}\` is not an object. Was expecting an object with the \`_geo.lat\` and \`_geo.lng\` fields but instead got \`${compactJson(value)}\`.`,
    );
  }
  const geo = value as Record<string, unknown>;
  const hasLat = Object.prototype.hasOwnProperty.call(geo, 'lat');
  const hasLng = Object.prototype.hasOwnProperty.call(geo, 'lng');
  if (hasLat && hasLng) {
    const extra = ownKeys(geo) === 2 ? [] : withoutLatLng(geo);
    if (extra.length > 0) {
      throw geoError(`The \`_geo\` field in the document with the id: \`${id}\` contains the following unexpected fields: \`${compactJson(Object.fromEntries(extra))}\`.`);
    }
  } else if (hasLat) {
    throw geoError(`Could not find longitude in the document with the id: \`${id}\`. Was expecting a \`_geo.lng\` field.`);
  } else if (hasLng) {
    throw geoError(`Could not find latitude in the document with the id: \`${id}\`. Was expecting a \`_geo.lat\` field.`);
  } else {
    throw geoError(`Could not find latitude nor longitude in the document with the id: \`${id}\`. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.`);
  }
  const lat = finiteFloat(geo.lat);
  const lng = finiteFloat(geo.lng);
  if (lat !== undefined && lng !== undefined) return [lat, lng];
  if (lat === undefined && lng === undefined) {
    throw geoError(
      `Could not parse latitude nor longitude in the document with the id: \`${id}\`. Was expecting finite numbers but instead got \`${compactJson(geo.lat)}\` and \`${compactJson(geo.lng)}\`.`,
    );
  }
  const [which, bad] = lat === undefined ? ['latitude', geo.lat] : ['longitude', geo.lng];
  throw geoError(`Could not parse ${which} in the document with the id: \`${id}\`. Was expecting a finite number but instead got \`${compactJson(bad)}\`.`);
}

/** The point of a stored document's `_geo`, or undefined when it has none or an invalid one. */
export function geoPointOf(value: unknown): GeoPoint | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const geo = value as Record<string, unknown>;
  const lat = finiteFloat(geo.lat);
  const lng = finiteFloat(geo.lng);
  return lat !== undefined && lng !== undefined ? [lat, lng] : undefined;
}

function finiteFloat(v: unknown): number | undefined {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && RUST_FLOAT.test(v)) n = Number(v);
  else return undefined;
  return Number.isFinite(n) ? n : undefined;
}

/** How many enumerable own keys an object has (without listing them). */
function ownKeys(o: Record<string, unknown>): number {
  let n = 0;
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) n++;
  return n;
}

/**
 * The other entries, in the order milli prints them: serde_json's ordered map removes `lat` then
 * `lng` by swapping the last entry into the removed one's place.
 */
function withoutLatLng(geo: Record<string, unknown>): [string, unknown][] {
  const entries = Object.entries(geo);
  for (const key of ['lat', 'lng']) {
    const at = entries.findIndex(([k]) => k === key);
    const last = entries.pop()!;
    if (at < entries.length) entries[at] = last;
  }
  return entries;
}

function geoError(message: string): EngineError {
  return new EngineError('invalid_document_geo_field', message);
}
