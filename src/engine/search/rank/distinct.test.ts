// distinct in bucket sort (search.md §9.1). Properties checked:
// 1. the first kept document of a value drops the others sharing any of its values
// 2. documents without the field are never deduplicated
// 3. offset pages skip duplicates consistently; page mode (exhaustive) counts exactly
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../../bitmap/index.ts';
import { bucketSort } from './bucket-sort.ts';
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

const run = (values: (string[] | null)[], offset: number, limit: number, exhaustive = false) =>
  bucketSort([], {} as RankGraph, Bitmap.from(values.map((_, i) => i)), {
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
