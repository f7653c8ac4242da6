// Words rule and matching strategies (relevancy.md §3, §4 "rule chain", §5.1).
// Documents: the "Captain Marvel" set of relevancy.md §3 (= Meilisearch's
// crates/meilisearch/tests/search/matching_strategy.rs), default settings (searchable ["*"]).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex } from './relevancy-helpers.ts';

const CAPTAIN_DOCS = [
  { id: '1', title: 'Shazam!' },
  { id: '2', title: 'Captain Planet' },
  { id: '3', title: 'Captain Marvel' },
  { id: '4', title: 'a Captain Marvel ersatz' },
  { id: '5', title: "He's not part of the Marvel Cinematic Universe" },
  { id: '6', title: 'a Shazam ersatz, but better than Captain Planet' },
  { id: '7', title: 'Capitain CAAAAAVEEERNE!!!!' },
];

let t: TestServer;
let uid: string;
before(async () => {
  t = await startTestServer();
  uid = await makeIndex(t, 'words', { documents: CAPTAIN_DOCS });
});
after(async () => {
  await t?.close();
});

async function search(q: string, params: Record<string, unknown> = {}, index = uid) {
  return t.client.index(index).search(q, { attributesToRetrieve: ['id'], ...params });
}

describe('matching strategies', () => {
  test('"Captain Marvel" with last, all and frequency', async () => {
    // Properties: (1) last drops terms from the end, never the first: candidates = documents
    // matching "captain" (7 "Capitain" is a 1-typo match: 7 letters → 1 typo, insertion);
    // (2) all keeps only documents with both words; (3) frequency drops the most frequent term
    // first: captain is in 5 documents, marvel in 3 → candidates = documents with marvel.
    // Upstream: matching_strategy.rs simple_search; relevancy.md §3.
    assert.deepEqual(ids(await search('Captain Marvel', { matchingStrategy: 'last' })), ['3', '4', '2', '6', '7']);
    assert.deepEqual(ids(await search('Captain Marvel', { matchingStrategy: 'all' })), ['3', '4']);
    assert.deepEqual(ids(await search('Captain Marvel', { matchingStrategy: 'frequency' })), ['3', '4', '5']);
    // last is the default strategy
    assert.deepEqual(ids(await search('Captain Marvel')), ['3', '4', '2', '6', '7']);
  });

  test('"Capitain Marvel": the typo rule orders the reduced bucket', async () => {
    // Properties: (1) "capitain" (8 letters, 1 typo) matches "captain" (deletion) and itself;
    // (2) in the bucket "capitain" only, 7 (exact, 0 typo) precedes 2 and 6 (1 typo).
    // Upstream: matching_strategy.rs search_with_typo.
    assert.deepEqual(ids(await search('Capitain Marvel', { matchingStrategy: 'last' })), ['3', '4', '7', '2', '6']);
    assert.deepEqual(ids(await search('Capitain Marvel', { matchingStrategy: 'all' })), ['3', '4']);
    assert.deepEqual(ids(await search('Capitain Marvel', { matchingStrategy: 'frequency' })), ['3', '4', '5']);
  });

  test('"Captain Supercopter Marvel": removed words get no credit', async () => {
    // Properties: (1) last removes marvel, then supercopter, leaving "captain": 2 (Captain
    // Planet) and 3 (Captain Marvel) share that bucket even though 3 also holds marvel (relevancy
    // .md §5.1 note); inside it: typo 0 for 2,3,4,6 and 1 for 7; wordPosition captain@0 for 2,3,
    // @1 for 4, @13 for 6 (", " is a hard separator); (2) all: supercopter matches nothing → no
    // hit; (3) frequency: a term matching nothing counts as infinitely frequent and is dropped
    // first, then captain (5 docs) before marvel (3). Upstream: search_with_unknown_word.
    assert.deepEqual(ids(await search('Captain Supercopter Marvel', { matchingStrategy: 'last' })), ['2', '3', '4', '6', '7']);
    assert.deepEqual(ids(await search('Captain Supercopter Marvel', { matchingStrategy: 'all' })), []);
    assert.deepEqual(ids(await search('Captain Supercopter Marvel', { matchingStrategy: 'frequency' })), ['3', '4', '5']);
    // words details: max_rank = 1 + 2 removal steps = 3 (= maxMatchingWords), bucket "captain"
    // only → matchingWords 1, score 1/3.
    const res = await search('Captain Supercopter Marvel', { matchingStrategy: 'last', showRankingScoreDetails: true });
    for (const id of ['2', '3']) {
      assert.deepEqual(hitById(res, id)._rankingScoreDetails?.words, { order: 0, matchingWords: 1, maxMatchingWords: 3, score: 1 / 3 });
    }
  });

  test('last never removes the first term', async () => {
    // Properties: (1) with last, the first term is mandatory (no phrase in the query): a first
    // term matching nothing gives no hit (upstream words_tms.rs: "extravagant the quick ..." → no
    // result); (2) frequency may still drop it (it matches nothing, so it is the most frequent):
    // buckets "captain marvel" {3, 4} then "marvel" {5}; (3) the remaining words keep their query
    // positions (captain 1, marvel 2), so wordPosition puts 4 (captain@1, marvel@2: cost 0)
    // before 3 (captain@0, marvel@1: 1 + 1).
    assert.deepEqual(ids(await search('Supercopter Captain Marvel', { matchingStrategy: 'last' })), []);
    assert.deepEqual(ids(await search('Supercopter Captain Marvel', { matchingStrategy: 'frequency' })), ['4', '3', '5']);
  });

  test('frequency and last pick different candidates', async () => {
    // Query "captain shazam". Properties: (1) last keeps documents with captain (2,3,4,6,7):
    // 6 holds both words (first bucket), then captain only: typo 0 for 2,3,4 and 1 for 7,
    // wordPosition captain@0 for 2,3 and @1 for 4; 2 and 3 both "matchesStart" → id order;
    // (2) frequency: shazam (docs 1, 6) is rarer than captain (5 docs) → candidates {1, 6},
    // 6 (both words) before 1.
    assert.deepEqual(ids(await search('captain shazam', { matchingStrategy: 'last' })), ['6', '2', '3', '4', '7']);
    assert.deepEqual(ids(await search('captain shazam', { matchingStrategy: 'frequency' })), ['6', '1']);
  });

  test('phrases are never removed by last', async () => {
    // Query `ersatz "captain planet"`. Properties: (1) a phrase is mandatory, and when the query
    // holds a phrase every other term may be removed, even the first (relevancy.md §3; upstream
    // words_tms.rs test_words_tms_last_phrase); (2) first bucket = both (6), then the phrase
    // alone (2); 4 (ersatz only) is not a candidate; (3) all → only 6;
    // (4) maxMatchingWords counts phrase words one by one: ersatz + captain + planet = 3;
    // 6 matches 3, 2 still matches the 2 phrase words.
    const res = await search('ersatz "captain planet"', { matchingStrategy: 'last', showRankingScoreDetails: true });
    assert.deepEqual(ids(res), ['6', '2']);
    assert.deepEqual(hitById(res, '6')._rankingScoreDetails?.words, { order: 0, matchingWords: 3, maxMatchingWords: 3, score: 1 });
    assert.deepEqual(hitById(res, '2')._rankingScoreDetails?.words, { order: 0, matchingWords: 2, maxMatchingWords: 3, score: 2 / 3 });
    assert.deepEqual(ids(await search('ersatz "captain planet"', { matchingStrategy: 'all' })), ['6']);
  });
});

describe('rule chain construction', () => {
  let rulesUid: string;
  before(async () => {
    rulesUid = await makeIndex(t, 'words_rules', { documents: CAPTAIN_DOCS });
  });

  async function withRules(rankingRules: string[], q: string, matchingStrategy: 'last' | 'all' = 'last') {
    const task = await t.client.index(rulesUid).updateSettings({ rankingRules }).waitTask();
    assert.equal(task.status, 'succeeded');
    return ids(await search(q, { matchingStrategy }, rulesUid));
  }

  test('a rule before (or without) words gets a words rule inserted before it', async () => {
    // Properties: (1) rankingRules ["attributeRank"] behaves like ["words", "attributeRank"]:
    // with searchable ["*"] attributeRank is a single bucket, so the order is the words buckets
    // {3,4} then {2,6,7} (relevancy.md §4; upstream words_ranking_rules_order.rs); without the
    // inserted words rule it would be plain id order 2,3,4,6,7;
    // (2) ["typo"] behaves like ["words", "typo"] (upstream typo.rs property 10);
    // (3) ["exactness"] behaves like ["words", "exactness"].
    assert.deepEqual(await withRules(['attributeRank'], 'Captain Marvel'), ['3', '4', '2', '6', '7']);
    assert.deepEqual(await withRules(['words', 'attributeRank'], 'Captain Marvel'), ['3', '4', '2', '6', '7']);
    assert.deepEqual(await withRules(['typo'], 'Capitain Marvel'), ['3', '4', '7', '2', '6']);
    assert.deepEqual(await withRules(['words', 'typo'], 'Capitain Marvel'), ['3', '4', '7', '2', '6']);
    // exactness alone: words buckets {3,4} (3 exactMatch, 4 noExactMatch) then {2,6,7}
    // (2 matchesStart "captain", 6 and 7 noExactMatch; 7 has no exact word)
    assert.deepEqual(await withRules(['exactness'], 'Captain Marvel'), ['3', '4', '2', '6', '7']);
  });

  test('no ranking rule: candidates of the reduced query in internal id order', async () => {
    // Properties: with rankingRules [] nothing sorts the candidates: last → documents matching
    // the first term, in internal id order; all → documents matching both.
    assert.deepEqual(await withRules([], 'Captain Marvel'), ['2', '3', '4', '6', '7']);
    assert.deepEqual(await withRules([], 'Captain Marvel', 'all'), ['3', '4']);
  });
});
