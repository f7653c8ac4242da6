// Exactness rule (relevancy.md §5.6, §8.2; milli crates/milli/src/search/new/tests/exactness.rs):
// exactMatch > matchesStart > noExactMatch, then the number of exact words; only the typed
// words count (no prefix completion, no typo); with words removed by `last`, the remaining
// query is compared.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex } from './relevancy-helpers.ts';

const DOCS = [
  { id: 1, text: 'balcony view' },
  { id: 2, text: 'this balcony' },
  { id: 3, text: 'this balcony is lovely' },
  { id: 4, text: 'what a view from this balcony' },
  { id: 5, text: 'this balconies' },
  { id: 6, text: 'balcony this' },
];

let t: TestServer;
let uid: string;
let alone: string;
before(async () => {
  t = await startTestServer();
  [uid, alone] = await Promise.all([
    makeIndex(t, 'exact', { settings: { searchableAttributes: ['text'], rankingRules: ['words', 'exactness'] }, documents: DOCS }),
    makeIndex(t, 'exact_alone', { settings: { searchableAttributes: ['text'], rankingRules: ['exactness'] }, documents: DOCS }),
  ]);
});
after(async () => {
  await t?.close();
});

async function search(index: string, q: string, params: Record<string, unknown> = {}) {
  return t.client.index(index).search(q, { attributesToRetrieve: ['id'], ...params });
}

describe('exactness', () => {
  test('exactMatch, matchesStart, then exact word count', async () => {
    // "this balcony" (last): candidates hold "this" → 2..6, all in the words bucket 2/2
    // (5: "balconies" is 1 typo from the prefix "balcony"). Exactness:
    //   2 "this balcony"            exactMatch                    → 3/3 = 1
    //   3 "this balcony is lovely"  matchesStart                  → 2/3
    //   4, 6                        noExactMatch, 2 exact words   → merge(1/3, 3/3) = 3/9
    //   5 "this balconies"          noExactMatch, 1 exact word    → merge(1/3, 2/3) = 2/9
    const res = await search(uid, 'this balcony', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [2, 3, 4, 6, 5]);
    const words = { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 };
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails, { words, exactness: { order: 1, matchType: 'exactMatch', score: 1 } });
    assert.deepEqual(hitById(res, 3)._rankingScoreDetails, { words, exactness: { order: 1, matchType: 'matchesStart', score: 2 / 3 } });
    assert.deepEqual(hitById(res, 4)._rankingScoreDetails, {
      words,
      exactness: { order: 1, matchType: 'noExactMatch', matchingWords: 2, maxMatchingWords: 2, score: 3 / 9 },
    });
    assert.deepEqual(hitById(res, 5)._rankingScoreDetails, {
      words,
      exactness: { order: 1, matchType: 'noExactMatch', matchingWords: 1, maxMatchingWords: 2, score: 2 / 9 },
    });
    // key order of a noExactMatch entry (relevancy.md §8.2)
    assert.deepEqual(Object.keys(hitById(res, 4)._rankingScoreDetails?.exactness ?? {}), ['order', 'matchType', 'matchingWords', 'maxMatchingWords', 'score']);
  });

  test('a prefix completion is not an exact word', async () => {
    // "this balc": balc* matches balcony/balconies but "balc" itself is not in any document:
    // every candidate is noExactMatch with one exact word (this) → internal id order.
    assert.deepEqual(ids(await search(uid, 'this balc')), [2, 3, 4, 5, 6]);
  });

  test('after the words rule dropped a term, the remaining query is compared', async () => {
    // "this balcony unknownword" (last): first bucket empty, then "this balcony" → same
    // exactness order as above; words 2/3; exactness counts the 2 remaining words.
    const res = await search(uid, 'this balcony unknownword', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [2, 3, 4, 6, 5]);
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails, {
      words: { order: 0, matchingWords: 2, maxMatchingWords: 3, score: 2 / 3 },
      exactness: { order: 1, matchType: 'exactMatch', score: 1 },
    });
    assert.deepEqual(hitById(res, 6)._rankingScoreDetails?.exactness, {
      order: 1,
      matchType: 'noExactMatch',
      matchingWords: 2,
      maxMatchingWords: 2,
      score: 3 / 9,
    });
  });

  test('exactness alone gets a words rule before it', async () => {
    // rankingRules ["exactness"] + last behaves like ["words", "exactness"] (relevancy.md §4).
    assert.deepEqual(ids(await search(alone, 'this balcony')), [2, 3, 4, 6, 5]);
    assert.deepEqual(ids(await search(alone, 'this balcony unknownword')), [2, 3, 4, 6, 5]);
  });
});
