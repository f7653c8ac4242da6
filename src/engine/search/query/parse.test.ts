// parseQuery (search.md §8, relevancy.md §2.1; milli `located_query_terms_from_tokens`):
// 1. Words take consecutive positions; each hard separator adds 7 extra (`. ` → +8).
// 2. The last word is in prefix position only when nothing follows it (no space, no separator).
// 3. Quotes make phrases: stop words inside are null placeholders, the phrase starts at its first
//    non-stop word, an unclosed quote runs to the end, a hard separator splits the phrase, a
//    phrase of stop words only disappears.
// 4. `-word` / `-"phrase"` negate when `-` starts the query or follows whitespace; `- word` and
//    `a-b` do not; negative words still take a position.
// 5. Stop words outside phrases are dropped, except the last token of the query.
// 6. At most 10 positive terms (a phrase counts 1); everything after the 10th is ignored,
//    negative words and an open phrase included.
// 7. Queries without words give no terms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '../../tokenizer/index.ts';
import { parseQuery } from './parse.ts';
import type { ParsedQuery } from './types.ts';

const tokenizer = new Tokenizer({ stopWords: new Set(['the', 'to', 'of']) });
const parse = (q: string): ParsedQuery => parseQuery(q, tokenizer);
/** Compact view: `word@pos`, `word*` for prefix position, `"a b"@start-end` for phrases. */
function view(q: string): string[] {
  return parse(q).terms.map((t) =>
    t.kind === 'phrase'
      ? `"${t.words.map((w) => w ?? '_').join(' ')}"@${t.positions[0]}-${t.positions[1]}`
      : `${t.words[0]}${t.isPrefix ? '*' : ''}@${t.positions[0]}`,
  );
}

test('1. positions: +1 per word, +8 after a hard separator', () => {
  assert.deepEqual(view('hello world'), ['hello@0', 'world*@1']);
  assert.deepEqual(view('foo. bar'), ['foo@0', 'bar*@8']);
  assert.deepEqual(view('foo, bar; baz'), ['foo@0', 'bar@8', 'baz*@16']);
  assert.deepEqual(view('a: b'), ['a@0', 'b*@1']);
  // leading hard separator: the first word starts at 7 (milli wraps from u16::MAX)
  assert.deepEqual(view('! foo'), ['foo*@7']);
});

test('2. prefix position: last token, not followed by a space or separator', () => {
  assert.deepEqual(view('hob'), ['hob*@0']);
  assert.deepEqual(view('hob '), ['hob@0']);
  assert.deepEqual(view('hob.'), ['hob@0']);
  assert.deepEqual(view('train dra'), ['train@0', 'dra*@1']);
  assert.deepEqual(view('"train dra"'), ['"train dra"@0-1']);
});

test('3. phrases', () => {
  assert.deepEqual(view('"the lord of" rings'), ['"_ lord _"@1-2', 'rings*@3']);
  assert.deepEqual(view('"unclosed phrase'), ['"unclosed phrase"@0-1']);
  assert.deepEqual(view('"a b. c d" e'), ['"a b"@0-1', '"c d"@9-10', 'e*@11']);
  assert.deepEqual(view('"the" x'), ['x*@1']);
  assert.deepEqual(view('x "-y"'), ['x@0', '"y"@1-1']);
  assert.deepEqual(view('a "" b'), ['a@0', 'b*@1']);
  // full-width quote: NFKD form is '"'
  assert.deepEqual(view('＂a b＂ c'), ['"a b"@0-1', 'c*@2']);
});

test('4. negation', () => {
  assert.deepEqual(parse('-escape escape'), {
    terms: [{ kind: 'word', words: ['escape'], positions: [1, 1], isPrefix: true }],
    negativeWords: ['escape'],
    negativePhrases: [],
  });
  assert.deepEqual(parse('a -"x y" z').negativePhrases, [['x', 'y']]);
  assert.deepEqual(view('a -"x y" z'), ['a@0', 'z*@3']);
  // a hard separator splits a negative phrase into two negative phrases
  assert.deepEqual(parse('a -"b. c" d').negativePhrases, [['b'], ['c']]);
  assert.deepEqual(parse('a - b').negativeWords, []);
  assert.deepEqual(view('a - b'), ['a@0', 'b*@1']);
  assert.deepEqual(parse('a-b').negativeWords, []);
  assert.deepEqual(view('a-b'), ['a@0', 'b*@1']);
  assert.deepEqual(parse('-the cat').negativeWords, ['the']);
  const only = parse('-escape');
  assert.deepEqual([only.terms, only.negativeWords], [[], ['escape']]);
});

test('5. stop words dropped except in last position', () => {
  assert.deepEqual(view('to the'), ['the*@1']);
  assert.deepEqual(view('to the '), []);
  assert.deepEqual(view('lord of the rings'), ['lord@0', 'rings*@3']);
});

test('6. the 10-term limit', () => {
  assert.deepEqual(view('a b c d e f g h i j'), ['a@0', 'b@1', 'c@2', 'd@3', 'e@4', 'f@5', 'g@6', 'h@7', 'i@8', 'j*@9']);
  const over = parse('a b c d e f g h i j k -l');
  assert.equal(over.terms.length, 10);
  assert.equal(over.terms[9]!.isPrefix, false);
  assert.deepEqual(over.negativeWords, []);
  // a phrase counts as one term; the 11th (an open phrase) is dropped
  const phrases = parse('"p q" b c d e f g h i j "k l"');
  assert.equal(phrases.terms.length, 10);
  assert.deepEqual(phrases.terms[0]!.words, ['p', 'q']);
  assert.deepEqual(phrases.terms[9]!.words, ['j']);
  // negative words do not count
  assert.equal(parse('-x a b c d e f g h i j').terms.length, 10);
  assert.equal(parseQuery('a b c', tokenizer, 2).terms.length, 2);
});

test('7. no words', () => {
  for (const q of ['', '   ', '. "', '-', '""']) assert.deepEqual(parse(q), { terms: [], negativeWords: [], negativePhrases: [] }, q);
});
