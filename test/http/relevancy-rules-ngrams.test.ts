// N-grams and split words (relevancy.md §2.2 "split words", §2.3). Same structure as milli's
// crates/milli/src/search/new/tests/ngram_split_words.rs, with another vocabulary
// ("moon light" instead of "sun flower"); each expectation is derived below from the spec.
// Every search uses matchingStrategy all and rankingRules ["words"] (a words rule under `all`
// sorts nothing), so hits come in internal id order and only *matching* is under test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { ids, makeIndex } from './relevancy-helpers.ts';

const DOCS = [
  { id: 1, text: 'the moon lights are bright' },
  { id: 2, text: 'the moon light is pale' },
  { id: 3, text: 'the moonlights are bright' },
  { id: 4, text: 'the moonlight is pale' },
  { id: 5, text: 'the moonlihgt is pale' }, // moonlight with g/h swapped (1 typo)
  { id: 6, text: 'moonlighting is a job' },
  { id: 7, text: 'xy z' },
];

let t: TestServer;
let typos: string; // default typo tolerance
let noTypos: string; // typoTolerance.enabled = false
before(async () => {
  t = await startTestServer();
  const settings = { searchableAttributes: ['text'], rankingRules: ['words'] };
  [typos, noTypos] = await Promise.all([
    makeIndex(t, 'ngram', { settings, documents: DOCS }),
    makeIndex(t, 'ngram_notypo', { settings: { ...settings, typoTolerance: { enabled: false } }, documents: DOCS }),
  ]);
});
after(async () => {
  await t?.close();
});

async function matching(uid: string, q: string): Promise<unknown[]> {
  return ids(await t.client.index(uid).search(q, { matchingStrategy: 'all', attributesToRetrieve: ['id'], limit: 50 }));
}

describe('n-grams', () => {
  test('two words also match their concatenation (2-gram), prefix included', async () => {
    // "moon light" (typos off): moon + light* → 1 (lights), 2; 2-gram "moonlight" is a prefix
    // term because its last word is → 3 moonlights, 4 moonlight, 6 moonlighting; 5 needs a typo.
    assert.deepEqual(await matching(noTypos, 'moon light'), [1, 2, 3, 4, 6]);
    // trailing space: no prefix anywhere → "moon" "light" (2) or "moonlight" (4) only
    assert.deepEqual(await matching(noTypos, 'moon light '), [2, 4]);
    // "moon lig": lig* → 1, 2; "moonlig"* → 3, 4, 6 (5 is "moonlih...")
    assert.deepEqual(await matching(noTypos, 'moon lig'), [1, 2, 3, 4, 6]);
  });

  test('a 2-gram allows typos(concatenation) − 1', async () => {
    // "moon lihgt": lihgt (5 letters, 1 typo, prefix) → light, lights (transposition) → 1, 2;
    // the 2-gram "moonlihgt" (9 letters → 2 − 1 = 1 typo, prefix) → 5 exactly, 3, 4, 6 with
    // one transposition on the prefix "moonlight".
    assert.deepEqual(await matching(typos, 'moon lihgt'), [1, 2, 3, 4, 5, 6]);
  });

  test('3-grams: prefix allowed, no typo', async () => {
    // "mo onl i" (typos off): only the 3-gram "moonli"* exists → 3, 4, 5, 6.
    assert.deepEqual(await matching(noTypos, 'mo onl i'), [3, 4, 5, 6]);
    // "moonl ih gt": the 3-gram "moonlihgt" allows 2 − 2 = 0 typo → only 5.
    assert.deepEqual(await matching(typos, 'moonl ih gt'), [5]);
  });

  test('n-grams can themselves be split into two words', async () => {
    // "moonl ight" → 2-gram "moonlight"* (1 typo): 3, 4, 5 (typo), 6, and its split
    // "moon light" (2). 1 has moon (a 1-typo derivation of "moonl") but nothing for "ight".
    assert.deepEqual(await matching(typos, 'moonl ight'), [2, 3, 4, 5, 6]);
    // "moonl ig ht" → 3-gram "moonlight"* (0 typo): 3, 4, 6, and its split "moon light" (2).
    // (milli ngram_split_words.rs test_3gram_no_split_words: its snapshot keeps "the sun
    // flower is tall" although the comment says otherwise; the snapshot is followed.)
    assert.deepEqual(await matching(typos, 'moonl ig ht'), [2, 3, 4, 6]);
  });

  test('no n-gram across a phrase', async () => {
    // A phrase is never concatenated with a neighbour: `"moon" light` = moon + light*;
    // `"moon" "light"` = two exact phrases.
    assert.deepEqual(await matching(typos, '"moon" light'), [1, 2]);
    assert.deepEqual(await matching(typos, '"moon" "light"'), [2]);
  });
});

describe('split words', () => {
  test('a word matches its split into two adjacent words', async () => {
    // "moonlight " (9 letters → 2 typos): 4 exact, 2 "moon light" (split: the pair moon-light
    // at distance 1), 3 moonlights and 5 moonlihgt (1 typo). 1 ("moon lights") is not the
    // split; 6 moonlighting is 3 typos away.
    assert.deepEqual(await matching(typos, 'moonlight '), [2, 3, 4, 5]);
  });

  test('split words survive disabled typo tolerance and short words', async () => {
    // relevancy.md §2.2 and milli test_disable_split_words (whose snapshot keeps the split
    // document although the module header says the opposite).
    assert.deepEqual(await matching(noTypos, 'moonlight '), [2, 4]);
    // even a 3-letter word splits (test_short_split_words)
    assert.deepEqual(await matching(typos, 'xyz'), [7]);
    assert.deepEqual(await matching(noTypos, 'xyz'), [7]);
  });

  test('split words are not disabled by disableOnWords / disableOnAttributes', async () => {
    // milli test_split_words_never_disabled. With moonlight exact and the attribute exact,
    // 5 (typo) is out but 2 (split) stays.
    const uid = await makeIndex(t, 'ngram_exact', {
      settings: {
        searchableAttributes: ['text'],
        rankingRules: ['words'],
        typoTolerance: { disableOnWords: ['moonlight'], disableOnAttributes: ['text'] },
      },
      documents: DOCS,
    });
    assert.deepEqual(await matching(uid, 'the moonlight is pale'), [2, 4]);
  });
});
