// Geo filters over `_geojson` shapes (filters.md §6): the area of each filter as Meilisearch
// builds it, then the documents whose shape meets it (milli `in_shape`: a shape that crosses,
// contains or lies in the area), through the cells of geojson-grid.ts.
//
//   _geoPolygon([lat, lng], …)         the polygon, closed back to its first point
//   _geoBoundingBox([t, r], [b, l])    the polygon (r, t) (l, t) (l, b) (r, b): its top and bottom
//                                      edges are great-circle arcs from r westwards to l (across
//                                      the antimeridian when r < l); a box 180° wide or more keeps
//                                      them on the parallels (a single arc would take the short way)
//   _geoRadius(lat, lng, m, n)         the polygon of the n points at m metres from the centre,
//                                      bearings 0, 360/n, … (haversine destination): inscribed in
//                                      the circle, as in Meilisearch
//
// Every edge is a great-circle arc, densified (geojson-geometry.ts).
import { Bitmap } from '../bitmap/index.ts';
import type { Table } from '../store/index.ts';
import { boxOf, densifyLine, densifyRing, frameShifts, QUERY_TOLERANCE, Region, type Box } from './geojson-geometry.ts';
import { cellReach, column, decodeCellEntries, mortonRanges, row, SHAPE_LEVELS, wrapBox } from './geojson-grid.ts';
import { decodeShape, shapeParts, type Shape } from './geojson.ts';

/** The area of a geo filter, as plain data. */
export type ShapeQuery =
  | { kind: 'polygon'; points: readonly (readonly [lat: number, lng: number])[] }
  | { kind: 'box'; top: number; right: number; bottom: number; left: number }
  | { kind: 'circle'; lat: number; lng: number; meters: number; resolution: number };

/** The tables a shape query reads. */
export interface ShapeTables {
  geojsonShapes: Pick<Table<number, Uint8Array>, 'get'>;
  geojsonCells: Pick<Table<[number, number], Uint8Array>, 'entries'>;
}

/** geo's mean Earth radius, used by its haversine destination. */
const MEAN_EARTH_RADIUS_M = 6371008.8;
const RAD = Math.PI / 180;

/** The area of a query. */
export function queryRegion(q: ShapeQuery): Region {
  switch (q.kind) {
    case 'polygon': {
      const coords = q.points.flatMap(([lat, lng]) => [lng, lat]);
      const n = coords.length;
      if (n >= 4 && coords[0] === coords[n - 2] && coords[1] === coords[n - 1]) coords.length -= 2;
      return new Region(densifyRing(coords, QUERY_TOLERANCE));
    }
    case 'box': {
      const { top, right, bottom, left } = q;
      const width = right >= left ? right - left : right - left + 360;
      const west = right - width;
      if (width >= 180) return new Region([right, top, west, top, west, bottom, right, bottom], [west, bottom, right, top]);
      // the top and bottom arcs bulge towards the pole; the sides are meridians
      const upper = densifyLine([right, top, west, top], QUERY_TOLERANCE);
      const lower = densifyLine([west, bottom, right, bottom], QUERY_TOLERANCE);
      let innerTop = Infinity;
      let innerBottom = -Infinity;
      for (let i = 1; i < upper.length; i += 2) innerTop = Math.min(innerTop, upper[i]!);
      for (let i = 1; i < lower.length; i += 2) innerBottom = Math.max(innerBottom, lower[i]!);
      return new Region([...upper, ...lower], innerBottom <= innerTop ? [west, innerBottom, right, innerTop] : null);
    }
    case 'circle': {
      const ring: number[] = [];
      for (let i = 0; i < q.resolution; i++) ring.push(...destination(q.lat, q.lng, (360 * i) / q.resolution, q.meters));
      return new Region(densifyRing(ring, QUERY_TOLERANCE));
    }
  }
}

/** The point at `meters` from (lat, lng) along `bearing` (degrees from north), as [lng, lat]. */
function destination(lat: number, lng: number, bearing: number, meters: number): [number, number] {
  const phi = lat * RAD;
  const theta = bearing * RAD;
  const delta = meters / MEAN_EARTH_RADIUS_M;
  const phi2 = Math.asin(Math.sin(phi) * Math.cos(delta) + Math.cos(phi) * Math.sin(delta) * Math.cos(theta));
  const lambda2 = lng * RAD + Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi), Math.cos(delta) - Math.sin(phi) * Math.sin(phi2));
  return [lambda2 / RAD, phi2 / RAD];
}

/** The shape meets the area (in some frame: shifted by a multiple of 360° of longitude). */
export function regionMeetsShape(region: Region, shape: Shape): boolean {
  for (const [kind, from, to] of shapeParts(shape)) {
    const [w, s, e, n] = boxOf(shape.coords, from, to);
    if (n < region.south || s > region.north) continue;
    for (const shift of frameShifts(w, e, region.west, region.east)) {
      if (region.meetsPart(kind, shape.coords, from, to, shift)) return true;
    }
  }
  return false;
}

/** The documents whose shape meets the area of `query`. */
export function shapeDocids(t: ShapeTables, query: ShapeQuery): Bitmap {
  const region = queryRegion(query);
  const accepted = new Set<number>();
  const doubtful = new Set<number>();
  const visited = new Set<string>();
  for (const piece of wrapBox([region.west, region.south, region.east, region.north])) {
    const [w, s, e, n] = piece;
    for (const level of SHAPE_LEVELS) {
      for (const [from, to] of mortonRanges(level, column(level, w), column(level, e), row(level, s), row(level, n))) {
        for (const [key, bytes] of t.geojsonCells.entries({ start: [level, from], end: [level, to] })) {
          const id = `${key[0]}/${key[1]}`;
          if (visited.has(id)) continue;
          visited.add(id);
          classify(region, key[0], key[1], bytes, accepted, doubtful);
        }
      }
    }
  }
  const ids = [...accepted];
  for (const id of doubtful) {
    if (accepted.has(id)) continue;
    const bytes = t.geojsonShapes.get(id);
    if (bytes !== undefined && regionMeetsShape(region, decodeShape(bytes))) ids.push(id);
  }
  return Bitmap.from(ids.sort((a, b) => a - b));
}

/**
 * Sorts a cell's entries: box in the area → accepted, box meeting the area's box → doubtful. When
 * the cell's reach (every box filed in it lies within) is in the area, all its entries are taken.
 */
function classify(region: Region, level: number, cell: number, bytes: Uint8Array, accepted: Set<number>, doubtful: Set<number>): void {
  const { count, ids, boxes } = decodeCellEntries(bytes);
  if (level > 0 && within(region, cellReach(level, cell))) {
    for (let i = 0; i < count; i++) accepted.add(ids[5 * i]!);
    return;
  }
  for (let i = 0, at = 0; i < count; i++, at += 5) {
    const id = ids[at]!;
    if (accepted.has(id)) continue;
    const w = boxes[at + 1]!;
    const s = boxes[at + 2]!;
    const e = boxes[at + 3]!;
    const n = boxes[at + 4]!;
    if (n < region.south || s > region.north) continue;
    for (const shift of frameShifts(w, e, region.west, region.east)) {
      if (region.containsBox(w + shift, s, e + shift, n)) {
        accepted.add(id);
        break;
      }
      doubtful.add(id);
    }
  }
}

/** The box lies in the area, in some frame. */
function within(region: Region, [w, s, e, n]: Box): boolean {
  if (s < region.south || n > region.north) return false;
  for (const shift of frameShifts(w, e, region.west, region.east)) if (region.containsBox(w + shift, s, e + shift, n)) return true;
  return false;
}
