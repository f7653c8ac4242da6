// Scripts written without spaces (CJK, Thai) and script groups.
// Properties checked:
//  1. CJ, Thai and Khmer runs are cut into dictionary words (ICU here, jieba/lindera/FST in
//     charabia: the expected words below are ones both agree on), consecutive words +1;
//  2. a change between two scripts starts a new word (charabia's script groups), digits and
//     symbols join the group before them;
//  3. locales decide Chinese vs Japanese; an allow-list without either leaves CJ text whole;
//  4. long runs are segmented in windows without losing or cutting text;
//  5. number-like runs are never segmented.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from './tokenizer.ts';

const plain = new Tokenizer();

function words(t: Tokenizer, text: string): string[] {
  return t.tokenize(text).map((tk) => `${tk.word}@${tk.position}`);
}

test('CJK and Thai text is cut into words', () => {
  const cases: [string, string[]][] = [
    ['我爱北京天安门', ['我@0', '爱@1', '北京@2', '天安门@3']],
    ['中华人民共和国', ['中华@0', '人民@1', '共和国@2']],
    ['東京大学', ['東京@0', '大学@1']],
    ['私は学生です', ['私@0', 'は@1', '学生@2', 'て\u3099す@3']], // NFKD splits the voicing mark
    ['北京。上海', ['北京@0', '上海@8']], // 。 is hard
    ['北京、上海 广州', ['北京@0', '上海@8', '广州@9']],
    ['ฉันกินข้าว สวัสดีครับ', ['ฉน@0', 'กน@1', 'ขาว@2', 'สวสด@3', 'ครบ@4']], // Thai marks stripped
    ['ภาษาไทย', ['ภาษา@0', 'ไทย@1']], // charabia's dictionary keeps ภาษาไทย whole
  ];
  for (const [text, expected] of cases) assert.deepEqual(words(plain, text), expected, text);
});

test('Japanese words are indexed in hiragana', () => {
  // NFKD splits the voicing marks off (バ → ハ + U+3099), which stay
  assert.deepEqual(plain.tokenize('トートバッグ').map((t) => t.word), ['とうとは\u3099っく\u3099']);
  assert.deepEqual(plain.tokenize('ｶﾀｶﾅ').map((t) => t.word), ['かたかな']);
});

test('a new script starts a new word; digits and symbols join the current group', () => {
  const cases: [string, string[]][] = [
    ['東京Tokyo', ['東京@0', 'tokyo@1']],
    ['Pythonпрограмма', ['python@0', 'программа@1']],
    ['1привет abc', ['1привет@0', 'abc@1']], // "1" joins the first group (Cyrillic)
    ['abc 1привет', ['abc@0', '1@1', 'привет@2']], // "1" joins the Latin group, a new one starts at п
    ['abc123def', ['abc123def@0']],
    ['αβγabc', ['αβγ@0', 'abc@1']],
    ['😀abc😀', ['😀abc😀@0']], // emoji are script Other
    // Hangul: whole chunks (charabia uses ko-dic), NFKD turns syllables into jamo
    ['한국어를 배우다', [`${'한국어를'.normalize('NFKD')}@0`, `${'배우다'.normalize('NFKD')}@1`]],
  ];
  for (const [text, expected] of cases) assert.deepEqual(words(plain, text), expected, text);
});

test('locales choose the language of CJ text', () => {
  // an allow-list naming neither Chinese nor Japanese: charabia finds no CJ segmenter
  assert.deepEqual(words(new Tokenizer({ locales: ['eng'] }), '東京大学'), ['東京大学@0']);
  assert.deepEqual(words(new Tokenizer({ locales: ['jpn'] }), '東京大学'), ['東京@0', '大学@1']);
  assert.deepEqual(words(new Tokenizer({ locales: ['zh'] }), '北京大学'), ['北京@0', '大学@1']);
  // katakana → hiragana only for Japanese (or unknown) CJ text
  assert.deepEqual(words(new Tokenizer({ locales: ['cmn'] }), 'カタカナ').length, 1);
  assert.notEqual(new Tokenizer({ locales: ['cmn'] }).tokenize('カタカナ')[0]!.word, 'かたかな');
  assert.equal(new Tokenizer({ locales: ['ja'] }).normalize('カタカナ'), 'かたかな');
  assert.equal(new Tokenizer({ locales: ['swe'] }).normalize('Smörgåsbord'), 'smörgåsbord');
  assert.equal(plain.normalize('Smörgåsbord'), 'smorgasbord');
  assert.equal(plain.withLocales(['sv']).normalize('Ö'), 'ö');
});

test('long runs are segmented in windows, covering the text exactly', () => {
  const text = '東京大学'.repeat(60) + '北京';
  const tokens = plain.tokenize(text);
  assert.equal(tokens.map((t) => t.word).join(''), text);
  assert.ok(tokens.every((t, i) => t.position === i && t.charEnd - t.charStart < 64));
  assert.ok(tokens.filter((t) => t.word === '東京').length >= 55);
  const thai = 'ฉันกินข้าว'.repeat(30);
  const thaiTokens = plain.segments(thai);
  assert.equal(thaiTokens.map((t) => thai.slice(t.charStart, t.charEnd)).join(''), thai);
});

test('number-like runs inside CJ text are not segmented', () => {
  assert.deepEqual(words(plain, '東京 2020 3.14'), ['東京@0', '2020@1', '3@2', '14@3']);
  assert.deepEqual(words(plain, '東京 １２３４'), ['東京@0', '1234@1']);
});
