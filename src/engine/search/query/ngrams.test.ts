// N-grams (relevancy.md §2.3; milli `make_ngram`):
// 1. `sun flower` → the 2-gram `sunflower` covering terms [0, 1] and positions [0, 1].
// 2. Three words give 2-grams and the 3-gram, in milli's order (per end term: 2-gram, 3-gram).
// 3. Typo budget typos(concat) − (n − 1): `sunflower` (9 chars) as a 2-gram allows 1 typo, a
//    3-gram of 9–10 characters none; disableOnWords applies to the concatenation.
// 4. An n-gram is a prefix term when its last word is.
// 5. No n-gram across a phrase, a stop word gap, a hard separator, or over 250 bytes.
// 6. Multi-word synonym keys are matched through n-grams (`new york` → `nyc`).
// 7. A split that gives back the n-gram's own words is dropped; another split is kept.
// 8. The concatenation is looked up in the normal word set only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '../../tokenizer/index.ts';
import { WordSet, compareUtf8 } from '../../words/index.ts';
import { parseQuery } from './parse.ts';
import { deriveTerms } from './derive.ts';
import type { QueryConfig, QueryTerm, QueryTerms, WordSource } from './types.ts';

const set = (words: Iterable<string>): WordSet => WordSet.build([...new Set(words)].sort(compareUtf8));

function source(words: string[], exact: string[] = [], pairs: Record<string, number> = {}): WordSource {
  return { words: set(words), exactWords: set(exact), pairCount: (l, r) => pairs[`${l} ${r}`] ?? 0 };
}

function config(over: Partial<QueryConfig> = {}, disableOnWords: string[] = []): QueryConfig {
  return {
    typos: { enabled: true, oneTypo: 5, twoTypos: 9, disableOnWords: new Set(disableOnWords) },
    prefixSearch: true,
    synonyms: new Map(),
    stopWords: new Set(['the']),
    ...over,
  };
}

const tokenizer = new Tokenizer({ stopWords: new Set(['the']) });
const derive = (q: string, src: WordSource, cfg = config()): QueryTerms => deriveTerms(parseQuery(q, tokenizer), cfg, src);
const names = (ts: QueryTerms): string[] => ts.ngrams.map((g) => `${g.original}[${g.span[0]},${g.span[1]}]`);
const words = (t: QueryTerm, cost: 0 | 1 | 2): string[] => t.derivations[cost].words.map((d) => d.word);

test('1. sun flower → sunflower', () => {
  const ts = derive('sun flower ', source(['sunflower', 'sun', 'flower']));
  assert.equal(ts.ngrams.length, 1);
  const g = ts.ngrams[0]!;
  assert.deepEqual([g.kind, g.isPhrase, g.span, g.positions, g.words, g.original], ['ngram', false, [0, 1], [0, 1], ['sun', 'flower'], 'sunflower']);
  assert.deepEqual(g.derivations[0].words, [{ word: 'sunflower', kind: 'original', sets: { words: true, exactWords: false } }]);
});

test('2. order of 2- and 3-grams', () => {
  const ts = derive('summer house by ', source([]));
  assert.deepEqual(names(ts), ['summerhouse[0,1]', 'houseby[1,2]', 'summerhouseby[0,2]']);
  const four = derive('a b c d ', source([]));
  assert.deepEqual(names(four), ['ab[0,1]', 'bc[1,2]', 'abc[0,2]', 'cd[2,3]', 'bcd[1,3]']);
});

test('3. n-gram typo budget', () => {
  const src = source(['sunflower', 'sunflowers', 'sunflowr', 'sunflowerz', 'synflowr']);
  const g = derive('sun flower ', src).ngrams[0]!;
  assert.equal(g.maxTypos, 1);
  assert.deepEqual(words(g, 1), ['sunflowers', 'sunflowerz', 'sunflowr']);
  assert.deepEqual(words(g, 2), []);
  // 8 characters: 1 − 1 = 0
  assert.equal(derive('sun flowe ', src).ngrams[0]!.maxTypos, 0);
  // 3-gram: typos(concat) − 2
  const three = derive('sun flo wers ', src);
  assert.deepEqual(three.ngrams.map((n) => n.maxTypos), [0, 0, 0]);
  assert.equal(derive('sunny flowers mix ', src).ngrams[2]!.maxTypos, 0);
  assert.equal(derive('sun flower', src, config({}, ['sunflower'])).ngrams[0]!.maxTypos, 0);
});

test('4. prefix n-grams', () => {
  const src = source(['sunflower', 'sunflowers', 'sunflowerseed']);
  const g = derive('sun flower', src).ngrams[0]!;
  assert.equal(g.isPrefix, true);
  assert.deepEqual(words(g, 0), ['sunflower', 'sunflowers', 'sunflowerseed']);
  assert.equal(derive('sun flower ', src).ngrams[0]!.isPrefix, false);
  assert.equal(derive('sun flower', src, config({ prefixSearch: false })).ngrams[0]!.isPrefix, false);
});

test('5. when there is no n-gram', () => {
  const src = source([]);
  assert.deepEqual(names(derive('"sun flower" seed ', src)), []);
  assert.deepEqual(names(derive('sun "flower" seed ', src)), []);
  assert.deepEqual(names(derive('sun the flower ', src)), []);
  assert.deepEqual(names(derive('sun. flower ', src)), []);
  assert.deepEqual(names(derive('sun -x flower ', src)), []);
  const a = 'a'.repeat(125);
  assert.deepEqual(names(derive(`${a} ${a} `, src)), [`${a}${a}[0,1]`]);
  assert.deepEqual(names(derive(`${a} ${a}b `, src)), []);
});

test('6. multi-word synonym keys', () => {
  const synonyms = new Map([
    ['new york', [['nyc'], ['big', 'apple']]],
    ['new york city', [['nyc']]],
  ]);
  const ts = derive('new york city ', source(['nyc']), config({ synonyms }));
  const [ny, yc, nyc3] = ts.ngrams;
  assert.deepEqual(ny!.derivations[0].words, [{ word: 'nyc', kind: 'synonym', sets: { words: true, exactWords: false } }]);
  assert.deepEqual(ny!.derivations[0].phrases, [{ words: ['big', 'apple'], kind: 'synonym' }]);
  assert.deepEqual(yc!.derivations[0], { words: [], phrases: [] });
  assert.deepEqual(words(nyc3!, 0), ['nyc']);
  // single terms do not see multi-word keys
  assert.deepEqual(ts.terms.map((t) => t.derivations[0].words.length), [0, 0, 0]);
});

test('7. splits of n-grams', () => {
  const own = derive('sun flower ', source([], [], { 'sun flower': 5 }));
  assert.deepEqual(own.ngrams[0]!.derivations[1].phrases, []);
  const other = derive('sunf lower ', source([], [], { 'sun flower': 5 }));
  assert.deepEqual(other.ngrams[0]!.derivations[1].phrases, [{ words: ['sun', 'flower'], kind: 'split' }]);
});

test('8. the concatenation reads the normal word set only', () => {
  const exactOnly = derive('sun flower ', source([], ['sunflower']));
  assert.deepEqual(words(exactOnly.ngrams[0]!, 0), []);
  const both = derive('sun flower ', source(['sunflower'], ['sunflower']));
  assert.deepEqual(both.ngrams[0]!.derivations[0].words[0]!.sets, { words: true, exactWords: false });
});
