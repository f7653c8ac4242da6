// Bucket sort (relevancy.md §4): each rule splits its universe into ranked buckets; a bucket is
// split further by the next rule; documents of a last-level bucket come in internal id order.
// The walk stops once `offset + limit` documents are placed; buckets wholly before `offset`
// are counted without being sorted. Scores multiply like mixed-radix digits (§8.1).
// With `distinct`, as in milli, a bucket that reaches the results is deduplicated whole (in id
// order), so the estimate knows every duplicate of the buckets it walked; without any rule the
// walk stops at `offset + limit` documents (milli's rule-less path).
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
  /** exact candidate count wanted (page mode): distinct applies to every candidate, a threshold ranks deeper */
  exhaustive?: boolean;
  /**
   * The index's `maxTotalHits`: with a threshold in page mode, ranking goes on until
   * `maxTotalHits − offset` documents are returned (so every bucket is walked when the page is smaller).
   */
  maxTotalHits?: number;
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

/**
 * Global score of a chain of rule ranks (skipped: 0/1). A similarity (`vectorSort`) is a score of
 * its own: the ranks before it decide first, then it (0 without a vector), as milli's first score value.
 */
export function globalScore(scores: readonly RuleScore[]): number {
  let rank = 1;
  let max = 1;
  for (const s of scores) {
    if (s.rule === 'vectorSort') return max === 1 ? (s.similarity ?? 0) : (rank - 1 + (s.similarity ?? 0)) / max;
    rank = (rank - 1) * s.max + s.rank;
    max *= s.max;
  }
  return rank / max;
}

export function bucketSort(rules: readonly BoundRule[], graph: RankGraph, universe: Bitmap, opts: SortOptions): SortOutput {
  /** documents dropped from the candidates: below the threshold, or duplicates of kept ones */
  const dropped = new Bitmap();
  const out: SortOutput = { ids: [], scores: [], candidates: universe.size, candidateIds: () => Bitmap.andNot(universe, dropped), degraded: false };
  const distinct = opts.distinct ?? null;
  /** documents dropped as duplicates of a kept one */
  const excluded = new Bitmap();
  let skipped = 0;
  // how many documents to return before stopping; deeper with a threshold in page mode (milli)
  const depth =
    opts.exhaustive === true && opts.threshold !== null && opts.maxTotalHits !== undefined ? Math.max(opts.limit, opts.maxTotalHits - opts.offset) : opts.limit;
  const done = () => skipped >= opts.offset && out.ids.length >= depth;
  // milli dedupes a whole result bucket, except on its rule-less path (one bucket, the universe)
  const wholeBuckets = distinct !== null && rules.length > 0;

  /** Drops the documents sharing a distinct value with `id`; false when `id` itself was dropped. */
  const keep = (id: number): boolean => {
    if (excluded.has(id)) return false;
    const sharers = distinct!(id);
    if (sharers !== null) {
      const fresh = Bitmap.andNot(Bitmap.and(sharers, universe), excluded);
      fresh.remove(id);
      out.candidates -= fresh.size;
      excluded.orInPlace(fresh);
      dropped.orInPlace(fresh);
    }
    return true;
  };

  const emit = (ids: Bitmap, scores: RuleScore[]) => {
    for (const id of ids) {
      const full = skipped >= opts.offset && out.ids.length >= opts.limit;
      if (full && !wholeBuckets) return;
      if (distinct !== null && !keep(id)) continue;
      if (skipped < opts.offset) skipped++;
      else if (!full) {
        out.ids.push(id);
        out.scores.push(scores);
      }
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
      // wholly before the offset: counted (deduplicated whole with distinct), not sorted (milli: `cur_offset + len < from`)
      if (skipped + bucket.docids.size < opts.offset) {
        if (distinct === null) skipped += bucket.docids.size;
        else emit(bucket.docids, next);
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

  // milli ranks nothing when the offset is past every candidate, or when no document is asked for
  if (universe.size >= opts.offset && !done()) visit(0, universe, graph, []);
  if (distinct !== null && opts.exhaustive === true) exactDistinct(out, dropped, keep);
  return out;
}

/** Page mode with distinct: every remaining candidate, in id order, drops the others sharing its value. */
function exactDistinct(out: SortOutput, dropped: Bitmap, keep: (id: number) => boolean): void {
  for (const id of out.candidateIds()) if (!dropped.has(id)) keep(id);
}
