// Typo search: a depth-first walk of the automaton in step with a Levenshtein automaton for the
// query, simulated bit-parallel (Wu-Manber rows, one 32-bit word per error count, plus the
// Hyyrö/Navarro transposition term). Bit i of row R_e is set when the first i query characters
// are within e edits of the path: R_e = { i : D[i][path] <= e } for the restricted
// Damerau-Levenshtein (optimal string alignment) distance, the distance the
// `levenshtein_automata` DFAs of Meilisearch compute (adjacent swap = 1 edit).
//
//   R'_0 = (R_0 << 1) & B[c]
//   R'_e = (R_e << 1) & B[c]                   match
//        | R_{e-1} << 1 | R_{e-1}              substitution | extra character in the word
//        | R'_{e-1} << 1                       query character missing from the word
//        | (R''_{e-1} << 2) & (B[c] << 1) & B[c_prev]   adjacent swap
//
// where B[c] has bit i set when query character i-1 is c and R'' is the row one character back.
// The rows are nested (R_0 ⊆ R_1 ⊆ R_2); a subtree is pruned when its top row (the budget) is
// empty.
//
// * Distances count characters: label bytes are UTF-8, and the rows advance only when a code
//   point is complete (continuation bytes just accumulate it).
// * First-letter rule (`firstLetterCounts2`): a word whose first character differs from the
//   query's costs one more typo (distance 1 -> 2 typos), as milli's
//   `find_zero_one_two_typo_derivations` decides with `get_first(derived) != get_first(word)`.
//   Under a different first character the budget is maxTypos - 1 (the top row is dropped).
// * Prefix mode: cost(w) = min over prefixes p of w of dist(query, p) (+ first-letter penalty),
//   like `build_prefix_dfa`. Once a prefix is within budget and no row below its cost is alive,
//   the whole subtree is enumerated without further automaton steps.
// * Query words over 30 characters use the banded rows of fuzzy-rows.ts in the same walk.
//
// Speed. On the 105k-word GeoNames city set a 2-typo walk visits ~6,500 transitions and rejects
// ~4,800 of them, most where the budget is used up; the walk is then bound by reads of the
// automaton bytes. What it does about it:
// * Label filter. Let th be the budget. Every term of R'_th is either independent of c or
//   OR-linear in B[c]. When R_{th-1} is empty (the budget is used up), the terms independent of
//   c are empty, and the swap term is non-empty only when (R_th << 1) & B[c] is too (R_th holds
//   R_{th-1} of the character before, through the extra-character term). So R'_th(c) != 0 iff
//   B[c] & (R_th << 1) != 0: such a state gets the filter U = R_th << 1, and its labels are
//   skipped with one table lookup each (a UTF-8 lead byte maps to the bits of every query
//   character it starts), exactly as the full row step would reject them. A child whose labels
//   all fail its filter is not pushed (it can still be a word).
// * A character that is not in the query (B[c] = 0) takes a short row step.
// * No generator: the walk is a plain function over typed-array stacks that stops after a
//   batch of results and resumes where it left off, so the public iterables stay lazy (callers
//   stop at their per-typo caps) while V8 can optimise the loop on the stack. The state is
//   packed (6 stack values per depth instead of 12), rows are stored only for pushed children,
//   results are decoded outside the loop, and the working memory is pooled across walks.
// * Prefix-mode subtrees that match as a whole are enumerated by a short branch that only
//   walks labels (`WordSet.prefixed` uses the same branch).
// A memo per (state, rows), for the suffixes the automaton shares, was measured and left out:
// fewer than 7% of the descents of a 2-typo walk repeat a key.
//
// Results come in UTF-8 byte order, lazily: callers can apply per-typo caps (milli keeps 150
// one-typo and 50 two-typo words) and stop iterating.

import * as layout from './layout.ts';
import * as utf from './utf8.ts';
import * as band from './fuzzy-rows.ts';

// Module-local copies: under tsx, imported bindings are getter calls, too slow for the inner loop.
const { FINAL, NEXT0, COUNT_MASK, COUNT_ESCAPE, readAddr } = layout;
const { codePoints, decodeUtf8 } = utf;
const { bandInit, bandStep } = band;

export interface FuzzyOptions {
  maxTypos: 0 | 1 | 2;
  prefix?: boolean;
  firstLetterCounts2?: boolean;
  limit?: number;
}

export interface FuzzyMatch {
  word: string;
  typos: number;
}

/** Longest query (in characters) for the bit-parallel walk: bit m must fit in 31 bits. */
export const BIT_PARALLEL_MAX = 30;

/** Results per resumption of the walk: bounds the work done past a caller that stops early. */
const BATCH = 32;

/** Filter value of a state whose labels all need the full row step. */
const ALL = -1;

// Packed per-depth walk state (`sSt`): budget (bits 0-1), first-letter penalty (bit 2),
// enumeration flag (bit 3), continuation bytes still expected (bits 4-5), best prefix distance
// (bits 6-7), complete characters on the path (from bit 8).
const ST_TH = 0x3;
const ST_PEN_SHIFT = 2;
const ST_EN = 0x8;
const ST_NEED_SHIFT = 4;
const ST_BEST_SHIFT = 6;
const ST_CD_SHIFT = 8;
/** `sN`: transition count | NX0 when transition 0's target is the next state. */
const NX0 = 0x200;
const N_MASK = 0x1ff;

const EMPTY_BYTES = new Uint8Array(0);
const EMPTY_I32 = new Int32Array(0);

/** The working memory of one walk; pooled, sized up on demand. */
class Walk {
  b: Uint8Array = EMPTY_BYTES;
  width = 1;
  q: Int32Array = EMPTY_I32;
  m = 0;
  T = 0;
  prefix = false;
  flc = false;
  /** Bit-parallel rows (else banded rows). */
  bits = true;
  limit = Infinity;
  /** B[c] of ASCII bytes; for a UTF-8 lead byte, the bits of every query character it starts; -1 for continuation bytes. */
  readonly byteMask = new Int32Array(256);
  /** B[c] of the non-ASCII query characters. */
  readonly otherCp = new Int32Array(BIT_PARALLEL_MAX);
  readonly otherMask = new Int32Array(BIT_PARALLEL_MAX);
  nOther = 0;

  // Per character depth.
  r0 = EMPTY_I32;
  r1 = EMPTY_I32;
  r2 = EMPTY_I32;
  bch = EMPTY_I32; // B[c] of the character at each depth
  band: Uint8Array = EMPTY_BYTES; // banded rows (long queries)
  pch = EMPTY_I32;

  // Per byte depth: the stack of the depth-first walk.
  sLab = EMPTY_I32; // offset of the label bytes of the state at this depth
  sN = EMPTY_I32; // transition count | NX0
  sIdx = EMPTY_I32; // next transition to try
  sSt = EMPTY_I32; // packed state (ST_*)
  sAcc = EMPTY_I32; // code point being decoded (when continuation bytes are expected)
  sFlt = EMPTY_I32; // label filter (U above) or ALL
  path: Uint8Array = EMPTY_BYTES;

  // Results of the current batch.
  readonly outWords: string[] = [];
  readonly outTypos = new Int32Array(BATCH);
  nOut = 0;

  // Resumption.
  sp = -1;
  found = 0;
  enumTypos = 0;

  reserve(depth: number, chars: number): void {
    if (this.sLab.length < depth) {
      this.sLab = new Int32Array(depth);
      this.sN = new Int32Array(depth);
      this.sIdx = new Int32Array(depth);
      this.sSt = new Int32Array(depth);
      this.sAcc = new Int32Array(depth);
      this.sFlt = new Int32Array(depth);
      this.path = new Uint8Array(depth);
    }
    if (this.r0.length < chars) {
      this.r0 = new Int32Array(chars);
      this.r1 = new Int32Array(chars);
      this.r2 = new Int32Array(chars);
      this.bch = new Int32Array(chars);
    }
  }

  /** Forgets the automaton and query (the pooled memory must not keep an index's buffer alive). */
  clear(): void {
    this.b = EMPTY_BYTES;
    this.q = EMPTY_I32;
    this.m = 0;
    this.band = EMPTY_BYTES;
    this.pch = EMPTY_I32;
    this.outWords.length = 0;
  }
}

const pool: Walk[] = [];
const POOL_MAX = 8;

function acquire(): Walk {
  return pool.pop() ?? new Walk();
}

function release(w: Walk): void {
  w.clear();
  if (pool.length < POOL_MAX) pool.push(w);
}

/** Adds the word of bytes [0, len) of the path to the batch. */
function emit(w: Walk, len: number, typos: number): void {
  const k = w.nOut++;
  w.outWords[k] = decodeUtf8(w.path, 0, len);
  w.outTypos[k] = typos;
}

/** Pushes the state at address `a` at depth `sp` of the walk's stack; returns its header byte. */
function enter(w: Walk, a: number, sp: number, st: number): number {
  const b = w.b;
  const h = b[a]!;
  let n = h & COUNT_MASK;
  let p = a + 1;
  if (n === COUNT_ESCAPE) n += b[p++]!;
  w.sLab[sp] = p;
  w.sN[sp] = h & NEXT0 ? n | NX0 : n;
  w.sIdx[sp] = 0;
  w.sSt[sp] = st;
  w.sFlt[sp] = ALL;
  return h;
}

/** Sets up a typo walk from the root; the empty word, when it matches, goes to the batch. */
function startFuzzy(
  w: Walk,
  b: Uint8Array,
  root: number,
  width: number,
  maxLen: number,
  q: Int32Array,
  opts: FuzzyOptions,
  bits: boolean,
): void {
  const T = opts.maxTypos;
  const m = q.length;
  const cap = T + 1;
  w.b = b;
  w.width = width;
  w.q = q;
  w.m = m;
  w.T = T;
  w.prefix = opts.prefix === true;
  w.flc = opts.firstLetterCounts2 === true;
  w.bits = bits;
  w.limit = opts.limit ?? Infinity;
  w.found = 0;
  w.enumTypos = 0;
  w.nOther = 0;
  w.nOut = 0;
  w.reserve(maxLen + 2, m + T + 3);

  if (bits) {
    // B[c] for ASCII (and lead bytes) in a table, other code points in a short list.
    const bm = w.byteMask;
    bm.fill(0);
    bm.fill(ALL, 0x80, 0xc0);
    let nOther = 0;
    for (let i = 0; i < m; i++) {
      const c = q[i]!;
      const bit = 1 << (i + 1);
      if (c < 0x80) {
        bm[c]! |= bit;
        continue;
      }
      bm[c < 0x800 ? 0xc0 | (c >> 6) : c < 0x10000 ? 0xe0 | (c >> 12) : 0xf0 | (c >> 18)]! |= bit;
      let k = 0;
      while (k < nOther && w.otherCp[k] !== c) k++;
      if (k === nOther) {
        w.otherCp[k] = c;
        w.otherMask[k] = 0;
        nOther++;
      }
      w.otherMask[k]! |= bit;
    }
    w.nOther = nOther;
    const mask = (1 << (m + 1)) - 1;
    w.r0[0] = 1;
    w.r1[0] = T >= 1 ? 3 & mask : 0;
    w.r2[0] = T >= 2 ? 7 & mask : 0;
  } else {
    w.band = new Uint8Array((m + T + 1) * (m + 1));
    w.pch = new Int32Array(m + T + 2);
    bandInit(w.band, m, T);
  }

  // The root and the empty word.
  const best = w.prefix && m <= T ? m : cap;
  const h = enter(w, root, 0, T | (best << ST_BEST_SHIFT));
  w.sp = 0;
  if (!(w.limit > 0)) {
    w.sp = -1;
    return;
  }
  if (h & FINAL) {
    const cost = m + (w.flc && m > 0 ? 1 : 0);
    if (cost <= T) {
      emit(w, 0, cost);
      if (++w.found >= w.limit) w.sp = -1;
    }
  }
}

/**
 * Sets up the enumeration of the words below the state at `start`, reached by the bytes
 * [0, plen) of `prefix` (`WordSet.prefixed`); the prefix itself, when it is a word, goes to
 * the batch.
 */
function startEnum(
  w: Walk,
  b: Uint8Array,
  width: number,
  maxLen: number,
  prefix: Uint8Array,
  plen: number,
  start: number,
  limit: number,
): void {
  w.b = b;
  w.width = width;
  w.q = EMPTY_I32;
  w.m = 0;
  w.T = 0;
  w.prefix = false;
  w.flc = false;
  w.bits = true;
  w.nOther = 0;
  w.limit = limit;
  w.found = 0;
  w.enumTypos = 0;
  w.nOut = 0;
  w.reserve(maxLen + 2, 0);
  w.path.set(prefix.subarray(0, plen));
  // The frames of the prefix bytes have no transitions left: the walk ends when it pops them.
  for (let d = 0; d < plen; d++) {
    w.sN[d] = 0;
    w.sIdx[d] = 0;
    w.sSt[d] = ST_EN;
  }
  const h = enter(w, start, plen, ST_EN);
  w.sp = plen;
  if (!(limit > 0)) {
    w.sp = -1;
    return;
  }
  if (h & FINAL) {
    emit(w, plen, 0);
    if (++w.found >= limit) w.sp = -1;
  }
}

/**
 * Runs the walk until the batch holds BATCH results or the walk has ended; returns true when it
 * has ended. Everything the walk carries between steps is in `w` (stacks and `sp`).
 */
function runWalk(w: Walk): boolean {
  // Module constants as locals: a module binding is a context slot with a hole check in the
  // interpreter (and an eager deopt point in optimised code), a local is a register.
  const kFinal = FINAL;
  const kNext0 = NEXT0;
  const kCountMask = COUNT_MASK;
  const kEscape = COUNT_ESCAPE;
  const kAll = ALL;
  const kEn = ST_EN;
  const kTh = ST_TH;
  const kPenShift = ST_PEN_SHIFT;
  const kCdShift = ST_CD_SHIFT;
  const kNeedShift = ST_NEED_SHIFT;
  const kBestShift = ST_BEST_SHIFT;
  const kNx0 = NX0;
  const kNMask = N_MASK;
  const kBatch = BATCH;
  const b = w.b;
  const width = w.width;
  const q = w.q;
  const m = w.m;
  const T = w.T;
  const cap = T + 1;
  const prefix = w.prefix;
  const flc = w.flc;
  const bits = w.bits;
  const limit = w.limit;
  const mask = (1 << (m + 1)) - 1;
  const mbit = 1 << m;
  const q0 = m > 0 ? q[0]! : -1;
  const bm = w.byteMask;
  const otherCp = w.otherCp;
  const otherMask = w.otherMask;
  const nOther = w.nOther;
  const r0 = w.r0;
  const r1 = w.r1;
  const r2 = w.r2;
  const bch = w.bch;
  const sLab = w.sLab;
  const sN = w.sN;
  const sIdx = w.sIdx;
  const sSt = w.sSt;
  const sAcc = w.sAcc;
  const sFlt = w.sFlt;
  const path = w.path;
  const outWords = w.outWords;
  const outTypos = w.outTypos;
  let nOut = w.nOut;
  let sp = w.sp;
  let found = w.found;
  let enumTypos = w.enumTypos;

  while (sp >= 0) {
    const nv = sN[sp]!;
    const n0 = nv & kNMask;
    let i = sIdx[sp]!;
    if (i >= n0) {
      sp--;
      continue;
    }
    const labOff = sLab[sp]!;
    const st = sSt[sp]!;

    if ((st & kEn) !== 0) {
      // Every word below matches: walk the labels only.
      sIdx[sp] = i + 1;
      let a: number;
      if (nv > kNMask && i === 0) a = labOff + n0 + (n0 - 1) * width;
      else {
        const x = labOff + n0 + (nv > kNMask ? i - 1 : i) * width;
        a = width === 3 ? b[x]! | (b[x + 1]! << 8) | (b[x + 2]! << 16) : readAddr(b, x, width);
      }
      path[sp] = b[labOff + i]!;
      sp++;
      const h = b[a]!;
      let n = h & kCountMask;
      let p = a + 1;
      if (n === kEscape) n += b[p++]!;
      sLab[sp] = p;
      sN[sp] = h & kNext0 ? n | kNx0 : n;
      sIdx[sp] = 0;
      sSt[sp] = kEn;
      if (h & kFinal) {
        outWords[nOut] = decodeUtf8(path, 0, sp);
        outTypos[nOut++] = enumTypos;
        if (++found >= limit) {
          sp = -1;
          break;
        }
        if (nOut >= kBatch) break;
      }
      continue;
    }

    // Skip the labels the filter rejects (budget used up: only some query characters go on).
    const flt = sFlt[sp]!;
    if (flt !== kAll) {
      while (i < n0 && (bm[b[labOff + i]!]! & flt) === 0) i++;
      if (i >= n0) {
        sp--;
        continue;
      }
    }
    sIdx[sp] = i + 1;
    const lab = b[labOff + i]!;
    let cd = st >> kCdShift;
    let th = st & kTh;
    let pen = (st >> kPenShift) & 1;
    let need = (st >> kNeedShift) & 3;
    let best = (st >> kBestShift) & 3;
    let acc = 0;
    let complete = false;
    if (need > 0) {
      acc = (sAcc[sp]! << 6) | (lab & 0x3f);
      complete = --need === 0;
    } else if (lab < 0x80) {
      acc = lab;
      complete = true;
    } else if (lab >= 0xf0) {
      acc = lab & 0x07;
      need = 3;
    } else if (lab >= 0xe0) {
      acc = lab & 0x0f;
      need = 2;
    } else {
      acc = lab & 0x1f;
      need = 1;
    }
    let en = 0;
    let dist = cap;
    // The child's rows (bit-parallel; stored only when the child is pushed) and label filter.
    let n0r = 0;
    let n1r = 0;
    let n2r = 0;
    let bc = 0;
    let cf = kAll;
    if (complete) {
      const j = cd;
      if (j === 0) {
        pen = flc && acc !== q0 ? 1 : 0;
        th = T - pen;
        if (th < 0) continue;
      }
      let minRow: number;
      if (bits) {
        if (acc < 0x80) bc = bm[acc]!;
        else {
          for (let k = 0; k < nOther; k++) {
            if (otherCp[k] === acc) {
              bc = otherMask[k]!;
              break;
            }
          }
        }
        const o0 = r0[j]!;
        if (th === 0) {
          n0r = (o0 << 1) & bc;
          minRow = n0r !== 0 ? 0 : cap;
          cf = n0r << 1;
        } else if (bc === 0) {
          // A character that is not in the query: a substitution or an extra character.
          n1r = ((o0 << 1) | o0) & mask;
          if (th === 1) {
            minRow = n1r !== 0 ? 1 : cap;
            cf = n1r << 1;
          } else {
            const o1 = r1[j]!;
            n2r = ((o1 << 1) | o1 | (n1r << 1)) & mask;
            minRow = n1r !== 0 ? 1 : n2r !== 0 ? 2 : cap;
            if (n1r === 0) cf = n2r << 1;
          }
        } else {
          n0r = (o0 << 1) & bc;
          const o1 = r1[j]!;
          const tb = j >= 1 ? (bc << 1) & bch[j]! : 0;
          n1r = (((o1 << 1) & bc) | (o0 << 1) | o0 | (n0r << 1) | (tb & (r0[j - 1]! << 2))) & mask;
          if (th === 1) {
            minRow = n0r !== 0 ? 0 : n1r !== 0 ? 1 : cap;
            if (n0r === 0) cf = n1r << 1;
          } else {
            n2r = (((r2[j]! << 1) & bc) | (o1 << 1) | o1 | (n1r << 1) | (tb & (r1[j - 1]! << 2))) & mask;
            // The rows are nested: the lowest non-empty one is the row minimum.
            minRow = n0r !== 0 ? 0 : n1r !== 0 ? 1 : n2r !== 0 ? 2 : cap;
            if (n1r === 0) cf = n2r << 1;
          }
        }
        dist = n0r & mbit ? 0 : n1r & mbit ? 1 : n2r & mbit ? 2 : cap;
      } else {
        const s = bandStep(w.band, w.pch, q, T, j, acc);
        minRow = s & 3;
        dist = s >> 2;
      }
      if (prefix) {
        if (dist < best) best = dist;
        if (best <= th) {
          if (minRow >= best) {
            en = 1;
            cf = kAll;
          }
        } else if (minRow > th) {
          continue;
        }
      } else if (minRow > th) {
        continue;
      }
      cd = j + 1;
    }

    // The child.
    let a: number;
    if (nv > kNMask && i === 0) a = labOff + n0 + (n0 - 1) * width;
    else {
      const x = labOff + n0 + (nv > kNMask ? i - 1 : i) * width;
      a = width === 3 ? b[x]! | (b[x + 1]! << 8) | (b[x + 2]! << 16) : readAddr(b, x, width);
    }
    const h = b[a]!;
    let n = h & kCountMask;
    let p = a + 1;
    if (n === kEscape) n += b[p++]!;
    let ci = 0;
    if (cf !== kAll) {
      // Its first label that can go on (none: the child is not pushed, but it may be a word).
      while (ci < n && (bm[b[p + ci]!]! & cf) === 0) ci++;
    }
    path[sp] = lab;
    const csp = sp + 1;
    if (ci < n) {
      if (complete && bits && en === 0) {
        r0[cd] = n0r;
        r1[cd] = n1r;
        r2[cd] = n2r;
        bch[cd] = bc;
      }
      sLab[csp] = p;
      sN[csp] = h & kNext0 ? n | kNx0 : n;
      sIdx[csp] = ci;
      sSt[csp] = th | (pen << kPenShift) | (en * kEn) | (need << kNeedShift) | (best << kBestShift) | (cd << kCdShift);
      if (need > 0) sAcc[csp] = acc;
      sFlt[csp] = cf;
      sp = csp;
      if (en !== 0) enumTypos = best + pen;
    }
    if (h & kFinal && need === 0) {
      const d = prefix ? best : dist;
      if (d <= th) {
        outWords[nOut] = decodeUtf8(path, 0, csp);
        outTypos[nOut++] = d + pen;
        if (++found >= limit) {
          sp = -1;
          break;
        }
        if (nOut >= kBatch) break;
      }
    }
  }
  w.sp = sp;
  w.found = found;
  w.enumTypos = enumTypos;
  w.nOut = nOut;
  return sp < 0;
}

/** Lazy results of a walk: the walk runs a batch at a time, as the caller iterates. */
abstract class Batched<T> implements Iterator<T> {
  #w: Walk | null = null;
  #pos = 0;
  #started = false;
  #ended = false;

  protected abstract start(w: Walk): void;
  protected abstract item(word: string, typos: number): T;

  next(): IteratorResult<T> {
    let w = this.#w;
    if (!this.#started) {
      this.#started = true;
      w = this.#w = acquire();
      this.start(w);
      this.#ended = w.sp < 0;
    }
    if (w === null) return { value: undefined, done: true };
    for (;;) {
      const k = this.#pos;
      if (k < w.nOut) {
        this.#pos = k + 1;
        return { value: this.item(w.outWords[k]!, w.outTypos[k]!), done: false };
      }
      if (this.#ended) return this.return();
      w.nOut = 0;
      this.#pos = 0;
      this.#ended = runWalk(w);
    }
  }

  return(): IteratorResult<T> {
    this.#started = true;
    const w = this.#w;
    this.#w = null;
    if (w !== null) release(w);
    return { value: undefined, done: true };
  }

  [Symbol.iterator](): Iterator<T> {
    return this;
  }
}

class FuzzyIterator extends Batched<FuzzyMatch> {
  constructor(
    private readonly b: Uint8Array,
    private readonly root: number,
    private readonly width: number,
    private readonly maxLen: number,
    private readonly q: Int32Array,
    private readonly opts: FuzzyOptions,
    private readonly bits: boolean,
  ) {
    super();
  }

  protected start(w: Walk): void {
    startFuzzy(w, this.b, this.root, this.width, this.maxLen, this.q, this.opts, this.bits);
  }

  protected item(word: string, typos: number): FuzzyMatch {
    return { word, typos };
  }
}

class EnumIterator extends Batched<string> {
  constructor(
    private readonly b: Uint8Array,
    private readonly width: number,
    private readonly maxLen: number,
    private readonly prefix: Uint8Array,
    private readonly plen: number,
    private readonly startAddr: number,
    private readonly limit: number,
  ) {
    super();
  }

  protected start(w: Walk): void {
    startEnum(w, this.b, this.width, this.maxLen, this.prefix, this.plen, this.startAddr, this.limit);
  }

  protected item(word: string): string {
    return word;
  }
}

/** Words within the typo budget, lazily, in UTF-8 order (see `WordSet.fuzzy`). */
export function fuzzyWalk(
  b: Uint8Array,
  root: number,
  width: number,
  maxLen: number,
  word: string,
  opts: FuzzyOptions,
): Iterable<FuzzyMatch> {
  const T = opts.maxTypos;
  if (T !== 0 && T !== 1 && T !== 2) {
    throw new RangeError(`word set: maxTypos must be 0, 1 or 2, got ${String(T)}`);
  }
  const q = codePoints(word);
  const bits = q.length <= BIT_PARALLEL_MAX;
  return { [Symbol.iterator]: () => new FuzzyIterator(b, root, width, maxLen, q, opts, bits) };
}

/** The bit-parallel walk (query of at most 30 characters); for tests. */
export function fuzzyWalkBits(b: Uint8Array, root: number, width: number, maxLen: number, q: Int32Array, opts: FuzzyOptions): Iterable<FuzzyMatch> {
  if (q.length > BIT_PARALLEL_MAX) throw new RangeError('word set: query too long for the bit-parallel walk');
  return { [Symbol.iterator]: () => new FuzzyIterator(b, root, width, maxLen, q, opts, true) };
}

/** The banded-row walk (any query length); for tests. */
export function fuzzyWalkRows(b: Uint8Array, root: number, width: number, maxLen: number, q: Int32Array, opts: FuzzyOptions): Iterable<FuzzyMatch> {
  return { [Symbol.iterator]: () => new FuzzyIterator(b, root, width, maxLen, q, opts, false) };
}

/** Words below the state at `start`, reached by bytes [0, plen) of `prefix`, lazily, in order. */
export function enumerateWords(
  b: Uint8Array,
  width: number,
  maxLen: number,
  prefix: Uint8Array,
  plen: number,
  start: number,
  limit: number,
): Iterable<string> {
  const copy = prefix.slice(0, plen);
  return { [Symbol.iterator]: () => new EnumIterator(b, width, maxLen, copy, plen, start, limit) };
}
