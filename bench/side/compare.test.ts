// Top-10 agreement (compare.ts).
//  1. A query counts as identical only with the same ids in the same order; as "same set" with the
//     same ids in any order.
//  2. Sets one of the servers did not run are left out.
import assert from 'node:assert/strict';
import test from 'node:test';
import { agreement } from './compare.ts';
import type { EngineRun, SideSpec } from './types.ts';

const spec: SideSpec = {
  label: '',
  indexes: [],
  sets: [
    { name: 'a', description: '', index: 'x', bodies: [] },
    { name: 'b', description: '', index: 'x', bodies: [] },
  ],
};
const run = (engine: string, top10: Record<string, string[][]>): EngineRun => ({ engine, figures: [], top10: new Map(Object.entries(top10)) });

test('identical needs the same order, same set does not', () => {
  const m = run('muninn', { a: [['1', '2'], ['1', '2'], ['1'], []] });
  const s = run('meilisearch', { a: [['1', '2'], ['2', '1'], ['3'], []] });
  assert.deepEqual(agreement(spec, m, s), [{ set: 'a', queries: 4, identical: 0.5, sameSet: 0.75 }]);
});

test('a set missing on one side is left out', () => {
  const m = run('muninn', { a: [['1']], b: [['1']] });
  const s = run('meilisearch', { a: [['1']] });
  assert.deepEqual(agreement(spec, m, s).map((g) => g.set), ['a']);
});
