// Property test: the typo walks against a brute-force restricted Damerau-Levenshtein oracle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WordSet, compareUtf8 } from './index.ts';
import { fuzzyWalkBits, fuzzyWalkRows, type FuzzyMatch, type FuzzyOptions } from './fuzzy.ts';
import { parseHeader } from './layout.ts';
import { codePoints } from './utf8.ts';

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** OSA distances of q to w (whole word) and to the closest prefix of w. */
let matrix = new Int32Array(64 * 64);
function oracle(q: Int32Array, w: Int32Array): { whole: number; prefix: number } {
  const m = q.length;
  const n = w.length;
  const R = n + 1;
  if ((m + 1) * R > matrix.length) matrix = new Int32Array((m + 1) * R * 2);
  const d = matrix;
  for (let i = 0; i <= m; i++) d[i * R] = i;
  for (let j = 0; j <= n; j++) d[j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      let v = Math.min(d[(i - 1) * R + j]! + 1, d[i * R + j - 1]! + 1, d[(i - 1) * R + j - 1]! + (q[i - 1] === w[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && q[i - 1] === w[j - 2] && q[i - 2] === w[j - 1]) v = Math.min(v, d[(i - 2) * R + j - 2]! + 1);
      d[i * R + j] = v;
    }
  }
  let prefix = Infinity;
  for (let j = 0; j <= n; j++) prefix = Math.min(prefix, d[m * R + j]!);
  return { whole: d[m * R + n]!, prefix };
}

/** Expected results of every option set for one query, from one oracle pass over the words. */
function expectedAll(words: string[], cps: Int32Array[], query: string, sets: FuzzyOptions[]): FuzzyMatch[][] {
  const q = codePoints(query);
  const out: FuzzyMatch[][] = sets.map(() => []);
  for (let k = 0; k < words.length; k++) {
    const w = cps[k]!;
    const o = oracle(q, w);
    const firstDiffers = w.length === 0 ? q.length > 0 : q.length === 0 || w[0] !== q[0];
    sets.forEach((opts, s) => {
      const cost = (opts.prefix ? o.prefix : o.whole) + (opts.firstLetterCounts2 && firstDiffers ? 1 : 0);
      if (cost <= opts.maxTypos) out[s]!.push({ word: words[k]!, typos: cost });
    });
  }
  return out;
}

const ALPHABET = ['a', 'b', 'c', 'd', 'e', 'a', 'b', 'c', 'é', 'ß', '日', '😀'];

function randomWord(r: () => number, maxLen: number): string {
  const len = Math.floor(r() * (maxLen + 1));
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)]!;
  return s;
}

function mutate(r: () => number, w: string): string {
  const cs = [...w];
  const edits = Math.floor(r() * 3);
  for (let e = 0; e < edits; e++) {
    const i = Math.floor(r() * (cs.length + 1));
    const op = Math.floor(r() * 4);
    const c = ALPHABET[Math.floor(r() * ALPHABET.length)]!;
    if (op === 0 && i < cs.length) cs[i] = c;
    else if (op === 1) cs.splice(i, 0, c);
    else if (op === 2 && i < cs.length) cs.splice(i, 1);
    else if (op === 3 && i + 1 < cs.length) [cs[i], cs[i + 1]] = [cs[i + 1]!, cs[i]!];
  }
  return cs.join('');
}

const OPTION_SETS: FuzzyOptions[] = [];
for (const maxTypos of [0, 1, 2] as const) {
  for (const prefix of [false, true]) {
    for (const firstLetterCounts2 of [false, true]) OPTION_SETS.push({ maxTypos, prefix, firstLetterCounts2 });
  }
}

const expectedCache = new Map<string[], Map<string, FuzzyMatch[][]>>();

function check(
  name: string,
  words: string[],
  queries: string[],
  walk: (q: string, o: FuzzyOptions) => Iterable<FuzzyMatch>,
): number {
  const cps = words.map((w) => codePoints(w));
  let compared = 0;
  for (const query of queries) {
    let byQuery = expectedCache.get(words);
    if (!byQuery) expectedCache.set(words, (byQuery = new Map()));
    let wants: FuzzyMatch[][] | undefined = byQuery.get(query);
    if (!wants) byQuery.set(query, (wants = expectedAll(words, cps, query, OPTION_SETS)));
    for (const [s, opts] of OPTION_SETS.entries()) {
      const want: FuzzyMatch[] = wants[s]!;
      const got = [...walk(query, opts)];
      assert.deepEqual(got, want, `${name}: ${JSON.stringify(query)} ${JSON.stringify(opts)}`);
      compared += want.length;
    }
  }
  return compared;
}

const r = rng(20240611);
const dict = [...new Set(Array.from({ length: 3000 }, () => randomWord(r, 7)))].sort(compareUtf8);
const set = WordSet.build(dict);
const bytes = set.toBytes();
const header = parseHeader(bytes);
const queries = [
  '',
  'a',
  'ab',
  'é',
  '😀',
  ...Array.from({ length: 120 }, () => mutate(r, dict[Math.floor(r() * dict.length)]!)),
  ...Array.from({ length: 30 }, () => randomWord(r, 9)),
];

test('bit-parallel walk matches the brute-force oracle (dense dictionary, non-ASCII, emoji)', () => {
  const compared = check('bits', dict, queries, (q, o) =>
    fuzzyWalkBits(bytes, header.root, header.width, header.maxLen, codePoints(q), o),
  );
  assert.ok(compared > 10_000, `only ${compared} expected matches: the test is too weak`);
});

test('banded-row walk matches the brute-force oracle', () => {
  check('rows', dict, queries, (q, o) => fuzzyWalkRows(bytes, header.root, header.width, header.maxLen, codePoints(q), o));
});

test('long query words (over 30 characters) take the row walk and still match the oracle', () => {
  const r2 = rng(7);
  const base = Array.from({ length: 40 }, () => 'abcdefghijklmnopqrstuvwxyzabcdefgh'.slice(0, 28 + Math.floor(r2() * 8)));
  const words = [
    ...new Set(base.flatMap((w) => [w, mutate(r2, w), mutate(r2, w), mutate(r2, w) + 'é', mutate(r2, w)])),
  ].sort(compareUtf8);
  const s = WordSet.build(words);
  const qs = Array.from({ length: 30 }, () => mutate(r2, words[Math.floor(r2() * words.length)]!));
  check('long', words, qs, (q, o) => s.fuzzy(q, o));
});

test('limit returns the first results in order', () => {
  for (const query of queries.slice(0, 40)) {
    const all = [...set.fuzzy(query, { maxTypos: 2, prefix: true })];
    for (const limit of [0, 1, 3]) {
      assert.deepEqual([...set.fuzzy(query, { maxTypos: 2, prefix: true, limit })], all.slice(0, limit));
    }
  }
});

test('typo rules: swap = 1, first letter counts 2, characters not bytes, prefix typos', () => {
  const s = WordSet.build(['bonjour', 'bonsoir', 'café', 'hello', 'helloworld', 'jello', 'yellow', 'ébène', '日本語'].sort(compareUtf8));
  const f = (q: string, o: FuzzyOptions) => [...s.fuzzy(q, o)].map((x) => `${x.word}:${x.typos}`);
  assert.deepEqual(f('hlelo', { maxTypos: 1 }), ['hello:1']); // adjacent swap
  assert.deepEqual(f('hello', { maxTypos: 1, firstLetterCounts2: true }), ['hello:0']);
  assert.deepEqual(f('hello', { maxTypos: 1 }), ['hello:0', 'jello:1']);
  assert.deepEqual(f('hello', { maxTypos: 2, firstLetterCounts2: true }), ['hello:0', 'jello:2']);
  assert.deepEqual(f('cafe', { maxTypos: 1 }), ['café:1']); // é is one character
  assert.deepEqual(f('ebene', { maxTypos: 2 }), ['ébène:2']);
  assert.deepEqual(f('ebene', { maxTypos: 2, firstLetterCounts2: true }), []);
  assert.deepEqual(f('日本', { maxTypos: 1 }), ['日本語:1']);
  assert.deepEqual(f('hel', { maxTypos: 0, prefix: true }), ['hello:0', 'helloworld:0']);
  assert.deepEqual(f('hellq', { maxTypos: 1, prefix: true }), ['hello:1', 'helloworld:1']);
  assert.deepEqual(f('bonsj', { maxTypos: 1, prefix: true }), ['bonjour:1', 'bonsoir:1']);
  assert.deepEqual(f('yelo', { maxTypos: 1, prefix: true, firstLetterCounts2: true }), ['yellow:1']);
  assert.throws(() => s.fuzzy('x', { maxTypos: 3 as 2 }), RangeError);
});
