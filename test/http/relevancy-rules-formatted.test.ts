// `_formatted` and `_matchesPosition` for typo, prefix and phrase matches (search.md §7.3–7.6).
// Facts from milli crates/milli/src/search/new/matches/matching_words.rs (a prefix match wraps
// only as many characters as the typed word has; any other match wraps the whole token),
// matches/mod_test.rs (highlight_unicode: "westfali" → "<em>Westfáli</em>a") and
// matches/adjust_indices.rs (crop window grown left then right around the match).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { ids, makeIndex } from './relevancy-helpers.ts';

let t: TestServer;
let uid: string;
before(async () => {
  t = await startTestServer();
  uid = await makeIndex(t, 'formatted', {
    settings: { searchableAttributes: ['title', 'overview'] },
    documents: [
      { id: 1, title: 'The Hobbit', overview: 'A hobbit goes on an unexpected journey with thirteen dwarves' },
      { id: 2, title: 'Batman Returns', overview: 'The dark knight returns' },
      { id: 3, title: 'Westfália', overview: '' },
      { id: 4, title: 'How to Train Your Dragon', overview: '' },
    ],
  });
});
after(async () => {
  await t?.close();
});

async function search(q: string, params: Record<string, unknown>) {
  return t.client.index(uid).search(q, { attributesToRetrieve: ['id'], ...params });
}

describe('highlight and matches position', () => {
  test('prefix match: only the typed characters are wrapped', async () => {
    // "hob" completes to hobbit; 3 characters are highlighted, original casing kept.
    const res = await search('hob', { attributesToHighlight: ['title', 'overview'], showMatchesPosition: true });
    assert.deepEqual(ids(res), [1]);
    assert.deepEqual(res.hits[0], {
      id: 1,
      _formatted: {
        id: '1',
        title: 'The <em>Hob</em>bit',
        overview: 'A <em>hob</em>bit goes on an unexpected journey with thirteen dwarves',
      },
      // byte offsets; keys sorted
      _matchesPosition: { overview: [{ start: 2, length: 3 }], title: [{ start: 4, length: 3 }] },
    });
  });

  test('prefix match on accented text counts characters, positions count bytes', async () => {
    // "westfali" (8 characters) on "Westfália": the normalized token "westfalia" starts with it;
    // the first 8 characters "Westfáli" are 9 bytes (á is 2 bytes in UTF-8).
    const res = await search('westfali', { attributesToHighlight: ['title'], showMatchesPosition: true });
    assert.deepEqual(ids(res), [3]);
    assert.deepEqual(res.hits[0]!._formatted, { id: '3', title: '<em>Westfáli</em>a' });
    assert.deepEqual(res.hits[0]!._matchesPosition, { title: [{ start: 0, length: 9 }] });
  });

  test('typo match: the whole token is wrapped', async () => {
    // "badman " (no prefix): batman is a 1-typo derivation → the whole word
    const res = await search('badman ', { attributesToHighlight: ['title'], showMatchesPosition: true });
    assert.deepEqual(ids(res), [2]);
    assert.deepEqual(res.hits[0]!._formatted, { id: '2', title: '<em>Batman</em> Returns' });
    assert.deepEqual(res.hits[0]!._matchesPosition, { title: [{ start: 0, length: 6 }] });
  });

  test('typo match inside a crop window', async () => {
    // "unexpectd " (9 letters → 2 typos; unexpected is 1 away). cropLength 3 around the match:
    // one word on the left, then one on the right; markers on both cut sides.
    const res = await search('unexpectd ', { attributesToHighlight: ['overview'], attributesToCrop: ['overview'], cropLength: 3 });
    assert.deepEqual(ids(res), [1]);
    assert.deepEqual(res.hits[0]!._formatted, { id: '1', overview: '…an <em>unexpected</em> journey…' });
  });

  test('phrase match: one span', async () => {
    // Properties: the consecutive tokens of a phrase are wrapped as one span, separators
    // included, original casing kept (search.md §7.4).
    const res = await search('"train your dragon"', { attributesToHighlight: ['title'] });
    assert.deepEqual(ids(res), [4]);
    assert.deepEqual(res.hits[0]!._formatted, { id: '4', title: 'How to <em>Train Your Dragon</em>' });
  });
});
