import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WordSet, compareUtf8, wordSetOf } from './index.ts';
import { utf8 } from './utf8.ts';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

function byteCompare(a: string, b: string): number {
  const x = utf8(a);
  const y = utf8(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

const UNICODE = ['café', 'cafe', 'cafés', 'naïve', 'straße', '日本', '日本語', '😀', '😀😀', 'a😀b', 'ｆｕｌｌ', '\u{10ffff}', '\uffff', 'z'];

test('empty set', () => {
  const s = WordSet.build([]);
  assert.equal(s.size, 0);
  assert.equal(s.has(''), false);
  assert.equal(s.has('a'), false);
  assert.deepEqual([...s.prefixed('')], []);
  assert.deepEqual([...s.fuzzy('', { maxTypos: 2, prefix: true })], []);
  assert.equal(WordSet.fromBytes(s.toBytes()).size, 0);
});

test('the empty word is a member like any other', () => {
  const s = WordSet.build(['', 'a', 'ab']);
  assert.equal(s.size, 3);
  assert.equal(s.has(''), true);
  assert.deepEqual([...s.prefixed('')], ['', 'a', 'ab']);
  assert.deepEqual([...s.prefixed('a')], ['a', 'ab']);
  assert.equal(WordSet.build(['a']).has(''), false);
  assert.deepEqual([...s.fuzzy('', { maxTypos: 0 })], [{ word: '', typos: 0 }]);
});

test('exact lookups and prefixes, ASCII', () => {
  const words = ['a', 'an', 'and', 'ant', 'anteater', 'antelope', 'b', 'be', 'zoo'];
  const s = WordSet.build(words);
  assert.equal(s.size, words.length);
  for (const w of words) assert.equal(s.has(w), true, w);
  for (const w of ['', 'ante', 'antelopes', 'bee', 'zo', 'A', 'z']) assert.equal(s.has(w), false, w);
  assert.deepEqual([...s.prefixed('an')], ['an', 'and', 'ant', 'anteater', 'antelope']);
  assert.deepEqual([...s.prefixed('an', 2)], ['an', 'and']);
  assert.deepEqual([...s.prefixed('ant')], ['ant', 'anteater', 'antelope']);
  assert.deepEqual([...s.prefixed('antelope')], ['antelope']);
  assert.deepEqual([...s.prefixed('antelopes')], []);
  assert.deepEqual([...s.prefixed('c')], []);
  assert.deepEqual([...s.prefixed('', 3)], ['a', 'an', 'and']);
  assert.deepEqual([...s.prefixed('a', 0)], []);
  assert.deepEqual([...s.prefixed('')], words);
});

test('non-ASCII and emoji: order, lookups, prefixes', () => {
  const words = [...UNICODE].sort(compareUtf8);
  const s = WordSet.build(words);
  assert.deepEqual([...s.prefixed('')], words);
  for (const w of words) assert.equal(s.has(w), true, w);
  for (const w of ['caf', 'cafè', '日', '😀😀😀', 'a😀', '😁', 'ｆｕｌ']) assert.equal(s.has(w), false, w);
  assert.deepEqual([...s.prefixed('caf')], ['cafe', 'café', 'cafés']);
  assert.deepEqual([...s.prefixed('café')], ['café', 'cafés']);
  assert.deepEqual([...s.prefixed('日')], ['日本', '日本語']);
  assert.deepEqual([...s.prefixed('😀')], ['😀', '😀😀']);
  assert.deepEqual([...s.prefixed('a😀')], ['a😀b']);
  // A one-character edit on an emoji (4 bytes) or a CJK character (3 bytes) is one typo.
  assert.deepEqual([...s.fuzzy('😁😀', { maxTypos: 1 })], [{ word: '😀', typos: 1 }, { word: '😀😀', typos: 1 }]);
  assert.deepEqual([...s.fuzzy('b😀a', { maxTypos: 2 })].map((x) => x.word), ['a😀b', '😀', '😀😀']);
  assert.deepEqual([...s.fuzzy('日本人', { maxTypos: 1 })], [{ word: '日本', typos: 1 }, { word: '日本語', typos: 1 }]);
});

test('compareUtf8 is UTF-8 byte order, surrogate pairs included', () => {
  const r = rng(99);
  const pool = ['a', 'é', '\uffff', '\ue000', '\u{10000}', '😀', '\u{10ffff}', 'z', '\u0800', '\u07ff'];
  const strings = Array.from({ length: 400 }, () => {
    let s = '';
    const n = Math.floor(r() * 4);
    for (let i = 0; i < n; i++) s += pool[Math.floor(r() * pool.length)]!;
    return s;
  });
  for (let i = 0; i + 1 < strings.length; i++) {
    const a = strings[i]!;
    const b = strings[i + 1]!;
    assert.equal(Math.sign(compareUtf8(a, b)), Math.sign(byteCompare(a, b)), `${a} vs ${b}`);
  }
});

test('build rejects unsorted input and keeps repeated words once', () => {
  assert.throws(() => WordSet.build(['b', 'a']), RangeError);
  assert.throws(() => WordSet.build(['ab', 'a']), RangeError);
  assert.throws(() => WordSet.build(['a', '']), RangeError);
  // JavaScript order puts U+FFFF after U+10000 (a surrogate pair); UTF-8 order does not.
  assert.throws(() => WordSet.build(['\u{10000}', '\uffff']), RangeError);
  const s = WordSet.build(['a', 'a', 'b', 'b', 'b']);
  assert.equal(s.size, 2);
  assert.deepEqual([...s.prefixed('')], ['a', 'b']);
  assert.deepEqual([...wordSetOf(['b', 'a', 'b', '😀', '\uffff']).prefixed('')], ['a', 'b', '\uffff', '😀']);
});

test('states with many transitions (escaped count, binary search)', () => {
  const words: string[] = [];
  for (let c = 1; c < 0x80; c++) {
    words.push(String.fromCharCode(c));
    words.push(String.fromCharCode(c) + 'x');
  }
  for (let c = 0x80; c < 0x800; c += 7) words.push('é' + String.fromCharCode(c));
  words.sort(compareUtf8);
  const s = WordSet.build(words);
  assert.equal(s.size, words.length);
  for (const w of words) assert.equal(s.has(w), true, JSON.stringify(w));
  assert.equal(s.has('\u0000'), false);
  assert.equal(s.has('éa'), false);
  assert.deepEqual([...s.prefixed('')], words);
  assert.deepEqual([...s.prefixed('é')].length, words.filter((w) => w.startsWith('é')).length);
});

test('serialisation round trip, from an offset view (as LMDB returns)', () => {
  const r = rng(5);
  const letters = 'abcdefghij';
  const set = new Set<string>();
  while (set.size < 20_000) {
    let w = '';
    const n = 1 + Math.floor(r() * 12);
    for (let i = 0; i < n; i++) w += letters[Math.floor(r() * letters.length)]!;
    set.add(w);
  }
  const words = [...set].sort(compareUtf8);
  const s = WordSet.build(words);
  const bytes = s.toBytes();
  assert.ok(bytes[5]! >= 2, 'a set this size needs wider addresses');
  const backing = new Uint8Array(bytes.length + 13);
  backing.set(bytes, 13);
  const view = WordSet.fromBytes(backing.subarray(13));
  assert.equal(view.size, words.length);
  assert.deepEqual([...view.prefixed('')], words);
  for (let i = 0; i < 2000; i++) {
    const w = words[Math.floor(r() * words.length)]!;
    assert.equal(view.has(w), true);
    assert.equal(view.has(w + 'k'), false);
  }
  assert.deepEqual([...view.fuzzy('abcdefg', { maxTypos: 2 })], [...s.fuzzy('abcdefg', { maxTypos: 2 })]);
  // The same input always gives the same bytes.
  assert.deepEqual(WordSet.build(words).toBytes(), bytes);
});

test('fromBytes rejects damaged buffers', () => {
  const bytes = WordSet.build(['a', 'b']).toBytes();
  assert.throws(() => WordSet.fromBytes(bytes.subarray(0, 10)), /too short/);
  assert.throws(() => WordSet.fromBytes(bytes.subarray(0, bytes.length - 1)), /length/);
  const bad = bytes.slice();
  bad[0] = 0;
  assert.throws(() => WordSet.fromBytes(bad), /magic/);
  const v2 = bytes.slice();
  v2[4] = 2;
  assert.throws(() => WordSet.fromBytes(v2), /version/);
});

test('with: add and remove words', () => {
  const s = WordSet.build(['apple', 'banana', 'cherry']);
  const t = s.with(['date', 'apricot', '', 'banana', 'éclair'], ['cherry', 'fig']);
  assert.deepEqual([...t.prefixed('')], ['', 'apple', 'apricot', 'banana', 'date', 'éclair']);
  assert.equal(t.size, 6);
  assert.deepEqual([...s.prefixed('')], ['apple', 'banana', 'cherry'], 'the original is unchanged');
  assert.equal(s.with([]), s);
  // Removal wins over an addition of the same word.
  assert.deepEqual([...s.with(['kiwi'], ['kiwi', 'apple']).prefixed('')], ['banana', 'cherry']);
  assert.deepEqual([...s.with([], ['apple', 'banana', 'cherry']).prefixed('')], []);
  assert.deepEqual([...WordSet.build([]).with(['b', 'a']).prefixed('')], ['a', 'b']);
});

test('with: random merges equal a fresh build', () => {
  const r = rng(31337);
  const pool = Array.from({ length: 600 }, (_, i) => `${['a', 'b', 'c', 'é', '😀'][i % 5]}${Math.floor(r() * 1000).toString(36)}`);
  let current = new Set<string>();
  let s = WordSet.build([]);
  for (let round = 0; round < 30; round++) {
    const added = Array.from({ length: Math.floor(r() * 40) }, () => pool[Math.floor(r() * pool.length)]!);
    const removed = Array.from({ length: Math.floor(r() * 40) }, () => pool[Math.floor(r() * pool.length)]!);
    s = s.with(added, removed);
    current = new Set([...current, ...added]);
    for (const w of removed) current.delete(w);
    const want = [...current].sort(compareUtf8);
    assert.deepEqual([...s.prefixed('')], want);
    assert.equal(s.size, want.length);
    assert.deepEqual(s.toBytes(), WordSet.build(want).toBytes());
  }
});
