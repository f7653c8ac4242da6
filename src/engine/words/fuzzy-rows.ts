// Typo search, general version: a depth-first walk of the automaton that carries one row of
// the restricted Damerau-Levenshtein (optimal string alignment) matrix per character of the
// path. fuzzy.ts uses it for query words longer than its bit-parallel limit (30 characters).
//
// Only the diagonal band |i - j| <= maxTypos of each row is computed (at most 5 cells); cells
// are capped at maxTypos + 1, and a subtree is pruned as soon as the row minimum exceeds the
// budget (the row minimum never decreases along a path). Rules as in fuzzy.ts.

import * as layout from './layout.ts';
import * as utf from './utf8.ts';
import type { FuzzyMatch, FuzzyOptions } from './fuzzy.ts';

// Module-local copies: under tsx, imported bindings are getter calls, too slow for the inner loop.
const { FINAL, NEXT0, COUNT_MASK, COUNT_ESCAPE, readAddr } = layout;
const { decodeUtf8 } = utf;

export function* fuzzyWalkRows(
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
  const cap = T + 1;
  const R = m + 1;
  const maxCd = m + T; // deeper rows are all `cap`
  const rows = new Uint8Array((maxCd + 1) * R);
  const pch = new Int32Array(maxCd + 2);
  for (let i = 0; i <= m; i++) rows[i] = i < cap ? i : cap;

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
  sIdx[0] = 0;
  sTh[0] = T;
  sBest[0] = prefix ? rows[m]! : cap;
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
    let last = cap;
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
        cd = j + 1;
        let rowMin = cap;
        if (cd <= maxCd) {
          const prevOff = j * R;
          const curOff = cd * R;
          const p2Off = prevOff - R;
          const pc = j >= 1 ? pch[j]! : -1;
          const lo = cd > T ? cd - T : 0;
          const hi = cd + T < m ? cd + T : m;
          for (let k = lo; k <= hi; k++) {
            let v: number;
            if (k === 0) {
              v = cd < cap ? cd : cap;
            } else {
              const qk = q[k - 1]!;
              v = rows[prevOff + k - 1]! + (qk === acc ? 0 : 1);
              const del = rows[prevOff + k]! + 1;
              if (del < v) v = del;
              if (k > lo) {
                const ins = rows[curOff + k - 1]! + 1;
                if (ins < v) v = ins;
              }
              if (k >= 2 && qk === pc && q[k - 2] === acc) {
                const tr = rows[p2Off + k - 2]! + 1;
                if (tr < v) v = tr;
              }
              if (v > cap) v = cap;
            }
            rows[curOff + k] = v;
            if (v < rowMin) rowMin = v;
          }
          if (hi < m) rows[curOff + hi + 1] = cap;
          else last = rows[curOff + m]!;
          pch[cd] = acc;
        }
        if (prefix) {
          if (last < best) best = last;
          if (best <= th) {
            if (rowMin >= best) en = 1;
          } else if (rowMin > th) {
            continue;
          }
        } else if (rowMin > th) {
          continue;
        }
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
      const d = prefix ? best : last;
      if (d <= th) {
        yield { word: decodeUtf8(path, 0, sp), typos: d + pen };
        if (++found >= limit) return;
      }
    }
  }
}
