// Query syntax and query-side settings: synonyms, phrases, negative terms, stop words
// (search.md §8, relevancy.md §2, settings.md §6.6, §6.8). Default ranking rules unless said
// otherwise; expected orders are derived rule by rule in the comments.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex } from './relevancy-helpers.ts';

let t: TestServer;
let synonymsUid: string;
let phrasesUid: string;
let stopUid: string;

before(async () => {
  t = await startTestServer();
  [synonymsUid, phrasesUid, stopUid] = await Promise.all([
    makeIndex(t, 'synonyms', {
      settings: {
        searchableAttributes: ['title'],
        synonyms: {
          nyc: ['new york', 'big apple'],
          manhattan: ['nyc'],
          'big apple': ['nyc'],
          subway: ['metro'],
          metro: ['subway'],
        },
      },
      documents: [
        { id: 1, title: 'nyc subway map' },
        { id: 2, title: 'new york subway map' },
        { id: 3, title: 'big apple subway' },
        { id: 4, title: 'manhattan subway' },
        { id: 5, title: 'york new subway' },
        { id: 6, title: 'paris metro map' },
      ],
    }),
    makeIndex(t, 'phrases', {
      settings: { searchableAttributes: ['text'] },
      documents: [
        { id: 1, text: 'train your dragon' },
        { id: 2, text: 'your dragon train' },
        { id: 3, text: 'train the dragon' },
        { id: 4, text: 'how to train your dragon: the hidden world' },
        { id: 5, text: 'train, your dragon' },
        { id: 6, text: 'dragons den' },
      ],
    }),
    makeIndex(t, 'stopwords', {
      settings: { searchableAttributes: ['title'], stopWords: ['the', 'to', 'of'] },
      documents: [
        { id: 1, title: 'how to train your dragon the hidden world' },
        { id: 2, title: 'the hidden world' },
        { id: 3, title: 'train of thought' },
        { id: 4, title: 'to the moon' },
      ],
    }),
  ]);
});
after(async () => {
  await t?.close();
});

async function search(uid: string, q: string, params: Record<string, unknown> = {}) {
  return t.client.index(uid).search(q, { attributesToRetrieve: ['id'], limit: 50, ...params });
}

describe('synonyms', () => {
  test('one-way, multi-word synonyms match as phrases', async () => {
    // "nyc ": nyc (1), "new york" as a phrase (2; 5 has the words reversed), "big apple" (3).
    // typo 0 for all (synonyms cost nothing), wordPosition 0 for all; exactness: 1 starts with
    // the exact word nyc (matchesStart), 2 and 3 have no exact word → [1, 2, 3].
    assert.deepEqual(ids(await search(synonymsUid, 'nyc ')), [1, 2, 3]);
    // manhattan → nyc only: 4 (matchesStart) then 1; synonyms are not transitive (no 2, 3)
    assert.deepEqual(ids(await search(synonymsUid, 'manhattan ')), [4, 1]);
    // one-way: "new york" is not a key → no nyc document; 2 (adjacent, proximity 0) before
    // 5 (reversed adjacency, proximity cost 1)
    assert.deepEqual(ids(await search(synonymsUid, 'new york ')), [2, 5]);
  });

  test('a multi-word key applies to the 2-gram of the query', async () => {
    // "big apple" with all: 3 (the words) and 1 (nyc, synonym of the 2-gram "big apple").
    // The synonym path goes through the 2-gram, whose typo cost is its length (2): 3 (0) before
    // 1 (2). Upstream typo.rs test_typo_synonyms notes this ("multi-word synonyms end up having
    // a typo cost").
    assert.deepEqual(ids(await search(synonymsUid, 'big apple', { matchingStrategy: 'all' })), [3, 1]);
  });

  test('multi-way synonyms need both directions', async () => {
    // subway ↔ metro. "metro ": every document. wordPosition (query position 0): metro@1 (6),
    // subway@1 (1, 4) → cost 1; subway@2 (2, 3, 5) → cost 2. Exactness inside {1, 4, 6}: only 6
    // holds the exact word metro → 6, 1, 4.
    assert.deepEqual(ids(await search(synonymsUid, 'metro ')), [6, 1, 4, 2, 3, 5]);
    // "subway ": same buckets; 1 and 4 hold the exact word → 1, 4, 6
    assert.deepEqual(ids(await search(synonymsUid, 'subway ')), [1, 4, 6, 2, 3, 5]);
  });
});

describe('phrases and negative terms', () => {
  test('phrases: consecutive words, no typo, no prefix, unclosed quote', async () => {
    // `"train your dragon"`: 1 and 4 hold the three words consecutively; 5 has a hard separator
    // (", ") between train and your (+8 positions). 1 before 4 (wordPosition, exactMatch).
    assert.deepEqual(ids(await search(phrasesUid, '"train your dragon"')), [1, 4]);
    assert.deepEqual(ids(await search(phrasesUid, '"train your dragon')), [1, 4]);
    assert.deepEqual(ids(await search(phrasesUid, '"trian your dragon"')), []);
    assert.deepEqual(ids(await search(phrasesUid, '"train your drag"')), []);
  });

  test('negative words and phrases exclude exact matches', async () => {
    // A negative word still takes a query position (milli parse_query.rs), so "dragon" is
    // the second query word in "-your dragon".
    // "-your dragon": documents with dragon* but without the exact word your → 3, 6.
    // wordPosition: dragon@2 (3) and dragons@0 (6) are both 1 away from query position 1;
    // exactness: 3 holds the exact word dragon, 6 only a prefix completion → [3, 6].
    assert.deepEqual(ids(await search(phrasesUid, '-your dragon')), [3, 6]);
    // `-"train your" dragon`: 1 and 4 hold the phrase; 5 does not (hard separator).
    // dragon is at query position 2: 3 dragon@2 → 0; 2 dragon@1 → 1; 6 dragons@0 → 2 (d=2);
    // 5 dragon@9 → 3 (d=7).
    assert.deepEqual(ids(await search(phrasesUid, '-"train your" dragon')), [3, 2, 6, 5]);
    // "- dragon": a dash followed by a space is not an operator → plain dragon* at position 0:
    // 6@0 → 0 | 2@1 → 1 | 1, 3, 4 @2/@2/@4 → 2 | 5@9 → 4 (d=9: 8–11).
    assert.deepEqual(ids(await search(phrasesUid, '- dragon')), [6, 2, 1, 3, 4, 5]);
    // "-dragon dragon": derivations of dragon except the word itself → dragons (6)
    assert.deepEqual(ids(await search(phrasesUid, '-dragon dragon')), [6]);
    // only a negative word: placeholder search minus the excluded documents
    assert.deepEqual(ids(await search(phrasesUid, '-dragon')), [6]);
  });
});

describe('separator tokens', () => {
  test('a custom separator splits words and is soft', async () => {
    // settings.md §6.7: separators are matched leftmost-longest, so with "&sep" a separator,
    // "mac&sepcheese" is "mac" + "cheese" (by default "&" splits it into "mac" + "sepcheese").
    // A custom separator is soft (+1): mac and cheese stay adjacent → proximity 1.0.
    const documents = [{ id: 1, text: 'mac&sepcheese' }];
    const [plain, custom] = await Promise.all([
      makeIndex(t, 'sep_default', { settings: { searchableAttributes: ['text'] }, documents }),
      makeIndex(t, 'sep_custom', { settings: { searchableAttributes: ['text'], separatorTokens: ['&sep'] }, documents }),
    ]);
    assert.deepEqual(ids(await search(plain, 'cheese ')), []);
    assert.deepEqual(ids(await search(custom, 'cheese ')), [1]);
    const res = await search(custom, 'mac cheese ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [1]);
    assert.deepEqual(res.hits[0]!._rankingScoreDetails?.proximity, { order: 2, score: 1 });
  });
});

describe('stop words', () => {
  test('a query made of stop words is a placeholder search, except a prefix last word', async () => {
    // search.md §8 (upstream tests/search/mod.rs search_with_stop_word): "to the" keeps "the" as a
    // prefix term, which matches no indexed word (the stop word itself is not indexed);
    // "to the " and "the " have no term left → every document.
    assert.deepEqual(ids(await search(stopUid, 'the ')), [1, 2, 3, 4]);
    assert.deepEqual(ids(await search(stopUid, 'to the')), []);
    assert.deepEqual(ids(await search(stopUid, 'to the ')), [1, 2, 3, 4]);
    // a phrase made only of stop words is ignored (milli stop_words.rs)
    assert.deepEqual(ids(await search(stopUid, '"to"')), [1, 2, 3, 4]);
  });

  test('stop words keep their positions', async () => {
    // "hidden world": 2 "the hidden world" → hidden@1 (d 1 → 1), world@2 (d 1 → 1): cost 2,
    // wordPosition 19/21; 1 → hidden@6, world@7 (d 6 → 3 each): cost 6, 15/21.
    // (Without the stop word's position, 2 would score 21/21.)
    const res = await search(stopUid, 'hidden world', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [2, 1]);
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails?.wordPosition, { order: 4, score: 19 / 21 });
    assert.deepEqual(hitById(res, 1)._rankingScoreDetails?.wordPosition, { order: 4, score: 15 / 21 });
    // "train thought ": train@0, thought@2 ("of" between) → distance 2 → proximity cost 1 →
    // 3/4 (max 3·1 + 1 = 4). Document 1 (train only) follows in the next words bucket.
    const prox = await search(stopUid, 'train thought ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(prox), [3, 1]);
    assert.deepEqual(hitById(prox, 3)._rankingScoreDetails?.proximity, { order: 2, score: 0.75 });
  });

  test('a stop word inside a phrase is a one-position wildcard', async () => {
    // relevancy.md §2.2: phrase words train _ thought; any stop word fills the gap.
    assert.deepEqual(ids(await search(stopUid, '"train of thought"')), [3]);
    assert.deepEqual(ids(await search(stopUid, '"train the thought"')), [3]);
    assert.deepEqual(ids(await search(stopUid, '"train thought"')), []);
  });
});
