// Pending changes of one search table: key (two u32s) → ids added (id) or removed (~id), in
// typed arrays so a batch of millions of postings costs a few bytes each and no garbage.
//
//   buckets (open addressing, 16 bytes per key): [keyA, keyB, last signed id, key number + 1]
//   postings, in arrival order: [key number, signed id] ...
//
// A key's bucket holds everything `append` reads, so a posting costs one cache line; key numbers
// are dense and stable, so growing the buckets leaves the postings alone. `append` drops a
// posting equal to the key's last one: a document lists a key once even when its record names it
// twice. For one (key, id), additions and removals alternate (a document is removed only as the
// version the table holds), so the net change is the sign of (additions − removals) whatever
// order deltas are merged in.

const STRIDE = 4;
const KEY_B = 1;
const LAST = 2;
const NUMBER = 3;
const MAX_LOAD = 0.7;
/** a `last` that no signed id equals (ids stay below 2^31 − 1) */
const NO_LAST = 0x7fffffff;

/** A delta's keys and signed ids grouped per key (key k's ids: ids[start[k]] .. ids[start[k + 1]]). */
export interface GroupedPostings {
  keyA: Uint32Array;
  keyB: Uint32Array;
  start: Uint32Array;
  ids: Int32Array;
}

/** The arrays of a `Postings`, as they travel to another thread to be grouped there. */
export interface RawPostings {
  keys: number;
  length: number;
  buckets: Int32Array;
  pKey: Int32Array;
  pId: Int32Array;
}

export class Postings {
  /** number of keys */
  keys = 0;
  /** number of postings */
  length = 0;
  #buckets: Int32Array;
  #mask: number;
  #pKey: Int32Array;
  #pId: Int32Array;

  constructor(keys = 256, postings = 1024) {
    const cap = capacityFor(keys);
    this.#buckets = new Int32Array(cap * STRIDE);
    this.#mask = cap - 1;
    this.#pKey = new Int32Array(postings);
    this.#pId = new Int32Array(postings);
  }

  /** Forgets every key and posting, keeping the arrays (for the next chunk of the same size). */
  clear(): void {
    this.#buckets.fill(0);
    this.keys = 0;
    this.length = 0;
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    return this.#buckets.byteLength + this.#pKey.byteLength * 2;
  }

  /** Records id (`sid` ≥ 0) added to, or ~id removed from, key (a, b). */
  append(a: number, b: number, sid: number): void {
    const at = this.#bucket(a | 0, b | 0);
    const buckets = this.#buckets;
    if (buckets[at + NUMBER] === 0) {
      buckets[at + NUMBER] = ++this.keys;
    } else if (buckets[at + LAST] === sid) {
      return;
    }
    buckets[at + LAST] = sid;
    this.#push(buckets[at + NUMBER]! - 1, sid);
  }

  /**
   * Adds ids to key (a, b): those of `docs[from..to)` mapped through `idOf` (negative: skipped),
   * with no repeat check (a document may rightly come twice: two versions of it in one chunk).
   */
  appendGroup(a: number, b: number, docs: Int32Array, from: number, to: number, idOf: Int32Array): void {
    const at = this.#bucket(a | 0, b | 0);
    const buckets = this.#buckets;
    let number = buckets[at + NUMBER]!;
    for (let i = from; i < to; i++) {
      const id = idOf[docs[i]!]!;
      if (id < 0) continue;
      if (number === 0) number = buckets[at + NUMBER] = ++this.keys;
      this.#push(number - 1, id);
    }
    // no later posting of a document may be taken for a repeat of these
    if (number !== 0) buckets[at + LAST] = NO_LAST;
  }

  /** Appends every posting of `other` (after this delta's own, with no repeat check). */
  merge(other: Postings | RawPostings): void {
    const raw = other instanceof Postings ? other.raw() : other;
    const theirs = raw.buckets;
    // Buckets are read in their order, which follows the low bits of the hash: inserted into a
    // smaller table they would pile up into long probe runs. Grow to the other's size first.
    while (this.#buckets.length < theirs.length || this.keys + raw.keys > ((this.#buckets.length / STRIDE) * MAX_LOAD)) this.#grow();
    const map = new Int32Array(raw.keys);
    for (let j = 0; j < theirs.length; j += STRIDE) {
      const number = theirs[j + NUMBER]!;
      if (number === 0) continue;
      const at = this.#bucket(theirs[j]!, theirs[j + KEY_B]!);
      const buckets = this.#buckets;
      if (buckets[at + NUMBER] === 0) buckets[at + NUMBER] = ++this.keys;
      buckets[at + LAST] = theirs[j + LAST]!;
      map[number - 1] = buckets[at + NUMBER]! - 1;
    }
    const { pKey, pId } = raw;
    for (let i = 0; i < raw.length; i++) this.#push(map[pKey[i]!]!, pId[i]!);
  }

  /** Keys (by key number) with their signed ids, in arrival order per key. */
  grouped(): GroupedPostings {
    return groupRaw(this.raw());
  }

  /** The arrays themselves (not copies). */
  raw(): RawPostings {
    return { keys: this.keys, length: this.length, buckets: this.#buckets, pKey: this.#pKey, pId: this.#pId };
  }

  /** Offset of the bucket of key (a, b) as int32s (an empty one, keys set, if the key is new). */
  #bucket(ka: number, kb: number): number {
    if (this.keys + 1 > (this.#mask + 1) * MAX_LOAD) this.#grow();
    const buckets = this.#buckets;
    const mask = this.#mask;
    let i = hash(ka, kb) & mask;
    for (;;) {
      const at = i * STRIDE;
      if (buckets[at + NUMBER] === 0) {
        buckets[at] = ka;
        buckets[at + KEY_B] = kb;
        return at;
      }
      if (buckets[at] === ka && buckets[at + KEY_B] === kb) return at;
      i = (i + 1) & mask;
    }
  }

  #push(number: number, sid: number): void {
    if (this.length === this.#pId.length) {
      this.#pKey = grown(this.#pKey);
      this.#pId = grown(this.#pId);
    }
    this.#pKey[this.length] = number;
    this.#pId[this.length] = sid;
    this.length++;
  }

  #grow(): void {
    const old = this.#buckets;
    const cap = (old.length / STRIDE) * 2;
    const buckets = new Int32Array(cap * STRIDE);
    const mask = cap - 1;
    for (let j = 0; j < old.length; j += STRIDE) {
      if (old[j + NUMBER] === 0) continue;
      let i = hash(old[j]!, old[j + KEY_B]!) & mask;
      while (buckets[i * STRIDE + NUMBER] !== 0) i = (i + 1) & mask;
      const at = i * STRIDE;
      buckets[at] = old[j]!;
      buckets[at + KEY_B] = old[j + KEY_B]!;
      buckets[at + LAST] = old[j + LAST]!;
      buckets[at + NUMBER] = old[j + NUMBER]!;
    }
    this.#buckets = buckets;
    this.#mask = mask;
  }
}

/** A table's chunk groups (documents numbered in the chunk) and the chunk's internal ids. */
export interface ChunkGroups {
  groups: GroupedPostings;
  ids: Int32Array;
}

/** Groups raw postings and chunk groups together per key. */
export function groupAll(raw: RawPostings, chunks: readonly ChunkGroups[]): GroupedPostings {
  if (chunks.length === 0) return groupRaw(raw);
  let keys = raw.keys;
  let postings = raw.length;
  for (const c of chunks) {
    keys += c.groups.keyA.length;
    postings += c.groups.ids.length;
  }
  // chunks repeat keys: start at half the sum (merge grows to the raw table's size), grow if needed
  const all = new Postings(Math.ceil(keys / 2), postings);
  if (raw.length > 0) all.merge(raw);
  for (const { groups, ids } of chunks) {
    const { keyA, keyB, start, ids: docs } = groups;
    for (let k = 0; k < keyA.length; k++) all.appendGroup(keyA[k]!, keyB[k]!, docs, start[k]!, start[k + 1]!, ids);
  }
  return all.grouped();
}

/** Groups raw postings per key (see `Postings.grouped`). */
export function groupRaw(raw: RawPostings): GroupedPostings {
  const n = raw.keys;
  const keyA = new Uint32Array(n);
  const keyB = new Uint32Array(n);
  const { buckets, pKey, pId, length } = raw;
  for (let j = 0; j < buckets.length; j += STRIDE) {
    const number = buckets[j + NUMBER]!;
    if (number === 0) continue;
    keyA[number - 1] = buckets[j]!;
    keyB[number - 1] = buckets[j + KEY_B]!;
  }
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < length; i++) start[pKey[i]! + 1]!++;
  for (let k = 1; k <= n; k++) start[k]! += start[k - 1]!;
  const fill = start.slice(0, n);
  const ids = new Int32Array(length);
  for (let i = 0; i < length; i++) ids[fill[pKey[i]!]!++] = pId[i]!;
  return { keyA, keyB, start, ids };
}

function hash(a: number, b: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  return h ^ (h >>> 15);
}

function grown(a: Int32Array): Int32Array {
  const next = new Int32Array(a.length * 2);
  next.set(a);
  return next;
}

function capacityFor(keys: number): number {
  let cap = 16;
  while (cap * MAX_LOAD < keys) cap *= 2;
  return cap;
}
