// Typo tolerance and the typo rule (relevancy.md §2.2, §5.2, §6; settings.md §6.11, §6.18).
// A trailing space in a query ("kitten ") makes its last word a plain term (no prefix), so that
// only typo derivations are in play. Facts checked against milli: typo derivation rules
// (crates/milli/src/search/new/query_term/compute_derivations.rs: 1-typo words keep the first
// letter; 2-typo words = distance 2 with the same first letter or distance 1 with another first
// letter) and the tests of crates/milli/src/search/new/tests/typo.rs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex } from './relevancy-helpers.ts';

// The same words in every index of this file; `settings` vary.
const WORD_DOCS = [
  { id: 1, text: 'kitten' },
  { id: 2, text: 'sitten' }, // kitten, first letter replaced (counts as 2 typos)
  { id: 3, text: 'kittens' }, // insertion
  { id: 4, text: 'kiten' }, // deletion
  { id: 5, text: 'kitetn' }, // adjacent transposition (Damerau: 1 typo, Levenshtein: 2)
  { id: 6, text: 'kittxn' }, // substitution
  { id: 7, text: 'kxttxn' }, // two substitutions
  { id: 8, text: 'cats' },
  { id: 9, text: 'cot' },
  { id: 10, text: 'cat' },
  { id: 11, text: 'pineapple' },
  { id: 12, text: 'qineapple' }, // first letter replaced: 2 typos
  { id: 13, text: 'pineappel' }, // transposition: 1
  { id: 14, text: 'pinapple' }, // deletion: 1
  { id: 15, text: 'pinxapplx' }, // two substitutions: 2
  { id: 16, text: 'qinxapple' }, // first letter + substitution: 3
  { id: 17, text: 'pinxxpplx' }, // three substitutions
  { id: 18, text: 'physicist' },
  { id: 19, text: 'physician' },
  { id: 20, text: 'physics' },
  { id: 21, text: '12345' },
  { id: 22, text: '12355' },
];

let t: TestServer;
const idx: Record<string, string> = {};
before(async () => {
  t = await startTestServer();
  const searchable = { searchableAttributes: ['text'] };
  const [base, sizes, disabled, onWords, onNumbers] = await Promise.all([
    makeIndex(t, 'typo', { settings: searchable, documents: WORD_DOCS }),
    makeIndex(t, 'typo_sizes', { settings: { ...searchable, typoTolerance: { minWordSizeForTypos: { oneTypo: 3, twoTypos: 5 } } }, documents: WORD_DOCS }),
    makeIndex(t, 'typo_off', { settings: { ...searchable, typoTolerance: { enabled: false } }, documents: WORD_DOCS }),
    makeIndex(t, 'typo_words', { settings: { ...searchable, typoTolerance: { disableOnWords: ['Kitten'] } }, documents: WORD_DOCS }),
    makeIndex(t, 'typo_numbers', { settings: { ...searchable, typoTolerance: { disableOnNumbers: true } }, documents: WORD_DOCS }),
  ]);
  Object.assign(idx, { base, sizes, disabled, onWords, onNumbers });
});
after(async () => {
  await t?.close();
});

async function q(index: string, query: string, params: Record<string, unknown> = {}) {
  return t.client.index(idx[index] ?? index).search(query, { matchingStrategy: 'all', attributesToRetrieve: ['id'], limit: 50, ...params });
}

describe('typo derivations', () => {
  test('one typo from 5 letters: substitution, insertion, deletion, transposition', async () => {
    // "kitten " (6 letters → 1 typo, no prefix). Properties: (1) 1 (exact) first, then the four
    // 1-typo words 3 (insertion), 4 (deletion), 5 (transposition = 1 typo), 6 (substitution);
    // (2) 2 (first letter changed = 2 typos) and 7 (2 typos) do not match; (3) inside the 1-typo
    // bucket the later rules tie (single term, same position, no exact word) → id order.
    assert.deepEqual(ids(await q('base', 'kitten ')), [1, 3, 4, 5, 6]);
  });

  test('no typo under 5 letters; prefix on the last word', async () => {
    // Properties: (1) "cat " (3 letters): no typo → cot does not match, and without prefix cats
    // does not either; (2) "cat" (prefix): cats matches with 0 typo but cat (exactMatch)
    // precedes it through exactness although its id is larger.
    assert.deepEqual(ids(await q('base', 'cat ')), [10]);
    assert.deepEqual(ids(await q('base', 'cat')), [10, 8]);
  });

  test('two typos from 9 letters; a first-letter typo counts as two', async () => {
    // "pineapple " (9 letters → 2 typos). Buckets: 0 typo {11}; 1 typo {13 transposition,
    // 14 deletion}; 2 typos {12 first letter, 15 two substitutions}. 16 (first letter + one more
    // = 3) and 17 (3 substitutions) do not match.
    const res = await q('base', 'pineapple ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [11, 13, 14, 12, 15]);
    // typo details: maxTypoCount = 2 (the term allows 2), typoCount per bucket, score = (3 - n)/3
    assert.deepEqual(hitById(res, 11)._rankingScoreDetails?.typo, { order: 0, typoCount: 0, maxTypoCount: 2, score: 1 });
    assert.deepEqual(hitById(res, 13)._rankingScoreDetails?.typo, { order: 0, typoCount: 1, maxTypoCount: 2, score: 2 / 3 });
    assert.deepEqual(hitById(res, 12)._rankingScoreDetails?.typo, { order: 0, typoCount: 2, maxTypoCount: 2, score: 1 / 3 });
  });

  test('a typo on a prefix term is measured on a prefix', async () => {
    // "physics" (7 letters, 1 typo, prefix). Properties: (1) physics exact (0 typo) first;
    // (2) physicist and physician start with "physici", 1 substitution away from "physics" →
    // 1 typo each (upstream words_ranking_rules_order.rs: "physics" finds "physician").
    assert.deepEqual(ids(await q('base', 'physics')), [20, 18, 19]);
    assert.deepEqual(ids(await q('base', 'physics ')), [20]);
  });
});

describe('typo tolerance settings', () => {
  test('minWordSizeForTypos', async () => {
    // oneTypo 3, twoTypos 5. Properties: (1) "cat " (3 letters) now allows 1 typo: cot matches
    // (cats = insertion matches too); (2) "kitten " (6 letters) allows 2 typos: sitten (first
    // letter) and kxttxn join the 2-typo bucket.
    assert.deepEqual(ids(await q('sizes', 'cat ')), [10, 8, 9]);
    assert.deepEqual(ids(await q('sizes', 'kitten ')), [1, 3, 4, 5, 6, 2, 7]);
  });

  test('enabled: false disables typos but not prefix search', async () => {
    // Properties: no 1- or 2-typo derivation at all; prefix completions remain (settings.md
    // §6.11).
    assert.deepEqual(ids(await q('disabled', 'kitten ')), [1]);
    assert.deepEqual(ids(await q('disabled', 'pineapple ')), [11]);
    assert.deepEqual(ids(await q('disabled', 'cat')), [10, 8]);
  });

  test('disableOnWords: normalized words lose typos, keep prefix', async () => {
    // "Kitten" is stored normalized ("kitten"). Properties: (1) "kitten " → only the exact word;
    // (2) "kitten" as a prefix still finds kittens; (3) other words keep their typos.
    assert.deepEqual(ids(await q('onWords', 'kitten ')), [1]);
    assert.deepEqual(ids(await q('onWords', 'kitten')), [1, 3]);
    assert.deepEqual(ids(await q('onWords', 'pineapple ')), [11, 13, 14, 12, 15]);
  });

  test('disableOnNumbers: numeric words only match exactly', async () => {
    // "12345 " (5 characters → 1 typo by default): 12355 is one substitution away.
    assert.deepEqual(ids(await q('base', '12345 ')), [21, 22]);
    assert.deepEqual(ids(await q('onNumbers', '12345 ')), [21]);
    assert.deepEqual(ids(await q('onNumbers', 'kitten ')), [1, 3, 4, 5, 6]);
  });

  test('disableOnAttributes: exact attributes only match exact words', async () => {
    // Properties (upstream typo.rs test_typo_exact_attribute): (1) a typo never reaches a word of
    // an exact attribute: "kitten " finds 1 (exact, title) and 3 (typo in the tolerant body), not
    // 2 (typo in the exact title); (2) an exact query word still matches the exact attribute;
    // (3) a prefix still reaches the exact attribute (upstream typo.rs test_prefix_search_on_
    // exact_attribute_*, issue meilisearch#6403; relevancy.md §1 says exact attributes match
    // "never as a typo/prefix derivation": milli's test is followed here).
    const uid = await makeIndex(t, 'typo_attrs', {
      settings: { searchableAttributes: ['title', 'body'], typoTolerance: { disableOnAttributes: ['title'] } },
      documents: [
        { id: 1, title: 'kitten', body: 'dog' },
        { id: 2, title: 'kittxn', body: 'dog' },
        { id: 3, title: 'dog', body: 'kittxn' },
        { id: 4, title: 'kittenish', body: 'dog' },
      ],
    });
    assert.deepEqual(ids(await q(uid, 'kitten ')), [1, 3]);
    assert.deepEqual(ids(await q(uid, 'kittxn ')), [2, 3]);
    // "kitte" (prefix): kitten and kittenish (title, 0 typo) first, then 3 (kittxn in the body,
    // 1 typo on the prefix); 2 (kittxn in the exact title) is still out.
    assert.deepEqual(ids(await q(uid, 'kitte')), [1, 4, 3]);
  });
});

describe('typo rule buckets', () => {
  let uid: string;
  let afterWords: string;
  before(async () => {
    // Upstream typo.rs test_typo_bucketing (documents 14..20 there).
    const documents = [
      { id: 1, text: 'network interconnection sunflower' },
      { id: 2, text: 'network interconnection sun flower' },
      { id: 3, text: 'network interconnection sunflowering' },
      { id: 4, text: 'network interconnection sunflowar' },
      { id: 5, text: 'network interconnections sunflawer' },
      { id: 6, text: 'netwolk interconections sunflawar' },
      { id: 7, text: 'network interconnection sun flowering' },
    ];
    [uid, afterWords] = await Promise.all([
      makeIndex(t, 'typo_buckets', { settings: { searchableAttributes: ['text'], rankingRules: ['typo'] }, documents }),
      makeIndex(t, 'typo_after_words', { settings: { searchableAttributes: ['text'], rankingRules: ['words', 'typo'] }, documents }),
    ]);
  });

  test('prefix costs 0, split words 1, each typo 1', async () => {
    // "network interconnection sunflower" (all). Allowed typos: network (7) 1,
    // interconnection (15) 2, sunflower (9, prefix) 2 → maxTypoCount 5 (max_rank 6); no n-gram
    // path costs more ("networkinterconnection": 2 + 1 = 3 = 1 + 2; the 3-gram: 3 + 0).
    //   1 sunflower                        0
    //   3 sunflowering (prefix)            0
    //   2 "sun flower" (split word)        1
    //   4 sunflowar                        1
    //   5 interconnections + sunflawer     1 + 1 = 2
    //   6 netwolk (r→l) + interconections (one n missing, one s added) + sunflawar
    //     = 1 + 2 + 2 = 5
    //   7 "sun flowering" matches no derivation of sunflower → not a candidate
    const res = await q(uid, 'network interconnection sunflower', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [1, 3, 2, 4, 5, 6]);
    assert.deepEqual(hitById(res, 1)._rankingScoreDetails, { typo: { order: 0, typoCount: 0, maxTypoCount: 5, score: 1 } });
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails, { typo: { order: 0, typoCount: 1, maxTypoCount: 5, score: 5 / 6 } });
    assert.deepEqual(hitById(res, 6)._rankingScoreDetails, { typo: { order: 0, typoCount: 5, maxTypoCount: 5, score: 1 / 6 } });
  });

  test('n-grams: base cost equal to their length', async () => {
    // "network interconnection sun flower" (all): sun + flower (prefix) as words cost 0;
    // the 2-gram "sunflower" (prefix) costs its length 2, plus its own typos (9 letters → 2 − 1
    // = 1 typo allowed). Upstream typo.rs: [17, 19, 16, 18, 20, 15].
    //   2 "sun flower" 0 | 7 "sun flowering" 0 | 1 sunflower 2 | 3 sunflowering 2
    //   4 sunflowar 2+1 = 3 | 5 interconnections (1) + sunflawer (2+1) = 4
    //   6 excluded: sunflawar is 2 typos from the 2-gram, which allows 1
    assert.deepEqual(ids(await q(uid, 'network interconnection sun flower')), [2, 7, 1, 3, 4, 5]);
  });

  test('maxTypoCount: split-word cost for short words, n-gram paths', async () => {
    // (1) milli gives a word allowed 0 typo a max typo cost of 1 anyway: it can still match as
    // a split word at cost 1 (query_term/mod.rs max_typo_cost; the upstream scores of meilisearch
    // tests/search/mod.rs test_score only come out with it). relevancy.md §5.2 says "sum of
    // allowed typos" (= 1 here): milli is followed.
    // (2) the max is taken over the query graph the rule receives. As the first rule (typo alone,
    // matchingStrategy all) that is the full graph, n-gram nodes included even when they match
    // nothing: "sun network " → sun 1 + network 1 = 2, but the 2-gram "sunnetwork" costs its
    // length 2 + 1 typo (10 letters → 2 − 1) = 3 → maxTypoCount 3.
    // (3) after the words rule, the graph only keeps the paths that produced the bucket (milli
    // graph_based_ranking_rule.rs: next query graph built from the good paths), so the empty
    // 2-gram is gone: maxTypoCount 2 (this is why "train dragon" reports 2, relevancy.md §8).
    const first = await q(uid, 'sun network ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(first), [2, 7]);
    assert.deepEqual(hitById(first, 2)._rankingScoreDetails, { typo: { order: 0, typoCount: 0, maxTypoCount: 3, score: 1 } });
    const after = await q(afterWords, 'sun network ', { showRankingScoreDetails: true, matchingStrategy: 'last' });
    assert.deepEqual(ids(after), [2, 7]);
    assert.deepEqual(hitById(after, 2)._rankingScoreDetails, {
      words: { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 },
      typo: { order: 1, typoCount: 0, maxTypoCount: 2, score: 1 },
    });
  });
});

describe('prefixSearch setting', () => {
  test('disabled: the last word is a plain word', async () => {
    // settings.md §6.18 (upstream: with disabled, "so" matches "Soup of day so" but not "Soup").
    const documents = [
      { id: 1, text: 'soup of the day' },
      { id: 2, text: 'so be it' },
    ];
    const [on, off] = await Promise.all([
      makeIndex(t, 'prefix_on', { documents }),
      makeIndex(t, 'prefix_off', { settings: { prefixSearch: 'disabled' }, documents }),
    ]);
    // default: "so" is a prefix → soup matches; 2 first by exactness (exact word "so",
    // matchesStart) although both have 0 typo and the word at position 0.
    assert.deepEqual(ids(await q(on, 'so')), [2, 1]);
    assert.deepEqual(ids(await q(off, 'so')), [2]);
    assert.deepEqual(ids(await q(off, 'sou')), []);
  });
});
