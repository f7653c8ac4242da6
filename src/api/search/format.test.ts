import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '../../engine/tokenizer/index.ts';
import { cropBounds, findMatches, formatText, matchBounds, type FormatOptions } from './format.ts';
import { MatchingWords, type LocatedTerm } from './matching-words.ts';

const tokenizer = new Tokenizer();
const EM = { preTag: '<em>', postTag: '</em>', cropMarker: '…' };

function fmt(words: MatchingWords, text: string, options: FormatOptions, markers = EM): string {
  return formatText(findMatches(text, tokenizer, words), options, markers);
}

const word = (id: number, ...words: string[]): LocatedTerm => ({ ids: [id, id], words, isPrefix: false });
const prefix = (id: number, typed: string, ...more: string[]): LocatedTerm => ({
  ids: [id, id], words: [typed, ...more], isPrefix: true, originalCharCount: [...typed].length,
});
const phrase = (first: number, text: string): LocatedTerm => {
  const words = text.split(' ');
  return { ids: [first, first + words.length - 1], words: [], phrases: [words], isPrefix: false };
};

// milli mod_test.rs: the index holds "split this world westfali westfalia the Ŵôřlḑôle", so the
// prefix term `world` also derives `worldole`
const SPLIT_THE_WORLD = MatchingWords.fromTerms([word(0, 'split'), word(1, 'the'), prefix(2, 'world', 'worldole')]);
const NO_MATCH = 'A quick brown fox can not jump 32 feet, right? Brr, it is cold!';
const ALL = 'Natalie risk her future to build a world with the boy she loves. Emily Henry: The Love That Split The World.';
const SOME = 'Natalie risk her future to build a world with the boy she loves.';

test('no highlight and no crop: the text as is', () => {
  for (const text of [NO_MATCH, ALL, SOME]) assert.equal(fmt(SPLIT_THE_WORLD, text, { highlight: false, crop: null }), text);
});

test('highlight (mod_test format_highlight)', () => {
  const o = { highlight: true, crop: null };
  const cases: [string, string][] = [
    ['', ''],
    [':-)', ':-)'],
    [NO_MATCH, NO_MATCH],
    [ALL, 'Natalie risk her future to build a <em>world</em> with <em>the</em> boy she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.'],
    [SOME, 'Natalie risk her future to build a <em>world</em> with <em>the</em> boy she loves.'],
  ];
  for (const [text, want] of cases) assert.equal(fmt(SPLIT_THE_WORLD, text, o), want);
});

test('prefix matches highlight the typed characters only (highlight_unicode)', () => {
  const o = { highlight: true, crop: null };
  const world = MatchingWords.fromTerms([prefix(0, 'world', 'worldole')]);
  assert.equal(fmt(world, 'Ŵôřlḑôle', o), '<em>Ŵôřlḑ</em>ôle');
  assert.equal(fmt(world, 'Ŵôřlḑ', o), '<em>Ŵôřlḑ</em>');
  const westfali = MatchingWords.fromTerms([prefix(0, 'westfali', 'westfalia')]);
  assert.equal(fmt(westfali, 'Westfália', o), '<em>Westfáli</em>a');
  assert.equal(fmt(MatchingWords.fromWords([], ['hob']), 'Hobbit', o), '<em>Hob</em>bit');
  // a typo derivation of the prefix term highlights at most as many characters as were typed
  const typo = MatchingWords.fromTerms([{ ids: [0, 0], words: ['hobbbit', 'hobbit'], isPrefix: true, originalCharCount: 7 }]);
  assert.equal(fmt(typo, 'hobbits', o), '<em>hobbit</em>s');
});

test('crop (mod_test format_crop)', () => {
  const o = { highlight: false, crop: 10 };
  const cases: [string, string][] = [
    ['', ''],
    [':-)', ':-)'],
    [NO_MATCH, 'A quick brown fox can not jump 32 feet, right…'],
    ['(A quick brown fox can not jump 32 feet, right? Brr, it is cold!)', '(A quick brown fox can not jump 32 feet, right…'],
    ['Natalie risk her future. Split The World is a book written by Emily Henry. I never read it.', '…Split The World is a book written by Emily Henry…'],
    [SOME, '…future to build a world with the boy she loves…'],
    [ALL, '…she loves. Emily Henry: The Love That Split The World.'],
    ['The world split void void void void void void void void void split the world void void', '…void void void void void split the world void void'],
    ['split void the void void world void void void void void void void void void void split the world void void', '…void void void void void split the world void void'],
    ['split split split split split split void void void void void void void void void void split the world void void', '…void void void void void split the world void void'],
  ];
  for (const [text, want] of cases) assert.equal(fmt(SPLIT_THE_WORLD, text, o), want, text);
});

test('highlight and crop (mod_test format_highlight_crop)', () => {
  const o = { highlight: true, crop: 10 };
  const cases: [string, string][] = [
    ['', ''],
    [':-)', ':-)'],
    [NO_MATCH, 'A quick brown fox can not jump 32 feet, right…'],
    [SOME, '…future to build a <em>world</em> with <em>the</em> boy she loves…'],
    [ALL, '…she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.'],
    ['The world split void void void void void void void void void split the world void void', '…void void void void void <em>split</em> <em>the</em> <em>world</em> void void'],
  ];
  for (const [text, want] of cases) assert.equal(fmt(SPLIT_THE_WORLD, text, o), want, text);
});

test('phrases are highlighted as one span and may be longer than the window', () => {
  const text = 'The groundbreaking invention had the power to split the world between those who embraced progress and those who resisted change!';
  const o = { highlight: true, crop: 10 };
  const cases: [LocatedTerm[], string][] = [
    [[phrase(0, 'the world')], '…the power to split <em>the world</em> between those who embraced…'],
    [[word(0, 'those'), phrase(1, 'and those')], '…world between <em>those</em> who embraced progress <em>and those</em> who resisted…'],
    [[phrase(0, 'the groundbreaking invention had the power to split the world')], '<em>The groundbreaking invention had the power to split the world</em>…'],
    [[phrase(0, 'the groundbreaking invention had the power to split the world between those')], '<em>The groundbreaking invention had the power to split the world</em>…'],
    [[phrase(0, 'the groundbreaking invention'), phrase(3, 'embraced progress and those who resisted change')], '…between those who <em>embraced progress and those who resisted change</em>…'],
    [[phrase(0, 'groundbreaking invention'), phrase(2, 'split the world between')], '…<em>groundbreaking invention</em> had the power to <em>split the world between</em>…'],
    [[phrase(0, 'groundbreaking invention'), phrase(2, 'had the power to split the world between those')], '…<em>invention</em> <em>had the power to split the world between those</em>…'],
  ];
  for (const [terms, want] of cases) assert.equal(fmt(MatchingWords.fromTerms(terms), text, o), want);
});

test('crop sizes smaller than the matches (smaller_crop_size)', () => {
  const text = 'void void split the world void void.';
  assert.equal(fmt(SPLIT_THE_WORLD, text, { highlight: false, crop: 2 }), '…split the…');
  assert.equal(fmt(SPLIT_THE_WORLD, text, { highlight: false, crop: 1 }), '…split…');
  assert.equal(fmt(SPLIT_THE_WORLD, text, { highlight: false, crop: 0 }), text);
});

test('phrases and words across separators (partial_matches)', () => {
  const words = MatchingWords.fromTerms([word(0, 'the'), phrase(1, 't he'), word(3, 'door'), phrase(4, 'do or')]);
  const text = "the do or die can't be he do and or isn't he";
  assert.equal(fmt(words, text, { highlight: true, crop: null }, { preTag: '_', postTag: '_', cropMarker: '…' }), "_the_ _do or_ die can't be he do and or isn'_t he_");
});

test('search.md examples', () => {
  const prince = MatchingWords.fromWords([], ['prince']);
  assert.equal(fmt(prince, 'Le Petit Prince', { highlight: true, crop: 2 }), '…Petit <em>Prince</em>');
  const dragon = MatchingWords.fromWords(['train'], ['dragon']);
  assert.equal(fmt(dragon, 'How to Train Your Dragon: The Hidden World', { highlight: true, crop: null }), 'How to <em>Train</em> Your <em>Dragon</em>: The Hidden World');
});

test('CJK highlight (formatted.rs test_cjk_highlight)', () => {
  const o = { highlight: true, crop: null };
  assert.equal(fmt(MatchingWords.fromWords([], [tokenizer.normalize('で')]), 'この度、クーポンで無料で頂きました。', o), 'この度、クーポン<em>で</em>無料<em>で</em>頂きました。');
  assert.equal(fmt(MatchingWords.fromWords([], [tokenizer.normalize('大卫')]), '大卫到了扫罗那里', o), '<em>大卫</em>到了扫罗那里');
});

test('custom tags and an empty crop marker', () => {
  const markers = { preTag: '**', postTag: '**', cropMarker: '' };
  assert.equal(fmt(SPLIT_THE_WORLD, SOME, { highlight: true, crop: 10 }, markers), 'future to build a **world** with **the** boy she loves');
});

test('placeholder search: no match, crop from the start', () => {
  const none = MatchingWords.none();
  assert.equal(fmt(none, SOME, { highlight: true, crop: 3 }), 'Natalie risk her…');
  assert.deepEqual(findMatches(SOME, tokenizer, none).matches, []);
});

test('match bounds are UTF-8 byte offsets; prefix matches cover the typed characters', () => {
  const cases: [MatchingWords, string, { start: number; length: number }[]][] = [
    [MatchingWords.fromWords(['pesti']), 'pésti', [{ start: 0, length: 6 }]],
    [MatchingWords.fromWords(['pesti']), 'le chat pésti, pésti', [{ start: 8, length: 6 }, { start: 16, length: 6 }]],
    [MatchingWords.fromWords([], ['hob']), 'The Hobbit', [{ start: 4, length: 3 }]],
    [MatchingWords.fromTerms([prefix(0, 'world', 'worldole')]), 'x Ŵôřlḑôle', [{ start: 2, length: 10 }]],
    [MatchingWords.fromWords(['bobby']), '🐶 bobby', [{ start: 5, length: 5 }]],
    [MatchingWords.fromTerms([phrase(0, 'the world')]), 'split the  world', [{ start: 6, length: 10 }]],
  ];
  for (const [words, text, want] of cases) assert.deepEqual(matchBounds(findMatches(text, tokenizer, words)), want, text);
  const inArray = matchBounds(findMatches('bobby', tokenizer, MatchingWords.fromWords(['bobby'])), [1, 0]);
  assert.deepEqual(inArray, [{ start: 0, length: 5, indices: [1, 0] }]);
});

test('cropBounds is in JS indices', () => {
  const text = 'été ☀️ void void split void';
  const found = findMatches(text, tokenizer, MatchingWords.fromWords(['split']));
  const [s, e] = cropBounds(found, 1);
  assert.equal(text.slice(s, e), 'split');
});
