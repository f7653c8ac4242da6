// deriveTerms on single terms (relevancy.md §2.2, §6, §9):
// 1. Typo budget by characters: < oneTypo → 0, < twoTypos → 1, else 2 (4/5 and 8/9 boundaries,
//    custom thresholds, multi-byte words counted in characters).
// 2. One-typo words keep the first character (a swap is 1 typo); a first-letter typo costs 2:
//    found only when 2 typos are allowed.
// 3. `disableOnWords` gives 0 typos; prefix completions and splits still work.
// 4. Typos disabled: no typo words, but prefix completions and splits remain.
// 5. Prefix completions: last term only, the word itself excluded, none with prefixSearch off;
//    a prefix term matches typos on a prefix of the derived word.
// 6. Synonyms are one-way, single-word ones are words, multi-word ones phrases; stop words are
//    dropped from them; at most 50 alternatives / 100 words.
// 7. Split words: the pair with the most proximity-1 documents, first on ties, none at count 0,
//    none for phrases.
// 8. Word-set origin: the typed word and prefix completions may come from the exact set; typo
//    derivations never do.
// 9. Caps: 1000 completions, 150 one-typo words, 50 two-typo words.
// 10. Words over 250 bytes derive nothing; phrases derive only themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '../../tokenizer/index.ts';
import { WordSet, compareUtf8 } from '../../words/index.ts';
import { parseQuery } from './parse.ts';
import { allowedTypos, deriveTerms } from './derive.ts';
import type { QueryConfig, QueryTerm, WordSource } from './types.ts';

const set = (words: Iterable<string>): WordSet => WordSet.build([...new Set(words)].sort(compareUtf8));

function source(words: string[], exact: string[] = [], pairs: Record<string, number> = {}): WordSource {
  return { words: set(words), exactWords: set(exact), pairCount: (l, r) => pairs[`${l} ${r}`] ?? 0 };
}

function config(over: Partial<QueryConfig> = {}, typos: Partial<QueryConfig['typos']> = {}): QueryConfig {
  return {
    typos: { enabled: true, oneTypo: 5, twoTypos: 9, disableOnWords: new Set(), ...typos },
    prefixSearch: true,
    synonyms: new Map(),
    stopWords: new Set(['the']),
    ...over,
  };
}

const tokenizer = new Tokenizer({ stopWords: new Set(['the']) });
/** The first term of `q`. */
function term(q: string, src: WordSource, cfg = config()): QueryTerm {
  return deriveTerms(parseQuery(q, tokenizer), cfg, src).terms[0]!;
}
const words = (t: QueryTerm, cost: 0 | 1 | 2, kind?: string): string[] =>
  t.derivations[cost].words.filter((d) => kind === undefined || d.kind === kind).map((d) => d.word);
const phrases = (t: QueryTerm, cost: 0 | 1 | 2): string[] => t.derivations[cost].phrases.map((p) => `${p.kind}:${p.words.join(' ')}`);

test('1. typo budget boundaries', () => {
  const c = config();
  assert.deepEqual(['abcd', 'abcde', 'abcdefgh', 'abcdefghi'].map((w) => allowedTypos(w, c)), [0, 1, 1, 2]);
  assert.deepEqual(['собак', 'éééé', 'ééééééééé'].map((w) => allowedTypos(w, c)), [1, 0, 2]);
  const custom = config({}, { oneTypo: 2, twoTypos: 3 });
  assert.deepEqual(['a', 'ab', 'abc'].map((w) => allowedTypos(w, custom)), [0, 1, 2]);
  const src = source(['worde', 'wordd', 'wordx', 'wordxx', 'wardx']);
  assert.equal(term('word ', src).maxTypos, 0);
  assert.deepEqual(words(term('word ', src), 1), []);
  assert.equal(term('wordx ', src).maxTypos, 1);
  assert.deepEqual(words(term('wordx ', src), 1), ['wardx', 'wordd', 'worde', 'wordxx']);
  const long = source(['abcdefgh', 'abcdefgx', 'abcdefxy', 'abcdefghi', 'abcdefgxy', 'abcdefxyi']);
  assert.equal(term('abcdefgh ', long).maxTypos, 1);
  assert.deepEqual(words(term('abcdefgh ', long), 1), ['abcdefghi', 'abcdefgx']);
  assert.deepEqual(words(term('abcdefgh ', long), 2), []);
  assert.equal(term('abcdefghi ', long).maxTypos, 2);
  assert.deepEqual(words(term('abcdefghi ', long), 1), ['abcdefgh']);
  assert.deepEqual(words(term('abcdefghi ', long), 2), ['abcdefgx', 'abcdefgxy', 'abcdefxyi']);
});

test('2. first-letter rule and transpositions', () => {
  const src = source(['bunflower', 'sunfolwer', 'sunflowers', 'xunflower', 'unflower', 'sunglower', 'bonnet']);
  const t = term('sunflower ', src);
  assert.deepEqual(words(t, 0), []);
  assert.deepEqual(words(t, 1), ['sunflowers', 'sunfolwer', 'sunglower']);
  assert.deepEqual(words(t, 2), ['bunflower', 'unflower', 'xunflower']);
  // 1 typo allowed: the first-letter typo (2) is out of budget
  const five = term('bonne ', source(['bonnet', 'donne', 'bonje']));
  assert.deepEqual(words(five, 1), ['bonje', 'bonnet']);
  assert.deepEqual(words(five, 2), []);
});

test('3. disableOnWords', () => {
  const src = source(['sunflower', 'sunflowers', 'sunflowerz', 'sunflowe'], [], { 'sun flower': 3 });
  const t = term('sunflower', src, config({}, { disableOnWords: new Set(['sunflower']) }));
  assert.equal(t.maxTypos, 0);
  assert.deepEqual(words(t, 0), ['sunflower', 'sunflowers', 'sunflowerz']);
  assert.deepEqual([words(t, 1), words(t, 2)], [[], []]);
  assert.deepEqual(phrases(t, 1), ['split:sun flower']);
  assert.equal(term('sunflowe ', src, config({}, { disableOnWords: new Set(['sunflower']) })).maxTypos, 1);
});

test('4. typos disabled: prefix and splits still work', () => {
  const src = source(['sunflower', 'sunflowers', 'sunflowre'], [], { 'sun flower': 2, 'sunf lower': 1 });
  const t = term('sunflower', src, config({}, { enabled: false }));
  assert.equal(t.maxTypos, 0);
  assert.equal(t.isPrefix, true);
  assert.deepEqual(words(t, 0), ['sunflower', 'sunflowers']);
  assert.deepEqual(words(t, 1), []);
  assert.deepEqual(phrases(t, 1), ['split:sun flower']);
});

test('5. prefix completions', () => {
  const src = source(['hob', 'hobbit', 'hobbits', 'hobby', 'hop', 'hopbit', 'hubbit', 'a']);
  const t = term('hob', src);
  assert.equal(t.isPrefix, true);
  assert.deepEqual(words(t, 0, 'original'), ['hob']);
  assert.deepEqual(words(t, 0, 'prefix'), ['hobbit', 'hobbits', 'hobby']);
  assert.deepEqual(words(term('hob ', src), 0), ['hob']);
  assert.deepEqual(words(term('hob', src, config({ prefixSearch: false })), 0), ['hob']);
  assert.equal(term('hob', src, config({ prefixSearch: false })).isPrefix, false);
  // only the last term is a prefix
  const both = deriveTerms(parseQuery('hob hob', tokenizer), config(), src);
  assert.deepEqual([both.terms[0]!.isPrefix, both.terms[1]!.isPrefix], [false, true]);
  // typo on a prefix: `hobbi` (1 typo) completes to words starting with a 1-typo prefix
  const typo = term('hobbi', source(['hobbit', 'hobbits', 'hubbitz', 'hobit', 'gobbit']));
  assert.deepEqual(words(typo, 0), ['hobbit', 'hobbits']);
  assert.deepEqual(words(typo, 1), ['hobit', 'hubbitz']);
});

test('6. synonyms', () => {
  const synonyms = new Map([
    ['nyc', [['new', 'york'], ['big', 'apple'], ['manhattan'], ['the', 'city']]],
    ['manhattan', [['island']]],
  ]);
  const src = source(['manhattan', 'city'], ['island']);
  const t = term('nyc ', src, config({ synonyms }));
  // 'the city' lost its stop word: a single-word synonym
  assert.deepEqual(t.derivations[0].words, [
    { word: 'manhattan', kind: 'synonym', sets: { words: true, exactWords: false } },
    { word: 'city', kind: 'synonym', sets: { words: true, exactWords: false } },
  ]);
  assert.deepEqual(phrases(t, 0), ['synonym:new york', 'synonym:big apple']);
  // one-way: 'manhattan' gets 'island' but not 'nyc'
  const m = term('manhattan ', src, config({ synonyms }));
  assert.deepEqual(m.derivations[0].words.map((d) => `${d.kind}:${d.word}:${d.sets.words}/${d.sets.exactWords}`), [
    'original:manhattan:true/false',
    'synonym:island:false/true',
  ]);
  const many = new Map([['x', Array.from({ length: 60 }, (_, i) => [`s${i}`, 'w'])]]);
  assert.equal(term('x ', src, config({ synonyms: many })).derivations[0].phrases.length, 50);
  const wide = new Map([['x', [Array.from({ length: 60 }, (_, i) => `a${i}`), Array.from({ length: 50 }, (_, i) => `b${i}`), ['c', 'd']]]]);
  assert.deepEqual(term('x ', src, config({ synonyms: wide })).derivations[0].phrases.map((p) => p.words.length), [60, 2]);
});

test('7. split words', () => {
  const pairs = { 'sun flower': 3, 'sunf lower': 3, 'sunflowe r': 9, 's unflower': 0 };
  assert.deepEqual(phrases(term('sunflower ', source([], [], pairs)), 1), ['split:sunflowe r']);
  assert.deepEqual(phrases(term('sunflower ', source([], [], { 'sun flower': 3, 'sunf lower': 3 })), 1), ['split:sun flower']);
  assert.deepEqual(phrases(term('sunflower ', source([], [], { 's unflower': 0 })), 1), []);
  assert.deepEqual(phrases(term('мир ', source([], [], { 'ми р': 1 })), 1), ['split:ми р']);
  assert.deepEqual(phrases(term('"sunflower"', source([], [], pairs)), 1), []);
});

test('8. exact word set origin', () => {
  const src = source(['catalog', 'catalogs'], ['catalog', 'catalogx', 'catalogue', 'cataloge']);
  const t = term('catalog', src);
  assert.deepEqual(t.derivations[0].words, [
    { word: 'catalog', kind: 'original', sets: { words: true, exactWords: true } },
    // completions come from both sets (a prefix reaches exact attributes), in byte order
    { word: 'cataloge', kind: 'prefix', sets: { words: false, exactWords: true } },
    { word: 'catalogs', kind: 'prefix', sets: { words: true, exactWords: false } },
    { word: 'catalogue', kind: 'prefix', sets: { words: false, exactWords: true } },
    { word: 'catalogx', kind: 'prefix', sets: { words: false, exactWords: true } },
  ]);
  assert.deepEqual(words(t, 1), []);
  const only = term('cataloge ', src);
  assert.deepEqual(only.derivations[0].words, [{ word: 'cataloge', kind: 'original', sets: { words: false, exactWords: true } }]);
  assert.deepEqual(words(only, 1), ['catalog', 'catalogs']);
  assert.deepEqual(words(term('missing ', src), 0), []);
});

test('9. caps', () => {
  const many: string[] = [];
  for (let i = 0; i < 1200; i++) many.push(`pre${String(i).padStart(4, '0')}`);
  const t = term('pre', source(many));
  assert.equal(words(t, 0).length, 1000);
  assert.equal(words(t, 0)[999], 'pre0999');
  assert.equal(term('pre', source(['pre', ...many])).derivations[0].words.length, 1001);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const typos: string[] = [];
  const word = 'abcdefghij';
  for (const a of letters) {
    // one substitution after the first letter (1 typo), two substitutions (2 typos)
    for (let i = 1; i < word.length; i++) typos.push(word.slice(0, i) + a + word.slice(i + 1));
    for (const b of letters) typos.push(`a${a}${b}defghij`);
  }
  const big = term(`${word} `, source(typos));
  assert.equal(words(big, 1).length, 150);
  assert.equal(words(big, 2).length, 50);
  // the first ones in UTF-8 order
  assert.deepEqual(words(big, 2).slice(0, 2), ['aaadefghij', 'aabdefghij']);
});

test('10. long words and phrases', () => {
  const long = 'a'.repeat(251);
  const t = term(`${long}`, source([long, 'a'.repeat(250)], [], { 'a aa': 5 }));
  assert.deepEqual([t.isPrefix, t.maxTypos, t.derivations.map((g) => g.words.length + g.phrases.length)], [false, 0, [0, 0, 0]]);
  const p = term('"the lord rings"', source(['lord', 'rings', 'lords']));
  assert.deepEqual([p.kind, p.isPhrase, p.isPrefix, p.maxTypos, p.original], ['phrase', true, false, 0, 'lord rings']);
  assert.deepEqual(p.derivations[0], { words: [], phrases: [{ words: [null, 'lord', 'rings'], kind: 'phrase' }] });
  assert.deepEqual([p.derivations[1], p.derivations[2]], [{ words: [], phrases: [] }, { words: [], phrases: [] }]);
});
