// Prepares the writing of a search delta (pure: the extractor thread runs it between jobs while
// the writer writes the previous slice; search-flush.ts writes):
//
//   raw postings + chunk groups ─► keys grouped ─► table order (LSD counting sorts on word ranks
//   and small numbers) ─► slices of keys split by id chunk (the tables' last key part, decision
//   0006) with their net additions, encoded as portable bitmap bytes (portable-bitmap.ts), and
//   net removals
import { groupAll, type GroupedPostings, type RawPostings } from './postings.ts';
import { ByteScratch, encodePostings } from './portable-bitmap.ts';
import { TABLE_NAMES, type ChunkPostings, type SearchDelta, type TableName } from './search-delta.ts';

/** A delta to write: the batch's words, each table's postings (TABLE_NAMES order), its chunks. */
export interface FlushRequest {
  words: string[];
  tables: RawPostings[];
  chunks: ChunkPostings[];
  /** log2 of the ids per chunk of the index's postings */
  chunkBits: number;
}

/** (key, id chunk) entries of one table in table order, ready to write. */
export interface FlushSlice {
  /** index in TABLE_NAMES */
  table: number;
  keyA: Uint32Array;
  keyB: Uint32Array;
  /** the id chunk of each entry (`id >>> chunkBits`); a key's chunks follow each other in order */
  chunk: Uint32Array;
  /** portable bitmap of each entry's net additions: bytes[byteEnd[k − 1] .. byteEnd[k]] (empty: none) */
  bytes: Uint8Array;
  byteEnd: Uint32Array;
  /** each entry's net removals: removed[removedEnd[k − 1] .. removedEnd[k]] */
  removed: Uint32Array;
  removedEnd: Uint32Array;
  /** the request's postings this slice covers (its share of `requestPostings`, for progress) */
  postings: number;
}

/** Postings (key, id changes) of a request: the total its slices' `postings` add up to. */
export function requestPostings(req: FlushRequest): number {
  let n = 0;
  for (const raw of req.tables) n += raw.length;
  for (const c of req.chunks) for (const g of c.tables) n += g.ids.length;
  return n;
}

/** Keys per slice: bounds the memory of prepared bytes and lets preparing and writing overlap. */
const SLICE_KEYS = 32_768;

/** The request for `delta` (its arrays are shared, not copied). */
export function flushRequest(delta: SearchDelta, words: string[], chunkBits: number): FlushRequest {
  return { words, tables: TABLE_NAMES.map((name) => delta.tables[name].raw()), chunks: delta.chunks, chunkBits };
}

/** The arrays a request travels with (to transfer them). */
export function requestBuffers(req: FlushRequest): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const raw of req.tables) for (const a of [raw.buckets, raw.pKey, raw.pId]) out.add(a.buffer as ArrayBuffer);
  for (const chunk of req.chunks) {
    out.add(chunk.ids.buffer as ArrayBuffer);
    for (const g of chunk.tables) for (const a of [g.keyA, g.keyB, g.start, g.ids]) out.add(a.buffer as ArrayBuffer);
  }
  return [...out];
}

/** Prepares the slices of a request, table after table. */
export function* prepareSlices(req: FlushRequest): Generator<FlushSlice> {
  const rank = wordRanks(req.words);
  const nWords = req.words.length;
  // the biggest table first: while the writer writes it, the others are prepared
  const size = (t: number) => req.tables[t]!.length + req.chunks.reduce((n, c) => n + c.tables[t]!.ids.length, 0);
  const tables = TABLE_NAMES.map((_, t) => [t, size(t)] as const).sort((a, b) => b[1] - a[1]);
  for (const [t] of tables) {
    const raw = req.tables[t]!;
    const chunks = req.chunks.map((c) => ({ groups: c.tables[t]!, ids: c.ids })).filter((c) => c.groups.ids.length > 0);
    if (raw.length === 0 && chunks.length === 0) continue;
    const g = groupAll(raw, chunks);
    const order = tableOrder(TABLE_NAMES[t]!, g, rank, nWords);
    for (let from = 0; from < order.length; from += SLICE_KEYS) yield prepareSlice(t, g, order, from, Math.min(order.length, from + SLICE_KEYS), req.chunkBits);
  }
}

function prepareSlice(table: number, g: GroupedPostings, order: Uint32Array, from: number, to: number, chunkBits: number): FlushSlice {
  const out = new SliceBuilder(to - from);
  const scratch = new ByteScratch();
  const net = new NetChange();
  const { start, ids } = g;
  let postings = 0;
  for (let i = from; i < to; i++) {
    const k = order[i]!;
    const s = start[k]!;
    const e = start[k + 1]!;
    postings += e - s;
    if (!hasRemovals(ids, s, e)) {
      const m = sortUnique(ids, s, e);
      out.key(g.keyA[k]!, g.keyB[k]!, ids, s, s + m, NONE, 0, 0, chunkBits, scratch);
    } else {
      net.compute(ids, s, e);
      out.key(g.keyA[k]!, g.keyB[k]!, net.added, 0, net.added.length, net.removed, 0, net.removed.length, chunkBits, scratch);
    }
  }
  return out.take(table, postings);
}

const NONE = new Uint32Array(0);

/** The entries of a slice: one per (key, chunk) with net additions or removals, or per key with neither. */
class SliceBuilder {
  #keyA: Uint32Array;
  #keyB: Uint32Array;
  #chunk: Uint32Array;
  #byteEnd: Uint32Array;
  #removedEnd: Uint32Array;
  #n = 0;
  readonly #bytes = new Output();
  readonly #removed: number[] = [];

  constructor(keys: number) {
    this.#keyA = new Uint32Array(keys);
    this.#keyB = new Uint32Array(keys);
    this.#chunk = new Uint32Array(keys);
    this.#byteEnd = new Uint32Array(keys);
    this.#removedEnd = new Uint32Array(keys);
  }

  /** Adds a key with its sorted net additions added[a0..a1) and removals removed[r0..r1), split by chunk. */
  key(
    keyA: number,
    keyB: number,
    added: Int32Array | Uint32Array,
    a0: number,
    a1: number,
    removed: Uint32Array,
    r0: number,
    r1: number,
    bits: number,
    scratch: ByteScratch,
  ): void {
    // a key with no net change keeps one entry (its word's presence is still reported)
    if (a0 === a1 && r0 === r1) return this.#entry(keyA, keyB, 0);
    while (a0 < a1 || r0 < r1) {
      const chunk = Math.min(a0 < a1 ? added[a0]! >>> bits : Infinity, r0 < r1 ? removed[r0]! >>> bits : Infinity);
      let a = a0;
      while (a < a1 && added[a]! >>> bits === chunk) a++;
      let r = r0;
      while (r < r1 && removed[r]! >>> bits === chunk) r++;
      if (a > a0) this.#bytes.append(encodePostings(added, a0, a, scratch));
      for (let i = r0; i < r; i++) this.#removed.push(removed[i]!);
      this.#entry(keyA, keyB, chunk);
      a0 = a;
      r0 = r;
    }
  }

  #entry(keyA: number, keyB: number, chunk: number): void {
    if (this.#n === this.#keyA.length) this.#grow();
    const n = this.#n++;
    this.#keyA[n] = keyA;
    this.#keyB[n] = keyB;
    this.#chunk[n] = chunk;
    this.#byteEnd[n] = this.#bytes.length;
    this.#removedEnd[n] = this.#removed.length;
  }

  #grow(): void {
    const size = Math.max(16, this.#keyA.length * 2);
    const grown = (a: Uint32Array) => {
      const next = new Uint32Array(size);
      next.set(a);
      return next;
    };
    this.#keyA = grown(this.#keyA);
    this.#keyB = grown(this.#keyB);
    this.#chunk = grown(this.#chunk);
    this.#byteEnd = grown(this.#byteEnd);
    this.#removedEnd = grown(this.#removedEnd);
  }

  take(table: number, postings: number): FlushSlice {
    const n = this.#n;
    return {
      table,
      postings,
      keyA: this.#keyA.slice(0, n),
      keyB: this.#keyB.slice(0, n),
      chunk: this.#chunk.slice(0, n),
      bytes: this.#bytes.take(),
      byteEnd: this.#byteEnd.slice(0, n),
      removed: Uint32Array.from(this.#removed),
      removedEnd: this.#removedEnd.slice(0, n),
    };
  }
}

/** The arrays a slice travels with (to transfer them). */
export function sliceBuffers(s: FlushSlice): ArrayBuffer[] {
  return [s.keyA, s.keyB, s.chunk, s.bytes, s.byteEnd, s.removed, s.removedEnd].map((a) => a.buffer as ArrayBuffer);
}

/** Key numbers in the table's key order. */
function tableOrder(name: TableName, g: GroupedPostings, rank: Uint32Array, nWords: number): Uint32Array {
  const { keyA, keyB } = g;
  const n = keyA.length;
  const wordRank = (k: Uint32Array, shift: number) => {
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = rank[k[i]! >>> shift]!;
    return out;
  };
  switch (name) {
    case 'words':
    case 'exactWords':
      return sortBy(identity(n), wordRank(keyA, 0), nWords);
    case 'wordFid':
      return sortBy(sortBy(identity(n), keyB, maxOf(keyB) + 1), wordRank(keyA, 0), nWords);
    case 'wordPosition':
      return sortBy(sortBy(identity(n), keyB, 32), wordRank(keyA, 0), nWords);
    case 'pairs': {
      const proximity = new Uint32Array(n);
      for (let i = 0; i < n; i++) proximity[i] = keyB[i]! & 3;
      return sortBy(sortBy(sortBy(identity(n), wordRank(keyB, 2), nWords), wordRank(keyA, 0), nWords), proximity, 4);
    }
    case 'counts':
      return sortBy(sortBy(identity(n), keyB, maxOf(keyB) + 1), keyA, maxOf(keyA) + 1);
  }
}

/** A growable byte buffer. */
class Output {
  #bytes = new Uint8Array(1 << 16);
  length = 0;

  append(src: Uint8Array): void {
    if (this.length + src.length > this.#bytes.length) {
      const next = new Uint8Array(Math.max(this.#bytes.length * 2, this.length + src.length));
      next.set(this.#bytes.subarray(0, this.length));
      this.#bytes = next;
    }
    this.#bytes.set(src, this.length);
    this.length += src.length;
  }

  take(): Uint8Array {
    return this.#bytes.slice(0, this.length);
  }
}

function hasRemovals(ids: Int32Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (ids[i]! < 0) return true;
  return false;
}

/** Sorts ids[from..to) ascending in place and moves the distinct values to its front; returns their count. */
function sortUnique(ids: Int32Array, from: number, to: number): number {
  let sorted = true;
  for (let i = from + 1; i < to && sorted; i++) sorted = ids[i - 1]! < ids[i]!;
  if (sorted) return to - from;
  ids.subarray(from, to).sort();
  let w = from + 1;
  for (let i = from + 1; i < to; i++) if (ids[i] !== ids[w - 1]) ids[w++] = ids[i]!;
  return w - from;
}

/** Net change of one key: ids whose additions outnumber their removals, and the reverse. */
class NetChange {
  added = new Uint32Array(0);
  removed = new Uint32Array(0);
  #adds = new Int32Array(64);
  #removes = new Int32Array(64);

  compute(ids: Int32Array, from: number, to: number): void {
    if (to - from > this.#adds.length) {
      this.#adds = new Int32Array((to - from) * 2);
      this.#removes = new Int32Array((to - from) * 2);
    }
    const adds = this.#adds;
    const removes = this.#removes;
    let na = 0;
    let nr = 0;
    for (let i = from; i < to; i++) {
      const v = ids[i]!;
      if (v >= 0) adds[na++] = v;
      else removes[nr++] = ~v;
    }
    const a = adds.subarray(0, na).sort();
    const r = removes.subarray(0, nr).sort();
    const added: number[] = [];
    const removed: number[] = [];
    let i = 0;
    let j = 0;
    // per id: additions − removals is +1, 0 or −1 (see postings.ts)
    while (i < na || j < nr) {
      const id = j >= nr || (i < na && a[i]! < r[j]!) ? a[i]! : r[j]!;
      let d = 0;
      while (i < na && a[i] === id) (i++, d++);
      while (j < nr && r[j] === id) (j++, d--);
      if (d > 0) added.push(id);
      else if (d < 0) removed.push(id);
    }
    this.added = Uint32Array.from(added);
    this.removed = Uint32Array.from(removed);
  }
}

/** rank[id] = position of words[id] in sorted (UTF-16) order: the order of the tables' keys, but around surrogates. */
function wordRanks(words: readonly string[]): Uint32Array {
  const ids: number[] = new Array(words.length);
  for (let i = 0; i < ids.length; i++) ids[i] = i;
  ids.sort((a, b) => (words[a]! < words[b]! ? -1 : 1));
  const rank = new Uint32Array(words.length);
  for (let i = 0; i < ids.length; i++) rank[ids[i]!] = i;
  return rank;
}

function identity(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

function maxOf(a: Uint32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m;
}

/** Stable counting sort of `order` (key numbers) by sortKey[k] ∈ [0, range). */
function sortBy(order: Uint32Array, sortKey: Uint32Array, range: number): Uint32Array {
  const n = order.length;
  const counts = new Uint32Array(range + 1);
  for (let i = 0; i < n; i++) counts[sortKey[order[i]!]! + 1]!++;
  for (let v = 1; v <= range; v++) counts[v]! += counts[v - 1]!;
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const k = order[i]!;
    out[counts[sortKey[k]!]!++] = k;
  }
  return out;
}
