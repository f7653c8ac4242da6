// Typo search, general row step: one row of the restricted Damerau-Levenshtein (optimal string
// alignment) matrix per character of the path, for query words longer than the bit-parallel
// limit of fuzzy.ts (30 characters). The walk itself (fuzzy.ts) is shared; only the row update
// differs.
//
// Only the diagonal band |i - j| <= maxTypos of each row is computed (at most 5 cells); cells
// are capped at maxTypos + 1, and the walk prunes a subtree as soon as the row minimum exceeds
// the budget (the row minimum never decreases along a path).

/** Rows (one per character depth, `q.length + 1` cells each) and the characters of the path. */
export function bandInit(rows: Uint8Array, m: number, T: number): void {
  const cap = T + 1;
  for (let i = 0; i <= m; i++) rows[i] = i < cap ? i : cap;
}

/**
 * Computes the row of character depth j + 1 from rows j and j - 1 when the path's character j
 * is `acc`. Returns the row minimum | (the distance to the whole query) << 2, both capped at
 * maxTypos + 1 (at most 3, so two bits each).
 */
export function bandStep(rows: Uint8Array, pch: Int32Array, q: Int32Array, T: number, j: number, acc: number): number {
  const m = q.length;
  const cap = T + 1;
  const R = m + 1;
  const cd = j + 1;
  let rowMin = cap;
  let last = cap;
  if (cd <= m + T) {
    // deeper rows are all `cap`
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
  return rowMin | (last << 2);
}
