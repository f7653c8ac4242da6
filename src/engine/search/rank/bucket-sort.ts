// Bucket sort (relevancy.md §4): each rule splits its universe into ranked buckets; a bucket is
// split further by the next rule; documents of a last-level bucket come in internal id order.
// The walk stops once `offset + limit` documents are placed; buckets wholly before `offset`
// are counted without being sorted. Scores multiply like mixed-radix digits (§8.1).
import { Bitmap } from '../../bitmap/index.ts';
import type { RankGraph } from './graph.ts';
import type { Bucket, RuleScore } from './rules.ts';

/** A ranking rule bound to its search: a universe and the graph it was reached with → buckets. */
export type BoundRule = (universe: Bitmap, graph: RankGraph) => Iterable<Bucket>;

export interface SortOptions {
  offset: number;
  limit: number;
  /** scores are needed for every returned document (showRankingScore, details, threshold) */
  scores: boolean;
  /** buckets whose score (as far as known) is below it are dropped */
  threshold: number | null;
  /** `performance.now()` after which the remaining documents are returned unsorted */
  deadline: number;
  /** exact candidate count wanted (page mode): with a threshold or distinct, every bucket is walked */
  exhaustive?: boolean;
  /**
   * `distinct`: the documents sharing a distinct value with `docid` (null when it has none —
   * never deduplicated). Keeping a document drops them from every pending bucket.
   */
  distinct?: ((docid: number) => Bitmap | null) | null;
}

export interface SortOutput {
  ids: number[];
  scores: RuleScore[][];
  /** candidates after dropping buckets below the threshold and known duplicates */
  candidates: number;
  /** the candidate documents themselves (what facet distributions count) */
  candidateIds(): Bitmap;
  degraded: boolean;
}

/** Global score of a chain of rule ranks (skipped: 0/1). */
export function globalScore(scores: readonly RuleScore[]): number {
  let rank = 1;
  let max = 1;
  for (const s of scores) {
    rank = (rank - 1) * s.max + s.rank;
    max *= s.max;
  }
  return rank / max;
}

export function bucketSort(rules: readonly BoundRule[], graph: RankGraph, universe: Bitmap, opts: SortOptions): SortOutput {
  /** documents dropped from the candidates: below the threshold, or duplicates of kept ones */
  const dropped = new Bitmap();
  const out: SortOutput = { ids: [], scores: [], candidates: universe.size, candidateIds: () => Bitmap.andNot(universe, dropped), degraded: false };
  const want = opts.offset + opts.limit;
  let skipped = 0;
  const placed = () => skipped + out.ids.length;
  const distinct = opts.distinct ?? null;
  /** documents dropped as duplicates of a kept one */
  const excluded = new Bitmap();
  // once the page is full, walking on only serves to make the count exact (threshold, distinct)
  const counting = opts.exhaustive === true && (opts.threshold !== null || distinct !== null);
  const done = () => !counting && placed() >= want;

  const emit = (ids: Bitmap, scores: RuleScore[]) => {
    for (const id of ids) {
      if (!counting && placed() >= want) return;
      if (distinct !== null) {
        if (excluded.has(id)) continue;
        const sharers = distinct(id);
        if (sharers !== null) {
          const fresh = Bitmap.andNot(Bitmap.and(sharers, universe), excluded);
          fresh.remove(id);
          out.candidates -= fresh.size;
          excluded.orInPlace(fresh);
          dropped.orInPlace(fresh);
        }
      }
      if (placed() >= want) continue;
      if (skipped < opts.offset) {
        skipped++;
        continue;
      }
      out.ids.push(id);
      out.scores.push(scores);
    }
  };

  const visit = (level: number, U: Bitmap, g: RankGraph, scores: RuleScore[]): void => {
    if (distinct !== null && !excluded.isEmpty) {
      U = Bitmap.andNot(U, excluded);
      if (U.isEmpty) return;
    }
    if (level === rules.length || (!opts.scores && U.size <= 1)) {
      emit(U, scores);
      return;
    }
    if (performance.now() > opts.deadline) {
      out.degraded = true;
      emit(U, [...scores, { rule: 'skipped', rank: 0, max: 1 }]);
      return;
    }
    let remaining = U;
    for (const bucket of rules[level]!(U, g)) {
      if (done()) return;
      const next = [...scores, bucket.score];
      remaining = Bitmap.andNot(remaining, bucket.docids);
      if (opts.threshold !== null && globalScore(next) < opts.threshold) {
        const below = Bitmap.andNot(bucket.docids, excluded);
        out.candidates -= below.size;
        dropped.orInPlace(below);
        continue;
      }
      // wholly before the offset: counted, not sorted (unless a threshold or distinct may still drop some)
      if (opts.threshold === null && distinct === null && skipped + bucket.docids.size <= opts.offset && out.ids.length === 0) {
        skipped += bucket.docids.size;
        continue;
      }
      visit(level + 1, bucket.docids, bucket.graph(), next);
      if (performance.now() > opts.deadline && !remaining.isEmpty && !done()) {
        out.degraded = true;
        emit(remaining, [...scores, { rule: 'skipped', rank: 0, max: 1 }]);
        return;
      }
    }
  };

  visit(0, universe, graph, []);
  return out;
}
