// Proximity rule (relevancy.md §1 word positions / pair proximity, §5.3; settings.md §6.10).
// rankingRules ["words", "proximity"] with matchingStrategy all: the words rule is then not
// part of the chain (relevancy.md §4), so proximity is the only rule and `order` 0.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';
import { hitById, ids, makeIndex } from './relevancy-helpers.ts';

let t: TestServer;
let uid: string;
let byWord: string;
let byAttribute: string;

const ATTRIBUTE_DOCS = [
  { id: 1, title: 'red x x x x apple', body: '' },
  { id: 2, title: 'red', body: 'apple' },
  { id: 3, title: 'red apple', body: '' },
];

before(async () => {
  t = await startTestServer();
  const rules = { rankingRules: ['words', 'proximity'] };
  [uid, byWord, byAttribute] = await Promise.all([
    makeIndex(t, 'prox', {
      settings: { searchableAttributes: ['text'], ...rules },
      documents: [
        { id: 1, text: 'red apple pie' },
        { id: 2, text: 'red big apple pie' },
        { id: 3, text: 'apple red pie' },
        { id: 4, text: 'red. apple pie' },
        { id: 5, text: 'red big big apple pie' },
        { id: 6, text: 'red x x x apple pie' },
        { id: 7, text: 'apple pie red' },
      ],
    }),
    makeIndex(t, 'prox_word', { settings: { searchableAttributes: ['title', 'body'], ...rules }, documents: ATTRIBUTE_DOCS }),
    makeIndex(t, 'prox_attr', {
      settings: { searchableAttributes: ['title', 'body'], proximityPrecision: 'byAttribute', ...rules },
      documents: ATTRIBUTE_DOCS,
    }),
  ]);
});
after(async () => {
  await t?.close();
});

async function search(index: string, q: string, params: Record<string, unknown> = {}) {
  return t.client.index(index).search(q, { matchingStrategy: 'all', attributesToRetrieve: ['id'], ...params });
}

describe('proximity', () => {
  test('cost table: distance, reversed order, hard separators', async () => {
    // "red apple pie ": pairs (red, apple) and (apple, pie), 0..3 each, max cost 6 → max_rank 7.
    //   1 "red apple pie"          0 + 0 = 0 → 7/7
    //   2 "red big apple pie"      distance 2 → 1, + 0 = 1 → 6/7
    //   3 "apple red pie"          reversed adjacency → 1, apple→pie distance 2 → 1 = 2 → 5/7
    //   5 "red big big apple pie"  distance 3 → 2, + 0 = 2
    //   7 "apple pie red"          reversed distance 2 → 2, + 0 = 2
    //   4 "red. apple pie"         ". " is hard: apple at 0 + 8 → 3, + 0 = 3 → 4/7
    //   6 "red x x x apple pie"    distance 4 → 3, + 0 = 3
    const res = await search(uid, 'red apple pie ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [1, 2, 3, 5, 7, 4, 6]);
    assert.deepEqual(hitById(res, 1)._rankingScoreDetails, { proximity: { order: 0, score: 1 } });
    assert.deepEqual(hitById(res, 2)._rankingScoreDetails, { proximity: { order: 0, score: 6 / 7 } });
    assert.deepEqual(hitById(res, 3)._rankingScoreDetails, { proximity: { order: 0, score: 5 / 7 } });
    assert.deepEqual(hitById(res, 4)._rankingScoreDetails, { proximity: { order: 0, score: 4 / 7 } });
  });

  test('a single term has one proximity bucket', async () => {
    // 1 term → max_rank 3·0 + 1 = 1: score 1 for everyone, id order
    const res = await search(uid, 'apple ', { showRankingScoreDetails: true });
    assert.deepEqual(ids(res), [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(hitById(res, 6)._rankingScoreDetails, { proximity: { order: 0, score: 1 } });
  });

  test('words in different attributes are never close', async () => {
    // byWord: 3 adjacent (0); 1 distance 5 → 3; 2 different attributes → 3 → [3, 1, 2]
    assert.deepEqual(ids(await search(byWord, 'red apple ')), [3, 1, 2]);
    // no document holds "apple red" consecutively
    assert.deepEqual(ids(await search(byWord, '"apple red"')), []);
  });

  test('proximityPrecision byAttribute', async () => {
    // same attribute → 0 (1 and 3), different attributes → 3 (2): [1, 3, 2]
    assert.deepEqual(ids(await search(byAttribute, 'red apple ')), [1, 3, 2]);
    // phrases degrade to "same attribute, any order or distance" (settings.md §6.10)
    assert.deepEqual(ids(await search(byAttribute, '"apple red"')), [1, 3]);
  });
});
