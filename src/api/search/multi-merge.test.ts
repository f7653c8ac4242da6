// Merge keys of federated hits (multi-search.md §3.3). Properties checked:
// 1. consecutive relevancy ranks fold into one weighted local score; sort and geo ranks become
//    values of their own; the weighted global score ignores them
// 2. comparison: scores (epsilon), sort values (null last, numbers before strings, direction),
//    geo distances, a sequence running out first loses, incomparable kinds fall back to the
//    number of values left, then the weighted global score
// 3. kMerge: best head first, ties to the lower query position
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RuleScore } from '../../engine/search/rank/index.ts';
import { compareScores, kMerge, mergeKey } from './multi-merge.ts';

const rank = (r: number, max: number): RuleScore => ({ rule: 'words', rank: r, max });
const sort = (value: number | string | null, asc = true): RuleScore => ({ rule: 'sort', rank: 1, max: 1, sort: { kind: 'field', field: 'f', asc, value } });
const geo = (distance: number | null, asc = true): RuleScore => ({
  rule: 'geoSort', rank: 1, max: 1, sort: { kind: 'geo', lat: 0, lng: 0, asc, point: distance === null ? null : [0, 0], distance },
});

test('merge keys', () => {
  // (2/3, 1/2) → mixed radix (2-1)*2+1 = 3 of 6
  const k = mergeKey([rank(2, 3), rank(1, 2), sort(5), rank(3, 4)], 2, 1);
  assert.deepEqual(k.values, [(3 / 6) * 2, { asc: true, value: 5 }, (3 / 4) * 2]);
  assert.equal(k.weighted, 2 * (((3 - 1) * 4 + 3) / 24));
  assert.deepEqual(mergeKey([], 0.5, 0), { values: [], weighted: 0.5, queryIndex: 0 });
  assert.deepEqual(mergeKey([geo(12, false)], 1, 0).values, [{ asc: false, distance: 12 }]);
});

test('comparison', () => {
  const key = (ranks: RuleScore[], weight = 1) => mergeKey(ranks, weight, 0);
  const cmp = (a: RuleScore[], b: RuleScore[]) => Math.sign(compareScores(key(a), key(b)));
  assert.equal(cmp([rank(2, 3)], [rank(1, 3)]), 1);
  assert.equal(compareScores(key([rank(1, 2)]), key([rank(2, 4)])), 0, 'equal scores');
  assert.equal(cmp([rank(1, 3)], []), 1, 'a keyword hit before a placeholder hit');
  // ascending: the smaller value first; null last; numbers before strings
  assert.equal(cmp([sort(1)], [sort(2)]), 1);
  assert.equal(cmp([sort(2, false)], [sort(1, false)]), 1);
  assert.equal(cmp([sort('a')], [sort('b')]), 1);
  assert.equal(cmp([sort(9)], [sort('a')]), 1);
  assert.equal(cmp([sort(9, false)], [sort('a', false)]), 1);
  assert.equal(cmp([sort(null)], [sort('z')]), -1);
  assert.equal(cmp([sort(3), rank(1, 2)], [sort(3), rank(2, 2)]), -1, 'equal sort values: the next value decides');
  assert.equal(cmp([geo(10)], [geo(20)]), 1);
  assert.equal(cmp([geo(10, false)], [geo(20, false)]), -1);
  assert.equal(cmp([geo(null)], [geo(20)]), -1);
  // incomparable: more values left, then the weighted global score
  assert.equal(cmp([sort(1), rank(1, 2)], [rank(2, 2)]), 1);
  assert.equal(cmp([sort(1)], [rank(1, 2)]), 1, 'global scores 1 > 0.5');
  assert.equal(cmp([sort(1, true)], [sort(1, false)]), 0, 'opposite directions, same global score');
});

test('kMerge', () => {
  const item = (score: number, q: number) => ({ key: mergeKey([rank(score, 4)], 1, q), name: `${score}/${q}` });
  const merged = [...kMerge([[item(4, 1), item(2, 1)], [item(4, 0), item(3, 0), item(1, 0)], []])].map((i) => i.name);
  assert.deepEqual(merged, ['4/0', '4/1', '3/0', '2/1', '1/0']);
});

test('a similarity is a score of its own in the merge key', () => {
  const semantic = mergeKey([{ rule: 'vectorSort', rank: 1, max: 1, similarity: 0.785 }], 1, 0);
  assert.deepEqual(semantic.values, [0.785]);
  assert.equal(semantic.weighted, 0.785);
  const keyword = mergeKey([{ rule: 'words', rank: 2, max: 2 }, { rule: 'typo', rank: 64, max: 66 }], 1, 1);
  assert.ok(compareScores(keyword, semantic) > 0, 'a keyword hit at 0.98 ranks before a semantic one at 0.785');
  assert.deepEqual(mergeKey([{ rule: 'vectorSort', rank: 1, max: 1, similarity: null }], 2, 0).values, [0]);
});
