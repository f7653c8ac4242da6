// attributeRank, wordPosition, the legacy `attribute` rule and attributesToSearchOn
// (relevancy.md §1 "attribute weights" and "bucketed positions", §5.4, §5.5, §8.2;
// search.md §9.2; settings.md §6.2). matchingStrategy all everywhere (no words rule).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex, updateSettings } from './relevancy-helpers.ts';

const WHALE_DOCS = [
  { id: 1, title: 'ocean', subtitle: '', body: 'blue whale' },
  { id: 2, title: 'blue whale', subtitle: '', body: 'ocean' },
  { id: 3, title: '', subtitle: 'blue whale', body: '' },
  { id: 4, title: 'blue', subtitle: '', body: 'whale' },
  { id: 5, title: '', subtitle: '', body: 'blue whale' },
  { id: 6, title: 'whale', subtitle: 'blue', body: '' },
];

// 16 one-letter fillers put "quick" at position 16 in document 4.
const FILLERS = 'a b c d e f g h i j k l m n o p';
const POSITION_DOCS = [
  { id: 1, text: 'the quick brown fox' },
  { id: 2, text: 'a b c d e quick brown' },
  { id: 3, text: 'quick brown fox' },
  { id: 4, text: `${FILLERS} quick brown` },
  { id: 5, text: 'brown quick' },
];

let t: TestServer;
const idx: Record<string, string> = {};
before(async () => {
  t = await startTestServer();
  const whale = { searchableAttributes: ['title', 'subtitle', 'body'], rankingRules: ['attributeRank'] };
  const [rank, reordered, position, attribute] = await Promise.all([
    makeIndex(t, 'attr_rank', { settings: whale, documents: WHALE_DOCS }),
    makeIndex(t, 'attr_reorder', { settings: whale, documents: WHALE_DOCS }),
    makeIndex(t, 'attr_pos', { settings: { searchableAttributes: ['text'], rankingRules: ['wordPosition'] }, documents: POSITION_DOCS }),
    makeIndex(t, 'attr_legacy', { settings: { searchableAttributes: ['text'], rankingRules: ['attribute'] }, documents: POSITION_DOCS }),
  ]);
  Object.assign(idx, { rank, reordered, position, attribute });
});
after(async () => {
  await t?.close();
});

async function search(uid: string, q: string, params: Record<string, unknown> = {}) {
  return t.client.index(uid).search(q, { matchingStrategy: 'all', attributesToRetrieve: ['id'], ...params });
}

describe('attributeRank', () => {
  test('cost = weight of the best attribute per term', async () => {
    // Weights title 0, subtitle 1, body 2. "blue whale ":
    //   2 title+title 0 | 6 subtitle 1 + title 0 = 1 | 3 subtitle+subtitle 2, 4 title 0 + body 2 = 2
    //   | 1 body+body 4, 5 body+body 4.
    // Explicit list of 3 → a "max" edge of cost 2 per term → max cost 4, max_rank 5,
    // score = (5 − cost)/5.
    const res = await search(idx.rank, 'blue whale ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [2, 6, 3, 4, 1, 5]);
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails, { attributeRank: { order: 0, score: 1 } });
    assert.deepEqual(hitById(res, 6)._rankingScoreDetails, { attributeRank: { order: 0, score: 0.8 } });
    assert.deepEqual(hitById(res, 4)._rankingScoreDetails, { attributeRank: { order: 0, score: 0.6 } });
    assert.deepEqual(hitById(res, 5)._rankingScoreDetails, { attributeRank: { order: 0, score: 0.2 } });
  });

  test('reordering searchableAttributes changes the weights', async () => {
    // body 0, subtitle 1, title 2: 1 → 0, 5 → 0, 3 → 2, 4 → 2 + 0 = 2, 6 → 2 + 1 = 3, 2 → 4
    await updateSettings(t, idx.reordered, { searchableAttributes: ['body', 'subtitle', 'title'] });
    assert.deepEqual(ids(await search(idx.reordered, 'blue whale ')), [1, 5, 3, 4, 6, 2]);
  });

  test('attributesToSearchOn restricts matching, not weights', async () => {
    // body only: both words in the body → 1, 5 (4 has blue in the title only)
    assert.deepEqual(ids(await search(idx.rank, 'blue whale ', { attributesToSearchOn: ['body'] })), [1, 5]);
    // subtitle + body: 3 (1 + 1 = 2, original weights) before 1 and 5 (2 + 2 = 4)
    assert.deepEqual(ids(await search(idx.rank, 'blue whale ', { attributesToSearchOn: ['subtitle', 'body'] })), [3, 1, 5]);
    assert.deepEqual(ids(await search(idx.rank, 'blue whale ', { attributesToSearchOn: ['*'] })), [2, 6, 3, 4, 1, 5]);
    assert.deepEqual(ids(await search(idx.rank, 'blue whale ', { attributesToSearchOn: [] })), []);
    await assertApiError(
      search(idx.rank, 'blue whale', { attributesToSearchOn: ['unknown'] }),
      'invalid_search_attributes_to_search_on',
      400,
      `Index \`${idx.rank}\`: Attribute \`unknown\` is not searchable. Available searchable attributes are: \`body, subtitle, title\`.`,
    );
  });
});

describe('wordPosition', () => {
  test('distance between document and query positions, bucketed positions', async () => {
    // "quick brown" (query positions 0 and 1), cost per term from the distance table, max
    // 2 × 10 = 20 → max_rank 21:
    //   3 quick@0, brown@1                      0 → 21/21
    //   1 quick@1 (d 1 → 1), brown@2 (d 1 → 1)  2 → 19/21
    //   5 quick@1 (d 1 → 1), brown@0 (d 1 → 1)  2 → 19/21
    //   2 quick@5, brown@6: d 5 → 3 each        6 → 15/21
    //   4 quick@16, brown@17: stored as 24 (16 ≤ p < 24 → 24), d 24 and 23 → 6 each
    //                                          12 → 9/21 (10 → 11/21 without bucketing)
    const res = await search(idx.position, 'quick brown', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [3, 1, 5, 2, 4]);
    assert.deepEqual(hitById(res, 3)._rankingScoreDetails, { wordPosition: { order: 0, score: 1 } });
    assert.deepEqual(hitById(res, 1)._rankingScoreDetails, { wordPosition: { order: 0, score: 19 / 21 } });
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails, { wordPosition: { order: 0, score: 15 / 21 } });
    assert.deepEqual(hitById(res, 4)._rankingScoreDetails, { wordPosition: { order: 0, score: 9 / 21 } });
  });

  test('legacy `attribute` = attributeRank then wordPosition, one details entry', async () => {
    // One searchable attribute → attributeRank 1/1; the merged score of (1/1, 19/21) is 19/21
    // (relevancy.md §8.2; upstream tests/search/mod.rs test_score_details).
    const res = await search(idx.attribute, 'quick brown', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [3, 1, 5, 2, 4]);
    assert.deepEqual(hitById(res, 1)._rankingScoreDetails, {
      attribute: { order: 0, attributeRankingOrderScore: 1, queryWordDistanceScore: 19 / 21, score: 19 / 21 },
    });
  });
});
