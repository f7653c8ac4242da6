// Normalisation of words (charabia's normaliser chain, see normalize.ts). Expected values marked
// "charabia" are copied from the crate's own normaliser tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyForm, classifyFormByChar, normalizeByChar, normalizeToken, toHiragana } from './normalize.ts';
import { Tokenizer } from './tokenizer.ts';
import { CJ, CYRILLIC, GREEK, HEBREW, LATIN, OTHER, THAI } from './scripts.ts';
import { LANG_JPN, LANG_NONE, LANG_SWE } from './locales.ts';

const plain = new Tokenizer();

test('Tokenizer.normalize folds case, accents, ligatures and widths per script', () => {
  const cases: [string, string][] = [
    ['Thé', 'the'],
    ['ÉCOLE', 'ecole'],
    ['Ŵôřlḑôle', 'worldole'],
    ['Westfália', 'westfalia'],
    ['Œuvre', 'oeuvre'], // charabia AeOeNormalizer
    ['Dæmon', 'daemon'],
    ['ﬁne', 'fine'], // NFKD ligature
    ['Straße', 'straße'], // ß is kept: NFKD has no decomposition and no normaliser maps it
    ['ØRSTED', 'ørsted'], // ø is kept too
    ['Łódź', 'łodz'], // ł is kept, ó and ź lose their accents
    ['Đorđe', 'dorde'], // charabia VietnameseNormalizer: Đ đ → d
    ['ÐÐ', 'ðð'], // Ð is lowercased to ð first, which no normaliser maps
    ['İstanbul', 'istanbul'], // NFKD I + U+0307, mark stripped
    ['ışık', 'isik'], // charabia TurkishNormalizer: ı → i
    ['ＡＢＣ１２３', 'abc123'], // full width (NFKD)
    ['Ｔｏｋｙｏ', 'tokyo'],
    ['ΟΔΟΣ', 'οδοσ'], // Greek: lowercase, final sigma → sigma
    ['Αγαπητός', 'αγαπητοσ'], // charabia GreekNormalizer test
    ['άλλος', 'αλλοσ'],
    ['МОСКВА', 'москва'],
    ['Ёжик', 'е\u0308жик'], // Cyrillic keeps its marks (decomposed): charabia strips marks only for
    ['йод', 'и\u0306од'], // Latin, Greek, Hebrew, Thai and Arabic
    ['l’l‘l‛', "l'l'l'"], // charabia QuoteNormalizer (Latin)
    ['  Spaced  ', 'spaced'], // trimmed
    ['123', '123'],
    ['ABCÇDEFGĞHIİJKLMNOÖPRSŞTUÜVYZ', 'abccdefgghiijklmnooprsstuuvyz'], // charabia Turkish test
    ['çalışma', 'calisma'],
  ];
  for (const [input, expected] of cases) assert.equal(plain.normalize(input), expected, input);
});

test('the pipeline follows the script of the token', () => {
  const cases: [string, number, number, string][] = [
    ['ง่าย', THAI, LANG_NONE, 'งาย'], // charabia NonspacingMarkNormalizer test
    ['นิดเดียว', THAI, LANG_NONE, 'นดเดยว'],
    ['น้ำ', THAI, LANG_NONE, 'นา'], // ำ decomposes to U+0E4D U+0E32, the mark goes
    ['כָּבוֹד', HEBREW, LANG_NONE, 'כבוד'],
    ['ΟΔΟΣ', GREEK, LANG_NONE, 'οδοσ'],
    ['Ёж', CYRILLIC, LANG_NONE, 'е\u0308ж'],
    ['Ⅻ', OTHER, LANG_NONE, 'XII'], // no lowercase for script Other
    ['Ⅻ', LATIN, LANG_NONE, 'xii'],
    ['\u0000生而自由\u0002oo\u0000', CJ, LANG_NONE, '生而自由oo'], // control characters dropped
    ['ダメ駄目だめHi', CJ, LANG_JPN, 'た\u3099め駄目た\u3099めHi'], // charabia JapaneseNormalizer test
    ['ｶﾞｷﾞｸﾞｹﾞｺﾞ', CJ, LANG_JPN, 'か\u3099き\u3099く\u3099け\u3099こ\u3099'], // charabia NFKD test
    ['öpÅscålcäsÄÖs', LATIN, LANG_SWE, 'öpåscålcäsäös'], // charabia SwedishRecomposition test
    ['öpÅscålcäsÄÖs', LATIN, LANG_NONE, 'opascalcasaos'],
  ];
  for (const [input, script, lang, expected] of cases) {
    assert.equal(normalizeToken(input, script, lang), expected, `${input} (script ${script})`);
  }
});

test('katakana become hiragana, long vowel marks become vowels (wana_kana)', () => {
  const cases: [string, string][] = [
    ['カタカナ', 'かたかな'],
    ['ラーメン', 'らあめん'],
    ['スーパー', 'すうぱあ'],
    ['ー', 'ー'], // an initial mark stays
    ['ひらがなー', 'ひらがなー'], // all hiragana: untouched
    ['ヶ月', 'ヶ月'],
    ['漢字', '漢字'],
  ];
  for (const [input, expected] of cases) assert.equal(toHiragana(input), expected, input);
});

test('stop words are matched on the NFKD form, before lowercasing (case-sensitive)', () => {
  const t = new Tokenizer({ stopWords: new Set(['the', 'Café']) });
  const words = t.tokenize('The the café Café Cafe\u0301 cafe\u0301').map((tk) => [tk.word, tk.isStopWord]);
  assert.deepEqual(words, [
    ['the', false],
    ['the', true],
    ['cafe', false],
    ['cafe', true], // the stored stop word is NFKD, so composed and decomposed text both match
    ['cafe', true],
    ['cafe', false],
  ]);
});

test('the character-wise fast path gives the same words as the string pipeline', () => {
  const pool = [...'aZéÉœÆßøŁđİıΣςάЁйЖ…ﬁＡ１’ǅⅫ①㈱℡ǆΐ\u00a0\u0001Ꝺᵃ'];
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let i = 0; i < 2000; i++) {
    let word = '';
    for (let j = 1 + rnd(8); j > 0; j--) word += pool[rnd(pool.length)];
    for (const script of [LATIN, GREEK, CYRILLIC, OTHER]) {
      const fast = normalizeByChar(word, script);
      if (fast !== null) assert.equal(fast, normalizeToken(word, script, LANG_NONE), `${word} (script ${script})`);
    }
    const form = classifyFormByChar(word);
    if (form !== null) assert.equal(form, classifyForm(word, LANG_NONE), word);
  }
});
