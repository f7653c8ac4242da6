// The graph a bucket hands to the next rule keeps every edge a document of the bucket uses. The
// first edge examined used to be judged against a scratch bitmap that computing its layers had
// overwritten: "moon flower" with the word "moonflower" indexed lost START → moon, and the
// document holding "moon flower" fell to the last typo bucket (Meilisearch 1.50: typoCount 0,
// first; the n-gram document second with typoCount 2, maxTypoCount 3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testIndex } from './test-index.ts';

test('a bucket hands on every edge its documents use (the first one too)', async () => {
  const t = testIndex([{ id: '1', t: 'moonflower' }, { id: '2', t: 'moon flower' }]);
  try {
    const r = t.search('moon flower', { scores: true, setup: { rankingRules: ['words', 'typo', 'proximity'] } });
    assert.deepEqual(r.docs, ['2', '1']);
    const typo = (i: number) => r.scores[i]!.find((s) => s.rule === 'typo')!;
    assert.deepEqual([typo(0).max - typo(0).rank, typo(0).max - 1], [0, 3]);
    assert.equal(typo(1).max - typo(1).rank, 2);
    const proximity = r.scores[0]!.find((s) => s.rule === 'proximity')!;
    assert.equal(proximity.rank, proximity.max, 'adjacent words: the best proximity');
  } finally {
    await t.close();
  }
});
