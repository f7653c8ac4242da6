// Writes a prepared search delta into the tables (the writer's side of a flush; preparing is
// flush-prepare.ts): each (key, id chunk) entry is read (unless its table started empty), combined
// with its net change and written once, in the table's own key order, which LMDB fills far faster
// than random keys. A batch of new documents touches only the last chunk of a key (decision 0006).
//
//   slice ((key, chunk) entries in order, net additions as portable bitmap bytes, net removals)
//     ─► per entry: absent → put the bytes; present → native union / difference ─► put or remove
//     ─► a word whose touched chunks all ended empty is looked up for other chunks (word sets)
import { bitmapBytes, bitmapFrom } from '../bitmap/index.ts';
import type { SearchTables } from '../index/index.ts';
import type { PostingsTable } from '../index/postings-table.ts';
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

type AnyPostings = PostingsTable<unknown[]>;
type RawTable = Table<unknown[], Uint8Array>;

/** Told after each slice: postings written so far, of `total` (a big flush takes seconds). */
export type FlushProgress = (written: number, total: number) => void;

/** Writes prepared slices into the tables (inside the writer's transaction). */
export function writeSlices(
  tables: SearchTables,
  slices: Iterable<FlushSlice>,
  words: readonly string[],
  progress: { total: number; report: FlushProgress } | null = null,
): WrittenWords {
  const written: WrittenWords = { words: new Uint8Array(words.length), exactWords: new Uint8Array(words.length) };
  const empty = new Map<number, boolean>();
  let postings = 0;
  for (const slice of slices) {
    // before the slice, which may take a while: what is already written
    progress?.report(Math.min(postings, progress.total), progress.total);
    postings += slice.postings;
    const name = TABLE_NAMES[slice.table]!;
    const table = tableOf(tables, name);
    let wasEmpty = empty.get(slice.table);
    if (wasEmpty === undefined) empty.set(slice.table, (wasEmpty = table.isEmpty()));
    if (name === 'words' || name === 'exactWords') {
      const presence = written[name];
      writeSlice(table.raw as RawTable, keyOf(name, words), slice, wasEmpty, presence);
      // a word none of whose written chunks holds documents may hold some in other chunks
      for (let i = 0; i < slice.keyA.length; i++) {
        const w = slice.keyA[i]!;
        if (presence[w] === ABSENT && !wasEmpty && table.has([words[w]])) presence[w] = PRESENT;
      }
    } else {
      writeSlice(table.raw as RawTable, keyOf(name, words), slice, wasEmpty, null);
    }
  }
  return written;
}

function writeSlice(table: RawTable, keyOf: (a: number, b: number, chunk: number) => unknown[], slice: FlushSlice, wasEmpty: boolean, presence: Uint8Array | null): void {
  const { keyA, keyB, chunk, bytes, byteEnd, removed, removedEnd } = slice;
  let b0 = 0;
  let r0 = 0;
  let previousWord = -1;
  for (let i = 0; i < keyA.length; i++) {
    const b1 = byteEnd[i]!;
    const r1 = removedEnd[i]!;
    const key = keyOf(keyA[i]!, keyB[i]!, chunk[i]!);
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
    if (presence !== null) {
      // a word's entries follow each other: present if any of its chunks is
      const w = keyA[i]!;
      if (w !== previousWord || presence[w] !== PRESENT) presence[w] = exists ? PRESENT : ABSENT;
      previousWord = w;
    }
    b0 = b1;
    r0 = r1;
  }
}

function tableOf(tables: SearchTables, name: TableName): AnyPostings {
  switch (name) {
    case 'pairs':
      return tables.wordPairProximity as unknown as AnyPostings;
    case 'counts':
      return tables.fidWordCount as unknown as AnyPostings;
    default:
      return tables[name] as unknown as AnyPostings;
  }
}

/** The table key of (keyA, keyB) in id chunk `c` (see search-delta.ts). */
function keyOf(name: TableName, words: readonly string[]): (a: number, b: number, c: number) => unknown[] {
  switch (name) {
    case 'words':
    case 'exactWords':
      return (a, _b, c) => [words[a], c];
    case 'wordFid':
      return (a, b, c) => [words[a], b, c];
    case 'wordPosition':
      return (a, b, c) => [words[a], bucketOfIndex(b), c];
    case 'pairs':
      return (a, b, c) => [b & 3, words[a], words[b >>> 2], c];
    case 'counts':
      return (a, b, c) => [a, b, c];
  }
}
