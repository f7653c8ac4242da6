// Writes a FacetDelta into the facet tables, each key read and written once: document values
// first (the original spelling of a string value is looked up there), then the level-0 values
// and their level groups, the exists/null/empty sets, and the geo points and cells.
import { Bitmap } from '../bitmap/index.ts';
import type { FacetTables } from '../index/facet-layout.ts';
import { compareUtf8 } from '../words/index.ts';
import {
  decodeBitmap,
  decodeCellPoints,
  docRecordField,
  decodeStringEntry,
  encodeBitmap,
  encodeIds,
  encodeCellPoints,
  encodeDocRecord,
  encodePoint,
  encodeStringEntry,
  type CellPoints,
  type DocRecord,
  type FacetKey,
} from './codec.ts';
import type { FacetDelta } from './delta.ts';
import { cellsOf, GRID_LEVELS, isOutlier, LEAF_LEVEL, OUTLIERS_LEVEL } from './geo-grid.ts';
import { buildLevels, updateLevels, type FreshEntry } from './level-writer.ts';
import { levelSizes, numberKind, stringKind, type LevelKind } from './levels.ts';

export function writeDelta(t: FacetTables, delta: FacetDelta): void {
  for (const [id, record] of delta.docValues) {
    if (record === null) t.docValues.remove(id);
    else t.docValues.put(id, encodeDocRecord(record));
  }
  for (const [fid, keys] of delta.strings) writeStrings(t, delta, fid, keys);
  for (const [fid, keys] of delta.numbers) writeNumbers(t, fid, keys);
  for (const [fid, sets] of delta.fields) {
    for (let state = 0; state < 3; state++) if (sets[state]!.length > 0) writeBitmap(t.fieldDocids, [fid, state], sets[state]!);
  }
  if (delta.geoOps.length > 0) writeGeo(t, delta);
}

/** The ids a key holds after `ops` when it held none before, sorted (no native bitmap). */
function finalIds(ops: readonly number[]): number[] {
  let removal = false;
  for (const op of ops) if (op < 0) removal = true;
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

/** Applies signed ids in order; true when the bitmap changed at some point. */
function applyOps(docids: Bitmap, ops: readonly number[]): boolean {
  let changed = false;
  for (const op of ops) {
    if (op >= 0) {
      if (docids.tryAdd(op)) changed = true;
    } else if (docids.delete(~op)) changed = true;
  }
  return changed;
}

interface BitmapTable<K> {
  get(key: K): Uint8Array | undefined;
  put(key: K, value: Uint8Array): void;
  remove(key: K): boolean;
}

function writeBitmap<K>(table: BitmapTable<K>, key: K, ops: readonly number[]): void {
  const docids = decodeBitmap(table.get(key));
  if (!applyOps(docids, ops)) return;
  if (docids.isEmpty) table.remove(key);
  else table.put(key, encodeBitmap(docids));
}

function writeStrings(t: FacetTables, delta: FacetDelta, fid: number, keys: Map<string, number[]>): void {
  const kind = stringKind(t);
  const sizes = levelSizes(kind, fid);
  const sorted = [...keys.keys()].sort(compareUtf8);
  if (sizes[0] === 0) {
    writeFresh(kind, fid, sorted, keys, (k, ids) => {
      const original = originalIn(delta.docValues.get(ids[0]!), fid, k) ?? k;
      return encodeStringEntry({ originId: ids[0]!, original, docids: encodeIds(ids) });
    });
    return;
  }
  const changed: string[] = [];
  for (const k of sorted) {
    const key: [number, number, string] = [fid, 0, k];
    const bytes = t.strings.get(key);
    const old = bytes === undefined ? null : decodeStringEntry(bytes);
    const docids = old?.docids ?? new Bitmap();
    const bitsChanged = applyOps(docids, keys.get(k)!);
    if (docids.isEmpty) {
      if (old !== null) {
        t.strings.remove(key);
        sizes[0]!--;
        changed.push(k);
      }
      continue;
    }
    // the original spelling shown for a value is the one of its smallest document (facets.md §2)
    const originId = docids.minimum();
    const touched = delta.docValues.get(originId);
    let original: string | undefined;
    if (touched !== undefined) original = originalIn(touched, fid, k);
    else if (old !== null && old.originId === originId) original = old.original;
    else {
      const stored = t.docValues.get(originId);
      const v = stored === undefined ? undefined : docRecordField(stored, fid);
      if (v) original = v.originals[v.strings.indexOf(k)];
    }
    original ??= k;
    if (old === null) sizes[0]!++;
    if (old === null || bitsChanged) changed.push(k);
    if (old === null || bitsChanged || old.originId !== originId || old.original !== original) {
      t.strings.put(key, encodeStringEntry({ originId, original, docids: encodeBitmap(docids) }));
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
function originalIn(record: DocRecord | null | undefined, fid: number, value: string): string | undefined {
  const v = record?.get(fid);
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
    const docids = decodeBitmap(bytes);
    if (!applyOps(docids, keys.get(n)!)) continue;
    changed.push(n);
    if (docids.isEmpty) {
      if (bytes !== undefined) {
        t.numbers.remove(key);
        sizes[0]!--;
      }
      continue;
    }
    if (bytes === undefined) sizes[0]!++;
    t.numbers.put(key, encodeBitmap(docids));
  }
  if (changed.length > 0) updateLevels(kind, fid, changed, sizes);
}

/** Points, then the cells of every level: bitmaps above the leaf level, points at the leaf and for outliers. */
function writeGeo(t: FacetTables, delta: FacetDelta): void {
  for (const [id, p] of delta.geoPoints) {
    if (p === null) t.geoPoints.remove(id);
    else t.geoPoints.put(id, encodePoint(p[0], p[1]));
  }
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
  // no cells yet: every key is new (no reads)
  const fresh = t.geoCells.count() === 0;
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
