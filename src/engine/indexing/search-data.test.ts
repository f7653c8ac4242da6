// Search data of one document (relevancy.md §1). Properties checked:
// 1. positions: +1 after soft separators, +8 after hard ones, +8 between values of one field
// 2. stored positions are bucketed (16–23 → 24, ≥ 24 → next power of two)
// 3. pairs: ordered, same field, distance 1–3 only; stop words take a position but no pair
// 4. exact attributes and (with disableOnNumbers) numeric words go to the exact word set
// 5. word counts only for fields of at most 30 words; nested leaves are their own dotted field
// 6. numbers and booleans are tokenized from their text; non-searchable fields contribute nothing
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '../tokenizer/index.ts';
import { bucketPosition, extractSearchData, type SearchableFields } from './search-data.ts';

const all = (over: Partial<SearchableFields> = {}): SearchableFields => ({
  isSearchable: () => true,
  isExact: () => false,
  numbersExact: false,
  proximity: 'byWord',
  ...over,
});
const tok = new Tokenizer();
const positions = (data: ReturnType<typeof extractSearchData>, word: string) => [...(data.words.get(word)?.positions ?? [])].sort((a, b) => a - b);

test('positions follow separators and values', () => {
  const d = extractSearchData({ title: 'How to Train Your Dragon: The Hidden World' }, all(), tok);
  assert.deepEqual(positions(d, 'train'), [2]);
  assert.deepEqual(positions(d, 'dragon'), [4]);
  const hard = extractSearchData({ t: 'one. two' }, all(), tok);
  assert.deepEqual(positions(hard, 'two'), [8]);
  const values = extractSearchData({ tags: ['red fox', 'blue'] }, all(), tok);
  assert.deepEqual(positions(values, 'blue'), [9]);
  assert.equal(values.pairs.has('1\0red\0fox'), true);
  assert.equal([...values.pairs].some((p) => p.endsWith('\0blue')), false, 'no pair across values');
});

test('bucketed positions', () => {
  const cases: [number, number][] = [[0, 0], [15, 15], [16, 24], [23, 24], [24, 32], [33, 64], [1000, 1024]];
  for (const [p, b] of cases) assert.equal(bucketPosition(p), b, String(p));
  const words = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
  assert.deepEqual(positions(extractSearchData({ t: words }, all(), tok), 'w17'), [24]);
});

test('pairs are ordered, within distance 3, and skip stop words', () => {
  const d = extractSearchData({ t: 'a b c d e' }, all(), tok);
  assert.ok(d.pairs.has('1\0a\0b'));
  assert.ok(d.pairs.has('3\0a\0d'));
  assert.ok(!d.pairs.has('4\0a\0e'));
  assert.ok(!d.pairs.has('1\0b\0a'));
  const stop = extractSearchData({ t: 'lord of the rings' }, all(), new Tokenizer({ stopWords: new Set(['of', 'the']) }));
  assert.deepEqual(positions(stop, 'rings'), [3]);
  assert.equal(stop.words.has('of'), false);
  assert.ok(stop.pairs.has('3\0lord\0rings'));
  assert.equal(stop.wordCounts.get('t'), 4);
  const byAttribute = extractSearchData({ t: 'x y' }, all({ proximity: 'byAttribute' }), tok);
  assert.deepEqual([...byAttribute.pairs].sort(), ['1\0x\0y', '1\0y\0x']);
});

test('exact attributes and numbers', () => {
  const d = extractSearchData({ sku: 'AB 12', title: 'blue 42' }, all({ isExact: (p) => p === 'sku', numbersExact: true }), tok);
  assert.deepEqual([...d.exactWords.keys()].sort(), ['12', '42', 'ab']);
  assert.deepEqual([...d.words.keys()], ['blue']);
});

test('word counts, nested fields, scalars, searchable restriction', () => {
  const long = Array.from({ length: 31 }, (_, i) => `w${i}`).join(' ');
  const d = extractSearchData(
    { id: 7, ok: true, long, doggos: [{ name: 'bobby' }, { name: 'buddy' }], hidden: 'secret' },
    all({ isSearchable: (p) => p !== 'hidden' }),
    tok,
  );
  assert.equal(d.wordCounts.has('long'), false);
  assert.deepEqual([...d.words.get('bobby')!.fields], ['doggos.name']);
  assert.deepEqual(positions(d, 'buddy'), [8]);
  assert.ok(d.words.has('7') && d.words.has('true'));
  assert.equal(d.words.has('secret'), false);
});
