// Builds the minimal acyclic automaton of a sorted word list (Daciuk et al., incremental
// construction from sorted input: each finished suffix state is replaced by an equal registered
// state when there is one) and serialises it into the flat layout of word-set.ts.

import * as layout from './layout.ts';
import * as utf from './utf8.ts';

// Module-local copies: under tsx, imported bindings are getter calls, too slow for hot loops.
const { COUNT_ESCAPE, FINAL, HEADER_SIZE, MAGIC, NEXT0, VERSION, nodeSize, writeAddr, writeU32 } = layout;
const { ensureCapacity, encodeInto } = utf;

/** Registered (frozen) states and their transitions, in growable typed arrays. */
class Registry {
  count = 0;
  final = new Uint8Array(1024);
  start = new Int32Array(1024);
  n = new Uint16Array(1024);
  hash = new Int32Array(1024);
  transCount = 0;
  label = new Uint8Array(4096);
  target = new Int32Array(4096);
  table = new Int32Array(2048); // open addressing: state id + 1, 0 = empty
  mask = 2047;

  /** The id of the registered state equal to the given one, registering it when new. */
  intern(final: number, labels: Uint8Array, targets: Int32Array, off: number, n: number): number {
    let h = final ? 0x2f6b3c1d : 0x6d2b79f5;
    for (let i = 0; i < n; i++) {
      h = Math.imul(h ^ labels[off + i]!, 0x01000193);
      h = Math.imul(h ^ targets[off + i]!, 0x5bd1e995);
      h ^= h >>> 15;
    }
    let slot = h & this.mask;
    for (;;) {
      const e = this.table[slot]!;
      if (e === 0) break;
      const id = e - 1;
      if (this.hash[id] === h && this.equals(id, final, labels, targets, off, n)) return id;
      slot = (slot + 1) & this.mask;
    }
    const id = this.add(final, labels, targets, off, n, h);
    this.table[slot] = id + 1;
    if (this.count * 2 > this.mask) this.rehash();
    return id;
  }

  private equals(
    id: number,
    final: number,
    labels: Uint8Array,
    targets: Int32Array,
    off: number,
    n: number,
  ): boolean {
    if (this.final[id] !== final || this.n[id] !== n) return false;
    const s = this.start[id]!;
    for (let i = 0; i < n; i++) {
      if (this.label[s + i] !== labels[off + i] || this.target[s + i] !== targets[off + i]) {
        return false;
      }
    }
    return true;
  }

  private add(
    final: number,
    labels: Uint8Array,
    targets: Int32Array,
    off: number,
    n: number,
    h: number,
  ): number {
    const id = this.count++;
    if (id >= this.final.length) {
      const size = this.final.length * 2;
      this.final = grow(this.final, size);
      this.start = grow(this.start, size);
      this.n = grow(this.n, size);
      this.hash = grow(this.hash, size);
    }
    if (this.transCount + n > this.label.length) {
      let size = this.label.length * 2;
      while (size < this.transCount + n) size *= 2;
      this.label = grow(this.label, size);
      this.target = grow(this.target, size);
    }
    this.final[id] = final;
    this.start[id] = this.transCount;
    this.n[id] = n;
    this.hash[id] = h;
    this.label.set(labels.subarray(off, off + n), this.transCount);
    this.target.set(targets.subarray(off, off + n), this.transCount);
    this.transCount += n;
    return id;
  }

  private rehash(): void {
    const size = this.table.length * 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hash[id]! & this.mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.mask;
      this.table[slot] = id + 1;
    }
  }
}

function grow<T extends Uint8Array | Uint16Array | Int32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** Builds the serialised automaton. Words must be sorted by UTF-8 bytes; repeats are skipped. */
export function buildBytes(words: Iterable<string>): Uint8Array {
  const builder = new WordSetBuilder();
  let buf: Uint8Array = new Uint8Array(64);
  for (const word of words) {
    let len = encodeInto(word, buf);
    if (len < 0) {
      buf = ensureCapacity(buf, word.length * 3);
      len = encodeInto(word, buf);
    }
    builder.add(buf, len);
  }
  return builder.finish();
}

/** Incremental construction from words given as UTF-8 bytes in increasing byte order. */
export class WordSetBuilder {
  readonly #reg = new Registry();
  // The pending (not yet registered) path: one state per byte depth, 256 transition slots each.
  #depthCap = 32;
  #pFinal = new Uint8Array(33);
  #pN = new Int32Array(33);
  #pLab = new Uint8Array(33 * 256);
  #pTgt = new Int32Array(33 * 256);
  #prev: Uint8Array = new Uint8Array(64);
  #prevLen = 0;
  #first = true;
  #size = 0;
  #maxLen = 0;

  /** Adds bytes [0, len) of `word` (copied); a repeat of the previous word is ignored. */
  add(word: Uint8Array, len: number): void {
    const prev = this.#prev;
    const prevLen = this.#prevLen;
    let c = 0;
    const m = Math.min(len, prevLen);
    while (c < m && word[c] === prev[c]) c++;
    if (!this.#first) {
      if (c === len && c === prevLen) return; // repeated word
      if (c === len || (c < prevLen && word[c]! < prev[c]!)) {
        const text = new TextDecoder().decode(word.subarray(0, len));
        throw new RangeError(`word set: words are not sorted by UTF-8 bytes at ${JSON.stringify(text)}`);
      }
    }
    if (len > this.#depthCap) {
      let cap = this.#depthCap;
      while (cap < len) cap *= 2;
      this.#depthCap = cap;
      this.#pFinal = grow(this.#pFinal, cap + 1);
      this.#pN = grow(this.#pN, cap + 1);
      this.#pLab = grow(this.#pLab, (cap + 1) * 256);
      this.#pTgt = grow(this.#pTgt, (cap + 1) * 256);
    }
    for (let d = prevLen; d > c; d--) this.#freeze(d);
    const pN = this.#pN;
    const pLab = this.#pLab;
    const pFinal = this.#pFinal;
    for (let d = c; d < len; d++) {
      pLab[d * 256 + pN[d]!] = word[d]!;
      pN[d] = pN[d]! + 1;
      pN[d + 1] = 0;
      pFinal[d + 1] = 0;
    }
    pFinal[len] = 1;
    if (prev.length < len) {
      this.#prev = new Uint8Array(len * 2);
      this.#prev.set(prev.subarray(0, c));
    }
    this.#prev.set(word.subarray(c, len), c);
    this.#prevLen = len;
    this.#first = false;
    this.#size++;
    if (len > this.#maxLen) this.#maxLen = len;
  }

  /** The serialised set; the builder must not be used afterwards. */
  finish(): Uint8Array {
    for (let d = this.#prevLen; d > 0; d--) this.#freeze(d);
    const root = this.#reg.intern(this.#pFinal[0]!, this.#pLab, this.#pTgt, 0, this.#pN[0]!);
    return serialise(this.#reg, root, this.#size, this.#maxLen);
  }

  #freeze(d: number): void {
    const id = this.#reg.intern(this.#pFinal[d]!, this.#pLab, this.#pTgt, d * 256, this.#pN[d]!);
    this.#pTgt[(d - 1) * 256 + this.#pN[d - 1]! - 1] = id;
  }
}

/**
 * Lays the states out in depth-first pre-order from the root, in label order, so that
 * enumeration reads forward; a state whose first child is laid out right after it does not
 * store that child's address. The address width is the smallest that fits the total.
 */
function serialise(reg: Registry, root: number, size: number, maxLen: number): Uint8Array {
  const count = reg.count;
  const order = new Int32Array(count);
  const next0 = new Uint8Array(count);
  const emitted = new Uint8Array(count);
  const stackNode = new Int32Array(maxLen + 2);
  const stackIdx = new Int32Array(maxLen + 2);
  let k = 0;
  const emit = (v: number): void => {
    emitted[v] = 1;
    order[k++] = v;
    next0[v] = reg.n[v]! > 0 && !emitted[reg.target[reg.start[v]!]!] ? 1 : 0;
  };
  emit(root);
  let sp = 0;
  stackNode[0] = root;
  stackIdx[0] = 0;
  while (sp >= 0) {
    const v = stackNode[sp]!;
    const i = stackIdx[sp]!;
    if (i < reg.n[v]!) {
      stackIdx[sp] = i + 1;
      const c = reg.target[reg.start[v]! + i]!;
      if (!emitted[c]) {
        emit(c);
        sp++;
        stackNode[sp] = c;
        stackIdx[sp] = 0;
      }
    } else {
      sp--;
    }
  }
  if (k !== count) throw new Error('word set: unreachable states'); // cannot happen

  let width = 1;
  let total = 0;
  for (; width <= 4; width++) {
    total = HEADER_SIZE;
    for (let j = 0; j < count; j++) {
      const v = order[j]!;
      total += nodeSize(reg.n[v]!, next0[v] === 1, width);
    }
    if (width === 4 || total <= 2 ** (8 * width)) break;
  }
  const addr = new Int32Array(count);
  let a = HEADER_SIZE;
  for (let j = 0; j < count; j++) {
    const v = order[j]!;
    addr[v] = a;
    a += nodeSize(reg.n[v]!, next0[v] === 1, width);
  }

  const out = new Uint8Array(total);
  out.set(MAGIC, 0);
  out[4] = VERSION;
  out[5] = width;
  writeU32(out, 8, size);
  writeU32(out, 12, addr[root]!);
  writeU32(out, 16, total);
  writeU32(out, 20, maxLen);
  for (let j = 0; j < count; j++) {
    const v = order[j]!;
    const n = reg.n[v]!;
    const s = reg.start[v]!;
    const nx = next0[v] === 1;
    let p = addr[v]!;
    if (n >= COUNT_ESCAPE) {
      out[p++] = (reg.final[v] ? FINAL : 0) | (nx ? NEXT0 : 0) | COUNT_ESCAPE;
      out[p++] = n - COUNT_ESCAPE;
    } else {
      out[p++] = (reg.final[v] ? FINAL : 0) | (nx ? NEXT0 : 0) | n;
    }
    for (let i = 0; i < n; i++) out[p++] = reg.label[s + i]!;
    for (let i = nx ? 1 : 0; i < n; i++) {
      writeAddr(out, p, addr[reg.target[s + i]!]!, width);
      p += width;
    }
  }
  return out;
}
