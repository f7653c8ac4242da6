// distinct in bucket sort (search.md §9.1). Properties checked:
// 1. the first kept document of a value drops the others sharing any of its values
// 2. documents without the field are never deduplicated
// 3. offset pages skip duplicates consistently; page mode (exhaustive) counts exactly
// 4. with a ranking rule, a bucket reaching the results is deduplicated whole (milli), so the
//    estimate knows all its duplicates; `limit: 0` ranks nothing, an offset alone ranks to it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../../bitmap/index.ts';
import { bucketSort, type BoundRule } from './bucket-sort.ts';
import { distinctSharers, type DistinctValues } from './distinct.ts';
import type { RankGraph } from './graph.ts';

function fake(values: (string[] | null)[]): DistinctValues {
  return {
    fieldId: (p) => (p === 'color' ? 0 : undefined),
    docNumbers: () => [],
    docStrings: (_f, id) => values[id] ?? [],
    numberEquals: () => new Bitmap(),
    stringEquals: (_f, s) => Bitmap.from(values.flatMap((v, id) => (v?.includes(s) ? [id] : []))),
  };
}

const run = (values: (string[] | null)[], offset: number, limit: number, exhaustive = false, rules: BoundRule[] = []) =>
  bucketSort(rules, {} as RankGraph, Bitmap.from(values.map((_, i) => i)), {
    offset,
    limit,
    scores: false,
    threshold: null,
    deadline: Infinity,
    exhaustive,
    distinct: distinctSharers('color', fake(values)),
  });

test('distinct keeps the first document of each value', () => {
  //                 0        1       2        3     4                5        6
  const values = [['red'], ['blue'], ['red'], null, ['green', 'blue'], null, ['green']];
  const all = run(values, 0, 10);
  assert.deepEqual(all.ids, [0, 1, 3, 5, 6]);
  assert.equal(all.candidates, 5);
  assert.deepEqual([...run(values, 0, 2).ids, ...run(values, 2, 2).ids, ...run(values, 4, 2).ids], [0, 1, 3, 5, 6]);
  // offset mode stops early: the estimate only knows the duplicates met so far
  assert.equal(run(values, 0, 1).candidates, 6);
  assert.equal(run(values, 0, 1, true).candidates, 5);
});

test('a result bucket is deduplicated whole', () => {
  const values = [['red'], ['blue'], ['red'], null, ['green', 'blue'], null, ['green']];
  // one rule: documents 0..3 first, then 4..6
  const rule: BoundRule = (u) => [Bitmap.from([0, 1, 2, 3]), Bitmap.from([4, 5, 6])].map((b) => ({ docids: Bitmap.and(b, u), score: { rule: 'words', rank: 1, max: 1 }, graph: () => ({}) as RankGraph }));
  const ranked = (offset: number, limit: number) => run(values, offset, limit, false, [rule]);
  // the first bucket drops 2 (red, like 0) and 4 (blue, like 1), not only the first hit's duplicate
  assert.deepEqual([ranked(0, 1).ids, ranked(0, 1).candidates], [[0], 5]);
  assert.deepEqual([ranked(0, 4).ids, ranked(0, 4).candidates], [[0, 1, 3, 5], 5]);
  // nothing asked, nothing ranked; an offset alone walks to it
  assert.equal(ranked(0, 0).candidates, 7);
  assert.deepEqual([ranked(3, 0).ids, ranked(3, 0).candidates], [[], 5]);
  assert.deepEqual([ranked(2, 2).ids, ranked(2, 2).candidates], [[3, 5], 5]);
  // without a rule (milli's rule-less path) only the returned documents' duplicates are known
  assert.equal(run(values, 0, 1).candidates, 6);
});
