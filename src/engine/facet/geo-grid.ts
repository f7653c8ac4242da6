// The spatial grid of `_geo` points (docs/decisions/0004) and the distance milli uses.
//
//   level l: 2^l columns over lng [-180, 180] × 2^l rows over lat [-90, 90]; a cell is the Morton
//   code of (column, row), so the 16 cells of level l + 2 inside cell m are m·16 … m·16 + 15
//
//   stored levels      4        6       8       10      12 (leaf)
//   cell height     1250 km   310 km   78 km   20 km   4.9 km   (twice as wide at the equator)
//
// Levels 4–10 hold bitmaps; leaf cells hold the points (id, lat, lng) so that a query checks the
// points of the cells its boundary crosses without one read per document. Finer levels would
// mostly hold one point per cell (as many entries as points, for little pruning). Points outside the
// valid ranges (milli accepts any finite number) live in one OUTLIERS cell, always checked.

export const GRID_LEVELS: readonly number[] = [4, 6, 8, 10, 12];
export const TOP_LEVEL = 4;
export const LEAF_LEVEL = 12;
/** A pseudo-level holding the points outside lat [-90, 90] or lng [-180, 180]. */
export const OUTLIERS_LEVEL = 255;

const EARTH_RADIUS_M = 6371e3;
const RAD = Math.PI / 180;

/**
 * Haversine distance in meters, as milli computes it (geoutils' `haversine_distance_to`: Earth
 * radius 6 371 000 m, rounded to the millimetre).
 */
export function haversineMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const phi1 = lat1 * RAD;
  const phi2 = lat2 * RAD;
  const havPhi = (1 - Math.cos(phi2 - phi1)) / 2;
  const havLambda = Math.cos(phi1) * Math.cos(phi2) * ((1 - Math.cos(lng2 * RAD - lng1 * RAD)) / 2);
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(havPhi + havLambda)) * 1000) / 1000;
}

export function isOutlier(lat: number, lng: number): boolean {
  return !(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180);
}

/** Spreads the 16 low bits of `v` to the even bits of a 32-bit number. */
export function spread(v: number): number {
  v &= 0xffff;
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v >>> 0;
}

function compact(v: number): number {
  v &= 0x55555555;
  v = (v | (v >>> 1)) & 0x33333333;
  v = (v | (v >>> 2)) & 0x0f0f0f0f;
  v = (v | (v >>> 4)) & 0x00ff00ff;
  v = (v | (v >>> 8)) & 0x0000ffff;
  return v;
}

/** The Morton code of the cell of level `level` holding a valid point. */
export function cellOf(level: number, lat: number, lng: number): number {
  const n = 2 ** level;
  const x = Math.min(n - 1, Math.floor(((lng + 180) / 360) * n));
  const y = Math.min(n - 1, Math.floor(((lat + 90) / 180) * n));
  return spread(x) + spread(y) * 2;
}

/** The leaf cell of a point and its ancestors, one per stored level (top first). */
export function cellsOf(lat: number, lng: number): number[] {
  const leaf = cellOf(LEAF_LEVEL, lat, lng);
  return GRID_LEVELS.map((l) => Math.floor(leaf / 4 ** (LEAF_LEVEL - l)));
}

export interface CellBounds {
  south: number;
  north: number;
  west: number;
  east: number;
}

export function cellBounds(level: number, cell: number): CellBounds {
  const n = 2 ** level;
  const x = compact(cell % 2 ** 32);
  const y = compact(Math.floor(cell / 2));
  const w = 360 / n;
  const h = 180 / n;
  return { south: -90 + y * h, north: -90 + (y + 1) * h, west: -180 + x * w, east: -180 + (x + 1) * w };
}

/** The first child cell at the next stored level (children are first … first + 15). */
export function firstChild(cell: number): number {
  return cell * 16;
}

// Cell bounds computed with the same rounded haversine as the points may be off by a millimetre:
// decisions taken on cells keep this margin, points are always checked exactly.
const MARGIN_M = 0.01;

/** Lower and upper bounds of the distance from (lat, lng) to the points of a cell. */
export function cellDistanceBounds(lat: number, lng: number, b: CellBounds): [min: number, max: number] {
  const cLat = (b.south + b.north) / 2;
  const cLng = (b.west + b.east) / 2;
  const center = haversineMeters(lat, lng, cLat, cLng);
  // from its center the farthest point of a cell narrower than 90° of longitude is a corner
  const radius = Math.max(
    haversineMeters(cLat, cLng, b.south, b.west),
    haversineMeters(cLat, cLng, b.north, b.west),
    haversineMeters(cLat, cLng, b.south, b.east),
    haversineMeters(cLat, cLng, b.north, b.east),
  );
  const min = inLngRange(lng, b) && lat >= b.south && lat <= b.north ? 0 : Math.max(0, center - radius - MARGIN_M);
  return [min, center + radius + MARGIN_M];
}

/** True when every point of the cell is within `meters` of (lat, lng). */
export function cellWithin(lat: number, lng: number, b: CellBounds, meters: number): boolean {
  // the distance to a cell's points peaks at a corner when the cell lies within 90° of longitude
  if (lngGap(lng, b.west) > 90 || lngGap(lng, b.east) > 90) return false;
  const limit = meters - MARGIN_M;
  return (
    haversineMeters(lat, lng, b.south, b.west) <= limit &&
    haversineMeters(lat, lng, b.north, b.west) <= limit &&
    haversineMeters(lat, lng, b.south, b.east) <= limit &&
    haversineMeters(lat, lng, b.north, b.east) <= limit
  );
}

function inLngRange(lng: number, b: CellBounds): boolean {
  return lng >= b.west && lng <= b.east;
}

/** Absolute longitude difference, wrapped to [0, 180]. */
function lngGap(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}
