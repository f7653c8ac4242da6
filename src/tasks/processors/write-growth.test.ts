// The work of a batch per document does not grow with the index (decision 0006). Properties
// checked, on batches of equal size (Zipf-skewed words, two faceted fields) added to one index,
// with postings in chunks of 1,024 ids instead of 65,536 so that a few thousand documents span
// many chunks, through the instrumentation counters of the store:
// 1. the bytes the last batch writes into the search tables per document stay within 1.5× of
//    those of the second batch (the first to meet existing keys); whole postings rewritten by
//    every batch made them grow with the index (2× over these batches)
// 2. so do the values it puts there per document (the keys it touches)
// 3. the bytes it writes in all per document stay within 2× (the facet tables, not chunked, still
//    rewrite whole values: they are a small share)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Index } from '../../engine/index/index.ts';
import { batchHarness } from './batch-harness.test-support.ts';

const h = batchHarness('muninn-write-growth-');
const BATCHES = 6;
const PER_BATCH = 1500;

/** Documents of 3–6 title words and 20–40 body words drawn from a Zipf(1) law over 5,000 words. */
function zipfDocs(from: number, count: number, seed: number): Record<string, unknown>[] {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const vocabulary = 5000;
  const harmonic = Math.log(vocabulary) + 0.5772;
  const word = () => `w${Math.min(vocabulary, Math.max(1, Math.floor(Math.exp(rnd() * harmonic - 0.5772))))}`;
  const text = (lo: number, hi: number) => Array.from({ length: lo + Math.floor(rnd() * (hi - lo + 1)) }, word).join(' ');
  return Array.from({ length: count }, (_, i) => ({ id: from + i, title: text(3, 6), body: text(20, 40), category: `c${Math.floor(rnd() * 50)}`, price: Math.floor(rnd() * 10_000) }));
}

function searchWrites(index: Index): { puts: number; bytes: number } {
  const out = { puts: 0, bytes: 0 };
  for (const table of Object.values(index.search)) {
    const c = table.writeCounters();
    out.puts += c.puts;
    out.bytes += c.bytes;
  }
  return out;
}

test('a batch writes as much per document into a large index as into a small one', async () => {
  const name = 'growth';
  await h.run(name, [h.settings(name, { filterableAttributes: ['category', 'price'] })]);
  const index = h.indexOf(name);
  // no postings yet: the chunk width may still change
  index.env.write(() => index.setMain('postingsChunkBits', 10));
  const perDoc: { searchBytes: number; searchPuts: number; allBytes: number }[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const search0 = searchWrites(index);
    const all0 = index.env.writeCounters();
    const [done] = await h.run(name, [h.addition(name, zipfDocs(b * PER_BATCH, PER_BATCH, b + 1))]);
    assert.equal(done!.status, 'succeeded');
    const search1 = searchWrites(index);
    const all1 = index.env.writeCounters();
    perDoc.push({
      searchBytes: (search1.bytes - search0.bytes) / PER_BATCH,
      searchPuts: (search1.puts - search0.puts) / PER_BATCH,
      allBytes: (all1.bytes - all0.bytes) / PER_BATCH,
    });
  }
  assert.equal(index.usedIds().size, BATCHES * PER_BATCH);
  const second = perDoc[1]!;
  const last = perDoc[BATCHES - 1]!;
  const report = perDoc.map((p) => `${p.searchBytes.toFixed(0)} B/${p.searchPuts.toFixed(1)} puts`).join(', ');
  assert.ok(last.searchBytes <= 1.5 * second.searchBytes, `search bytes per document: ${report}`);
  assert.ok(last.searchPuts <= 1.5 * second.searchPuts, `search puts per document: ${report}`);
  assert.ok(last.allBytes <= 2 * second.allBytes, `bytes per document: ${perDoc.map((p) => p.allBytes.toFixed(0)).join(', ')}`);
});
