// Geo queries over the grid (geo-grid.ts): radius and bounding box walk the cells from the top
// level, taking the bitmap of a cell wholly inside, skipping a cell wholly outside and refining
// the others down to the leaf cells, whose points are checked one by one. The nearest-first walk
// is a best-first search over the same cells ordered by a lower bound of their distance.
import { Bitmap } from '../bitmap/index.ts';
import type { FacetTables } from '../index/facet-layout.ts';
import { decodeBitmap, decodeCellPoints, decodePoint, type CellPoints } from './codec.ts';
import {
  cellBounds,
  cellDistanceBounds,
  cellWithin,
  firstChild,
  GRID_LEVELS,
  haversineMeters,
  LEAF_LEVEL,
  OUTLIERS_LEVEL,
  TOP_LEVEL,
  type CellBounds,
} from './geo-grid.ts';

type Verdict = 'in' | 'out' | 'cut';

/** A shape the cell walk can decide on. */
interface Shape {
  cell(b: CellBounds): Verdict;
  point(lat: number, lng: number): boolean;
}

function nextLevel(level: number): number {
  return GRID_LEVELS[GRID_LEVELS.indexOf(level) + 1]!;
}

/**
 * The cells of a level between two Morton codes (keys [level, cell]), keys only: most cells a walk meets are decided
 * from their bounds alone, so their bytes (the bitmaps of the upper levels are large) are read,
 * with `cellBytes`, only for the cells that need them.
 */
function cellsIn(t: FacetTables, level: number, from: number, to: number): Iterable<[number, number]> {
  return t.geoCells.keys({ start: [level, from], end: [level, to] });
}

function cellBytes(t: FacetTables, level: number, cell: number): Uint8Array {
  return t.geoCells.get([level, cell])!;
}

function shapeDocids(t: FacetTables, shape: Shape): Bitmap {
  const parts: Bitmap[] = [];
  const ids: number[] = [];
  const points = (p: CellPoints) => {
    for (let i = 0; i < p.ids.length; i++) if (shape.point(p.lats[i]!, p.lngs[i]!)) ids.push(p.ids[i]!);
  };
  const visit = (level: number, from: number, to: number) => {
    for (const [, cell] of cellsIn(t, level, from, to)) {
      const verdict = shape.cell(cellBounds(level, cell));
      if (verdict === 'out') continue;
      if (level === LEAF_LEVEL) {
        const p = decodeCellPoints(cellBytes(t, level, cell));
        if (verdict === 'in') for (const id of p.ids) ids.push(id);
        else points(p);
      } else if (verdict === 'in') parts.push(decodeBitmap(cellBytes(t, level, cell)));
      else visit(nextLevel(level), firstChild(cell), firstChild(cell) + 16);
    }
  };
  visit(TOP_LEVEL, 0, 2 ** 32);
  const outliers = t.geoCells.get([OUTLIERS_LEVEL, 0]);
  if (outliers !== undefined) points(decodeCellPoints(outliers));
  if (ids.length > 0) parts.push(Bitmap.from(ids));
  if (parts.length === 0) return new Bitmap();
  return parts.length === 1 ? parts[0]! : Bitmap.orMany(parts);
}

/** Documents whose point is within `meters` of (lat, lng) (milli: distance ≤ radius + f64 epsilon). */
export function geoRadius(t: FacetTables, lat: number, lng: number, meters: number): Bitmap {
  const limit = meters + Number.EPSILON;
  return shapeDocids(t, {
    cell: (b) => {
      const [min] = cellDistanceBounds(lat, lng, b);
      if (min > limit) return 'out';
      return cellWithin(lat, lng, b, limit) ? 'in' : 'cut';
    },
    point: (plat, plng) => haversineMeters(lat, lng, plat, plng) <= limit,
  });
}

/** Documents whose point lies in the box (inclusive bounds; `right < left` crosses the antimeridian). */
export function geoBox(t: FacetTables, top: number, right: number, bottom: number, left: number): Bitmap {
  const lngIn = right < left ? (lng: number) => lng >= left || lng <= right : (lng: number) => lng >= left && lng <= right;
  const lngVerdict = (b: CellBounds): Verdict => {
    const inside = (from: number, to: number) => b.west >= from && b.east <= to;
    const outside = (from: number, to: number) => b.east < from || b.west > to;
    if (right < left) {
      if (inside(left, 180) || inside(-180, right)) return 'in';
      return outside(left, 180) && outside(-180, right) ? 'out' : 'cut';
    }
    if (inside(left, right)) return 'in';
    return outside(left, right) ? 'out' : 'cut';
  };
  return shapeDocids(t, {
    cell: (b) => {
      if (b.north < bottom || b.south > top) return 'out';
      const lng = lngVerdict(b);
      if (lng === 'out') return 'out';
      return lng === 'in' && b.south >= bottom && b.north <= top ? 'in' : 'cut';
    },
    point: (plat, plng) => plat >= bottom && plat <= top && lngIn(plng),
  });
}

/** A bound on one coordinate. */
export interface AxisBound {
  value: number;
  inclusive: boolean;
}

/**
 * Documents whose latitude (axis 0) or longitude (axis 1) lies between the bounds: milli's
 * `_geo.lat` / `_geo.lng` facet numbers, answered from the grid instead of being stored twice.
 */
export function geoAxisRange(t: FacetTables, axis: 0 | 1, lo: AxisBound | null, hi: AxisBound | null): Bitmap {
  const above = (v: number) => lo === null || (lo.inclusive ? v >= lo.value : v > lo.value);
  const below = (v: number) => hi === null || (hi.inclusive ? v <= hi.value : v < hi.value);
  return shapeDocids(t, {
    cell: (b) => {
      const [from, to] = axis === 0 ? [b.south, b.north] : [b.west, b.east];
      if ((lo !== null && to < lo.value) || (hi !== null && from > hi.value)) return 'out';
      return above(from) && below(to) ? 'in' : 'cut';
    },
    point: (lat, lng) => {
      const v = axis === 0 ? lat : lng;
      return above(v) && below(v);
    },
  });
}

/** Every document having a point. */
export function geoAll(t: FacetTables): Bitmap {
  return geoAxisRange(t, 0, null, null);
}

/** The distinct values of one coordinate in order, with their documents (of `within`). */
export function* geoAxisValues(t: FacetTables, axis: 0 | 1, desc: boolean, within?: Bitmap): Generator<[number, Bitmap]> {
  const byValue = new Map<number, number[]>();
  for (const [id, bytes] of t.geoPoints.entries()) {
    if (within !== undefined && !within.has(id)) continue;
    const v = decodePoint(bytes)[axis];
    const ids = byValue.get(v);
    if (ids === undefined) byValue.set(v, [id]);
    else ids.push(id);
  }
  const values = [...byValue.keys()].sort((a, b) => (desc ? b - a : a - b));
  for (const v of values) yield [v, Bitmap.from(byValue.get(v)!)];
}

export function geoPoint(t: FacetTables, docid: number): [number, number] | undefined {
  const bytes = t.geoPoints.get(docid);
  return bytes === undefined ? undefined : decodePoint(bytes);
}

/** Below this many candidates, distances are computed from the points table directly. */
const DIRECT = 512;

/**
 * Documents of `within` having a point, by distance to (lat, lng): nearest first (`asc`) or
 * farthest first (`desc`), lazily. Ties keep internal id order.
 */
export function* geoNearest(t: FacetTables, lat: number, lng: number, within: Bitmap, order: 'asc' | 'desc' = 'asc'): Generator<[number, number]> {
  if (within.size === 0) return;
  const sign = order === 'asc' ? 1 : -1;
  if (within.size <= DIRECT) {
    const found: [number, number][] = [];
    for (const id of within) {
      const p = geoPoint(t, id);
      if (p) found.push([id, haversineMeters(lat, lng, p[0], p[1])]);
    }
    found.sort((a, b) => sign * (a[1] - b[1]) || a[0] - b[0]);
    yield* found;
    return;
  }
  // entries: cells (priority = bound of their distance) and points (priority = their distance);
  // a point is yielded once nothing left in the heap can come before it
  const heap = new Heap();
  // a cell is read, and its documents checked against `within`, when it comes out of the heap, not
  // when it goes in: most cells pushed are never popped (a cell holding none of them yields nothing
  // either way)
  const pushCells = (level: number, from: number, to: number) => {
    for (const [, cell] of cellsIn(t, level, from, to)) {
      const [min, max] = cellDistanceBounds(lat, lng, cellBounds(level, cell));
      heap.push(sign * (order === 'asc' ? min : max), CELL, level, cell);
    }
  };
  const pushPoints = (p: CellPoints) => {
    for (let i = 0; i < p.ids.length; i++) {
      const id = p.ids[i]!;
      if (within.has(id)) heap.push(sign * haversineMeters(lat, lng, p.lats[i]!, p.lngs[i]!), POINT, 0, id);
    }
  };
  pushCells(TOP_LEVEL, 0, 2 ** 32);
  const outliers = t.geoCells.get([OUTLIERS_LEVEL, 0]);
  if (outliers !== undefined) pushPoints(decodeCellPoints(outliers));
  while (heap.size > 0) {
    heap.pop();
    const { kind, level, id } = heap;
    if (kind === POINT) yield [id, sign * heap.priority];
    else if (level === LEAF_LEVEL) pushPoints(decodeCellPoints(cellBytes(t, level, id)));
    else if (decodeBitmap(cellBytes(t, level, id)).intersects(within)) pushCells(nextLevel(level), firstChild(id), firstChild(id) + 16);
  }
}

const CELL = 0;
const POINT = 1;

/**
 * Binary min-heap on (priority, cells before points, id), its entries in typed arrays (a sort
 * pushes thousands of cells and points: no object per entry). `pop` leaves the entry it removed
 * in `priority`, `kind`, `level` and `id`.
 */
class Heap {
  #priorities = new Float64Array(1024);
  #kinds = new Uint8Array(1024);
  #levels = new Uint8Array(1024);
  /** cell or document ids */
  #ids = new Float64Array(1024);
  #size = 0;
  priority = 0;
  kind = 0;
  level = 0;
  id = 0;

  get size(): number {
    return this.#size;
  }

  push(priority: number, kind: number, level: number, id: number): void {
    if (this.#size === this.#priorities.length) this.#grow();
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#before(priority, kind, id, parent)) break;
      this.#move(parent, i);
      i = parent;
    }
    this.#set(i, priority, kind, level, id);
  }

  pop(): void {
    this.priority = this.#priorities[0]!;
    this.kind = this.#kinds[0]!;
    this.level = this.#levels[0]!;
    this.id = this.#ids[0]!;
    const n = --this.#size;
    if (n === 0) return;
    // the last entry sinks from the root
    const priority = this.#priorities[n]!;
    const kind = this.#kinds[n]!;
    const level = this.#levels[n]!;
    const id = this.#ids[n]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = -1;
      if (l < n && this.#before(this.#priorities[l]!, this.#kinds[l]!, this.#ids[l]!, -1, priority, kind, id)) m = l;
      if (r < n && (m === l ? this.#before(this.#priorities[r]!, this.#kinds[r]!, this.#ids[r]!, l) : this.#before(this.#priorities[r]!, this.#kinds[r]!, this.#ids[r]!, -1, priority, kind, id))) m = r;
      if (m < 0) break;
      this.#move(m, i);
      i = m;
    }
    this.#set(i, priority, kind, level, id);
  }

  /**
   * (priority, kind, id) comes before entry `j`, or before the given entry when `j` is −1. A cell
   * with the same bound as a point may hold a point at that very distance: cells first, so equal
   * distances come out in id order.
   */
  #before(priority: number, kind: number, id: number, j: number, bp = this.#priorities[j]!, bk = this.#kinds[j]!, bi = this.#ids[j]!): boolean {
    if (priority !== bp) return priority < bp;
    if (kind !== bk) return kind === CELL;
    return id < bi;
  }

  #move(from: number, to: number): void {
    this.#priorities[to] = this.#priorities[from]!;
    this.#kinds[to] = this.#kinds[from]!;
    this.#levels[to] = this.#levels[from]!;
    this.#ids[to] = this.#ids[from]!;
  }

  #set(i: number, priority: number, kind: number, level: number, id: number): void {
    this.#priorities[i] = priority;
    this.#kinds[i] = kind;
    this.#levels[i] = level;
    this.#ids[i] = id;
  }

  #grow(): void {
    const grow = <T extends Float64Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.#priorities = grow(this.#priorities);
    this.#kinds = grow(this.#kinds);
    this.#levels = grow(this.#levels);
    this.#ids = grow(this.#ids);
  }
}
