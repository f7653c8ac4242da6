// The `_geojson` field of a document (documents.md §2.7, filters.md §6), read as Meilisearch
// reads it (the `geojson` crate, then geo-types) when `_geojson` is filterable, and turned into
// the parts a geo filter tests:
//
//   Point, MultiPoint              a point part per position
//   LineString, MultiLineString    a line part per line string
//   Polygon, MultiPolygon          a ring part per polygon: its exterior ring; holes are ignored
//                                  (Meilisearch treats a polygon as a solid shape)
//   GeometryCollection             the parts of its geometries
//   Feature                        the parts of its geometry (a null geometry is an error)
//   FeatureCollection              the parts of its features' geometries (null ones skipped)
//   null                           no shape
//
// Positions are [lng, lat, …] (at least two numbers, the rest ignored); their ranges are not
// checked (Meilisearch accepts any finite number). A ring's repeated closing position is dropped;
// a ring of one distinct position is a point, of two a line. Lines and rings are unwrapped and
// densified along great circles (geojson-geometry.ts). Anything else fails the task with
// `invalid_document_geojson_field`, naming the document and the JSON path of the fault.
//
// Stored shape (geojson-shapes table):
//   u32 version · u32 points · u32 lines · u32 rings · u32 vertices per line · u32 vertices per
//   ring · padding to 8 · f64 lng, lat of every point, then every line, then every ring
import { EngineError } from '../errors.ts';
import { compactJson } from '../index/primary-key.ts';
import { densifyLine, densifyRing, type PartKind } from './geojson-geometry.ts';

/** The parts of a document's shape: lng, lat pairs, points first, then lines, then rings. */
export interface Shape {
  coords: Float64Array;
  /** how many point parts (one position each) come first */
  points: number;
  /** vertices of each line part, then of each ring part */
  lines: Uint32Array;
  rings: Uint32Array;
}

const VERSION = 1;
const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'];
const ALL_TYPES = [...GEOMETRY_TYPES, 'Feature', 'FeatureCollection'];

/** The shape of a `_geojson` value (undefined: null, or nothing to index); throws the indexing error otherwise. */
export function parseGeoJsonField(value: unknown, externalId: string): Shape | undefined {
  if (value === null) return undefined;
  const parts = new Parts();
  new GeoJsonReader(JSON.stringify(externalId), parts).root(value);
  return parts.shape();
}

/** The shape of a stored document's `_geojson`, or undefined when it has none or an invalid one. */
export function geoJsonShapeOf(value: unknown): Shape | undefined {
  try {
    return parseGeoJsonField(value, '');
  } catch {
    return undefined;
  }
}

/** The parts of a shape: kind and range of their (lng, lat) pairs in `coords`. */
export function* shapeParts(shape: Shape): Generator<[kind: PartKind, from: number, to: number]> {
  let at = 0;
  for (let i = 0; i < shape.points; i++, at += 2) yield ['point', at, at + 2];
  for (const n of shape.lines) yield ['line', at, (at += 2 * n)];
  for (const n of shape.rings) yield ['ring', at, (at += 2 * n)];
}

export function encodeShape(shape: Shape): Uint8Array {
  const words = 4 + shape.lines.length + shape.rings.length;
  const head = Math.ceil(words / 2) * 8;
  const b = Buffer.alloc(head + shape.coords.byteLength);
  b.writeUInt32LE(VERSION, 0);
  b.writeUInt32LE(shape.points, 4);
  b.writeUInt32LE(shape.lines.length, 8);
  b.writeUInt32LE(shape.rings.length, 12);
  let at = 16;
  for (const n of shape.lines) (b.writeUInt32LE(n, at), (at += 4));
  for (const n of shape.rings) (b.writeUInt32LE(n, at), (at += 4));
  b.set(new Uint8Array(shape.coords.buffer, shape.coords.byteOffset, shape.coords.byteLength), head);
  return b;
}

export function decodeShape(bytes: Uint8Array): Shape {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const points = b.readUInt32LE(4);
  const lines = new Uint32Array(b.readUInt32LE(8));
  const rings = new Uint32Array(b.readUInt32LE(12));
  let at = 16;
  for (let i = 0; i < lines.length; i++, at += 4) lines[i] = b.readUInt32LE(at);
  for (let i = 0; i < rings.length; i++, at += 4) rings[i] = b.readUInt32LE(at);
  const head = Math.ceil((4 + lines.length + rings.length) / 2) * 8;
  // a copy: aligned, and independent of the store's buffer
  const coords = new Float64Array(b.buffer.slice(b.byteOffset + head, b.byteOffset + b.byteLength));
  return { coords, points, lines, rings };
}

/** The parts gathered while reading a value. */
class Parts {
  readonly points: number[] = [];
  readonly lines: number[][] = [];
  readonly rings: number[][] = [];

  /** A line string's positions (lng, lat pairs). */
  line(coords: number[]): void {
    const distinct = distinctPositions(coords);
    if (distinct === 1) this.points.push(coords[0]!, coords[1]!);
    else if (distinct > 1) this.lines.push(densifyLine(coords));
  }

  /** A polygon's exterior ring (lng, lat pairs, closed or not). */
  ring(coords: number[]): void {
    const n = coords.length;
    if (n >= 4 && coords[0] === coords[n - 2] && coords[1] === coords[n - 1]) coords.length -= 2;
    const distinct = distinctPositions(coords);
    if (distinct <= 2) this.line(coords);
    else this.rings.push(densifyRing(coords));
  }

  shape(): Shape | undefined {
    if (this.points.length === 0 && this.lines.length === 0 && this.rings.length === 0) return undefined;
    const coords = new Float64Array(this.points.length + sum(this.lines) + sum(this.rings));
    coords.set(this.points, 0);
    let at = this.points.length;
    for (const part of [...this.lines, ...this.rings]) {
      coords.set(part, at);
      at += part.length;
    }
    return {
      coords,
      points: this.points.length / 2,
      lines: Uint32Array.from(this.lines, (l) => l.length / 2),
      rings: Uint32Array.from(this.rings, (r) => r.length / 2),
    };
  }
}

function sum(parts: number[][]): number {
  let n = 0;
  for (const p of parts) n += p.length;
  return n;
}

/** Distinct positions of a short list, up to 3 (3 meaning "more than two"). */
function distinctPositions(coords: readonly number[]): number {
  const seen: [number, number][] = [];
  for (let i = 0; i < coords.length && seen.length < 3; i += 2) {
    if (!seen.some(([x, y]) => x === coords[i] && y === coords[i + 1])) seen.push([coords[i]!, coords[i + 1]!]);
  }
  return seen.length;
}

type Json = Record<string, unknown>;

/** Reads a GeoJSON value into parts; every fault names its JSON path. */
class GeoJsonReader {
  readonly #id: string;
  readonly #parts: Parts;

  constructor(id: string, parts: Parts) {
    this.#id = id;
    this.#parts = parts;
  }

  root(value: unknown): void {
    const object = this.#object(value, '_geojson');
    const type = this.#type(object, '_geojson', ALL_TYPES);
    if (type === 'Feature') this.#feature(object, '_geojson', true);
    else if (type === 'FeatureCollection') this.#featureCollection(object, '_geojson');
    else this.#geometry(object, '_geojson', type);
  }

  #feature(feature: Json, path: string, alone: boolean): void {
    this.#bbox(feature, path);
    if (has(feature, 'properties') && feature.properties !== null && !isObject(feature.properties)) {
      throw this.#fail(`\`${path}.properties\` must be an object or null, found \`${shown(feature.properties)}\``);
    }
    if (has(feature, 'id') && typeof feature.id !== 'string' && typeof feature.id !== 'number') {
      throw this.#fail(`\`${path}.id\` must be a string or a number, found \`${shown(feature.id)}\``);
    }
    if (!has(feature, 'geometry')) throw this.#fail(`\`${path}.geometry\` is missing`);
    const geometry = feature.geometry;
    if (geometry === null) {
      if (alone) throw this.#fail(`\`${path}.geometry\` is null: a Feature without a geometry has no shape`);
      return;
    }
    if (!isObject(geometry)) throw this.#fail(`\`${path}.geometry\` must be an object or null, found \`${shown(geometry)}\``);
    const at = `${path}.geometry`;
    this.#geometry(geometry, at, this.#type(geometry, at, GEOMETRY_TYPES));
  }

  #featureCollection(collection: Json, path: string): void {
    this.#bbox(collection, path);
    const features = this.#array(this.#member(collection, path, 'features'), `${path}.features`);
    features.forEach((item, i) => {
      const at = `${path}.features[${i}]`;
      const feature = this.#object(item, at);
      this.#type(feature, at, ['Feature']);
      this.#feature(feature, at, false);
    });
  }

  #geometry(geometry: Json, path: string, type: string): void {
    this.#bbox(geometry, path);
    if (type === 'GeometryCollection') {
      const geometries = this.#array(this.#member(geometry, path, 'geometries'), `${path}.geometries`);
      geometries.forEach((item, i) => {
        const at = `${path}.geometries[${i}]`;
        const inner = this.#object(item, at);
        this.#geometry(inner, at, this.#type(inner, at, GEOMETRY_TYPES));
      });
      return;
    }
    const coordinates = this.#member(geometry, path, 'coordinates');
    const at = `${path}.coordinates`;
    const parts = this.#parts;
    switch (type) {
      case 'Point':
        parts.points.push(...this.#position(coordinates, at));
        return;
      case 'MultiPoint':
        for (const p of this.#positions(coordinates, at)) parts.points.push(p[0]!, p[1]!);
        return;
      case 'LineString':
        parts.line(this.#positions(coordinates, at).flat());
        return;
      case 'MultiLineString':
        this.#array(coordinates, at).forEach((line, i) => parts.line(this.#positions(line, `${at}[${i}]`).flat()));
        return;
      case 'Polygon':
        this.#polygon(coordinates, at);
        return;
      case 'MultiPolygon':
        this.#array(coordinates, at).forEach((polygon, i) => this.#polygon(polygon, `${at}[${i}]`));
        return;
    }
  }

  /** A polygon's rings: all checked, the exterior one kept. */
  #polygon(value: unknown, path: string): void {
    const rings = this.#array(value, path).map((ring, i) => this.#positions(ring, `${path}[${i}]`));
    if (rings.length > 0 && rings[0]!.length > 0) this.#parts.ring(rings[0]!.flat());
  }

  #positions(value: unknown, path: string): [number, number][] {
    return this.#array(value, path).map((p, i) => this.#position(p, `${path}[${i}]`));
  }

  #position(value: unknown, path: string): [number, number] {
    if (!Array.isArray(value) || value.length < 2 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      throw this.#fail(`\`${path}\` must be a position (an array of two or more numbers: longitude, latitude), found \`${shown(value)}\``);
    }
    return [value[0] as number, value[1] as number];
  }

  #bbox(object: Json, path: string): void {
    if (!has(object, 'bbox')) return;
    const bbox = object.bbox;
    if (!Array.isArray(bbox) || !bbox.every((n) => typeof n === 'number')) {
      throw this.#fail(`\`${path}.bbox\` must be an array of numbers, found \`${shown(bbox)}\``);
    }
  }

  #type(object: Json, path: string, allowed: readonly string[]): string {
    if (!has(object, 'type')) throw this.#fail(`\`${path}.type\` is missing`);
    const type = object.type;
    if (typeof type !== 'string') throw this.#fail(`\`${path}.type\` must be a string, found \`${shown(type)}\``);
    if (!allowed.includes(type)) {
      const list = allowed.map((t) => `\`${t}\``);
      const expected = list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
      throw this.#fail(`\`${path}.type\` is \`${type}\`, expected ${expected}`);
    }
    return type;
  }

  #member(object: Json, path: string, key: string): unknown {
    if (!has(object, key)) throw this.#fail(`\`${path}.${key}\` is missing`);
    return object[key];
  }

  #object(value: unknown, path: string): Json {
    if (!isObject(value)) throw this.#fail(`\`${path}\` must be an object, found \`${shown(value)}\``);
    return value;
  }

  #array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) throw this.#fail(`\`${path}\` must be an array, found \`${shown(value)}\``);
    return value;
  }

  #fail(detail: string): EngineError {
    return new EngineError('invalid_document_geojson_field', `The \`_geojson\` field in the document with the id: \`${this.#id}\` is not valid GeoJSON: ${detail}.`);
  }
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function has(object: Json, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** A value as it appears in a message: compact JSON, long ones cut. */
function shown(value: unknown): string {
  const json = compactJson(value);
  return json.length <= 80 ? json : `${json.slice(0, 77)}...`;
}
