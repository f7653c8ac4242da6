// The word dictionary of an index: an immutable set of normalised words stored as a minimal
// acyclic automaton (a DAWG: shared prefixes AND shared suffixes) over UTF-8 bytes, in one flat
// byte array that is read in place (an LMDB value can be used without copying).
//
// Why bytes and not code points: byte labels keep the automaton small (one byte per ASCII
// transition, 256-way fan-out at most), give UTF-8 byte order for free (the order of LMDB keys
// and of Meilisearch's fst), and make `has`/`prefixed` plain byte walks. Typo distances still
// count characters: the typo walk (fuzzy.ts) only advances its Levenshtein row when a code
// point is complete, so "é" vs "e" is one substitution, not two byte edits.
//
// Byte layout (all integers little-endian):
//
//   offset 0                                                              24
//   +------+----+---+-------+------------+------------+------------+--------+
//   | MWRD | v1 | W | 0 0   | size (u32) | root (u32) | total (u32)| maxLen |   header
//   +------+----+---+-------+------------+------------+------------+--------+
//    magic  ver  address      word count   root state   byte length  longest word
//                width 1..4                address      of buffer    (UTF-8 bytes)
//
//   then the states, laid out depth-first from the root in label order:
//
//   +---+------+-----------------+-------------------------------------+
//   | h | [n'] | label[0..n-1]   | target[k..n-1], W bytes each        |   one state
//   +---+------+-----------------+-------------------------------------+
//    h: bit 7 = final (a word ends here)
//       bit 6 = NEXT0: transition 0's target is the state right after this one; its address
//               is not stored (k = 1), otherwise k = 0
//       bits 0-5 = n, the number of transitions; 63 means n = 63 + n' (the next byte)
//    labels: n distinct bytes, ascending; targets: absolute byte offsets of the child states
//
//   e.g. {"car", "cars", "cat"} is 35 bytes (W = 1):
//     24: 41 'c'               root: NEXT0, n = 1 (its child is at 26)
//     26: 41 'a'               NEXT0, n = 1
//     28: 42 'r' 't' 22        NEXT0, n = 2: 'r' -> 32 (next), 't' -> 0x22 = 34
//     32: c1 's'               final ("car"), NEXT0, n = 1 -> 34
//     34: 80                   final, n = 0: the one end state, shared by "cars" and "cat"
//
// A state is reached only through its byte path, so shared suffix states are fine for a set
// (no per-word values). Building is O(total bytes) from sorted input (build.ts).

import { buildBytes } from './build.ts';
import { fuzzyWalk, type FuzzyMatch, type FuzzyOptions } from './fuzzy.ts';
import * as layout from './layout.ts';
import * as utf from './utf8.ts';

// Module-local copies: under tsx, imported bindings are getter calls, too slow for hot loops.
const { COUNT_ESCAPE, COUNT_MASK, FINAL, NEXT0, parseHeader, readAddr } = layout;
const { compareUtf8, decodeUtf8, encodeInto, ensureCapacity } = utf;

export type { FuzzyMatch, FuzzyOptions } from './fuzzy.ts';

/** An immutable set of words (normalised, UTF-8 ordered) in a compact byte form. */
export class WordSet {
  readonly #bytes: Uint8Array;
  readonly #width: number;
  readonly #size: number;
  readonly #root: number;
  readonly #maxLen: number;
  #scratch: Uint8Array = new Uint8Array(256);

  private constructor(bytes: Uint8Array) {
    const h = parseHeader(bytes);
    this.#bytes = bytes;
    this.#width = h.width;
    this.#size = h.size;
    this.#root = h.root;
    this.#maxLen = h.maxLen;
  }

  /** Input sorted by UTF-8 bytes (code point order); a repeated word is kept once. */
  static build(sortedUniqueWords: Iterable<string>): WordSet {
    return new WordSet(buildBytes(sortedUniqueWords));
  }

  /** A view over a persisted buffer (not copied: the buffer must stay unchanged). */
  static fromBytes(bytes: Uint8Array): WordSet {
    return new WordSet(bytes);
  }

  /** The persisted form (the internal buffer itself: do not modify). */
  toBytes(): Uint8Array {
    return this.#bytes;
  }

  get size(): number {
    return this.#size;
  }

  has(word: string): boolean {
    const len = this.#encode(word);
    const a = this.#walk(this.#scratch, len);
    return a >= 0 && (this.#bytes[a]! & FINAL) !== 0;
  }

  /** Words starting with `prefix`, in order; `limit` caps the count. */
  *prefixed(prefix: string, limit = Infinity): Generator<string, void, undefined> {
    if (!(limit > 0)) return;
    const plen = this.#encode(prefix);
    const start = this.#walk(this.#scratch, plen);
    if (start < 0) return;
    const b = this.#bytes;
    const w = this.#width;
    const path = new Uint8Array(this.#maxLen + 1);
    path.set(this.#scratch.subarray(0, plen));
    const depth = this.#maxLen - plen + 2;
    const sLab = new Int32Array(depth);
    const sN = new Int32Array(depth);
    const sNx = new Uint8Array(depth);
    const sIdx = new Int32Array(depth);
    let found = 0;
    let a = start;
    let sp = 0;
    for (;;) {
      // Enter state `a` at depth sp (path length plen + sp).
      const h = b[a]!;
      if (h & FINAL) {
        yield decodeUtf8(path, 0, plen + sp);
        if (++found >= limit) return;
      }
      let n = h & COUNT_MASK;
      let p = a + 1;
      if (n === COUNT_ESCAPE) n += b[p++]!;
      sLab[sp] = p;
      sN[sp] = n;
      sNx[sp] = h & NEXT0 ? 1 : 0;
      sIdx[sp] = 0;
      // Next transition: the first untried one of the deepest state that has one.
      while (sp >= 0 && sIdx[sp]! >= sN[sp]!) sp--;
      if (sp < 0) return;
      const i = sIdx[sp]!++;
      const lab = sLab[sp]!;
      const n0 = sN[sp]!;
      const t = lab + n0;
      path[plen + sp] = b[lab + i]!;
      a = sNx[sp] ? (i === 0 ? t + (n0 - 1) * w : readAddr(b, t + (i - 1) * w, w)) : readAddr(b, t + i * w, w);
      sp++;
    }
  }

  /**
   * Words within `maxTypos` (0..2) of `word` by restricted Damerau-Levenshtein distance
   * (adjacent swap = 1), counted in characters, with their typo count; in UTF-8 order, lazily.
   * `firstLetterCounts2`: a word whose first character differs costs one more typo.
   * `prefix`: a word matches when one of its prefixes is within the distance (for the last
   * query word); its typo count is the smallest over its prefixes.
   */
  fuzzy(word: string, opts: FuzzyOptions): Iterable<FuzzyMatch> {
    return fuzzyWalk(this.#bytes, this.#root, this.#width, this.#maxLen, word, opts);
  }

  /** A new set with `added` words inserted and `removed` words taken out (removal wins). */
  with(added: Iterable<string>, removed: Iterable<string> = []): WordSet {
    const rm = new Set(removed);
    const add = [...new Set(added)].filter((x) => !rm.has(x)).sort(compareUtf8);
    if (add.length === 0 && rm.size === 0) return this;
    const self = this;
    function* merged(): Generator<string> {
      let k = 0;
      for (const w of self.prefixed('')) {
        while (k < add.length && compareUtf8(add[k]!, w) < 0) yield add[k++]!;
        if (k < add.length && add[k] === w) k++;
        if (!rm.has(w)) yield w;
      }
      while (k < add.length) yield add[k++]!;
    }
    return WordSet.build(merged());
  }

  /** Encodes `s` into the scratch buffer; returns its byte length. */
  #encode(s: string): number {
    let len = encodeInto(s, this.#scratch);
    if (len < 0) {
      this.#scratch = ensureCapacity(this.#scratch, s.length * 3);
      len = encodeInto(s, this.#scratch);
    }
    return len;
  }

  /** The state reached by bytes [0, len) of `key`, or -1. */
  #walk(key: Uint8Array, len: number): number {
    const b = this.#bytes;
    const w = this.#width;
    let a = this.#root;
    for (let d = 0; d < len; d++) {
      const h = b[a]!;
      let n = h & COUNT_MASK;
      let p = a + 1;
      if (n === COUNT_ESCAPE) n += b[p++]!;
      const c = key[d]!;
      let i = -1;
      if (n <= 16) {
        for (let k = 0; k < n; k++) {
          const l = b[p + k]!;
          if (l >= c) {
            if (l === c) i = k;
            break;
          }
        }
      } else {
        let lo = 0;
        let hi = n - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const l = b[p + mid]!;
          if (l < c) lo = mid + 1;
          else if (l > c) hi = mid - 1;
          else {
            i = mid;
            break;
          }
        }
      }
      if (i < 0) return -1;
      const t = p + n;
      a = h & NEXT0 ? (i === 0 ? t + (n - 1) * w : readAddr(b, t + (i - 1) * w, w)) : readAddr(b, t + i * w, w);
    }
    return a;
  }
}

/** Builds a set from words in any order (sorts them by UTF-8 bytes, drops repeats). */
export function wordSetOf(words: Iterable<string>): WordSet {
  return WordSet.build([...new Set(words)].sort(compareUtf8));
}

export { compareUtf8 };
