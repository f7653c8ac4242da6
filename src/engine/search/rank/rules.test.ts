// One property per ranking rule, on small indexes (relevancy.md §4–5). Properties checked:
// 1. typo: exact words before one-typo words before two-typo words; a first-letter typo costs 2
// 2. proximity: adjacent < one word between < reversed < far apart; a hard separator counts as far
// 3. attributeRank: a match in an earlier searchableAttributes entry ranks first
// 4. wordPosition: a match nearer the start of its attribute ranks first
// 5. exactness: an attribute equal to the query, then one starting with it, then the rest
// 6. phrases need consecutive words; negative words and phrases exclude documents
// 7. offset/limit walk the same order as one big page; the threshold drops low scores;
//    a zero cutoff returns the candidates in id order with a `skipped` score
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globalScore } from './bucket-sort.ts';
import { testIndex } from './test-index.ts';

async function ranked(docs: Record<string, unknown>[], q: string, opts: Parameters<ReturnType<typeof testIndex>['search']>[1] = {}, index: { searchable?: string[] } = {}) {
  const t = testIndex(docs, index);
  try {
    return t.search(q, opts);
  } finally {
    await t.close();
  }
}

test('typo: exact, then one typo, then two typos (first letter counts two)', async () => {
  const r = await ranked(
    [
      { id: 'two', t: 'wondrefulx' }, // transposition + insertion: 2 typos (9 characters allow 2)
      { id: 'first', t: 'honderful' }, // first-letter substitution: 2 typos
      { id: 'one', t: 'wondreful' }, // transposition: 1 typo
      { id: 'exact', t: 'wonderful' },
    ],
    'wonderful ',
  );
  assert.deepEqual(r.docs.slice(0, 2), ['exact', 'one']);
  assert.deepEqual(r.docs.slice(2).sort(), ['first', 'two']);
  const typo = (id: string) => r.scores[r.docs.indexOf(id)]!.find((s) => s.rule === 'typo')!;
  assert.deepEqual([typo('exact').rank, typo('one').rank, typo('two').rank, typo('first').rank], [3, 2, 1, 1]);
});

test('proximity: adjacent, one between, reversed, far apart, hard separator', async () => {
  const r = await ranked(
    [
      { id: 'far', t: 'black a b c d e cat' },
      { id: 'hard', t: 'black. cat' },
      { id: 'reversed', t: 'cat black' },
      { id: 'gap', t: 'black big cat' },
      { id: 'adjacent', t: 'the black cat' },
    ],
    'black cat ',
  );
  assert.equal(r.docs[0], 'adjacent');
  const prox = (id: string) => r.scores[r.docs.indexOf(id)]!.find((s) => s.rule === 'proximity')!.rank;
  assert.deepEqual(['adjacent', 'gap', 'reversed', 'far', 'hard'].map(prox), [4, 3, 3, 1, 1]);
});

test('attributeRank follows searchableAttributes order', async () => {
  const r = await ranked(
    [
      { id: 'body', title: 'nothing', body: 'sparrow' },
      { id: 'title', title: 'sparrow', body: 'nothing' },
    ],
    'sparrow',
    {},
    { searchable: ['title', 'body'] },
  );
  assert.deepEqual(r.docs, ['title', 'body']);
});

test('wordPosition: earlier in the attribute ranks first', async () => {
  const r = await ranked(
    [
      { id: 'late', t: 'one two three four five six seven eight sparrow' },
      { id: 'early', t: 'sparrow one two three' },
    ],
    'sparrow',
  );
  assert.deepEqual(r.docs, ['early', 'late']);
});

test('exactness: equal attribute, then starting with the query, then the rest', async () => {
  const r = await ranked(
    [
      { id: 'inside', t: 'a red fox' },
      { id: 'starts', t: 'red fox jumps' },
      { id: 'equal', t: 'red fox' },
    ],
    'red fox',
  );
  assert.deepEqual(r.docs, ['equal', 'starts', 'inside']);
  assert.deepEqual(
    r.scores.map((s) => s.find((x) => x.rule === 'exactAttribute')!.rank),
    [3, 2, 1],
  );
});

test('phrases and negations', async () => {
  const docs = [
    { id: 'split', t: 'red big fox' },
    { id: 'phrase', t: 'the red fox' },
    { id: 'other', t: 'red fox and a dog' },
  ];
  assert.deepEqual((await ranked(docs, '"red fox"')).docs.sort(), ['other', 'phrase']);
  assert.deepEqual((await ranked(docs, 'red -dog')).docs.sort(), ['phrase', 'split']);
  assert.deepEqual((await ranked(docs, 'fox -"red fox"')).docs, ['split']);
});

test('pages, threshold and cutoff', async () => {
  const docs = Array.from({ length: 30 }, (_, i) => ({ id: i, t: i % 3 === 0 ? 'blue whale' : i % 3 === 1 ? 'blue big whale' : 'whale blue' }));
  const t = testIndex(docs);
  try {
    const all = t.search('blue whale', { limit: 30 });
    const pages = [0, 7, 14, 21, 28].flatMap((offset) => t.search('blue whale', { offset, limit: 7 }).docs);
    assert.deepEqual(pages, all.docs);
    assert.equal(all.candidates, 30);
    const best = globalScore(all.scores[0]!);
    const strict = t.search('blue whale', { threshold: best, limit: 30 });
    assert.ok(strict.docs.length > 0 && strict.docs.length < 30);
    assert.ok(strict.scores.every((s) => globalScore(s) >= best));
    assert.equal(strict.candidates, strict.docs.length);
    const cut = t.search('blue whale', { deadline: 0, limit: 5 });
    assert.deepEqual(cut.docs, ['0', '1', '2', '3', '4']);
    assert.ok(cut.degraded);
    assert.deepEqual(cut.scores[0], [{ rule: 'skipped', rank: 0, max: 1 }]);
  } finally {
    await t.close();
  }
});
