// Writes a FacetDelta into the facet tables, each key read and written once: the level-0 values
// and their level groups (the original spelling of a string value is looked up in the document
// values, which the writer has already put), the exists/null/empty sets, and the geo cells.
import type { FacetTables } from '../index/facet-layout.ts';
import { compareUtf8 } from '../words/index.ts';
import {
  applyIdOps,
  decodeBitmap,
  decodeCellPoints,
  decodeIds,
  decodeStringEntryIds,
  docRecordField,
  encodeIds,
  encodeCellPoints,
  encodeStringEntry,
  type CellPoints,
  type FacetKey,
} from './codec.ts';
import type { FacetDelta } from './delta.ts';
import { writeShapeDelta } from './geojson-delta.ts';
import { cellOf, cellsOf, GRID_LEVELS, isOutlier, LEAF_LEVEL, OUTLIERS_LEVEL } from './geo-grid.ts';
import { buildLevels, updateLevels, type FreshEntry } from './level-writer.ts';
import { levelSizes, numberKind, stringKind, type LevelKind } from './levels.ts';

export function writeDelta(t: FacetTables, delta: FacetDelta): void {
  for (const [fid, keys] of delta.strings) writeStrings(t, delta, fid, keys);
  for (const [fid, keys] of delta.numbers) writeNumbers(t, fid, keys);
  for (const [fid, sets] of delta.fields) {
    for (let state = 0; state < 3; state++) if (sets[state]!.length > 0) writeBitmap(t.fieldDocids, [fid, state], sets[state]!);
  }
  if (delta.geoOps.length > 0) writeGeo(t, delta);
  if (!delta.shapes.empty) writeShapeDelta(t.geojsonCells, delta.shapes);
}

/** The ids a key holds after `ops` when it held none before, sorted (no native bitmap). */
function finalIds(ops: readonly number[]): number[] {
  let removal = false;
  let ascending = true;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    if (op < 0) removal = true;
    else if (i > 0 && op <= ops[i - 1]!) ascending = false;
  }
  // a bulk load adds documents in id order: nothing to sort
  if (!removal && ascending) return ops as number[];
  if (!removal) return sortedUnique([...ops]);
  const set = new Set<number>();
  for (const op of ops) {
    if (op >= 0) set.add(op);
    else set.delete(~op);
  }
  return sortedUnique([...set]);
}

function sortedUnique(ids: number[]): number[] {
  ids.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (n === 0 || ids[n - 1] !== ids[i]) ids[n++] = ids[i]!;
  ids.length = n;
  return ids;
}

interface BitmapTable<K> {
  get(key: K): Uint8Array | undefined;
  put(key: K, value: Uint8Array): void;
  remove(key: K): boolean;
}

function writeBitmap<K>(table: BitmapTable<K>, key: K, ops: readonly number[]): void {
  const bytes = table.get(key);
  const ids = idsAfter(bytes, ops);
  if (ids === null) return;
  if (ids.length === 0) table.remove(key);
  else table.put(key, encodeIds(ids));
}

/** The ids of stored bitmap bytes after `ops`, read and changed in JS; null when they end as they were. */
function idsAfter(bytes: Uint8Array | undefined, ops: readonly number[]): number[] | null {
  const ids = bytes === undefined ? [] : (decodeIds(bytes) ?? decodeBitmap(bytes).toArray());
  return applyIdOps(ids, ops);
}

function writeStrings(t: FacetTables, delta: FacetDelta, fid: number, keys: Map<string, number[]>): void {
  const kind = stringKind(t);
  const sizes = levelSizes(kind, fid);
  const sorted = [...keys.keys()].sort(compareUtf8);
  if (sizes[0] === 0) {
    writeFresh(kind, fid, sorted, keys, (k, ids) => {
      const original = originalIn(t.docValues.get(ids[0]!), fid, k) ?? k;
      return encodeStringEntry({ originId: ids[0]!, original, docids: encodeIds(ids) });
    });
    return;
  }
  const changed: string[] = [];
  for (const k of sorted) {
    const key: [number, number, string] = [fid, 0, k];
    const bytes = t.strings.get(key);
    const old = bytes === undefined ? null : decodeStringEntryIds(bytes);
    const ops = keys.get(k)!;
    const next = applyIdOps(old?.ids ?? [], ops);
    const bitsChanged = next !== null;
    const ids = next ?? old?.ids ?? [];
    if (ids.length === 0) {
      if (old !== null) {
        t.strings.remove(key);
        sizes[0]!--;
        changed.push(k);
      }
      continue;
    }
    // the original spelling shown for a value is the one of its smallest document (facets.md §2)
    const originId = ids[0]!;
    let original: string | undefined;
    // the stored spelling holds unless this delta rewrote the origin's record (then it has an addition here)
    if (old !== null && old.originId === originId && !ops.includes(originId)) original = old.original;
    else original = originalIn(t.docValues.get(originId), fid, k);
    original ??= k;
    if (old === null) sizes[0]!++;
    if (old === null || bitsChanged) changed.push(k);
    if (old === null || bitsChanged || old.originId !== originId || old.original !== original) {
      t.strings.put(key, encodeStringEntry({ originId, original, docids: encodeIds(ids) }));
    }
  }
  if (changed.length > 0) updateLevels(kind, fid, changed, sizes);
}

/** Level 0 and the levels above of a field that had no values: every key is new (no reads). */
function writeFresh<K extends FacetKey>(kind: LevelKind<K>, fid: number, sorted: K[], keys: Map<K, number[]>, value: (key: K, ids: number[]) => Uint8Array): void {
  const level0: FreshEntry<K>[] = [];
  for (const k of sorted) {
    const ids = finalIds(keys.get(k)!);
    if (ids.length === 0) continue;
    kind.table.put([fid, 0, k], value(k, ids));
    level0.push({ key: k, right: k, ids });
  }
  buildLevels(kind, fid, level0);
}

/** The original spelling of `value` in a document record of this delta. */
function originalIn(record: Uint8Array | null | undefined, fid: number, value: string): string | undefined {
  const v = record ? docRecordField(record, fid) : undefined;
  if (!v) return undefined;
  const at = v.strings.indexOf(value);
  return at < 0 ? undefined : v.originals[at];
}

function writeNumbers(t: FacetTables, fid: number, keys: Map<number, number[]>): void {
  const kind = numberKind(t);
  const sizes = levelSizes(kind, fid);
  const sorted = [...keys.keys()].sort((a, b) => a - b);
  if (sizes[0] === 0) {
    writeFresh(kind, fid, sorted, keys, (_, ids) => encodeIds(ids));
    return;
  }
  const changed: number[] = [];
  for (const n of sorted) {
    const key: [number, number, number] = [fid, 0, n];
    const bytes = t.numbers.get(key);
    const existed = bytes !== undefined;
    const ids = idsAfter(bytes, keys.get(n)!);
    if (ids === null) continue;
    changed.push(n);
    if (ids.length === 0) {
      if (existed) {
        t.numbers.remove(key);
        sizes[0]!--;
      }
      continue;
    }
    if (!existed) sizes[0]!++;
    t.numbers.put(key, encodeIds(ids));
  }
  if (changed.length > 0) updateLevels(kind, fid, changed, sizes);
}

/** The cells of every level: bitmaps above the leaf level, points at the leaf and for outliers (the points table is the writer's). */
function writeGeo(t: FacetTables, delta: FacetDelta): void {
  // no cells yet: every key is new (no reads)
  const fresh = t.geoCells.count() === 0;
  if (fresh && writeGeoBulk(t, delta)) return;
  const upper = GRID_LEVELS.slice(0, -1).map(() => new Map<number, number[]>());
  const leaves = new Map<number, number[]>();
  const outliers: number[] = [];
  const ops = delta.geoOps;
  for (let i = 0; i < ops.length; i += 3) {
    const sid = ops[i]!;
    const lat = ops[i + 1]!;
    const lng = ops[i + 2]!;
    if (isOutlier(lat, lng)) {
      outliers.push(sid);
      continue;
    }
    const cells = cellsOf(lat, lng);
    for (let l = 0; l < upper.length; l++) push(upper[l]!, cells[l]!, sid);
    push(leaves, cells[cells.length - 1]!, sid);
  }
  for (let l = 0; l < upper.length; l++) {
    const level = GRID_LEVELS[l]!;
    for (const cell of [...upper[l]!.keys()].sort((a, b) => a - b)) {
      const ops = upper[l]!.get(cell)!;
      if (!fresh) writeBitmap(t.geoCells, [level, cell], ops);
      else {
        const ids = finalIds(ops);
        if (ids.length > 0) t.geoCells.put([level, cell], encodeIds(ids));
      }
    }
  }
  for (const cell of [...leaves.keys()].sort((a, b) => a - b)) writePoints(t, [LEAF_LEVEL, cell], leaves.get(cell)!, delta, fresh);
  if (outliers.length > 0) writePoints(t, [OUTLIERS_LEVEL, 0], outliers, delta, fresh);
}

/** 2^29: (leaf cell < 2^24) · 2^29 + rank < 2^53, exact in a double. */
const RANK_SPAN = 2 ** 29;

/**
 * The cells of a bulk load into an empty grid, when every operation adds a distinct document:
 * one numeric sort of (leaf cell, id rank) lists every level's cells in key order (a cell of level
 * l is its leaves' Morton codes shifted right by 2·(12 − l), a contiguous run), each leaf's points
 * by id. False (nothing written) when an operation removes or repeats a document.
 */
function writeGeoBulk(t: FacetTables, delta: FacetDelta): boolean {
  const ops = delta.geoOps;
  const n = ops.length / 3;
  if (n >= RANK_SPAN) return false;
  let inOrder = true;
  for (let i = 0; i < n; i++) {
    const id = ops[3 * i]!;
    if (id < 0) return false;
    if (i > 0 && id <= ops[3 * i - 3]!) inOrder = false;
  }
  // op index of each rank (ids ascending): the identity when the ops came in id order
  let byRank: Uint32Array | null = null;
  if (!inOrder) {
    byRank = new Uint32Array(n);
    for (let i = 0; i < n; i++) byRank[i] = i;
    byRank.sort((a, b) => ops[3 * a]! - ops[3 * b]!);
    for (let r = 1; r < n; r++) if (ops[3 * byRank[r]!] === ops[3 * byRank[r - 1]!]) return false;
  }
  const keys = new Float64Array(n);
  const outliers: number[] = [];
  let m = 0;
  for (let r = 0; r < n; r++) {
    const i = byRank === null ? r : byRank[r]!;
    const lat = ops[3 * i + 1]!;
    const lng = ops[3 * i + 2]!;
    if (isOutlier(lat, lng)) outliers.push(ops[3 * i]!);
    else keys[m++] = cellOf(LEAF_LEVEL, lat, lng) * RANK_SPAN + r;
  }
  const sorted = keys.subarray(0, m).sort();
  // per sorted entry: its leaf cell and its operation
  const leaves = new Uint32Array(m);
  const at = new Uint32Array(m);
  for (let k = 0; k < m; k++) {
    const key = sorted[k]!;
    const r = key % RANK_SPAN;
    leaves[k] = (key - r) / RANK_SPAN;
    at[k] = 3 * (byRank === null ? r : byRank[r]!);
  }
  const ids = new Uint32Array(m);
  for (let k = 0; k < m; k++) ids[k] = ops[at[k]!]!;
  const run = new Uint32Array(m);
  for (let level = 0; level < GRID_LEVELS.length - 1; level++) {
    const shift = 2 * (LEAF_LEVEL - GRID_LEVELS[level]!);
    for (let k = 0; k < m; ) {
      const cell = leaves[k]! >>> shift;
      let j = k + 1;
      while (j < m && leaves[j]! >>> shift === cell) j++;
      run.set(ids.subarray(k, j), k);
      t.geoCells.put([GRID_LEVELS[level]!, cell], encodeIds(run.subarray(k, j).sort()));
      k = j;
    }
  }
  for (let k = 0; k < m; ) {
    const cell = leaves[k]!;
    const points: CellPoints = { ids: [], lats: [], lngs: [] };
    for (; k < m && leaves[k] === cell; k++) {
      points.ids.push(ids[k]!);
      points.lats.push(ops[at[k]! + 1]!);
      points.lngs.push(ops[at[k]! + 2]!);
    }
    t.geoCells.put([LEAF_LEVEL, cell], encodeCellPoints(points));
  }
  if (outliers.length > 0) writePoints(t, [OUTLIERS_LEVEL, 0], outliers, delta, true);
  return true;
}

function push(m: Map<number, number[]>, key: number, op: number): void {
  const ops = m.get(key);
  if (ops === undefined) m.set(key, [op]);
  else ops.push(op);
}

function writePoints(t: FacetTables, key: [number, number], ops: readonly number[], delta: FacetDelta, fresh: boolean): void {
  const bytes = fresh ? undefined : t.geoCells.get(key);
  const points = new Map<number, [number, number]>();
  if (bytes !== undefined) {
    const p = decodeCellPoints(bytes);
    for (let i = 0; i < p.ids.length; i++) points.set(p.ids[i]!, [p.lats[i]!, p.lngs[i]!]);
  }
  for (const op of ops) {
    if (op < 0) points.delete(~op);
    else {
      // the last operation of a document in a cell is an addition only if its final point is there
      const p = delta.geoPoints.get(op);
      if (p) points.set(op, p);
    }
  }
  if (points.size === 0) {
    if (bytes !== undefined) t.geoCells.remove(key);
    return;
  }
  const ids = [...points.keys()].sort((a, b) => a - b);
  const out: CellPoints = { ids, lats: ids.map((id) => points.get(id)![0]), lngs: ids.map((id) => points.get(id)![1]) };
  t.geoCells.put(key, encodeCellPoints(out));
}
