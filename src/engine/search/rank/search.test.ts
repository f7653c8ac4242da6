// Keyword search end to end on small indexes. Properties checked:
// 1. matching strategies pick relevancy.md §3's documents in its order ("Captain Marvel")
// 2. the worked example of §8.1 scores 0.9490740740740741 with the listed rule ranks
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globalScore } from './bucket-sort.ts';
import { testIndex } from './test-index.ts';

const CAPTAIN = [
  { id: 1, title: 'Shazam!' },
  { id: 2, title: 'Captain Planet' },
  { id: 3, title: 'Captain Marvel' },
  { id: 4, title: 'a Captain Marvel ersatz' },
  { id: 5, title: "He's not part of the Marvel Cinematic Universe" },
  { id: 6, title: 'a Shazam ersatz, but better than Captain Planet' },
  { id: 7, title: 'Capitain CAAAAAVEEERNE!!!!' },
];

test('matching strategies: last, all, frequency', async () => {
  const t = testIndex(CAPTAIN);
  try {
    assert.deepEqual(t.search('Captain Marvel').docs, ['3', '4', '2', '6', '7']);
    assert.deepEqual(t.search('Captain Marvel', { strategy: 'all' }).docs, ['3', '4']);
    assert.deepEqual(t.search('Captain Marvel', { strategy: 'frequency' }).docs, ['3', '4', '5']);
  } finally {
    await t.close();
  }
});

test('worked score example: "train dragon"', async () => {
  const t = testIndex([{ id: 1, title: 'How to Train Your Dragon: The Hidden World' }]);
  try {
    const r = t.search('train dragon');
    assert.deepEqual(r.docs, ['1']);
    assert.deepEqual(
      r.scores[0]!.map((s) => [s.rule, s.rank, s.max]),
      [['words', 2, 2], ['typo', 3, 3], ['proximity', 3, 4], ['attributeRank', 1, 1], ['wordPosition', 17, 21], ['exactAttribute', 1, 3], ['exactWords', 3, 3]],
    );
    assert.equal(globalScore(r.scores[0]!), 0.9490740740740741);
  } finally {
    await t.close();
  }
});
