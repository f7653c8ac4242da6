// Counts of search and multi-search as Meilisearch 1.50 gives them (search.md §5,
// multi-search.md §3.5). Every expected value below is what the real binary answered on the
// same generated data (30,000 documents, `maxTotalHits` 10; 3,000 documents, `maxTotalHits` 20).
// Properties checked:
// 1. `maxTotalHits` caps only the hits that can be reached: `estimatedTotalHits`, `totalHits`
//    and `totalPages` are not capped, with and without q, filter, distinct, threshold, in both
//    pagination modes; hits stop at the cap (`offset: 8, limit: 5` → 2 hits)
// 2. distinct: the estimate knows every duplicate of the result buckets walked (a keyword
//    search deduplicates whole buckets, a placeholder search only the documents it returns);
//    page mode counts exactly; `limit: 0` walks nothing, an offset alone walks to the offset
// 3. a threshold in page mode ranks until `maxTotalHits − offset` documents are returned
// 4. multi-search results are single searches; federated counts are the union of each index's
//    queries' candidates, uncapped, less the duplicates the merge met
// 5. facet counts with `maxValuesPerFacet` and `sortFacetValuesBy`
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;

/** 30,000 tiny documents: every one has `alpha`, a third `beta`, a seventh `gamma`. */
function bigDocuments(): Record<string, unknown>[] {
  return Array.from({ length: 30_000 }, (_, i) => ({
    id: i,
    title: `alpha${i % 3 === 0 ? ' beta' : ''}${i % 7 === 0 ? ' gamma' : ''}`,
    color: ['red', 'green', 'blue'][i % 3],
    grp: i % 50,
    n: i,
  }));
}

/** 3,000 documents: a quarter with `beta`, a fifth with `gamma`. */
function midDocuments(): Record<string, unknown>[] {
  return Array.from({ length: 3000 }, (_, i) => ({
    id: i,
    title: `alpha${i % 4 === 0 ? ' beta' : ''}${i % 5 === 0 ? ' gamma' : ''}`,
    color: ['red', 'green', 'blue', 'pink'][i % 4],
    grp: i % 30,
  }));
}

before(async () => {
  t = await startTestServer();
  const big = t.client.index('big');
  await big.updateSettings({ filterableAttributes: ['color', 'grp', 'n'], pagination: { maxTotalHits: 10 } }).waitTask();
  const added = await big.addDocuments(bigDocuments()).waitTask({ timeout: 120_000 });
  assert.equal(added.status, 'succeeded', JSON.stringify(added.error));
  const mid = t.client.index('mid');
  await mid.updateSettings({
    filterableAttributes: ['color', 'grp'],
    pagination: { maxTotalHits: 20 },
    faceting: { maxValuesPerFacet: 3, sortFacetValuesBy: { color: 'count' } },
  }).waitTask();
  const midAdded = await mid.addDocuments(midDocuments()).waitTask({ timeout: 60_000 });
  assert.equal(midAdded.status, 'succeeded', JSON.stringify(midAdded.error));
});

after(async () => {
  await t.close();
});

type Summary = Record<string, unknown>;

/** What the binary's answers were recorded as: hit ids (`id@query` when federated) and counts. */
function summary(res: any): Summary {
  if (Array.isArray(res.results)) return { results: res.results.map((r: any) => summaryOf(r, true)) };
  return summaryOf(res, false);
}

function summaryOf(res: any, withWindow: boolean): Summary {
  const out: Summary = { ids: res.hits.map((h: any) => (h._federation ? `${h.id}@${h._federation.queriesPosition}` : h.id)) };
  const keys = ['estimatedTotalHits', 'totalHits', 'totalPages', 'page', 'hitsPerPage', 'limit', 'offset', 'facetDistribution'];
  const window = ['page', 'hitsPerPage', 'limit', 'offset'];
  for (const k of keys) if (k in res && (withWindow || !window.includes(k))) out[k] = res[k];
  return out;
}

const SEARCH_CASES: [Record<string, unknown>, Summary][] = [
  [{}, {ids: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], estimatedTotalHits: 30000}],
  [{q: "alpha"}, {ids: [1, 2, 4, 5, 8, 10, 11, 13, 16, 17], estimatedTotalHits: 30000}],
  [{q: "beta"}, {ids: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], estimatedTotalHits: 10000}],
  [{q: "gamma"}, {ids: [7, 14, 28, 35, 49, 56, 70, 77, 91, 98], estimatedTotalHits: 4286}],
  [{q: "beta gamma"}, {ids: [0, 21, 42, 63, 84, 105, 126, 147, 168, 189], estimatedTotalHits: 10000}],
  [{filter: "color = red"}, {ids: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], estimatedTotalHits: 10000}],
  [{q: "alpha", filter: "grp < 5"}, {ids: [1, 2, 4, 50, 52, 53, 100, 101, 103, 104], estimatedTotalHits: 3000}],
  [{distinct: "grp"}, {ids: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], estimatedTotalHits: 24010}],
  [{q: "beta", distinct: "grp"}, {ids: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], estimatedTotalHits: 50}],
  [{filter: "color = red", distinct: "grp"}, {ids: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], estimatedTotalHits: 8010}],
  [{hitsPerPage: 4}, {ids: [0, 1, 2, 3], totalHits: 30000, totalPages: 7500}],
  [{hitsPerPage: 4, page: 3}, {ids: [8, 9], totalHits: 30000, totalPages: 7500}],
  [{hitsPerPage: 4, page: 4}, {ids: [], totalHits: 30000, totalPages: 7500}],
  [{hitsPerPage: 3, page: 4}, {ids: [9], totalHits: 30000, totalPages: 10000}],
  [{q: "beta", hitsPerPage: 4, page: 2}, {ids: [12, 15, 18, 21], totalHits: 10000, totalPages: 2500}],
  [{distinct: "grp", hitsPerPage: 4}, {ids: [0, 1, 2, 3], totalHits: 50, totalPages: 13}],
  [{q: "beta", distinct: "grp", hitsPerPage: 4}, {ids: [0, 3, 6, 9], totalHits: 50, totalPages: 13}],
  [{offset: 8, limit: 5}, {ids: [8, 9], estimatedTotalHits: 30000}],
  [{offset: 10, limit: 5}, {ids: [], estimatedTotalHits: 30000}],
  [{offset: 12, limit: 5}, {ids: [], estimatedTotalHits: 30000}],
  [{limit: 0}, {ids: [], estimatedTotalHits: 30000}],
  [{offset: 3}, {ids: [3, 4, 5, 6, 7, 8, 9], estimatedTotalHits: 30000}],
  [{hitsPerPage: 0}, {ids: [], totalHits: 30000, totalPages: 0}],
  [{page: 0}, {ids: [], totalHits: 30000, totalPages: 1500}],
  [{q: "gamma", rankingScoreThreshold: 0.5}, {ids: [7, 14, 28, 35, 49, 56, 70, 77, 91, 98], estimatedTotalHits: 4286}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9}, {ids: [7, 14, 28, 35, 49, 56, 70, 77, 91, 98], estimatedTotalHits: 30000}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 4}, {ids: [7, 14, 28, 35], totalHits: 4286, totalPages: 1072}],
  [{q: "beta", facets: ["color"]}, {ids: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], estimatedTotalHits: 10000, facetDistribution: {color: {red: 10000}}}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 10}, {ids: [7, 14, 28, 35, 49, 56, 70, 77, 91, 98], totalHits: 30000, totalPages: 3000}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 9}, {ids: [7, 14, 28, 35, 49, 56, 70, 77, 91], totalHits: 4286, totalPages: 477}],
  [{q: "beta", distinct: "grp", limit: 0}, {ids: [], estimatedTotalHits: 10000}],
  [{q: "beta", distinct: "grp", offset: 12}, {ids: [], estimatedTotalHits: 50}],
  [{q: "beta", distinct: "grp", offset: 4, limit: 3}, {ids: [12, 15, 18], estimatedTotalHits: 50}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, limit: 0}, {ids: [], estimatedTotalHits: 30000}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 4, page: 4}, {ids: [], totalHits: 30000, totalPages: 7500}],
  [{q: "alpha", distinct: "grp", hitsPerPage: 4, page: 9}, {ids: [], totalHits: 50, totalPages: 13}],
  [{distinct: "grp", hitsPerPage: 4, page: 0}, {ids: [], totalHits: 50, totalPages: 13}],
  [{q: "gamma", distinct: "grp", offset: 8}, {ids: [91, 98], estimatedTotalHits: 50}],
  [{q: "beta", distinct: "grp", offset: 10, limit: 0}, {ids: [], estimatedTotalHits: 50}],
  [{q: "beta", distinct: "grp", offset: 12, limit: 0}, {ids: [], estimatedTotalHits: 50}],
  [{q: "beta", distinct: "grp", offset: 10, limit: 1}, {ids: [], estimatedTotalHits: 50}],
  [{q: "beta", distinct: "grp", offset: 9, limit: 1}, {ids: [27], estimatedTotalHits: 50}],
  [{q: "beta", distinct: "grp", hitsPerPage: 5, page: 3}, {ids: [], totalHits: 50, totalPages: 10}],
  [{q: "beta", distinct: "grp", offset: 3, limit: 0}, {ids: [], estimatedTotalHits: 50}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 4, page: 3}, {ids: [91, 98], totalHits: 30000, totalPages: 7500}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 5, page: 2}, {ids: [56, 70, 77, 91, 98], totalHits: 30000, totalPages: 6000}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 5, page: 3}, {ids: [], totalHits: 30000, totalPages: 6000}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, offset: 12}, {ids: [], estimatedTotalHits: 30000}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 0}, {ids: [], totalHits: 4286, totalPages: 0}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, page: 0}, {ids: [], totalHits: 4286, totalPages: 215}],
  [{q: "alpha gamma", rankingScoreThreshold: 0.9, hitsPerPage: 20}, {ids: [7, 14, 28, 35, 49, 56, 70, 77, 91, 98], totalHits: 30000, totalPages: 1500}],
  [{distinct: "grp", offset: 12}, {ids: [], estimatedTotalHits: 24010}],
  [{distinct: "grp", offset: 5, limit: 0}, {ids: [], estimatedTotalHits: 27005}],
  [{distinct: "grp", offset: 10, limit: 5}, {ids: [], estimatedTotalHits: 24010}],
];

const MULTI_CASES: [Record<string, unknown>, Summary][] = [
  [{queries: [{indexUid: "big"}, {indexUid: "big", q: "beta", hitsPerPage: 4}, {indexUid: "big", q: "beta", distinct: "grp"}, {indexUid: "mid", q: "gamma", offset: 15}]}, {results: [{ids: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], estimatedTotalHits: 30000, limit: 20, offset: 0}, {ids: [0, 3, 6, 9], totalHits: 10000, totalPages: 2500, page: 1, hitsPerPage: 4}, {ids: [0, 3, 6, 9, 12, 15, 18, 21, 24, 27], estimatedTotalHits: 50, limit: 20, offset: 0}, {ids: [105, 110, 115, 125, 130], estimatedTotalHits: 600, limit: 20, offset: 15}]}],
  [{federation: {}, queries: [{indexUid: "big", q: "beta"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0", "24@0", "27@0"], estimatedTotalHits: 10000}],
  [{federation: {}, queries: [{indexUid: "big"}]}, {ids: ["0@0", "1@0", "2@0", "3@0", "4@0", "5@0", "6@0", "7@0", "8@0", "9@0"], estimatedTotalHits: 30000}],
  [{federation: {}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "big", q: "gamma"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0", "24@0", "27@0"], estimatedTotalHits: 12857}],
  [{federation: {}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0", "24@0", "27@0", "5@1", "10@1", "15@1", "25@1", "30@1", "35@1", "45@1", "50@1", "55@1", "65@1"], estimatedTotalHits: 10600}],
  [{federation: {limit: 5, offset: 8}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["24@0", "27@0", "5@1", "10@1", "15@1"], estimatedTotalHits: 10600}],
  [{federation: {hitsPerPage: 4}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["0@0", "3@0", "6@0", "9@0"], totalHits: 10600, totalPages: 2650}],
  [{federation: {hitsPerPage: 4, page: 5}, queries: [{indexUid: "big", q: "beta"}]}, {ids: [], totalHits: 10000, totalPages: 2500}],
  [{federation: {distinct: "grp"}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0", "24@0", "27@0", "5@1", "10@1", "25@1", "50@1"], estimatedTotalHits: 54}],
  [{federation: {distinct: "grp", hitsPerPage: 4}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["0@0", "3@0", "6@0", "9@0"], totalHits: 56, totalPages: 14}],
  [{federation: {}, queries: [{indexUid: "big", filter: "color = red"}, {indexUid: "big", filter: "grp = 1"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0", "24@0", "27@0"], estimatedTotalHits: 10400}],
  [{federation: {limit: 30}, queries: [{indexUid: "mid", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["0@0", "4@0", "8@0", "12@0", "16@0", "20@0", "24@0", "28@0", "32@0", "36@0", "40@0", "44@0", "48@0", "52@0", "56@0", "60@0", "64@0", "68@0", "72@0", "76@0"], estimatedTotalHits: 1200}],
  [{federation: {distinct: "grp", hitsPerPage: 2}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "beta"}]}, {ids: ["0@0", "3@0"], totalHits: 64, totalPages: 32}],
  [{federation: {distinct: "grp", limit: 2}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "beta"}]}, {ids: ["0@0", "3@0"], estimatedTotalHits: 64}],
  [{federation: {distinct: "grp", limit: 8}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "beta"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0"], estimatedTotalHits: 63}],
  [{federation: {distinct: "grp"}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "beta"}]}, {ids: ["0@0", "3@0", "6@0", "9@0", "12@0", "15@0", "18@0", "21@0", "24@0", "27@0", "4@1", "8@1", "16@1", "20@1", "28@1", "32@1", "40@1", "44@1", "52@1", "56@1"], estimatedTotalHits: 60}],
  [{federation: {distinct: "grp", limit: 3, offset: 4}, queries: [{indexUid: "big", q: "beta"}, {indexUid: "mid", q: "beta"}]}, {ids: ["12@0", "15@0", "18@0"], estimatedTotalHits: 63}],
  [{federation: {distinct: "grp", limit: 2}, queries: [{indexUid: "mid", q: "beta"}, {indexUid: "mid", q: "gamma"}]}, {ids: ["0@0", "4@0"], estimatedTotalHits: 21}],
  [{federation: {distinct: "grp", limit: 2}, queries: [{indexUid: "mid", q: "beta", filter: "grp < 10"}, {indexUid: "mid", q: "gamma", filter: "grp < 10"}]}, {ids: ["0@0", "4@0"], estimatedTotalHits: 7}],
  [{federation: {limit: 3}, queries: [{indexUid: "mid", q: "beta", filter: "grp < 10"}, {indexUid: "mid", q: "gamma", filter: "grp < 10"}]}, {ids: ["0@0", "4@0", "8@0"], estimatedTotalHits: 400}],
];

const FACET_CASES: [Record<string, unknown>, Summary][] = [
  [{facets: ["grp", "color"]}, {ids: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], estimatedTotalHits: 3000, facetDistribution: {color: {red: 750, pink: 750, green: 750}, grp: {"0": 100, "1": 100, "10": 100}}}],
  [{q: "gamma", facets: ["grp", "color"]}, {ids: [5, 10, 15, 25, 30, 35, 45, 50, 55, 65, 70, 75, 85, 90, 95, 105, 110, 115, 125, 130], estimatedTotalHits: 600, facetDistribution: {color: {red: 150, pink: 150, green: 150}, grp: {"0": 100, "10": 100, "15": 100}}}],
  [{q: "beta", facets: ["*"], limit: 1}, {ids: [0], estimatedTotalHits: 750, facetDistribution: {color: {red: 750}, grp: {"0": 50, "10": 50, "12": 50}}}],
  [{filter: "grp > 25", facets: ["grp", "color"], hitsPerPage: 1}, {ids: [26], totalHits: 400, totalPages: 400, facetDistribution: {color: {red: 100, pink: 100, green: 100}, grp: {"26": 100, "27": 100, "28": 100}}}],
  [{q: "gamma", distinct: "grp", facets: ["grp", "color"]}, {ids: [5, 10, 15, 25, 30, 50], estimatedTotalHits: 6, facetDistribution: {color: {blue: 3, green: 2, pink: 1}, grp: {"0": 1, "10": 1, "15": 1}}}],
];

describe('search counts (maxTotalHits 10, 30,000 documents)', () => {
  test('every case answers as Meilisearch 1.50 did', async () => {
    for (const [body, want] of SEARCH_CASES) {
      const res = await t.fetch('POST', '/indexes/big/search', { body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(summary(res.body), want, JSON.stringify(body));
      // the requested window is echoed, not the one clamped by maxTotalHits
      if ('estimatedTotalHits' in res.body) assert.deepEqual([res.body.offset, res.body.limit], [body.offset ?? 0, body.limit ?? 20]);
    }
  });

  test('the official client reads the uncapped totals', async () => {
    const index = t.client.index('big');
    const placeholder = await index.search('', { filter: 'color = red' });
    assert.equal(placeholder.estimatedTotalHits, 10000);
    assert.equal(placeholder.hits.length, 10);
    const paged = await index.search('beta', { hitsPerPage: 4, page: 3 });
    assert.deepEqual([paged.totalHits, paged.totalPages, paged.hits.map((h) => h.id)], [10000, 2500, [24, 27]]);
    const beyond = await index.search('beta', { hitsPerPage: 4, page: 4 });
    assert.deepEqual([beyond.totalHits, beyond.hits.length], [10000, 0]);
    const get = await index.searchGet('gamma', { offset: 8, limit: 5 });
    assert.deepEqual([get.estimatedTotalHits, get.hits.map((h) => h.id)], [4286, [91, 98]]);
  });
});

describe('multi-search counts', () => {
  test('every case answers as Meilisearch 1.50 did', async () => {
    for (const [body, want] of MULTI_CASES) {
      const res = await t.fetch('POST', '/multi-search', { body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(summary(res.body), want, JSON.stringify(body));
    }
  });

  test('through the official client', async () => {
    const federated = await t.client.multiSearch({
      federation: { limit: 5, offset: 8 },
      queries: [{ indexUid: 'big', q: 'beta' }, { indexUid: 'mid', q: 'gamma' }],
    });
    assert.equal(federated.estimatedTotalHits, 10600);
    assert.equal(federated.hits.length, 5);
    const plain = await t.client.multiSearch({ queries: [{ indexUid: 'big', q: 'beta', hitsPerPage: 4 }] });
    assert.deepEqual([plain.results[0]!.totalHits, plain.results[0]!.totalPages], [10000, 2500]);
  });
});

describe('facet counts (maxValuesPerFacet 3)', () => {
  test('every case answers as Meilisearch 1.50 did', async () => {
    for (const [body, want] of FACET_CASES) {
      const res = await t.fetch('POST', '/indexes/mid/search', { body });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(summary(res.body), want, JSON.stringify(body));
    }
  });
});
