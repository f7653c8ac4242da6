// Writes a prepared search delta into the tables (the writer's side of a flush; preparing is
// flush-prepare.ts): each (chunk, key) entry is read (unless its chunk is past the table's last one
// before the write: then it is new), combined with its net change and written once, in key order,
// which LMDB fills far faster than random keys. A batch of new documents writes the last chunk,
// at the end of each table (decisions 0006, 0007).
//
//   slice ((key, chunk) entries in order, net additions as portable bitmap bytes, net removals)
//     ─► per entry: absent → put the bytes; present → native union / difference ─► put or remove
//     ─► a word whose touched chunks all ended empty is looked up for other chunks (word sets)
import { Bitmap, SMALL_IDS, isSmall, postingsBytes, postingsFrom, smallBytes, smallIdAt } from '../bitmap/index.ts';
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
  // chunks each table held before this write: an entry of a later chunk is new (no read)
  const heldChunks = new Map<number, number>();
  // per table, the highest chunk appended to so far in this write (-1: none)
  const appended = new Map<number, { chunk: number }>();
  let postings = 0;
  for (const slice of slices) {
    // before the slice, which may take a while: what is already written
    progress?.report(Math.min(postings, progress.total), progress.total);
    postings += slice.postings;
    const name = TABLE_NAMES[slice.table]!;
    const table = tableOf(tables, name);
    let held = heldChunks.get(slice.table);
    if (held === undefined) heldChunks.set(slice.table, (held = table.chunkCount()));
    let last = appended.get(slice.table);
    if (last === undefined) appended.set(slice.table, (last = { chunk: -1 }));
    if (name === 'words' || name === 'exactWords') {
      const presence = written[name];
      writeSlice(table.raw as RawTable, keyOf(name, words), slice, held, last, presence);
      // a word none of whose written chunks holds documents may hold some in other chunks
      for (let i = 0; i < slice.keyA.length; i++) {
        const w = slice.keyA[i]!;
        if (presence[w] === ABSENT && held > 0 && table.has([words[w]], held)) presence[w] = PRESENT;
      }
    } else {
      writeSlice(table.raw as RawTable, keyOf(name, words), slice, held, last, null);
    }
  }
  return written;
}

function writeSlice(
  table: RawTable,
  keyOf: (a: number, b: number, chunk: number) => unknown[],
  slice: FlushSlice,
  heldChunks: number,
  appended: { chunk: number },
  presence: Uint8Array | null,
): void {
  const { keyA, keyB, chunk, bytes, byteEnd, removed, removedEnd } = slice;
  let b0 = 0;
  let r0 = 0;
  let previousWord = -1;
  for (let i = 0; i < keyA.length; i++) {
    const b1 = byteEnd[i]!;
    const r1 = removedEnd[i]!;
    const c = chunk[i]!;
    const key = keyOf(keyA[i]!, keyB[i]!, c);
    const before = c >= heldChunks ? undefined : table.get(key);
    let exists: boolean;
    if (b1 === b0 && r1 === r0) {
      // no net change (additions undone by removals in the same delta)
      exists = before !== undefined;
    } else if (before === undefined && r0 === r1) {
      exists = b1 > b0;
      if (exists) {
        const value = bytes.subarray(b0, b1);
        // an entry of a chunk the table did not hold sorts past every key there, unless a higher
        // chunk was appended to already (a write spanning two new chunks: their entries alternate)
        if (c >= heldChunks && c >= appended.chunk && table.tryAppend(key, value)) appended.chunk = c;
        else table.put(key, value);
      }
    } else {
      const after = combinePostings(before, bytes.subarray(b0, b1), removed.subarray(r0, r1));
      exists = after !== null;
      if (after !== null) table.put(key, after);
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

const smallScratch: number[] = [];

/**
 * The value of `before` ∪ `added` ∖ `removed` (null: empty). Most keys hold a few ids (raw values,
 * engine/bitmap): those are merged as plain numbers, without a native bitmap.
 */
function combinePostings(before: Uint8Array | undefined, added: Uint8Array, removed: Uint32Array): Uint8Array | null {
  if ((before === undefined || isSmall(before)) && isSmall(added)) {
    const ids = smallScratch;
    ids.length = 0;
    let i = 0;
    let j = 0;
    let r = 0;
    const nb = before === undefined ? 0 : before.length >>> 2;
    const na = added.length >>> 2;
    while (i < nb || j < na) {
      const x = i < nb ? smallIdAt(before!, i) : Infinity;
      const y = j < na ? smallIdAt(added, j) : Infinity;
      const id = Math.min(x, y);
      if (x === id) i++;
      if (y === id) j++;
      while (r < removed.length && removed[r]! < id) r++;
      if (r < removed.length && removed[r] === id) continue;
      ids.push(id);
    }
    if (ids.length === 0) return null;
    return ids.length <= SMALL_IDS ? smallBytes(ids) : postingsBytes(new Bitmap(ids));
  }
  const bitmap = postingsFrom(before);
  if (removed.length > 0) bitmap.removeMany(removed);
  if (added.length > 0) bitmap.orInPlace(postingsFrom(added));
  return bitmap.size > 0 ? postingsBytes(bitmap) : null;
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

/** The table key of (keyA, keyB) in id chunk `c`, chunk first (see search-delta.ts, postings-table.ts). */
function keyOf(name: TableName, words: readonly string[]): (a: number, b: number, c: number) => unknown[] {
  switch (name) {
    case 'words':
    case 'exactWords':
      return (a, _b, c) => [c, words[a]];
    case 'wordFid':
      return (a, b, c) => [c, words[a], b];
    case 'wordPosition':
      return (a, b, c) => [c, words[a], bucketOfIndex(b)];
    case 'pairs':
      return (a, b, c) => [c, b & 3, words[a], words[b >>> 2]];
    case 'counts':
      return (a, b, c) => [c, a, b];
  }
}
