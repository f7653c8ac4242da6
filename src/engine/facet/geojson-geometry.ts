// Geometry of `_geojson` shapes and of the areas geo filters test them against (filters.md §6).
//
// Meilisearch reads every edge as a great-circle arc: it densifies document shapes (10 km steps)
// and filter polygons (1 km) along the haversine great circle, then tests them as plane figures
// in (lng, lat). Here the same: an edge is cut until its chords stay within TOLERANCE degrees of
// the arc, then every test is planar in (lng, lat) degrees.
//
//   longitudes are unwrapped: each vertex is moved by a multiple of 360° to lie within 180° of
//   the previous one, so an edge takes the short way (across the antimeridian if need be) and a
//   figure stays connected; a figure is tested against an area in every frame (shift by k·360°)
//   where their boxes meet
//
//   a ring that winds around a pole (its closing vertex lands 360° away from its first one, like
//   Natural Earth's Antarctica) is closed along that pole: (end, ±90) (start, ±90)
//
// Figures are closed sets: touching counts as intersecting. An area (`Region`) is one ring,
// indexed by latitude bands so that a test reads only the edges near the figure's edges.

/**
 * Chords of a document's arcs stay within this many degrees of them (about 3 m: Meilisearch's
 * 10 km steps stray about 2 m, for as many vertices); a filter's, within QUERY_TOLERANCE (10 cm).
 */
export const TOLERANCE = 3e-5;
export const QUERY_TOLERANCE = 1e-6;
/** An edge is cut at most 2^MAX_DEPTH times. */
const MAX_DEPTH = 12;
const RAD = Math.PI / 180;

/** `lng` moved by a multiple of 360° to lie within 180° of `reference`. */
export function unwrap(lng: number, reference: number): number {
  return lng + 360 * Math.round((reference - lng) / 360);
}

/**
 * Appends to `out` (lng, lat pairs) the vertices after (lng0, lat0) of the great-circle arc to
 * (lng1, lat1), the end included; `lng1` is already unwrapped (within 180° of `lng0`).
 */
export function appendArc(out: number[], lng0: number, lat0: number, lng1: number, lat1: number, tolerance = TOLERANCE): void {
  arc(out, lng0, lat0, lng1, lat1, tolerance, 0);
}

function arc(out: number[], lng0: number, lat0: number, lng1: number, lat1: number, tolerance: number, depth: number): void {
  if (depth >= MAX_DEPTH || (lng0 === lng1 && lat0 === lat1)) {
    out.push(lng1, lat1);
    return;
  }
  // the midpoint of the arc: the normalized sum of the two unit vectors
  const c0 = Math.cos(lat0 * RAD);
  const c1 = Math.cos(lat1 * RAD);
  const x = c0 * Math.cos(lng0 * RAD) + c1 * Math.cos(lng1 * RAD);
  const y = c0 * Math.sin(lng0 * RAD) + c1 * Math.sin(lng1 * RAD);
  const z = Math.sin(lat0 * RAD) + Math.sin(lat1 * RAD);
  const h = Math.hypot(x, y);
  if (h + Math.abs(z) < 1e-12) {
    // antipodal ends: no single great circle; keep the chord
    out.push(lng1, lat1);
    return;
  }
  if (h < 1e-12) {
    // the arc passes over a pole: up one meridian, along the pole, down the other
    const pole = z > 0 ? 90 : -90;
    out.push(lng0, pole, lng1, pole, lng1, lat1);
    return;
  }
  const midLng = (lng0 + lng1) / 2;
  const lngM = unwrap(Math.atan2(y, x) / RAD, midLng);
  const latM = Math.atan2(z, h) / RAD;
  if (Math.abs(lngM - midLng) <= tolerance && Math.abs(latM - (lat0 + lat1) / 2) <= tolerance) {
    out.push(lng1, lat1);
    return;
  }
  arc(out, lng0, lat0, lngM, latM, tolerance, depth + 1);
  arc(out, lngM, latM, lng1, lat1, tolerance, depth + 1);
}

/** A line's vertices (lng, lat pairs), unwrapped and densified along great circles. */
export function densifyLine(coords: readonly number[], tolerance = TOLERANCE): number[] {
  if (coords.length === 0) return [];
  const out = [coords[0]!, coords[1]!];
  for (let i = 2; i < coords.length; i += 2) {
    const lng0 = out[out.length - 2]!;
    const lat0 = out[out.length - 1]!;
    appendArc(out, lng0, lat0, unwrap(coords[i]!, lng0), coords[i + 1]!, tolerance);
  }
  return out;
}

/**
 * A ring's vertices (lng, lat pairs, open: the closing edge back to the first vertex is implied),
 * unwrapped and densified along great circles; a ring winding around a pole is closed along it.
 */
export function densifyRing(coords: readonly number[], tolerance = TOLERANCE): number[] {
  const n = coords.length;
  if (n === 0) return [];
  const out = densifyLine(coords, tolerance);
  const lastLng = out[out.length - 2]!;
  const lastLat = out[out.length - 1]!;
  const closeLng = unwrap(coords[0]!, lastLng);
  if (Math.abs(closeLng - out[0]!) < 1e-9) {
    appendArc(out, lastLng, lastLat, closeLng, coords[1]!, tolerance);
    // the closing vertex is the first one again
    out.length -= 2;
    return out;
  }
  // winds around a pole: the one on the side where most of the ring lies
  let latSum = 0;
  for (let i = 1; i < n; i += 2) latSum += coords[i]!;
  const pole = latSum >= 0 ? 90 : -90;
  appendArc(out, lastLng, lastLat, closeLng, coords[1]!, tolerance);
  out.push(closeLng, pole, out[0]!, pole);
  return out;
}

/** A box: west, south, east, north. */
export type Box = [west: number, south: number, east: number, north: number];

/** The box of (lng, lat) pairs `coords[from, to)`. */
export function boxOf(coords: ArrayLike<number>, from = 0, to = coords.length): Box {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (let i = from; i < to; i += 2) {
    const x = coords[i]!;
    const y = coords[i + 1]!;
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return [w, s, e, n];
}

/** The shifts k·360 that make [west, east] meet [areaWest, areaEast]. */
export function frameShifts(west: number, east: number, areaWest: number, areaEast: number): number[] {
  const from = Math.ceil((areaWest - east) / 360);
  const to = Math.floor((areaEast - west) / 360);
  const shifts: number[] = [];
  for (let k = from; k <= to && shifts.length < 8; k++) shifts.push(k * 360);
  return shifts;
}

// ─── planar predicates ─────────────────────────────────────────────────────────────────────

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** (px, py), collinear with segment ab, lies on it. */
function within(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
}

/** The closed segments ab and cd meet. */
export function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay);
  const d2 = orient(cx, cy, dx, dy, bx, by);
  const d3 = orient(ax, ay, bx, by, cx, cy);
  const d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && within(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && within(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && within(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && within(ax, ay, bx, by, dx, dy))
  );
}

/** The closed segment ab meets the closed box. */
export function segmentMeetsBox(ax: number, ay: number, bx: number, by: number, w: number, s: number, e: number, n: number): boolean {
  // Liang–Barsky clipping of the segment's parameter range to the box
  let t0 = 0;
  let t1 = 1;
  const dx = bx - ax;
  const dy = by - ay;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dx, ax - w) && clip(dx, e - ax) && clip(-dy, ay - s) && clip(dy, n - ay) && t0 <= t1;
}

/**
 * (px, py) lies in the closed ring `coords[from, to)` (lng, lat pairs, implicitly closed), shifted
 * by `shift` in longitude: on an edge, or inside by the even-odd rule.
 */
export function ringContains(coords: ArrayLike<number>, from: number, to: number, shift: number, px: number, py: number): boolean {
  let inside = false;
  for (let i = from, j = to - 2; i < to; j = i, i += 2) {
    const ax = coords[j]! + shift;
    const ay = coords[j + 1]!;
    const bx = coords[i]! + shift;
    const by = coords[i + 1]!;
    if (orient(ax, ay, bx, by, px, py) === 0 && within(ax, ay, bx, by, px, py)) return true;
    if (ay > py !== by > py && px < ax + ((py - ay) * (bx - ax)) / (by - ay)) inside = !inside;
  }
  return inside;
}

// ─── the area of a filter ─────────────────────────────────────────────────────────────────

/** A closed area: one ring (lng unwrapped), its edges indexed by latitude bands. */
export class Region {
  readonly ring: Float64Array;
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
  /** a box known to lie in the area (a filter's box: between its bulging edges), if any */
  readonly inner: Box | null;
  readonly #bandHeight: number;
  readonly #bandCount: number;
  /** band b holds the edges (index of their first vertex) whose latitudes meet it */
  readonly #bands: Int32Array[];

  /** `ring`: lng, lat pairs (at least one vertex), the closing edge implied; `inner`: a box inside it. */
  constructor(ring: readonly number[], inner: Box | null = null) {
    this.ring = Float64Array.from(ring);
    this.inner = inner;
    [this.west, this.south, this.east, this.north] = boxOf(this.ring);
    this.#bandCount = Math.max(1, Math.min(4096, Math.floor(this.ring.length / 8)));
    this.#bandHeight = (this.north - this.south) / this.#bandCount || 1;
    const lists: number[][] = Array.from({ length: this.#bandCount }, () => []);
    for (let i = 0; i < this.ring.length; i += 2) {
      const j = i + 2 < this.ring.length ? i + 2 : 0;
      const [b0, b1] = this.#bandRange(Math.min(this.ring[i + 1]!, this.ring[j + 1]!), Math.max(this.ring[i + 1]!, this.ring[j + 1]!));
      for (let b = b0; b <= b1; b++) lists[b]!.push(i);
    }
    this.#bands = lists.map((l) => Int32Array.from(l));
  }

  #bandRange(lo: number, hi: number): [number, number] {
    const last = this.#bandCount - 1;
    const b0 = Math.max(0, Math.min(last, Math.floor((lo - this.south) / this.#bandHeight)));
    const b1 = Math.max(0, Math.min(last, Math.floor((hi - this.south) / this.#bandHeight)));
    return [b0, b1];
  }

  /** (px, py) lies in the area (closed). */
  contains(px: number, py: number): boolean {
    if (px < this.west || px > this.east || py < this.south || py > this.north) return false;
    const r = this.ring;
    const [b] = this.#bandRange(py, py);
    let inside = false;
    for (const i of this.#bands[b]!) {
      const j = i + 2 < r.length ? i + 2 : 0;
      const ax = r[i]!;
      const ay = r[i + 1]!;
      const bx = r[j]!;
      const by = r[j + 1]!;
      if (orient(ax, ay, bx, by, px, py) === 0 && within(ax, ay, bx, by, px, py)) return true;
      if (ay > py !== by > py && px < ax + ((py - ay) * (bx - ax)) / (by - ay)) inside = !inside;
    }
    return inside;
  }

  /** The closed segment ab meets an edge of the area. */
  crossesSegment(ax: number, ay: number, bx: number, by: number): boolean {
    const w = Math.min(ax, bx);
    const e = Math.max(ax, bx);
    const s = Math.min(ay, by);
    const n = Math.max(ay, by);
    if (e < this.west || w > this.east || n < this.south || s > this.north) return false;
    const r = this.ring;
    const [b0, b1] = this.#bandRange(s, n);
    for (let b = b0; b <= b1; b++) {
      for (const i of this.#bands[b]!) {
        const j = i + 2 < r.length ? i + 2 : 0;
        const cx = r[i]!;
        const cy = r[i + 1]!;
        const dx = r[j]!;
        const dy = r[j + 1]!;
        if (Math.max(cx, dx) < w || Math.min(cx, dx) > e || Math.max(cy, dy) < s || Math.min(cy, dy) > n) continue;
        if (segmentsMeet(ax, ay, bx, by, cx, cy, dx, dy)) return true;
      }
    }
    return false;
  }

  /**
   * The closed box lies in the area (same frame). May answer false for a box that does lie in it
   * when an edge of the area touches the box: callers then test the figure itself.
   */
  containsBox(w: number, s: number, e: number, n: number): boolean {
    if (w < this.west || e > this.east || s < this.south || n > this.north) return false;
    const inner = this.inner;
    if (inner !== null && w >= inner[0] && s >= inner[1] && e <= inner[2] && n <= inner[3]) return true;
    if (!this.contains(w, s) || !this.contains(e, s) || !this.contains(w, n) || !this.contains(e, n)) return false;
    const r = this.ring;
    const [b0, b1] = this.#bandRange(s, n);
    for (let b = b0; b <= b1; b++) {
      for (const i of this.#bands[b]!) {
        const j = i + 2 < r.length ? i + 2 : 0;
        if (segmentMeetsBox(r[i]!, r[i + 1]!, r[j]!, r[j + 1]!, w, s, e, n)) return false;
      }
    }
    return true;
  }

  /** The area meets a part of a figure: a point, a line or a ring `coords[from, to)`, shifted by `shift`. */
  meetsPart(kind: PartKind, coords: ArrayLike<number>, from: number, to: number, shift: number): boolean {
    if (kind === 'point' || to - from === 2) return this.contains(coords[from]! + shift, coords[from + 1]!);
    const closed = kind === 'ring';
    const lastEdge = closed ? to : to - 2;
    for (let i = from; i < lastEdge; i += 2) {
      const j = i + 2 < to ? i + 2 : from;
      if (this.crossesSegment(coords[i]! + shift, coords[i + 1]!, coords[j]! + shift, coords[j + 1]!)) return true;
    }
    // no edges meet: the figure lies inside the area, the area inside the figure, or apart
    if (this.contains(coords[from]! + shift, coords[from + 1]!)) return true;
    return closed && ringContains(coords, from, to, shift, this.ring[0]!, this.ring[1]!);
  }
}

export type PartKind = 'point' | 'line' | 'ring';
