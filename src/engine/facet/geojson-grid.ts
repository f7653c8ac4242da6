// Where `_geojson` shapes are filed (geojson-cells table), so that a geo filter reads the shapes
// near its area instead of every shape:
//
//   level l: 2^l columns over lng [-180, 180] × 2^l rows over lat [-90, 90] (as the `_geo` grid,
//   geo-grid.ts); a cell is the Morton code of (column, row)
//
//   levels      0        2       4       6       8      10      12
//   cell     world    90°×45°  22°×11°  5.6°×2.8°  1.4°   0.35°  0.09° × 0.04°
//
// Each part of a shape (point, line, ring) is filed at the finest level where its box covers at
// most 2 × 2 cells, in each of those cells, with its box (a part crossing the antimeridian is
// filed as its two halves). A cell's value lists (id, box) by id, the boxes of one document's
// parts in that cell merged. A query visits, level by level, the cells its area's box meets
// (as Morton ranges, coarsened to a bounded number of reads), drops entries whose box misses the
// area's box, takes entries whose box lies in the area, and tests the others' shapes exactly.
//
// Boxes are stored as f32 rounded outwards: a larger box only turns a decision into an exact test.
// An entry (id u32, w s e n f32) is 20 bytes, in the platform's byte order (little-endian).
import { spread } from './geo-grid.ts';
import { boxOf, type Box } from './geojson-geometry.ts';
import { shapeParts, type Shape } from './geojson.ts';

export const SHAPE_LEVELS: readonly number[] = [0, 2, 4, 6, 8, 10, 12];
const ENTRY_BYTES = 20;

/** One number for (level, cell) in maps: cell · 16 + level. */
export function cellKey(level: number, cell: number): number {
  return cell * 16 + level;
}

export function cellKeyParts(key: number): [level: number, cell: number] {
  return [key % 16, Math.floor(key / 16)];
}

/** The Morton code of (column, row). */
export function morton(x: number, y: number): number {
  return spread(x) + spread(y) * 2;
}

export function column(level: number, lng: number): number {
  const n = 2 ** level;
  return Math.max(0, Math.min(n - 1, Math.floor(((lng + 180) / 360) * n)));
}

export function row(level: number, lat: number): number {
  const n = 2 ** level;
  return Math.max(0, Math.min(n - 1, Math.floor(((lat + 90) / 180) * n)));
}

/** A box moved into lng [-180, 180]: one piece, or two when it crosses the antimeridian. */
export function wrapBox([w, s, e, n]: Box): Box[] {
  if (!(e - w < 360)) return [[-180, s, 180, n]];
  const west = ((((w + 180) % 360) + 360) % 360) - 180;
  const east = west + (e - w);
  if (east <= 180) return [[west, s, east, n]];
  return [
    [west, s, 180, n],
    [-180, s, east - 360, n],
  ];
}

/** The bounds of a cell, widened by one cell on every side (every box filed in it lies within). */
export function cellReach(level: number, cell: number): Box {
  let x = 0;
  let y = 0;
  for (let bit = 0; bit < level; bit++) {
    x |= ((cell >>> (2 * bit)) & 1) << bit;
    y |= ((cell >>> (2 * bit + 1)) & 1) << bit;
  }
  const w = 360 / 2 ** level;
  const h = 180 / 2 ** level;
  return [-180 + (x - 1) * w, -90 + (y - 1) * h, -180 + (x + 2) * w, -90 + (y + 2) * h];
}

/** The cells a shape is filed in, each with the merged box of its parts there. */
export function shapeCells(shape: Shape): Map<number, Box> {
  const cells = new Map<number, Box>();
  for (const [, from, to] of shapeParts(shape)) {
    for (const piece of wrapBox(boxOf(shape.coords, from, to))) fileBox(cells, piece);
  }
  return cells;
}

function fileBox(cells: Map<number, Box>, box: Box): void {
  const [w, s, e, n] = box;
  // latitudes out of range (accepted, as by Meilisearch) go to the world cell
  const finest = s < -90 || n > 90 ? 0 : SHAPE_LEVELS.length - 1;
  for (let i = finest; i >= 0; i--) {
    const level = SHAPE_LEVELS[i]!;
    const c0 = column(level, w);
    const c1 = column(level, e);
    const r0 = row(level, s);
    const r1 = row(level, n);
    if (c1 - c0 > 1 || r1 - r0 > 1) continue;
    for (let x = c0; x <= c1; x++) {
      for (let y = r0; y <= r1; y++) {
        const key = cellKey(level, morton(x, y));
        const had = cells.get(key);
        cells.set(key, had === undefined ? [w, s, e, n] : [Math.min(had[0], w), Math.min(had[1], s), Math.max(had[2], e), Math.max(had[3], n)]);
      }
    }
    return;
  }
}

/**
 * Morton ranges [from, to) of level `level` covering columns [c0, c1] × rows [r0, r1], at most
 * about `max` of them: past that, partly covered quadrants are read whole.
 */
export function mortonRanges(level: number, c0: number, c1: number, r0: number, r1: number, max = 32): [number, number][] {
  const ranges: [number, number][] = [];
  // quadtree nodes (depth, x, y) partly covered by the rectangle
  let partial: [number, number][] = [[0, 0]];
  for (let depth = 0; partial.length > 0; depth++) {
    const shift = level - depth;
    const span = 4 ** shift;
    const last = depth === level || ranges.length + partial.length * 4 > max;
    const next: [number, number][] = [];
    for (const [x, y] of partial) {
      const x0 = x * 2 ** shift;
      const y0 = y * 2 ** shift;
      const x1 = x0 + 2 ** shift - 1;
      const y1 = y0 + 2 ** shift - 1;
      if (x1 < c0 || x0 > c1 || y1 < r0 || y0 > r1) continue;
      const whole = x0 >= c0 && x1 <= c1 && y0 >= r0 && y1 <= r1;
      if (whole || last) {
        const m = morton(x, y);
        ranges.push([m * span, (m + 1) * span]);
      } else {
        for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) next.push([2 * x + dx, 2 * y + dy]);
      }
    }
    partial = next;
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const prev = merged[merged.length - 1];
    if (prev !== undefined && prev[1] >= r[0]) prev[1] = Math.max(prev[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** The entries of a cell, entry i at words 5i (its id) to 5i + 4: `ids` and `boxes` view the same bytes. */
export interface CellEntries {
  count: number;
  ids: Uint32Array;
  /** w, s, e, n of entry i at 5i + 1 … 5i + 4 */
  boxes: Float32Array;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** `x` as an f32 no greater (`down`) or no smaller than `x`. */
function roundF32(x: number, down: boolean): number {
  f32[0] = x;
  const r = f32[0]!;
  if (down ? r <= x : r >= x) return r;
  // one f32 step towards the wanted side
  if (r === 0) u32[0] = down ? 0x80000001 : 0x00000001;
  else if (r > 0 === !down) u32[0]! += 1;
  else u32[0]! -= 1;
  return f32[0]!;
}

export function encodeCellEntries(entries: Map<number, Box>): Uint8Array {
  const ids = [...entries.keys()].sort((a, b) => a - b);
  const words = new Uint32Array(ids.length * 5);
  const floats = new Float32Array(words.buffer);
  let at = 0;
  for (const id of ids) {
    const [w, s, e, n] = entries.get(id)!;
    words[at] = id;
    floats[at + 1] = roundF32(w, true);
    floats[at + 2] = roundF32(s, true);
    floats[at + 3] = roundF32(e, false);
    floats[at + 4] = roundF32(n, false);
    at += 5;
  }
  return new Uint8Array(words.buffer);
}

export function decodeCellEntries(bytes: Uint8Array): CellEntries {
  // a copy: aligned for the typed views (little-endian, as written)
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return { count: Math.floor(bytes.byteLength / ENTRY_BYTES), ids: new Uint32Array(copy.buffer), boxes: new Float32Array(copy.buffer) };
}

/** A cell's entries as a map id → box (to change them). */
export function cellEntryMap(bytes: Uint8Array | undefined): Map<number, Box> {
  const map = new Map<number, Box>();
  if (bytes === undefined) return map;
  const { count, ids, boxes } = decodeCellEntries(bytes);
  for (let i = 0, at = 0; i < count; i++, at += 5) map.set(ids[at]!, [boxes[at + 1]!, boxes[at + 2]!, boxes[at + 3]!, boxes[at + 4]!]);
  return map;
}
