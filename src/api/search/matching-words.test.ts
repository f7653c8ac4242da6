import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MatchingWords, type LocatedTerm } from './matching-words.ts';

const tok = (word: string, isStopWord = false) => ({ word, isStopWord });

test('milli matching_words.rs: query "split this world"', () => {
  const words = MatchingWords.fromTerms([
    { ids: [0, 0], words: ['split'], isPrefix: false },
    { ids: [1, 1], words: ['this'], isPrefix: false },
    { ids: [2, 2], words: ['world'], isPrefix: true, originalCharCount: 5 },
  ]);
  const cases: [string, unknown][] = [
    ['split', { ids: [0, 0] }],
    ['nyc', null],
    ['world', { ids: [2, 2], highlightUnits: 5 }],
    ['worlded', { ids: [2, 2], highlightUnits: 5 }],
    ['thisnew', null],
  ];
  for (const [word, want] of cases) assert.deepEqual(words.match(tok(word)), want, word);
  assert.equal(words.match(tok('split', true)), null);
  assert.equal(words.isEmpty, false);
});

test('exact terms first, wider n-grams first, prefix terms last', () => {
  const terms: LocatedTerm[] = [
    { ids: [1, 1], words: ['new'], isPrefix: true, originalCharCount: 3 },
    { ids: [0, 0], words: ['newyork'], isPrefix: false },
    { ids: [0, 1], words: ['newyork'], isPrefix: false },
  ];
  const words = MatchingWords.fromTerms(terms);
  assert.deepEqual(words.match(tok('newyork')), { ids: [0, 1] });
  assert.deepEqual(words.match(tok('news')), { ids: [1, 1], highlightUnits: 3 });
});

test('prefix highlight: the first originalCharCount characters of the derivation, in UTF-16 units', () => {
  const words = MatchingWords.fromTerms([
    { ids: [0, 0], words: ['hobbbit', 'hobbit'], isPrefix: true, originalCharCount: 7 },
    { ids: [1, 1], words: ['𝒳yz'], isPrefix: true, originalCharCount: 2 },
  ]);
  assert.deepEqual(words.match(tok('hobbits')), { ids: [0, 0], highlightUnits: 6 });
  assert.deepEqual(words.match(tok('𝒳yzzz')), { ids: [1, 1], highlightUnits: 3 });
});

test('fromWords, none and phrases', () => {
  const words = MatchingWords.fromWords(['a', 'b'], ['c']);
  assert.deepEqual(words.match(tok('b')), { ids: [1, 1] });
  assert.deepEqual(words.match(tok('cat')), { ids: [2, 2], highlightUnits: 1 });
  assert.equal(words.match(tok('ab')), null);
  const none = MatchingWords.none();
  assert.equal(none.isEmpty, true);
  assert.equal(none.match(tok('a')), null);
  assert.deepEqual(none.phrases, []);
  const withPhrase = MatchingWords.fromTerms([{ ids: [0, 2], words: [], phrases: [['new', null, 'york']], isPrefix: false }]);
  assert.deepEqual(withPhrase.phrases, [{ ids: [0, 2], words: ['new', null, 'york'] }]);
  assert.equal(withPhrase.isEmpty, false);
  assert.equal(MatchingWords.fromTerms([]).isEmpty, true);
});
