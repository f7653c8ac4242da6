// Level groups over the values of a facet field (milli's facet levels, docs/decisions/0004):
//
//   level 2   [a ─────────────── m]              [n ───────── z]      group: left key, size,
//   level 1   [a ─── c] [d ─── h] [i ── m]       [n ── r] [s ── z]    right key, union bitmap
//   level 0    a b c     d e f h   i k m          n p r    s u z      one value, its docids
//
// A group covers the consecutive keys of the level below from its left key to the next group's;
// a range query walks down from the top level and only descends into the groups a bound cuts,
// so it unions O(levels × group size) bitmaps whatever the number of distinct values.
import { Bitmap } from '../bitmap/index.ts';
import type { FacetTables } from '../index/facet-layout.ts';
import type { Table } from '../store/index.ts';
import { compareUtf8 } from '../words/index.ts';
import { decodeGroupHeader, groupDocids, stringEntryDocids, type FacetKey } from './codec.ts';

/** How one kind of facet value (numbers or strings) is stored and ordered. */
export interface LevelKind<K extends FacetKey> {
  readonly name: 'number' | 'string';
  readonly table: Table<[number, number, K], Uint8Array>;
  readonly meta: Table<string, unknown>;
  compare(a: K, b: K): number;
  /** the docids of a level-0 value */
  valueDocids(bytes: Uint8Array): Bitmap;
}

export function numberKind(t: FacetTables): LevelKind<number> {
  return { name: 'number', table: t.numbers, meta: t.meta, compare: (a, b) => a - b, valueDocids: (bytes) => Bitmap.deserialize(bytes, 'portable') };
}

export function stringKind(t: FacetTables): LevelKind<string> {
  return { name: 'string', table: t.strings, meta: t.meta, compare: compareUtf8, valueDocids: stringEntryDocids };
}

/** Meta key of the entry counts per level of a field (index = level). */
export function sizesKey(kind: LevelKind<FacetKey>, fid: number): string {
  return `levels/${kind.name}/${fid}`;
}

export function levelSizes(kind: LevelKind<FacetKey>, fid: number): number[] {
  return [...((kind.meta.get(sizesKey(kind, fid)) as number[] | undefined) ?? [0])];
}

/** The highest level of a field (0 when it has no groups or no values). */
export function topLevel(kind: LevelKind<FacetKey>, fid: number): number {
  const sizes = kind.meta.get(sizesKey(kind, fid)) as number[] | undefined;
  return sizes === undefined ? 0 : sizes.length - 1;
}

/** Where a range of keys lies: `below` and `above` hold for keys before / after it. */
export interface RangeTest<K> {
  below(key: K): boolean;
  above(key: K): boolean;
}

/** One entry of a level: its key, and for groups the parsed header. */
interface Entry<K extends FacetKey> {
  key: K;
  bytes: Uint8Array;
}

/** Entries of `level` from `from` (inclusive, null = start) to `to` (exclusive, null = end). */
function levelEntries<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, from: K | null, to: K | null): Entry<K>[] {
  const out: Entry<K>[] = [];
  const start = (from === null ? [fid, level] : [fid, level, from]) as [number, number, K];
  const end = (to === null ? [fid, level + 1] : [fid, level, to]) as [number, number, K];
  for (const [key, bytes] of kind.table.entries({ start, end })) out.push({ key: key[2], bytes });
  return out;
}

/** The documents of the values of `fid` inside a range. */
export function rangeDocids<K extends FacetKey>(kind: LevelKind<K>, fid: number, test: RangeTest<K>): Bitmap {
  const parts: Bitmap[] = [];
  collect(kind, fid, topLevel(kind, fid), null, null, test, parts);
  if (parts.length === 0) return new Bitmap();
  return parts.length === 1 ? parts[0]! : Bitmap.orMany(parts);
}

/** How many bitmaps a range query unions (for measurements and tests). */
export function rangeParts<K extends FacetKey>(kind: LevelKind<K>, fid: number, test: RangeTest<K>): number {
  const parts: Bitmap[] = [];
  collect(kind, fid, topLevel(kind, fid), null, null, test, parts);
  return parts.length;
}

function collect<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, from: K | null, to: K | null, test: RangeTest<K>, parts: Bitmap[]): void {
  const entries = levelEntries(kind, fid, level, from, to);
  if (level === 0) {
    for (const e of entries) {
      if (test.above(e.key)) break;
      if (!test.below(e.key)) parts.push(kind.valueDocids(e.bytes));
    }
    return;
  }
  const numeric = kind.name === 'number';
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (test.above(e.key)) break;
    const header = decodeGroupHeader<K>(e.bytes, numeric);
    if (test.below(header.right)) continue;
    if (!test.below(e.key) && !test.above(header.right)) parts.push(groupDocids(e.bytes, header));
    else collect(kind, fid, level - 1, e.key, i + 1 < entries.length ? entries[i + 1]!.key : to, test, parts);
  }
}

/**
 * Level-0 entries of `fid` in key order (`desc` reversed). With `within`, only values held by one
 * of those documents, skipping the groups that hold none of them.
 */
export function* orderedValues<K extends FacetKey>(kind: LevelKind<K>, fid: number, desc: boolean, within?: Bitmap): Generator<[K, Uint8Array]> {
  if (within === undefined) {
    const start = [fid, 0] as unknown as [number, number, K];
    const end = [fid, 1] as unknown as [number, number, K];
    const range = desc ? { start: end, end: start, reverse: true } : { start, end };
    for (const [key, bytes] of kind.table.entries(range)) {
      // the reverse walk starts at [fid, 1] itself, which is no level-0 key
      if (key[1] === 0) yield [key[2], bytes];
    }
    return;
  }
  if (within.size === 0) return;
  yield* walkWithin(kind, fid, topLevel(kind, fid), null, null, desc, within);
}

function* walkWithin<K extends FacetKey>(kind: LevelKind<K>, fid: number, level: number, from: K | null, to: K | null, desc: boolean, within: Bitmap): Generator<[K, Uint8Array]> {
  const entries = levelEntries(kind, fid, level, from, to);
  const numeric = kind.name === 'number';
  for (let j = 0; j < entries.length; j++) {
    const i = desc ? entries.length - 1 - j : j;
    const e = entries[i]!;
    if (level === 0) {
      if (kind.valueDocids(e.bytes).intersects(within)) yield [e.key, e.bytes];
      continue;
    }
    const header = decodeGroupHeader<K>(e.bytes, numeric);
    const docids = groupDocids(e.bytes, header);
    if (!docids.intersects(within)) continue;
    const next = i + 1 < entries.length ? entries[i + 1]!.key : to;
    // every document of the group is one of `within`: so is one holder of each of its values, which
    // are read in one range instead of group by group (a search over most of the index)
    if (docids.isSubset(within)) yield* levelZero(kind, fid, e.key, next, desc);
    else yield* walkWithin(kind, fid, level - 1, e.key, next, desc, within);
  }
}

/** Level-0 entries from `from` (inclusive) to `to` (exclusive; null: the field's last), in key order or reversed. */
function* levelZero<K extends FacetKey>(kind: LevelKind<K>, fid: number, from: K, to: K | null, desc: boolean): Generator<[K, Uint8Array]> {
  const low = [fid, 0, from] as [number, number, K];
  const high = (to === null ? [fid, 1] : [fid, 0, to]) as [number, number, K];
  if (!desc) {
    for (const [key, bytes] of kind.table.entries({ start: low, end: high })) yield [key[2], bytes];
    return;
  }
  const levelStart = [fid, 0] as unknown as [number, number, K];
  for (const [key, bytes] of kind.table.entries({ start: high, end: levelStart, reverse: true })) {
    if (key[1] !== 0 || (to !== null && kind.compare(key[2], to) >= 0)) continue; // `high` itself
    if (kind.compare(key[2], from) < 0) return;
    yield [key[2], bytes];
  }
}

/** A range between two optional bounds. */
export function boundsTest<K extends FacetKey>(
  compare: (a: K, b: K) => number,
  lo: { value: K; inclusive: boolean } | null,
  hi: { value: K; inclusive: boolean } | null,
): RangeTest<K> {
  return {
    below: lo === null ? () => false : (k) => (lo.inclusive ? compare(k, lo.value) < 0 : compare(k, lo.value) <= 0),
    above: hi === null ? () => false : (k) => (hi.inclusive ? compare(k, hi.value) > 0 : compare(k, hi.value) >= 0),
  };
}

/** The strings starting with `prefix` (a contiguous range in byte order). */
export function prefixTest(prefix: string): RangeTest<string> {
  return {
    below: (k) => compareUtf8(k, prefix) < 0,
    above: (k) => !k.startsWith(prefix) && compareUtf8(k, prefix) > 0,
  };
}
