// A search table of postings (key → documents) stored in chunks of the id space, chunk first:
//
//   (chunk, key…) → the key's ids whose `id >>> bits` is `chunk` (up to 4 as raw u32s, more as a
//                   portable roaring bitmap: engine/bitmap `postingsFrom`)
//
// Internal ids are dense and new documents take the highest free ones, so a batch of new
// documents writes into the last chunk of the table, which sits at the end of the B-tree: its
// keys are new, need no read, and fill fresh pages in order, whatever the size of the index. (With
// the chunk last, each key's new chunk was inserted beside its older ones all over the tree: every
// batch dirtied most pages of every table, and the tables grew half empty.) Readers see one
// bitmap per key: the union of its chunks, which cover disjoint id ranges (docs/decisions/0006,
// 0007).
import { PostingsUnion, postingsFrom, type Bitmap } from '../bitmap/index.ts';
import type { Table } from '../store/index.ts';
import { compareUtf8 } from '../words/index.ts';

/** Chunk width (log2 of ids per chunk) of indexes created now: one roaring container per chunk. */
export const CHUNK_BITS = 16;
/** Key layout of the postings written now (main `postingsLayout`): 2 = chunk first. */
export const POSTINGS_LAYOUT = 2;

export type Chunked<K extends unknown[]> = [number, ...K];

export class PostingsTable<K extends unknown[]> {
  /** the stored (chunk, key…) entries, for the writer */
  readonly raw: Table<Chunked<K>, Uint8Array>;

  constructor(raw: Table<Chunked<K>, Uint8Array>) {
    this.raw = raw;
  }

  /**
   * The documents of `key` (empty when it has none): one read per chunk. `chunks`: how many chunks
   * the index uses (`Index.postingsChunks()`); by default the table's own count (one more read).
   */
  docids(key: K, chunks = this.chunkCount()): Bitmap {
    if (chunks <= 1) return postingsFrom(this.raw.get([0, ...key]));
    const union = new PostingsUnion();
    const k: Chunked<K> = [0, ...key];
    for (let c = 0; c < chunks; c++) {
      k[0] = c;
      union.add(this.raw.get(k));
    }
    return union.result();
  }

  /** True when `key` has documents (in one of the first `chunks` chunks). */
  has(key: K, chunks = this.chunkCount()): boolean {
    const k: Chunked<K> = [0, ...key];
    for (let c = 0; c < chunks; c++) {
      k[0] = c;
      if (this.raw.has(k)) return true;
    }
    return false;
  }

  /** Chunks the table holds keys in: one more than the highest (0 when empty). */
  chunkCount(): number {
    for (const last of this.raw.keys({ reverse: true, limit: 1 })) return (last[0] as number) + 1;
    return 0;
  }

  /**
   * The keys in [start, end) (key prefixes work: `[word]` … `[word, MAX]`; default: all) with their
   * documents, in key order: one range read per chunk, merged.
   */
  *entries(range: { start?: unknown[]; end?: unknown[] } = {}): Generator<[K, Bitmap]> {
    const chunks = this.chunkCount();
    if (chunks <= 1) {
      for (const [stored, bytes] of this.raw.entries(chunkRange(0, range))) yield [stored.slice(1) as K, postingsFrom(bytes)];
      return;
    }
    // a k-way merge of the chunks' ranges, each already in key order
    const heads: Array<{ it: Iterator<[Chunked<K>, Uint8Array]>; key: K; bytes: Uint8Array }> = [];
    for (let c = 0; c < chunks; c++) {
      const it = this.raw.entries(chunkRange(c, range))[Symbol.iterator]();
      const first = it.next();
      if (!first.done) heads.push({ it, key: first.value[0].slice(1) as K, bytes: first.value[1] });
    }
    while (heads.length > 0) {
      let min = 0;
      for (let i = 1; i < heads.length; i++) if (compareKeys(heads[i]!.key, heads[min]!.key) < 0) min = i;
      const key = heads[min]!.key;
      const union = new PostingsUnion();
      for (let i = 0; i < heads.length; ) {
        const h = heads[i]!;
        if (compareKeys(h.key, key) !== 0) {
          i++;
          continue;
        }
        union.add(h.bytes);
        const next = h.it.next();
        if (next.done) heads.splice(i, 1);
        else {
          h.key = next.value[0].slice(1) as K;
          h.bytes = next.value[1];
          i++;
        }
      }
      yield [key, union.result()];
    }
  }

  /**
   * The stored values of the keys in [start, end), chunk by chunk, unmerged: for unions over many
   * keys (a prefix's words), where order does not matter.
   */
  *values(range: { start: unknown[]; end: unknown[] }, chunks = this.chunkCount()): Generator<[K, Uint8Array]> {
    for (let c = 0; c < chunks; c++) {
      for (const [stored, bytes] of this.raw.entries(chunkRange(c, range))) yield [stored.slice(1) as K, bytes];
    }
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
}

function chunkRange<K extends unknown[]>(c: number, range: { start?: unknown[]; end?: unknown[] }): { start: Chunked<K>; end: Chunked<K> } {
  return {
    start: [c, ...(range.start ?? [])] as Chunked<K>,
    end: (range.end === undefined ? [c + 1] : [c, ...range.end]) as Chunked<K>,
  };
}

/** Key order of the tables (ordered-binary): numbers by value, strings by UTF-8 bytes, a prefix first. */
function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'string' && typeof y === 'string') return compareUtf8(x, y);
    // ordered-binary puts numbers before strings
    return typeof x === 'number' ? -1 : 1;
  }
  return a.length - b.length;
}
