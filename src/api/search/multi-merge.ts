// Merging ranked lists of federated queries (multi-search.md §3.3): a k-way merge, best first,
// of lists that are each already in rank order. Hits compare by their weighted score values:
//
//   rule ranks [words 3/3, typo 2/2, proximity 5/7, ...] ─► consecutive relevancy ranks merged
//   into one rank (mixed radix) ─► its local score × weight ─► [0.93]        (keyword query)
//   no rule rank (placeholder search)                    ─► []            global score: 1 × weight
//
// Values compare element by element (higher wins, equal within f64 epsilon); the sequence that
// runs out first loses; ties go to the lower `queriesPosition`. Sort and geo values join the
// sequence once sort rules rank documents (issue 4); their comparison rules are in §3.3 step 4.
import { globalScore, type RuleScore } from '../../engine/search/rank/index.ts';

/** What the merge needs to know about a hit. */
export interface MergeKey {
  /** weighted score values: one per group of consecutive relevancy rules */
  values: readonly number[];
  /** global score × weight: `_federation.weightedRankingScore` */
  weighted: number;
  /** 0-based position of the producing query in the request */
  queryIndex: number;
}

/** The merge key of a hit of a query with `weight`. */
export function mergeKey(ranks: readonly RuleScore[], weight: number, queryIndex: number): MergeKey {
  // every rule the engine ranks with today is a relevancy rule: they form one group
  const values = ranks.length === 0 ? [] : [globalScore(ranks) * weight];
  return { values, weighted: globalScore(ranks) * weight, queryIndex };
}

/** > 0 when `a` ranks before `b` by score alone, < 0 after, 0 when equal. */
export function compareScores(a: MergeKey, b: MergeKey): number {
  for (let i = 0; ; i++) {
    const x = a.values[i];
    const y = b.values[i];
    if (x === undefined && y === undefined) return 0;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (Math.abs(x - y) <= Number.EPSILON) continue;
    return x > y ? 1 : -1;
  }
}

/** Whether `a` comes before `b` in the merged list. */
function before(a: MergeKey, b: MergeKey): boolean {
  const c = compareScores(a, b);
  return c > 0 || (c === 0 && a.queryIndex < b.queryIndex);
}

/** Merges lists that are each in rank order: best head first, ties to the lower query position. */
export function* kMerge<T extends { key: MergeKey }>(lists: readonly (readonly T[])[]): Generator<T> {
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
