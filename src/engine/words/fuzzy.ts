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
// A subtree is pruned when its top row (the budget) is empty.
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
// * Query words over 30 characters use the banded-row walk of fuzzy-rows.ts (same results).
//
// Results come in UTF-8 byte order, lazily: callers can apply per-typo caps (milli keeps 150
// one-typo and 50 two-typo words) and stop iterating.

import * as layout from './layout.ts';
import * as utf from './utf8.ts';
import * as rows from './fuzzy-rows.ts';

// Module-local copies: under tsx, imported bindings are getter calls, too slow for the inner loop.
const { FINAL, NEXT0, COUNT_MASK, COUNT_ESCAPE, readAddr } = layout;
const { codePoints, decodeUtf8 } = utf;
const { fuzzyWalkRows } = rows;

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

export function fuzzyWalk(
  b: Uint8Array,
  root: number,
  width: number,
  maxLen: number,
  word: string,
  opts: FuzzyOptions,
): Generator<FuzzyMatch, void, undefined> {
  const T = opts.maxTypos;
  if (T !== 0 && T !== 1 && T !== 2) {
    throw new RangeError(`word set: maxTypos must be 0, 1 or 2, got ${String(T)}`);
  }
  const q = codePoints(word);
  if (q.length > BIT_PARALLEL_MAX) return fuzzyWalkRows(b, root, width, maxLen, q, opts);
  return fuzzyWalkBits(b, root, width, maxLen, q, opts);
}

export function* fuzzyWalkBits(
  b: Uint8Array,
  root: number,
  width: number,
  maxLen: number,
  q: Int32Array,
  opts: FuzzyOptions,
): Generator<FuzzyMatch, void, undefined> {
  const T = opts.maxTypos;
  const limit = opts.limit ?? Infinity;
  if (!(limit > 0)) return;
  const prefix = opts.prefix === true;
  const flc = opts.firstLetterCounts2 === true;
  const m = q.length;
  const mask = (1 << (m + 1)) - 1;
  const mbit = 1 << m;
  const cap = T + 1;

  // B[c] for ASCII in a table, other code points in a map.
  const ascii = new Int32Array(128);
  const other = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const c = q[i]!;
    if (c < 128) ascii[c]! |= 1 << (i + 1);
    else other.set(c, (other.get(c) ?? 0) | (1 << (i + 1)));
  }

  // Rows per character depth; the rows die after m + T characters.
  const C = m + T + 3;
  const r0 = new Int32Array(C);
  const r1 = new Int32Array(C);
  const r2 = new Int32Array(C);
  const bch = new Int32Array(C); // B[c] of the character at each depth
  r0[0] = 1;
  r1[0] = T >= 1 ? 3 & mask : 0;
  r2[0] = T >= 2 ? 7 & mask : 0;

  // Per byte depth.
  const D = maxLen + 2;
  const sLab = new Int32Array(D); // offset of the label bytes of the state at this depth
  const sN = new Int32Array(D);
  const sNx = new Uint8Array(D);
  const sIdx = new Int32Array(D); // next transition to try
  const sCd = new Int32Array(D); // complete characters on the path
  const sAcc = new Int32Array(D); // code point being decoded
  const sNeed = new Int32Array(D); // continuation bytes still expected
  const sTh = new Int32Array(D); // distance budget (maxTypos - first-letter penalty)
  const sPen = new Int32Array(D);
  const sBest = new Int32Array(D); // prefix mode: min distance over the path's prefixes
  const sEnum = new Uint8Array(D); // prefix mode: every word below matches with sBest + sPen
  const path = new Uint8Array(maxLen + 1);
  let found = 0;

  // The root and the empty word.
  let h = b[root]!;
  let n = h & COUNT_MASK;
  let p = root + 1;
  if (n === COUNT_ESCAPE) n += b[p++]!;
  sLab[0] = p;
  sN[0] = n;
  sNx[0] = h & NEXT0 ? 1 : 0;
  sTh[0] = T;
  sBest[0] = prefix && m <= T ? m : cap;
  if (h & FINAL) {
    const cost = m + (flc && m > 0 ? 1 : 0);
    if (cost <= T) {
      yield { word: '', typos: cost };
      if (++found >= limit) return;
    }
  }

  let sp = 0;
  while (sp >= 0) {
    const i = sIdx[sp]!;
    const n0 = sN[sp]!;
    if (i >= n0) {
      sp--;
      continue;
    }
    sIdx[sp] = i + 1;
    const labOff = sLab[sp]!;
    const lab = b[labOff + i]!;
    let cd = sCd[sp]!;
    let acc = sAcc[sp]!;
    let need = sNeed[sp]!;
    let th = sTh[sp]!;
    let pen = sPen[sp]!;
    let best = sBest[sp]!;
    let en = sEnum[sp]!;
    let dist = cap;
    if (en === 0) {
      let complete = false;
      if (need > 0) {
        acc = (acc << 6) | (lab & 0x3f);
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
      if (complete) {
        const j = cd;
        if (j === 0) {
          pen = flc && (m === 0 || acc !== q[0]) ? 1 : 0;
          th = T - pen;
          if (th < 0) continue;
        }
        const bc = acc < 128 ? ascii[acc]! : (other.get(acc) ?? 0);
        const o0 = r0[j]!;
        const n0r = (o0 << 1) & bc;
        let n1r = 0;
        let n2r = 0;
        if (th >= 1) {
          const o1 = r1[j]!;
          const tb = j >= 1 ? (bc << 1) & bch[j]! : 0;
          n1r = (((o1 << 1) & bc) | (o0 << 1) | o0 | (n0r << 1) | (tb & (r0[j - 1]! << 2))) & mask;
          if (th >= 2) {
            n2r = (((r2[j]! << 1) & bc) | (o1 << 1) | o1 | (n1r << 1) | (tb & (r1[j - 1]! << 2))) & mask;
          }
        }
        const top = th === 2 ? n2r : th === 1 ? n1r : n0r;
        dist = n0r & mbit ? 0 : n1r & mbit ? 1 : n2r & mbit ? 2 : cap;
        if (prefix) {
          if (dist < best) best = dist;
          if (best <= th) {
            if (best === 0 || (best === 1 ? n0r : n1r) === 0) en = 1;
          } else if (top === 0) {
            continue;
          }
        } else if (top === 0) {
          continue;
        }
        cd = j + 1;
        r0[cd] = n0r;
        r1[cd] = n1r;
        r2[cd] = n2r;
        bch[cd] = bc;
      }
    }

    // Descend into the child.
    const nx = sNx[sp]!;
    const tOff = labOff + n0;
    const a = nx === 1 ? (i === 0 ? tOff + (n0 - 1) * width : readAddr(b, tOff + (i - 1) * width, width)) : readAddr(b, tOff + i * width, width);
    path[sp] = lab;
    sp++;
    h = b[a]!;
    n = h & COUNT_MASK;
    p = a + 1;
    if (n === COUNT_ESCAPE) n += b[p++]!;
    sLab[sp] = p;
    sN[sp] = n;
    sNx[sp] = h & NEXT0 ? 1 : 0;
    sIdx[sp] = 0;
    sCd[sp] = cd;
    sAcc[sp] = acc;
    sNeed[sp] = need;
    sTh[sp] = th;
    sPen[sp] = pen;
    sBest[sp] = best;
    sEnum[sp] = en;
    if (h & FINAL && need === 0) {
      const d = prefix ? best : dist;
      if (d <= th) {
        yield { word: decodeUtf8(path, 0, sp), typos: d + pen };
        if (++found >= limit) return;
      }
    }
  }
}
