// Offsets of tokens in the original text: UTF-8 bytes (`start`/`end`, the unit of
// `_matchesPosition`, search.md §7.6) and UTF-16 indexes (`charStart`/`charEnd`), and the
// mapping of a normalised prefix back to the original (highlighting a prefix match).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer, originalPrefixEnd } from './tokenizer.ts';
import { utf8Length } from './utf8.ts';

const plain = new Tokenizer();

test('byte and UTF-16 offsets of tokens', () => {
  const cases: [string, [string, number, number, number, number][]][] = [
    ['pésti', [['pesti', 0, 6, 0, 5]]], // search.md: "pésti" has length 6
    ['ab cd', [['ab', 0, 2, 0, 2], ['cd', 3, 5, 3, 5]]],
    ['😀 ok', [['😀', 0, 4, 0, 2], ['ok', 5, 7, 3, 5]]],
    ['👍🏽x y', [['👍🏽x', 0, 9, 0, 5], ['y', 10, 11, 6, 7]]],
    ['Straße—Weg', [['straße', 0, 7, 0, 6], ['weg', 10, 13, 7, 10]]], // em dash: 3 bytes
    ['日本 語', [['日本', 0, 6, 0, 2], ['語', 7, 10, 3, 4]]],
    ['ｶﾀｶﾅ', [['かたかな', 0, 12, 0, 4]]],
    ['a\u00a0b', [['a b', 0, 4, 0, 3]]],
    ['Ёж ёж', [['е\u0308ж', 0, 4, 0, 2], ['е\u0308ж', 5, 9, 3, 5]]],
    ['a\ud800b c', [['a\ud800b', 0, 5, 0, 3], ['c', 6, 7, 4, 5]]], // lone surrogate: 3 bytes
  ];
  for (const [text, expected] of cases) {
    const got = plain.tokenize(text).map((t) => [t.word, t.start, t.end, t.charStart, t.charEnd]);
    assert.deepEqual(got, expected, text);
  }
});

test('byte offsets always slice the UTF-8 text like the UTF-16 offsets slice the string', () => {
  const text = 'Ça va? Très bien… 東京タワー 😀👍🏽 ภาษาไทย «Ωμέγα» ＡＢＣ, J. R. R. x\u0301y ok';
  const bytes = Buffer.from(text, 'utf8');
  for (const t of [plain, new Tokenizer({ dictionary: ['J. R. R.'] })]) {
    for (const s of t.segments(text)) {
      assert.equal(bytes.subarray(s.start, s.end).toString('utf8'), text.slice(s.charStart, s.charEnd), s.lemma);
    }
  }
  assert.equal(utf8Length(text), bytes.length);
});

test('originalPrefixEnd maps a prefix of the normalised word back to the original', () => {
  const cases: [string, number, number, number][] = [
    ['Hobbit', 3, 3, 3], // query "hob" highlights "Hob"
    ['Œuvre', 2, 1, 2], // "oe" is the one character Œ (2 bytes)
    ['Ŵôřlḑôle', 3, 3, 6],
    ['Straße', 6, 6, 7],
    ['ｶﾀｶﾅ', 2, 2, 6],
  ];
  for (const [text, units, charEnd, end] of cases) {
    const segment = plain.segments(text)[0]!;
    assert.deepEqual(originalPrefixEnd(text, segment, units), { charEnd, end }, text);
  }
  const text = 'the Hobbit';
  const hobbit = plain.segments(text)[2]!;
  assert.deepEqual(originalPrefixEnd(text, hobbit, 3), { charEnd: 7, end: 7 });
});
