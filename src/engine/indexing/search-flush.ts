// Writes a prepared search delta into the tables (the writer's side of a flush; preparing is
// flush-prepare.ts): each key is read (unless its table started empty), combined with its net
// change and written once, in the table's own key order, which LMDB fills far faster than
// random keys.
//
//   slice (keys in order, net additions as portable bitmap bytes, net removals)
//     ─► per key: absent → put the bytes; present → native union / difference ─► put or remove
import { bitmapBytes, bitmapFrom } from '../bitmap/index.ts';
import type { SearchTables } from '../index/index.ts';
import type { Table } from '../store/index.ts';
import type { FlushSlice } from './flush-prepare.ts';
import { bucketOfIndex } from './search-data.ts';
import { TABLE_NAMES, type TableName } from './search-delta.ts';

/** Presence of each batch word after a write, per word table: 0 untouched, PRESENT or ABSENT. */
export interface WrittenWords {
  words: Uint8Array;
  exactWords: Uint8Array;
}
export const PRESENT = 1;
export const ABSENT = 2;

type AnyTable = Table<unknown, Uint8Array>;

/** Writes prepared slices into the tables (inside the writer's transaction). */
export function writeSlices(tables: SearchTables, slices: Iterable<FlushSlice>, words: readonly string[]): WrittenWords {
  const written: WrittenWords = { words: new Uint8Array(words.length), exactWords: new Uint8Array(words.length) };
  const empty = new Map<number, boolean>();
  for (const slice of slices) {
    const name = TABLE_NAMES[slice.table]!;
    const table = tableOf(tables, name);
    let wasEmpty = empty.get(slice.table);
    if (wasEmpty === undefined) empty.set(slice.table, (wasEmpty = table.count() === 0));
    const presence = name === 'words' || name === 'exactWords' ? written[name] : null;
    writeSlice(table, keyOf(name, words), slice, wasEmpty, presence);
  }
  return written;
}

function writeSlice(table: AnyTable, keyOf: (a: number, b: number) => unknown, slice: FlushSlice, wasEmpty: boolean, presence: Uint8Array | null): void {
  const { keyA, keyB, bytes, byteEnd, removed, removedEnd } = slice;
  let b0 = 0;
  let r0 = 0;
  for (let i = 0; i < keyA.length; i++) {
    const b1 = byteEnd[i]!;
    const r1 = removedEnd[i]!;
    const key = keyOf(keyA[i]!, keyB[i]!);
    const before = wasEmpty ? undefined : table.get(key);
    let exists: boolean;
    if (b1 === b0 && r1 === r0) {
      // no net change (additions undone by removals in the same delta)
      exists = before !== undefined;
    } else if (before === undefined && r0 === r1) {
      exists = b1 > b0;
      if (exists) table.put(key, bytes.subarray(b0, b1));
    } else {
      const bitmap = bitmapFrom(before);
      if (r1 > r0) bitmap.removeMany(removed.subarray(r0, r1));
      if (b1 > b0) bitmap.orInPlace(bitmapFrom(bytes.subarray(b0, b1)));
      exists = bitmap.size > 0;
      if (exists) table.put(key, bitmapBytes(bitmap));
      else if (before !== undefined) table.remove(key);
    }
    if (presence !== null) presence[keyA[i]!] = exists ? PRESENT : ABSENT;
    b0 = b1;
    r0 = r1;
  }
}

function tableOf(tables: SearchTables, name: TableName): AnyTable {
  switch (name) {
    case 'pairs':
      return tables.wordPairProximity as AnyTable;
    case 'counts':
      return tables.fidWordCount as AnyTable;
    default:
      return tables[name] as AnyTable;
  }
}

/** The table key of (keyA, keyB) (see search-delta.ts). */
function keyOf(name: TableName, words: readonly string[]): (a: number, b: number) => unknown {
  switch (name) {
    case 'words':
    case 'exactWords':
      return (a) => words[a];
    case 'wordFid':
      return (a, b) => [words[a], b];
    case 'wordPosition':
      return (a, b) => [words[a], bucketOfIndex(b)];
    case 'pairs':
      return (a, b) => [b & 3, words[a], words[b >>> 2]];
    case 'counts':
      return (a, b) => [a, b];
  }
}
