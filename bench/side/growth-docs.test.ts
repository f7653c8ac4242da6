// The growth corpus (growth-docs.ts).
//  1. Document i is the same whatever the size and however many documents were made before it.
//  2. Documents have the announced shape: 3-6 title words, 20-40 body words, one of 50 categories,
//     a price in 1..2000.
//  3. The queries are reproducible from the seed, a quarter of each kind.
//  4. Payloads hold the documents 0..n-1, cut every `perPayload`.
//  5. Sizes parse as written ("10k", "1m").
import assert from 'node:assert/strict';
import test from 'node:test';
import { GrowthCorpus } from './growth-docs.ts';
import { parseSize, sizeLabel } from './workloads/growth.ts';

const WORDS = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}${'abcdefgh'.slice(0, i % 8)}`);

test('document i does not depend on the size or on the documents before it', () => {
  const a = new GrowthCorpus(WORDS, 7);
  const b = new GrowthCorpus(WORDS, 7);
  const late = b.doc(1234);
  for (let i = 0; i < 1234; i++) a.doc(i);
  assert.deepEqual(a.doc(1234), late);
  assert.notDeepEqual(new GrowthCorpus(WORDS, 8).doc(1234), late);
});

test('documents have the announced shape', () => {
  const c = new GrowthCorpus(WORDS, 7);
  assert.equal(new Set(c.categories).size, 50);
  for (let i = 0; i < 500; i++) {
    const d = c.doc(i);
    assert.equal(d.id, i + 1);
    const t = d.title.split(' ').length;
    const b = d.body.split(' ').length;
    assert.ok(t >= 3 && t <= 6, `title of ${t} words`);
    assert.ok(b >= 20 && b <= 40, `body of ${b} words`);
    assert.ok(c.categories.includes(d.category));
    assert.ok(d.price >= 1 && d.price <= 2000);
  }
});

test('queries are reproducible, a quarter of each kind', () => {
  const c = new GrowthCorpus(WORDS, 7);
  const q = c.queries(10_000, 300, 1);
  assert.deepEqual(q, c.queries(10_000, 300, 1));
  assert.equal(q.length, 300);
  assert.equal(q.filter((x) => x.filter !== undefined).length, 75);
  assert.equal(q.filter((x) => x.filter === undefined && String(x.q).includes(' ')).length, 75);
});

test('payloads hold documents 0..n-1', () => {
  const c = new GrowthCorpus(WORDS, 7);
  const p = c.payloads(25, 10);
  assert.deepEqual(p.map((b) => b.toString('utf8').trimEnd().split('\n').length), [10, 10, 5]);
  assert.deepEqual(JSON.parse(p[2]!.toString('utf8').split('\n')[4]!), c.doc(24));
});

test('sizes parse and print', () => {
  assert.deepEqual(['10k', '100K', '1m', '2500', '1.5k'].map(parseSize), [10_000, 100_000, 1_000_000, 2500, 1500]);
  assert.deepEqual(['', 'ten', '0', '1.5'].map(parseSize), [null, null, null, null]);
  assert.deepEqual([10_000, 1_000_000, 2500].map(sizeLabel), ['10k', '1m', '2500']);
});
