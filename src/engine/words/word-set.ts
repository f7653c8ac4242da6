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
//   0      4    5   6       8            12           16           20           24
//   +------+----+---+-------+------------+------------+------------+------------+
//   | MWRD | 01 | W | 00 00 | size (u32) | root (u32) | total (u32)| maxLen(u32)|  header
//   +------+----+---+-------+------------+------------+------------+------------+
//    magic  ver  address      word count   offset of    byte length  longest word
//                width 1..4                the root     of buffer    (UTF-8 bytes)
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

import { WordSetBuilder, buildBytes } from './build.ts';
import * as fuzzy from './fuzzy.ts';
import type { FuzzyMatch, FuzzyOptions } from './fuzzy.ts';
import * as layout from './layout.ts';
import * as utf from './utf8.ts';

// Module-local copies: under tsx, imported bindings are getter calls, too slow for hot loops.
const { COUNT_ESCAPE, COUNT_MASK, FINAL, NEXT0, parseHeader, readAddr } = layout;
const { compareBytes, compareUtf8, encodeInto, ensureCapacity, utf8 } = utf;
const { enumerateWords, fuzzyWalk } = fuzzy;

export type { FuzzyMatch, FuzzyOptions } from './fuzzy.ts';

/** An immutable set of words (normalised, UTF-8 ordered) in a compact byte form. */
export class WordSet {
  readonly #bytes: Uint8Array;
  /** The same bytes as a plain Uint8Array (an LMDB value is a Buffer): the walks see one type. */
  readonly #view: Uint8Array;
  readonly #width: number;
  readonly #size: number;
  readonly #root: number;
  readonly #maxLen: number;
  #scratch: Uint8Array = new Uint8Array(256);

  private constructor(bytes: Uint8Array) {
    const h = parseHeader(bytes);
    this.#bytes = bytes;
    this.#view = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
    // ASCII fast path: walk the characters directly, without encoding.
    let a = this.#root;
    for (let k = 0; k < word.length; k++) {
      const c = word.charCodeAt(k);
      if (c >= 0x80) {
        const len = this.#encode(word);
        a = this.#walk(this.#scratch, len);
        break;
      }
      a = this.#child(a, c);
      if (a < 0) return false;
    }
    return a >= 0 && (this.#view[a]! & FINAL) !== 0;
  }

  /** Words starting with `prefix`, in order, lazily; `limit` caps the count. */
  prefixed(prefix: string, limit = Infinity): Iterable<string> {
    if (!(limit > 0)) return [];
    const plen = this.#encode(prefix);
    const start = this.#walk(this.#scratch, plen);
    if (start < 0) return [];
    return enumerateWords(this.#view, this.#width, this.#maxLen, this.#scratch, plen, start, limit);
  }

  /**
   * Depth-first enumeration below the state at `start`, reached by bytes [0, plen) of `path`:
   * writes each word into `path` and yields its length, in byte order.
   */
  *#paths(start: number, path: Uint8Array, plen: number): Generator<number, void, undefined> {
    const b = this.#view;
    const w = this.#width;
    const depth = this.#maxLen - plen + 2;
    const sLab = new Int32Array(depth);
    const sN = new Int32Array(depth);
    const sNx = new Uint8Array(depth);
    const sIdx = new Int32Array(depth);
    let a = start;
    let sp = 0;
    for (;;) {
      // Enter state `a` at depth sp (path length plen + sp).
      const h = b[a]!;
      if (h & FINAL) yield plen + sp;
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
      const i = sIdx[sp]!;
      sIdx[sp] = i + 1;
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
    return fuzzyWalk(this.#view, this.#root, this.#width, this.#maxLen, word, opts);
  }

  /**
   * A new set with `added` words inserted and `removed` words taken out (removal wins). The
   * merge runs on bytes: the words of this set are never decoded.
   */
  with(added: Iterable<string>, removed: Iterable<string> = []): WordSet {
    const rmSet = new Set(removed);
    const add = [...new Set(added)].filter((x) => !rmSet.has(x)).map(utf8).sort(compareBytes);
    const rm = [...rmSet].map(utf8).sort(compareBytes);
    if (add.length === 0 && rm.length === 0) return this;
    const builder = new WordSetBuilder();
    const path = new Uint8Array(this.#maxLen + 1);
    let k = 0;
    let r = 0;
    for (const len of this.#paths(this.#root, path, 0)) {
      const word = path.subarray(0, len);
      let c = -1;
      while (k < add.length && (c = compareBytes(add[k]!, word)) < 0) {
        builder.add(add[k]!, add[k]!.length);
        k++;
      }
      if (c === 0) k++;
      while (r < rm.length && compareBytes(rm[r]!, word) < 0) r++;
      if (r < rm.length && compareBytes(rm[r]!, word) === 0) continue;
      builder.add(path, len);
    }
    for (; k < add.length; k++) builder.add(add[k]!, add[k]!.length);
    return new WordSet(builder.finish());
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
    let a = this.#root;
    for (let d = 0; d < len && a >= 0; d++) a = this.#child(a, key[d]!);
    return a;
  }

  /** The target of the transition labelled `c` of the state at `a`, or -1. */
  #child(a: number, c: number): number {
    const b = this.#view;
    const h = b[a]!;
    let n = h & COUNT_MASK;
    let p = a + 1;
    if (n === COUNT_ESCAPE) n += b[p++]!;
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
    const w = this.#width;
    const t = p + n;
    if (h & NEXT0) return i === 0 ? t + (n - 1) * w : readAddr(b, t + (i - 1) * w, w);
    return readAddr(b, t + i * w, w);
  }
}

/** Builds a set from words in any order (sorts them by UTF-8 bytes, drops repeats). */
export function wordSetOf(words: Iterable<string>): WordSet {
  return WordSet.build([...new Set(words)].sort(compareUtf8));
}

export { compareUtf8 };
