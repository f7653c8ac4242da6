// A search table of postings (key → documents) stored in chunks of the id space:
//
//   (key…, chunk) → portable roaring bitmap of the key's ids whose `id >>> bits` is `chunk`
//
// Internal ids are dense and new documents take the highest free ones, so a batch of new
// documents rewrites only the last chunk of each key it touches, whatever the size of the index
// (a whole-key value grows with the index, and so did the cost of every batch). Readers see one
// bitmap per key: the union of its chunks, which cover disjoint id ranges (docs/decisions/0006).
import { Bitmap, bitmapFrom, orPortable } from '../bitmap/index.ts';
import type { Table } from '../store/index.ts';

/** Chunk width (log2 of ids per chunk) of indexes created now: one roaring container per chunk. */
export const CHUNK_BITS = 16;
/** Up to this many chunks a key is read by point reads, past it by one range scan. */
const GETS_UP_TO = 4;
/** Above every chunk number. */
const CHUNK_END = 2 ** 32;

export type Chunked<K extends unknown[]> = [...K, number];

export class PostingsTable<K extends unknown[]> {
  /** the stored (key…, chunk) entries, for the writer */
  readonly raw: Table<Chunked<K>, Uint8Array>;

  constructor(raw: Table<Chunked<K>, Uint8Array>) {
    this.raw = raw;
  }

  /**
   * The documents of `key` (empty when it has none). `chunks`: how many chunks the index uses
   * (`Index.postingsChunks()`); with one, a single read.
   */
  docids(key: K, chunks = Infinity): Bitmap {
    if (chunks <= 1) return bitmapFrom(this.raw.get([...key, 0] as Chunked<K>));
    const out = new Bitmap();
    if (chunks <= GETS_UP_TO) {
      // a few point reads cost less than opening a range cursor
      const k = [...key, 0] as Chunked<K>;
      for (let c = 0; c < chunks; c++) {
        k[k.length - 1] = c;
        orPortable(out, this.raw.get(k));
      }
      return out;
    }
    for (const bytes of this.#chunkValues(key)) orPortable(out, bytes);
    return out;
  }

  /** True when `key` has documents. */
  has(key: K): boolean {
    for (const _ of this.raw.keys({ start: [...key, 0] as Chunked<K>, end: [...key, CHUNK_END] as Chunked<K>, limit: 1 })) return true;
    return false;
  }

  /** The keys in [start, end) (key prefixes work: `[word]` … `[word, MAX]`; default: all) with their documents, in key order. */
  *entries(range: { start?: unknown[]; end?: unknown[] } = {}): Generator<[K, Bitmap]> {
    let key: K | null = null;
    let ids: Bitmap | null = null;
    for (const [stored, bytes] of this.raw.entries(range as { start: Chunked<K>; end: Chunked<K> })) {
      const k = stored.slice(0, -1) as K;
      if (key !== null && sameKey(key, k)) {
        orPortable(ids!, bytes);
        continue;
      }
      if (key !== null) yield [key, ids!];
      key = k;
      ids = bitmapFrom(bytes);
    }
    if (key !== null) yield [key, ids!];
  }

  isEmpty(): boolean {
    return this.raw.count() === 0;
  }

  /** Removes every key (inside a write). */
  clear(): void {
    this.raw.clear();
  }

  usedBytes(): number {
    return this.raw.usedBytes();
  }

  /** Puts of chunk values since the table was opened, and their bytes (instrumentation). */
  writeCounters(): { puts: number; bytes: number } {
    return this.raw.writeCounters();
  }

  *#chunkValues(key: K): Generator<Uint8Array> {
    for (const [, bytes] of this.raw.entries({ start: [...key, 0] as Chunked<K>, end: [...key, CHUNK_END] as Chunked<K> })) yield bytes;
  }
}

function sameKey(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
