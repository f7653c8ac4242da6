// Ranking scores, `_rankingScoreDetails`, rankingScoreThreshold and custom ranking rules
// (relevancy.md §4, §7, §8; search.md §9.3). Every expected score is rankScore() of the
// per-rule (rank, max) pairs derived in the comments (mixed radix, relevancy.md §8.1).
//
// Typo max: milli gives every non-phrase word a max typo cost of at least 1, because a word that
// allows no typo can still match as a split word at cost 1 (query_term/mod.rs max_typo_cost).
// relevancy.md §5.2 says "sum of allowed typos"; milli is followed, and the upstream scores
// below (meilisearch crates/meilisearch/tests/search/mod.rs test_score) only come out with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex, rankScore } from './relevancy-helpers.ts';

// meilisearch tests/common DOCUMENTS (relevancy.md §8 example) and SCORE_DOCUMENTS
const MOVIES = [
  { title: 'Shazam!', id: '287947', color: ['green', 'blue'] },
  { title: 'Captain Marvel', id: '299537', color: ['yellow', 'blue'] },
  { title: 'Escape Room', id: '522681', color: ['yellow', 'red'] },
  { title: 'How to Train Your Dragon: The Hidden World', id: '166428', color: ['green', 'red'] },
  { title: 'Gläss', id: '450465', color: ['blue', 'red'] },
];
const BATMAN = [
  { title: 'Batman the dark knight returns: Part 1', id: 'A' },
  { title: 'Batman the dark knight returns: Part 2', id: 'B' },
  { title: 'Batman Returns', id: 'C' },
  { title: 'Batman', id: 'D' },
  { title: 'Badman', id: 'E' },
];
const SPACE = [
  { id: 1, title: 'space opera', year: 1977 },
  { id: 2, title: 'space opira', year: 2005 },
  { id: 3, title: 'space', year: 2020 },
  { id: 4, title: 'space opera', year: 2015 },
  { id: 5, title: 'space opera' },
];

let t: TestServer;
const idx: Record<string, string> = {};
before(async () => {
  t = await startTestServer();
  const [movies, moviesLegacy, batman, spaceSortFirst, spaceTypoFirst] = await Promise.all([
    makeIndex(t, 'score_movies', { documents: MOVIES }),
    makeIndex(t, 'score_legacy', { settings: { rankingRules: ['words', 'typo', 'proximity', 'attribute', 'exactness'] }, documents: MOVIES }),
    makeIndex(t, 'score_batman', { documents: BATMAN }),
    makeIndex(t, 'custom_sort_first', { settings: { rankingRules: ['words', 'year:desc', 'typo'] }, documents: SPACE }),
    makeIndex(t, 'custom_typo_first', { settings: { rankingRules: ['words', 'typo', 'year:desc'] }, documents: SPACE }),
  ]);
  Object.assign(idx, { movies, moviesLegacy, batman, spaceSortFirst, spaceTypoFirst });
});
after(async () => {
  await t?.close();
});

// "Badman the dark knight returns 1": 6 words at query positions 0..5, "1" is a prefix.
// Per-document (rank, max), default rules (words, typo, proximity, attributeRank, [sort],
// wordPosition, exactAttribute, exactWords), searchable ["*"] (title and id, weight 0):
const BATMAN_RANKS: Record<string, Array<[number, number]>> = {
  // A "Batman the dark knight returns: Part 1": all 6 words → words 6/6 (1 + 5 removal steps);
  // typo max = 6 words × 1 (badman, knight, returns allow 1; the, dark, 1 have the split-word
  // cost) = 6 → max_rank 7, batman = 1 typo → 6/7; proximity 5 pairs → max_rank 16, only
  // returns@4 → 1@6 is at distance 2 (": " is soft) → cost 1 → 15/16; attributeRank 1/1;
  // wordPosition 6 terms → max_rank 61, "1" q5@6 → d 1 → cost 1 → 60/61; exactAttribute
  // noExactMatch 1/3 (badman is not typed exactly); exact words the, dark, knight, returns, 1
  // = 5 of 6 → 6/7.
  A: [[6, 6], [6, 7], [15, 16], [1, 1], [60, 61], [1, 3], [6, 7]],
  // B "... Part 2": "1" removed → words 5/6; on the 5 remaining words: typo max 5, 1 typo →
  // 5/6; proximity 4 pairs, all adjacent → 13/13; wordPosition 0 → 51/51; noExactMatch 1/3,
  // exact words 4 of 5 → 5/6.
  B: [[5, 6], [5, 6], [13, 13], [1, 1], [51, 51], [1, 3], [5, 6]],
  // E "Badman": only "badman" → words 1/6; typo 0 of max 1 → 2/2; 1 term → proximity 1/1;
  // wordPosition 11/11; exactMatch 3/3 (its exact words are then all exact: 2/2).
  E: [[1, 6], [2, 2], [1, 1], [1, 1], [11, 11], [3, 3], [2, 2]],
  // C "Batman Returns" (no "the") and D "Batman": words 1/6; 1 typo of max 1 → 1/2; 1/1; 1/1;
  // 11/11; noExactMatch 1/3 with 0 exact word of 1 → 1/2.
  C: [[1, 6], [1, 2], [1, 1], [1, 1], [11, 11], [1, 3], [1, 2]],
  D: [[1, 6], [1, 2], [1, 1], [1, 1], [11, 11], [1, 3], [1, 2]],
};

describe('ranking score', () => {
  test('"train dragon": the relevancy.md §8 example, 1.50 details', async () => {
    // words 2/2; typo train (5 letters) + dragon (6) → max 2, 0 typo → 3/3; proximity
    // train@2 → dragon@4 distance 2 → cost 1 → 3/4; attributeRank 1/1 (["*"]); wordPosition
    // train q0@2 → 2, dragon q1@4 → d 3 → 2, cost 4 of 20 → 17/21; exactAttribute noExactMatch
    // 1/3, exact words 2/2 → 3/3. Global 4305/4536.
    const res = await t.client.index(idx.movies).search('train dragon', { showRankingScore: true, showRankingScoreDetails: true });
    assert.deepEqual(ids(res), ['166428']);
    const hit = res.hits[0]!;
    const expected = rankScore([[2, 2], [3, 3], [3, 4], [1, 1], [17, 21], [1, 3], [3, 3]]);
    assert.equal(expected, 0.9490740740740741);
    assert.equal(hit._rankingScore, expected);
    assert.deepEqual(hit._rankingScoreDetails, {
      words: { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 },
      typo: { order: 1, typoCount: 0, maxTypoCount: 2, score: 1 },
      proximity: { order: 2, score: 0.75 },
      attributeRank: { order: 3, score: 1 },
      wordPosition: { order: 4, score: 17 / 21 },
      exactness: { order: 5, matchType: 'noExactMatch', matchingWords: 2, maxMatchingWords: 2, score: 1 / 3 },
    });
    assert.deepEqual(Object.keys(hit._rankingScoreDetails ?? {}), ['words', 'typo', 'proximity', 'attributeRank', 'wordPosition', 'exactness']);
    // decorations come in this order after the document fields (search.md §7.2)
    assert.deepEqual(Object.keys(hit).slice(-2), ['_rankingScore', '_rankingScoreDetails']);
  });

  test('legacy `attribute` rule: one merged details entry, same global score', async () => {
    // upstream tests/search/mod.rs test_score_details
    const res = await t.client.index(idx.moviesLegacy).search('train dragon', { showRankingScore: true, showRankingScoreDetails: true });
    const hit = res.hits[0]!;
    assert.equal(hit._rankingScore, 0.9490740740740741);
    assert.deepEqual(hit._rankingScoreDetails, {
      words: { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 },
      typo: { order: 1, typoCount: 0, maxTypoCount: 2, score: 1 },
      proximity: { order: 2, score: 0.75 },
      attribute: { order: 3, attributeRankingOrderScore: 1, queryWordDistanceScore: 17 / 21, score: 17 / 21 },
      exactness: { order: 4, matchType: 'noExactMatch', matchingWords: 2, maxMatchingWords: 2, score: 1 / 3 },
    });
  });

  test('"Badman the dark knight returns 1": scores of every bucket', async () => {
    // upstream test_score: A 0.9746605609456898, B 0.8055252965383685, E 0.16666666666666666,
    // C = D = 0.07702020202020202 (E before C, D by exactness: exactMatch).
    const res = await t.client.index(idx.batman).search('Badman the dark knight returns 1', { showRankingScore: true });
    assert.deepEqual(ids(res), ['A', 'B', 'E', 'C', 'D']);
    const expected: Record<string, number> = {
      A: 0.9746605609456898,
      B: 0.8055252965383685,
      E: 0.16666666666666666,
      C: 0.07702020202020202,
      D: 0.07702020202020202,
    };
    for (const [id, score] of Object.entries(expected)) {
      assert.equal(rankScore(BATMAN_RANKS[id]!), score, `arithmetic of ${id}`);
      assert.equal(hitById(res, id)._rankingScore, score, `score of ${id}`);
    }
  });

  test('details when the words rule dropped a term', async () => {
    // Properties: (1) after the words rule, the later rules measure the remaining query only
    // (B: typo max 5, proximity 4 pairs, exactness 4 of 5, see BATMAN_RANKS); (2) words shows
    // matchingWords = rank, maxMatchingWords = number of query words; (3) exactMatch and
    // matchesStart entries carry no word counts.
    const res = await t.client.index(idx.batman).search('Badman the dark knight returns 1', { showRankingScoreDetails: true });
    assert.deepEqual(hitById(res, 'B')._rankingScoreDetails, {
      words: { order: 0, matchingWords: 5, maxMatchingWords: 6, score: 5 / 6 },
      typo: { order: 1, typoCount: 1, maxTypoCount: 5, score: 5 / 6 },
      proximity: { order: 2, score: 1 },
      attributeRank: { order: 3, score: 1 },
      wordPosition: { order: 4, score: 1 },
      // merge(1/3, 5/6) = (0·6 + 5)/18
      exactness: { order: 5, matchType: 'noExactMatch', matchingWords: 4, maxMatchingWords: 5, score: 5 / 18 },
    });
    assert.deepEqual(hitById(res, 'A')._rankingScoreDetails?.typo, { order: 1, typoCount: 1, maxTypoCount: 6, score: 6 / 7 });
    assert.deepEqual(hitById(res, 'E')._rankingScoreDetails?.exactness, { order: 5, matchType: 'exactMatch', score: 1 });
    assert.deepEqual(hitById(res, 'C')._rankingScoreDetails?.words, { order: 0, matchingWords: 1, maxMatchingWords: 6, score: 1 / 6 });
  });
});

describe('rankingScoreThreshold', () => {
  const q = 'Badman the dark knight returns 1';
  test('drops hits strictly below the threshold, and from the totals', async () => {
    // Scores: A 0.97, B 0.81, E 1/6, C = D 0.077 (previous tests). Properties: (1) hits with a
    // score < threshold are dropped, a score equal to it is kept (search.md §9.3); (2) they are
    // removed from estimatedTotalHits (upstream test_score_threshold: 0.2 → 3 ... 1.0 → 0) and
    // from totalHits in page mode; (3) 1.0 keeps nobody, 0 keeps everybody.
    const index = t.client.index(idx.batman);
    const at = async (rankingScoreThreshold: number) => index.search(q, { rankingScoreThreshold, attributesToRetrieve: ['id'] });
    let res = await at(0.1);
    assert.deepEqual(ids(res), ['A', 'B', 'E']);
    assert.equal(res.estimatedTotalHits, 3);
    // equal to E's score (1/6): kept
    assert.deepEqual(ids(await at(1 / 6)), ['A', 'B', 'E']);
    assert.deepEqual(ids(await at(0.9)), ['A']);
    res = await at(1);
    assert.deepEqual(ids(res), []);
    assert.equal(res.estimatedTotalHits, 0);
    assert.deepEqual(ids(await at(0)), ['A', 'B', 'E', 'C', 'D']);
    // page mode counts exhaustively
    const page = await index.search(q, { rankingScoreThreshold: 0.1, hitsPerPage: 2, page: 1, attributesToRetrieve: ['id'] });
    assert.deepEqual(ids(page), ['A', 'B']);
    assert.equal(page.totalHits, 3);
    assert.equal(page.totalPages, 2);
  });
});

describe('custom ranking rules', () => {
  test('a field rule sorts inside the buckets of the rules before it', async () => {
    // "space opera ": words buckets {1, 2, 4, 5} (2: opira = 1 typo) then {3}.
    // [words, year:desc, typo]: year desc inside the first bucket: 4 (2015), 2 (2005),
    // 1 (1977), 5 (no year: last) → [4, 2, 1, 5, 3].
    // [words, typo, year:desc]: typo 0 {1, 4, 5} → 4, 1, 5; typo 1 {2}; then 3.
    assert.deepEqual(ids(await t.client.index(idx.spaceSortFirst).search('space opera ')), [4, 2, 1, 5, 3]);
    assert.deepEqual(ids(await t.client.index(idx.spaceTypoFirst).search('space opera ')), [4, 1, 5, 2, 3]);
  });

  test('field rules appear in the details but never in the score', async () => {
    // Properties: (1) a `field:desc` rule gets its own details entry {order, value} in rule order
    // (value null without the field); (2) it takes an order slot; (3) the global score only
    // combines the other rules (relevancy.md §7, §8).
    const res = await t.client.index(idx.spaceSortFirst).search('space opera ', { showRankingScore: true, showRankingScoreDetails: true });
    // 4: words 2/2, typo 0 of max 2 → 3/3 → 1
    assert.deepEqual(hitById(res, 4)._rankingScoreDetails, {
      words: { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 },
      'year:desc': { order: 1, value: 2015 },
      typo: { order: 2, typoCount: 0, maxTypoCount: 2, score: 1 },
    });
    assert.equal(hitById(res, 4)._rankingScore, 1);
    // 2: typo 1 → 2/3: score rankScore([[2,2],[2,3]]) = 5/6
    assert.equal(hitById(res, 2)._rankingScore, rankScore([[2, 2], [2, 3]]));
    // 5: no year → value null
    assert.deepEqual(hitById(res, 5)._rankingScoreDetails?.['year:desc'], { order: 1, value: null });
    // 3: words 1/2, typo on "space" alone 0 of max 1 → 2/2: (0·2 + 2)/4 = 0.5
    assert.equal(hitById(res, 3)._rankingScore, rankScore([[1, 2], [2, 2]]));
    assert.equal(hitById(res, 3)._rankingScore, 0.5);
  });
});
