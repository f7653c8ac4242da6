// Merging ranked lists of federated queries (multi-search.md §3.3): a k-way merge, best first,
// of lists that are each already in rank order. Hits compare by their weighted score values:
//
//   rule ranks [words 3/3, typo 2/2, price:asc "9.99", proximity 5/7, ...]
//     ─► consecutive relevancy ranks merged into one rank (mixed radix), its local score × weight;
//        a sort rule gives (asc, value), a geo sort (asc, distance)
//     ─► [0.93, {asc, 9.99}, 0.71]                                         (keyword + sort)
//   no rule rank (placeholder search without sort) ─► []    global score: 1 × weight
//   vectorSort (semantic search) ─► its similarity × weight, a score of its own
//
// Values compare element by element: two scores → higher wins (equal within f64 epsilon); two
// sort values of one direction → Meilisearch's `compare_sort_values`; two geo values of one
// direction → distance; a sequence that runs out first loses. Values of different kinds (or
// directions) cannot be compared: then the sequence with more values left wins, then the higher
// global weighted score. Ties go to the lower `queriesPosition`.
import { globalScore, type RuleScore } from '../../engine/search/rank/index.ts';
import { compareBytes } from './facets-values.ts';

/** One element of the weighted score values: a score, a sort value or a geo distance. */
export type ScoreValue = number | { asc: boolean; value: number | string | null } | { asc: boolean; distance: number | null };

/** What the merge needs to know about a hit. */
export interface MergeKey {
  /** weighted score values: one per group of consecutive relevancy rules, one per sort rule */
  values: readonly ScoreValue[];
  /** global score × weight: `_federation.weightedRankingScore` */
  weighted: number;
  /** 0-based position of the producing query in the request */
  queryIndex: number;
}

const NO_VALUES: readonly ScoreValue[] = [];

/** The merge key of a hit of a query with `weight`. */
export function mergeKey(ranks: readonly RuleScore[], weight: number, queryIndex: number): MergeKey {
  const weighted = globalScore(ranks) * weight;
  if (ranks.length === 0) return { values: NO_VALUES, weighted, queryIndex };
  const values: ScoreValue[] = [];
  let rank = 1;
  let max = 1;
  let open = false;
  for (const s of ranks) {
    const sort = s.sort;
    if (s.rule === 'vectorSort') {
      // a similarity is a score of its own (milli's `ScoreValue::Score`), 0 without a vector
      if (open) values.push((rank / max) * weight);
      rank = 1;
      max = 1;
      open = false;
      values.push((s.similarity ?? 0) * weight);
      continue;
    }
    if (sort === undefined) {
      // `Rank::merge`: the mixed-radix rank of consecutive relevancy rules
      rank = (rank - 1) * s.max + s.rank;
      max *= s.max;
      open = true;
      continue;
    }
    if (open) values.push((rank / max) * weight);
    rank = 1;
    max = 1;
    open = false;
    values.push(sort.kind === 'field' ? { asc: sort.asc, value: sort.value } : { asc: sort.asc, distance: sort.distance });
  }
  if (open) values.push((rank / max) * weight);
  return { values, weighted, queryIndex };
}

/** milli's `compare_sort_values`: > 0 when `a` is the better value for the direction. */
function compareSortValues(asc: boolean, a: number | string | null, b: number | string | null): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  // numbers always come before strings
  if (typeof a === 'number' && typeof b === 'string') return 1;
  if (typeof a === 'string' && typeof b === 'number') return -1;
  const order = typeof a === 'number' ? Math.sign(a - (b as number)) || 0 : compareBytes(a, b as string);
  // ascending: the smaller value is the better one
  return asc ? -order : order;
}

/** > 0 when `a` is better, < 0 when worse, 0 when equal; null when the two cannot be compared. */
export function compareValue(a: ScoreValue, b: ScoreValue): number | null {
  if (typeof a === 'number') {
    if (typeof b !== 'number') return null;
    return Math.abs(a - b) <= Number.EPSILON ? 0 : a > b ? 1 : -1;
  }
  if (typeof b === 'number' || a.asc !== b.asc) return null;
  if ('value' in a) return 'value' in b ? compareSortValues(a.asc, a.value, b.value) : null;
  if ('value' in b) return null;
  const [x, y] = [a.distance, b.distance];
  if (x === null) return y === null ? 0 : -1;
  if (y === null) return 1;
  const order = Math.sign(x - y);
  return a.asc ? -order : order;
}

/** > 0 when `a` ranks before `b` by score alone, < 0 after, 0 when equal. */
export function compareScores(a: MergeKey, b: MergeKey): number {
  const av = a.values;
  const bv = b.values;
  for (let i = 0; ; i++) {
    const x = av[i];
    const y = bv[i];
    if (x === undefined && y === undefined) return 0;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const c = compareValue(x, y);
    if (c === 0) continue;
    if (c !== null) return c;
    // incomparable kinds: more values left wins, then the global weighted score
    const left = av.length - bv.length;
    if (left !== 0) return left;
    return a.weighted === b.weighted ? 0 : a.weighted > b.weighted ? 1 : -1;
  }
}

/** Whether `a` comes before `b` in the merged list. */
function before(a: MergeKey, b: MergeKey): boolean {
  const c = compareScores(a, b);
  return c > 0 || (c === 0 && a.queryIndex < b.queryIndex);
}

/** Merges lists that are each in rank order: best head first, ties to the lower query position. */
export function* kMerge<T extends { key: MergeKey }>(lists: readonly (readonly T[])[]): Generator<T> {
  if (lists.length === 1) {
    yield* lists[0]!;
    return;
  }
  const at = lists.map(() => 0);
  for (;;) {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      const head = lists[l]![at[l]!];
      if (head === undefined) continue;
      if (best === -1 || before(head.key, lists[best]![at[best]!]!.key)) best = l;
    }
    if (best === -1) return;
    yield lists[best]![at[best]!++]!;
  }
}
