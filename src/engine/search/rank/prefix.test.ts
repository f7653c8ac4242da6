// Prefix postings (index/prefix-keys.ts): a prefix term of at most 3 characters reads its own
// postings instead of its completions. Properties checked:
// 1. with fewer than 1000 completions, every search (ids, order, rule scores) is the same with
//    prefix postings and without them (completions read one by one), over random documents and
//    queries ending in prefixes of 1–4 characters, with several fields, typos and proximity
// 2. past 1000 completions, the prefix reaches the documents of every completion (Meilisearch's
//    prefix database does), where reading completions stops at the first 1000 in key order
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from '../../random.fixtures.ts';
import { testIndex } from './test-index.ts';

const SYLLABLES = ['ba', 'be', 'bo', 'ca', 'ce', 'da', 'de', 'di', 'ka', 'ke', 'la', 'le', 'ma', 'mo', 'na', 'ra', 're', 'sa', 'ta', 'to'];

test('short prefixes answer the same from their own postings as from their completions', async () => {
  const rand = rng(42);
  const word = () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
  const docs = Array.from({ length: 160 }, (_, id) => ({
    id,
    title: Array.from({ length: 1 + Math.floor(rand() * 5) }, word).join(' '),
    body: Array.from({ length: 5 + Math.floor(rand() * 25) }, word).join(rand() < 0.3 ? '. ' : ' '),
  }));
  const withPrefixes = testIndex(docs, { searchable: ['title', 'body'] });
  const without = testIndex(docs, { searchable: ['title', 'body'], prefixLength: 0 });
  try {
    assert.equal(withPrefixes.index.prefixPostings(), 3);
    assert.equal(without.index.prefixPostings(), 0);
    let withHits = 0;
    for (let k = 0; k < 150; k++) {
      const full = word() + word();
      const prefix = full.slice(0, 1 + (k % 4));
      const q = k % 3 === 0 ? prefix : `${word()} ${prefix}`;
      const a = withPrefixes.search(q, { limit: 30 });
      const b = without.search(q, { limit: 30 });
      assert.deepEqual(a.docs, b.docs, `q ${q}`);
      assert.deepEqual(a.scores, b.scores, `q ${q}: scores`);
      assert.equal(a.candidates, b.candidates, `q ${q}: candidates`);
      if (a.docs.length > 1) withHits++;
    }
    assert.ok(withHits > 100, `${withHits} of 150 queries found several documents`);
  } finally {
    await withPrefixes.close();
    await without.close();
  }
});

test('a prefix with more than 1000 completions reaches all of them', async () => {
  // 1,200 words starting with "zq", one per document
  const docs = Array.from({ length: 1200 }, (_, id) => ({ id, title: `zq${String(id).padStart(4, '0')}` }));
  const withPrefixes = testIndex(docs);
  const without = testIndex(docs, { prefixLength: 0 });
  try {
    const a = withPrefixes.search('zq', { limit: 0 });
    const b = without.search('zq', { limit: 0 });
    assert.equal(a.candidates, 1200);
    assert.equal(b.candidates, 1000);
  } finally {
    await withPrefixes.close();
    await without.close();
  }
});
