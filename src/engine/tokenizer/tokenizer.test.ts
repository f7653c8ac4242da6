// Separators, positions, custom separators, dictionary, stop words and long words.
// Properties checked:
//  1. soft separators put the next word at +1, hard ones ("! ? ; . , " with a space, "。"...) at +8,
//     runs of separators collapse, leading separators are ignored (relevancy.md §1);
//  2. no camelCase or UAX#29 split: `a=b`, `$5`, `DeLonghi` are one word each (charabia 0.9);
//  3. separatorTokens / nonSeparatorTokens / dictionary change the cuts (settings.md §6.7);
//  4. stop words keep their position, are case-sensitive and are flagged;
//  5. words over 250 bytes keep their position but are not returned;
//  6. the inline fast path of `tokenize` and the general path of `segments` agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from './tokenizer.ts';
import type { TokenizerConfig } from './types.ts';

const plain = new Tokenizer();

function words(t: Tokenizer, text: string, first?: number): string[] {
  return t.tokenize(text, first).map((tk) => `${tk.word}@${tk.position}${tk.isStopWord ? '*' : ''}`);
}

test('separators: soft +1, hard +8, collapsed, leading ones ignored', () => {
  const cases: [string, string[]][] = [
    ['The quick brown fox', ['the@0', 'quick@1', 'brown@2', 'fox@3']],
    ['a: b', ['a@0', 'b@1']], // ':' is soft
    ['a; b', ['a@0', 'b@8']],
    ['a. b', ['a@0', 'b@8']], // ". " is hard
    ['a.b', ['a@0', 'b@1']], // "." alone is soft
    ['a, b', ['a@0', 'b@8']],
    ['a,b', ['a@0', 'b@1']],
    ['a!b a?b', ['a@0', 'b@8', 'a@9', 'b@17']],
    ['a . b', ['a@0', 'b@8']], // " " then ". "
    ['a;;;; ,, b', ['a@0', 'b@8']],
    ['a - -- b', ['a@0', 'b@1']],
    ['a。b、c', ['a@0', 'b@8', 'c@16']],
    ['a\n\n\tb\r\nc', ['a@0', 'b@1', 'c@2']],
    [', , ! leading', ['leading@0']],
    ['a (b) [c] {d} «e» “f” ‘g’', ['a@0', 'b@1', 'c@2', 'd@3', 'e@4', 'f@5', 'g@6']],
    ['1,000.50 3.14', ['1@0', '000@1', '50@2', '3@3', '14@4']],
    ["it's l'amour", ['it@0', 's@1', 'l@2', 'amour@3']],
    ['e-mail foo_bar a/b a\\b a|b', ['e@0', 'mail@1', 'foo@2', 'bar@3', 'a@4', 'b@5', 'a@6', 'b@7', 'a|b@8']],
    ['a=b $5 x^2 ~x <tag> 2+2=4', ['a=b@0', '$5@1', 'x^2@2', '~x@3', '<tag>@4', '2@5', '2=4@6']],
    ['C++ C# #hashtag @user 50%', ['c@0', 'c@1', 'hashtag@2', 'user@3', '50@4']],
    ['DeLonghi iPhone snake_case', ['delonghi@0', 'iphone@1', 'snake@2', 'case@3']],
    ['user@example.com', ['user@0', 'example@1', 'com@2']],
    ['`code` and **bold**', ['code@0', 'and@1', 'bold@2']],
    ['a\u00a0b c', ['a b@0', 'c@1']], // no-break space is not a separator (NFKD makes it a space)
    ['a\u2002b', ['a@0', 'b@1']], // en space is
    ['a \u00a0 b', ['a@0', 'b@1']], // ...and alone it normalises to " ", a separator
    ['a× b÷c ±d', ['a@0', 'b@1', 'c@2', 'd@3']],
    ['a\u0000b', ['a@0', 'b@1']], // "\0" normalises to "" and is then an empty word, not a separator
    ['hello… world‥', ['hello@0', '...@1', 'world@2', '..@3']], // "…" classifies as the word "..." (NFKD)
    ['wait‼ what⁉', ['wait@0', '!!@1', 'what@2', '!?@3']],
  ];
  for (const [text, expected] of cases) assert.deepEqual(words(plain, text), expected, text);
});

test('positions start at firstPosition', () => {
  assert.deepEqual(words(plain, 'x y. z', 16), ['x@16', 'y@17', 'z@25']);
});

test('custom separator and non-separator tokens', () => {
  const cases: [TokenizerConfig, string, string[]][] = [
    [{ separatorTokens: ['&sep', '<br/>'] }, 'Mac&sepcheese a<br/>b', ['mac@0', 'cheese@1', 'a@2', 'b@3']],
    [{}, 'a<br/>b', ['a<br@0', '>b@1']],
    [{ separatorTokens: ['|'] }, 'a|b', ['a@0', 'b@1']],
    [{ separatorTokens: ['==>'] }, 'a==>b a==b', ['a@0', 'b@1', 'a==b@2']],
    [{ nonSeparatorTokens: ['#', '&', '-'] }, 'C# & F# e-mail', ['c#@0', '&@1', 'f#@2', 'e-mail@3']],
    [{ nonSeparatorTokens: ['.'] }, 'a.b a. b', ['a.b@0', 'a@1', 'b@9']], // ". " stays a separator
    [{ nonSeparatorTokens: ['!'] }, 'wow! great！ yes', ['wow!@0', 'great@1', '!@2', 'yes@3']], // "！" is still
    // matched as a separator string but its NFKD form "!" is no longer a separator: a word
    [{ stopWords: new Set(['-']) }, 'a - b', ['a@0', '-@1*', 'b@2']], // stop words are classified first
  ];
  for (const [config, text, expected] of cases) {
    assert.deepEqual(words(new Tokenizer(config), text), expected, `${JSON.stringify(config)} ${text}`);
  }
});

test('dictionary words are kept whole, leftmost-longest, case-sensitive', () => {
  const cases: [TokenizerConfig, string, string[]][] = [
    [{ dictionary: ['J. R. R.', 'J. K.', 'Dr.'] }, 'J. R. R. Tolkien. J. K. Rowling. Dr. Seuss',
      ['j. r. r.@0', 'tolkien@1', 'j. k.@9', 'rowling@10', 'dr.@18', 'seuss@19']],
    [{ dictionary: ['J.R.R.'] }, 'j.r.r. J.R.R.', ['j@0', 'r@1', 'r@2', 'j.r.r.@10']], // "r. " is hard
    [{ dictionary: ['C#'] }, 'ABC#D', ['ab@0', 'c#@1', 'd@2']],
    [{ dictionary: ['ab', 'abcd'] }, 'abcde abc', ['abcd@0', 'e@1', 'ab@2', 'c@3']],
    // settings.md §6.7 worked example
    [{ nonSeparatorTokens: ['#', '&'], separatorTokens: ['<br/>', '&sep'], dictionary: ['#', 'A#', 'C#', 'D#', 'G#'] },
      'G#D#G#C#', ['g#@0', 'd#@1', 'g#@2', 'c#@3']],
    [{ nonSeparatorTokens: ['#', '&'], separatorTokens: ['<br/>', '&sep'], dictionary: ['#', 'C#'] },
      'Mac&sep&&sepcheese Mac & cheese', ['mac@0', '&@1', 'cheese@2', 'mac@3', '&@4', 'cheese@5']],
    [{ dictionary: ['東京'] }, '東京タワー', ['東京@0', 'たわあ@1']],
  ];
  for (const [config, text, expected] of cases) {
    assert.deepEqual(words(new Tokenizer(config), text), expected, `${JSON.stringify(config)} ${text}`);
  }
});

test('stop words keep their position and are flagged', () => {
  const t = new Tokenizer({ stopWords: new Set(['the', 'of']) });
  assert.deepEqual(words(t, 'The Lord of the Rings'), ['the@0', 'lord@1', 'of@2*', 'the@3*', 'rings@4']);
  assert.deepEqual(
    t.segments('of the').map((s) => [s.kind, s.position]),
    [['stopWord', 0], ['separator', -1], ['stopWord', 1]],
  );
});

test('words over 250 bytes take a position but are not returned', () => {
  const cases: [string, string[]][] = [
    [`x ${'a'.repeat(250)} y`, ['x@0', `${'a'.repeat(250)}@1`, 'y@2']],
    [`x ${'a'.repeat(251)} y`, ['x@0', 'y@2']],
    [`x ${'ж'.repeat(125)} y`, ['x@0', `${'ж'.repeat(125)}@1`, 'y@2']], // 250 bytes
    [`x ${'Ж'.repeat(126)} y`, ['x@0', 'y@2']], // 252 bytes
    [`x ${'é'.repeat(200)} y`, ['x@0', `${'e'.repeat(200)}@1`, 'y@2']], // measured after folding
  ];
  for (const [text, expected] of cases) assert.deepEqual(words(plain, text), expected, text.slice(0, 20));
  const long = plain.segments(`x ${'a'.repeat(300)}`).at(-1)!;
  assert.equal(long.indexed, false);
  assert.equal(long.position, 1);
});

test('segments list separators with their kind and NFKD lemma', () => {
  const segs = plain.segments('say ＂hi＂. Ok');
  assert.deepEqual(
    segs.map((s) => [s.kind, s.lemma, s.hard, s.position]),
    [
      ['word', 'say', false, 0], ['separator', ' ', false, -1], ['separator', '"', false, -1],
      ['word', 'hi', false, 1], ['separator', '"', false, -1], ['separator', '. ', true, -1],
      ['word', 'ok', false, 9],
    ],
  );
});

// deterministic pseudo-random texts over a pool of tricky characters
function randomTexts(count: number): string[] {
  const pool = [
    'a', 'B', 'z', '1', '$', '=', ' ', ' ', '.', ', ', '. ', '-', "'", '!', '…', 'é', 'É', 'ß', 'ж', 'Ж',
    'ς', '東', 'タ', 'ー', 'ก', '่', '😀', '\u00a0', '\u0000', '\u0301', '#', '&', 'J. R. R.', 'the', 'The',
    '\uff01', '\ud800', 'İ', 'œ', '\t', '\n',
  ];
  let seed = 42;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const len = 1 + rnd(40);
    for (let j = 0; j < len; j++) s += pool[rnd(pool.length)];
    out.push(s);
  }
  return out;
}

test('tokenize (fast path) and segments (general path) agree', () => {
  const configs: TokenizerConfig[] = [
    {},
    { stopWords: new Set(['the', 'The', '-']) },
    { dictionary: ['J. R. R.', 'C#'], nonSeparatorTokens: ['#', '&'], separatorTokens: ['==>'] },
  ];
  for (const config of configs) {
    const t = new Tokenizer(config);
    for (const text of randomTexts(400)) {
      const fromSegments = t.segments(text, 3)
        .filter((s) => s.position >= 0 && (s.indexed || s.kind === 'stopWord'))
        .map((s) => ({
          word: s.lemma.trim(), position: s.position, start: s.start, end: s.end,
          charStart: s.charStart, charEnd: s.charEnd, isStopWord: s.kind === 'stopWord',
        }));
      assert.deepEqual(t.tokenize(text, 3), fromSegments, JSON.stringify(text));
    }
  }
});
