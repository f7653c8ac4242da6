// Keeps the level groups of a field in step with its level-0 values (see levels.ts). After a
// batch changed some level-0 keys, each level is updated from the one below:
//
//   few changes: the groups holding a changed key are recomputed from their children (split in
//                groups of GROUP_SIZE when they outgrow MAX_GROUP, dropped when empty)
//   many changes (≥ 1/REBUILD_RATIO of the level below), a missing level, groups averaging
//   fewer than 2 children, or a small level below: the level is rebuilt by one scan
//   a level exists above level l only while l holds more than TOP_SIZE entries
//
// Reads of the level below see this transaction's writes; writes are collected while a range
// is being read and applied after it.
import { bitmapFrom } from '../bitmap/index.ts';
import { decodeGroupHeader, decodeIds, encodeGroup, encodeIds, type FacetKey } from './codec.ts';
import { sizesKey, type LevelKind } from './levels.ts';

export const GROUP_SIZE = 4;
export const MAX_GROUP = 8;
export const TOP_SIZE = 8;
const REBUILD_RATIO = 4;
/** Levels built on fewer entries than this are rebuilt rather than patched (cheap, stays tidy). */
const SMALL_LEVEL = 64;

interface Child<K extends FacetKey> {
  key: K;
  right: K;
  /** sorted (read in JS: the children of a group are mostly small) */
  ids: number[];
}

/** Updates the groups of `fid` after the level-0 keys in `changed` were written; `sizes[0]` is current. */
export function updateLevels<K extends FacetKey>(kind: LevelKind<K>, fid: number, changed: K[], sizes: number[]): void {
  let keys = sortedUnique(kind, changed);
  for (let level = 1; ; level++) {
    if (sizes[level - 1]! <= TOP_SIZE) {
      dropLevels(kind, fid, level, sizes);
      break;
    }
    const exists = level < sizes.length && sizes[level]! > 0;
    if (!exists || sizes[level - 1]! < SMALL_LEVEL || keys.length * REBUILD_RATIO >= sizes[level - 1]!) {
      rebuildFrom(kind, fid, level, sizes);
      break;
    }
    if (keys.length === 0) break;
    keys = updateLevel(kind, fid, level, keys, sizes);
    if (sizes[level]! * 2 > sizes[level - 1]!) {
      rebuildFrom(kind, fid, level, sizes);
      break;
    }
  }
  saveSizes(kind, fid, sizes);
}

/** Removes every level of `fid` (its values are gone). */
export function clearLevels<K extends FacetKey>(kind: LevelKind<K>, fid: number, sizes: number[]): void {
  dropLevels(kind, fid, 1, sizes);
  kind.meta.remove(sizesKey(kind, fid));
}

function saveSizes<K extends FacetKey>(kind: LevelKind<K>, fid: number, sizes: number[]): void {
  if (sizes.length === 1 && sizes[0] === 0) kind.meta.remove(sizesKey(kind, fid));
  else kind.meta.put(sizesKey(kind, fid), sizes);
}

function sortedUnique<K extends FacetKey>(kind: LevelKind<K>, keys: K[]): K[] {
  keys.sort(kind.compare);
  let n = 0;
  for (let i = 0; i < keys.length; i++) if (n === 0 || kind.compare(keys[n - 1]!, keys[i]!) !== 0) keys[n++] = keys[i]!;
  keys.length = n;
  return keys;
}

function levelKey<K extends FacetKey>(fid: number, level: number, key?: K): [number, number, K] {
  return (key === undefined ? [fid, level] : [fid, level, key]) as [number, number, K];
}

/** Recomputes the groups of `level` holding the changed keys of the level below; returns the changed group keys. */
function updateLevel<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, changed: K[], sizes: number[]): K[] {
  const t = kind.table;
  const first = firstKey(kind, fid, level);
  if (first === undefined) throw new Error(`facet levels: level ${level} of field ${fid} is empty`);
  // the group of a key: the last group starting at or before it (the first group for smaller keys)
  const groups: K[] = [];
  for (const k of changed) {
    let g: K | undefined;
    for (const key of t.keys({ start: levelKey(fid, level, k), end: levelKey(fid, level), reverse: true, limit: 1 })) g = key[2];
    g ??= first;
    if (groups.length === 0 || kind.compare(groups[groups.length - 1]!, g) !== 0) groups.push(g);
  }
  const out: K[] = [];
  for (const g of groups) {
    let next: K | null = null;
    for (const key of t.keys({ start: levelKey(fid, level, g), end: levelKey(fid, level + 1), limit: 2 })) {
      if (kind.compare(key[2], g) !== 0) next = key[2];
    }
    const isFirst = kind.compare(g, first) === 0;
    const children = readChildren(kind, fid, level - 1, isFirst ? null : g, next);
    t.remove(levelKey(fid, level, g));
    sizes[level]!--;
    out.push(g);
    for (const chunk of split(children)) {
      writeGroup(kind, fid, level, chunk);
      sizes[level]!++;
      out.push(chunk[0]!.key);
    }
  }
  return sortedUnique(kind, out);
}

function firstKey<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number): K | undefined {
  for (const key of kind.table.keys({ start: levelKey(fid, level), end: levelKey(fid, level + 1), limit: 1 })) return key[2];
  return undefined;
}

function readChildren<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, from: K | null, to: K | null): Child<K>[] {
  const out: Child<K>[] = [];
  const start = from === null ? levelKey<K>(fid, level) : levelKey(fid, level, from);
  const end = to === null ? levelKey<K>(fid, level + 1) : levelKey(fid, level, to);
  for (const [key, bytes] of kind.table.entries({ start, end })) out.push(child(kind, level, key[2], bytes));
  return out;
}

function child<K extends FacetKey>(kind: LevelKind<K>, level: number, key: K, bytes: Uint8Array): Child<K> {
  // level 0: numbers are a bitmap, strings origin id · original · bitmap (codec.ts)
  if (level === 0) return { key, right: key, ids: idsOf(kind.name === 'number' ? bytes : bytes.subarray(8 + u32(bytes, 4))) };
  const header = decodeGroupHeader<K>(bytes, kind.name === 'number');
  return { key, right: header.right, ids: idsOf(bytes.subarray(header.offset)) };
}

function idsOf(bitmap: Uint8Array): number[] {
  return decodeIds(bitmap) ?? bitmapFrom(bitmap).toArray();
}

function u32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** One group when it fits, else groups of GROUP_SIZE (a short tail joins the previous group). */
function split<K extends FacetKey>(children: Child<K>[]): Child<K>[][] {
  if (children.length === 0) return [];
  return children.length <= MAX_GROUP ? [children] : chunked(children);
}

function writeGroup<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, chunk: Child<K>[]): void {
  const ids = chunk.length === 1 ? chunk[0]!.ids : unionSorted(chunk.map((c) => c.ids));
  kind.table.put(levelKey(fid, level, chunk[0]!.key), encodeGroup(chunk.length, chunk[chunk.length - 1]!.right, encodeIds(ids)));
}

/** A level entry of a field built in one go: its key, greatest level-0 key, sorted ids. */
export interface FreshEntry<K extends FacetKey> {
  key: K;
  right: K;
  ids: number[];
}

/**
 * Writes the levels above level 0 of a field that had no values before this batch, from its
 * level-0 entries (sorted, as just written), without reading them back.
 */
export function buildLevels<K extends FacetKey>(kind: LevelKind<K>, fid: number, level0: FreshEntry<K>[]): void {
  const sizes = [level0.length];
  let below = level0;
  for (let level = 1; below.length > TOP_SIZE; level++) {
    const groups = chunked(below);
    const next: FreshEntry<K>[] = [];
    for (const g of groups) {
      const ids = unionSorted(g.map((c) => c.ids));
      const entry = { key: g[0]!.key, right: g[g.length - 1]!.right, ids };
      kind.table.put(levelKey(fid, level, entry.key), encodeGroup(g.length, entry.right, encodeIds(ids)));
      next.push(entry);
    }
    sizes.push(next.length);
    below = next;
  }
  saveSizes(kind, fid, sizes);
}

/** Consecutive groups of GROUP_SIZE (a short tail joins the previous group). */
function chunked<T>(items: T[]): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += GROUP_SIZE) groups.push(items.slice(i, i + GROUP_SIZE));
  if (groups.length > 1 && groups[groups.length - 1]!.length < GROUP_SIZE / 2) groups[groups.length - 2]!.push(...groups.pop()!);
  return groups;
}

function unionSorted(lists: number[][]): number[] {
  if (lists.length === 1) return lists[0]!;
  // pairwise merges: a group has at most MAX_GROUP children, mostly short lists
  let merged = lists;
  while (merged.length > 1) {
    const next: number[][] = [];
    for (let i = 0; i + 1 < merged.length; i += 2) next.push(mergeSorted(merged[i]!, merged[i + 1]!));
    if (merged.length % 2 === 1) next.push(merged[merged.length - 1]!);
    merged = next;
  }
  return merged[0]!;
}

/** The sorted union of two sorted lists of distinct ids. */
function mergeSorted(a: number[], b: number[]): number[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  if (a[a.length - 1]! < b[0]!) return a.concat(b);
  if (b[b.length - 1]! < a[0]!) return b.concat(a);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out.push(x);
      i++;
    } else if (y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Rebuilds `level` and every level above it from the level below. */
function rebuildFrom<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, sizes: number[]): void {
  let l = level;
  for (; sizes[l - 1]! > TOP_SIZE; l++) {
    removeLevel(kind, fid, l);
    // group the level below in one scan; writes wait until the scan is over
    const children: Child<K>[] = [];
    for (const [key, bytes] of kind.table.entries({ start: levelKey<K>(fid, l - 1), end: levelKey<K>(fid, l) })) children.push(child(kind, l - 1, key[2], bytes));
    const groups = chunked(children);
    for (const g of groups) writeGroup(kind, fid, l, g);
    sizes[l] = groups.length;
  }
  dropLevels(kind, fid, l, sizes);
}

/** Removes `level` and the levels above it. */
function dropLevels<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, sizes: number[]): void {
  for (let l = level; l < sizes.length; l++) removeLevel(kind, fid, l);
  sizes.length = Math.min(sizes.length, level);
}

function removeLevel<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number): void {
  const keys = [...kind.table.keys({ start: levelKey<K>(fid, level), end: levelKey<K>(fid, level + 1) })];
  for (const key of keys) kind.table.remove(key);
}
