// Document batches keep the search tables in step (index-operation.ts). Properties checked:
// 1. document additions, deletions and clears maintain the word tables and the word set
// 2. a settings change that changes what is indexed (searchableAttributes, stopWords) rebuilds
//    the tables, and documents added later in the same batch are indexed with the new settings
// 3. a settings change that does not (rankingRules, or only the order of searchableAttributes)
//    leaves the tables as they are
// 4. a failed task in a batch leaves no search trace; a replayed batch applies nothing twice
// 5. an index whose documents were stored before search indexing existed is indexed by its next batch
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import type { Index } from '../../engine/index/index.ts';
import { batchHarness } from './batch-harness.test-support.ts';

const { addition, settings, deletion, clear, run, indexOf } = batchHarness('muninn-index-operation-');
const ids = (index: Index, word: string) => index.search.words.docids([word]).toArray();
const hasWord = (index: Index, word: string) => index.wordSets().words.has(word);

test('additions, deletions and clears maintain the word tables and the word set', async () => {
  const name = 'docs';
  await run(name, [addition(name, [{ id: 1, title: 'red fox' }, { id: 2, title: 'blue fox' }]), deletion(name, ['1'])]);
  const index = indexOf(name);
  assert.deepEqual(ids(index, 'fox'), [1]);
  assert.equal(index.search.words.has(['red']), false);
  assert.ok(hasWord(index, 'blue') && !hasWord(index, 'red'));
  await run(name, [clear(name), addition(name, [{ id: 3, title: 'green owl' }])]);
  assert.equal(index.search.words.has(['fox']), false);
  assert.ok(hasWord(index, 'owl') && !hasWord(index, 'fox'));
});

test('settings that change indexing rebuild the tables, also for later tasks of the batch', async () => {
  const name = 'settings';
  await run(name, [addition(name, [{ id: 1, title: 'the alpha', body: 'beta' }])]);
  const index = indexOf(name);
  assert.ok(index.search.words.has(['beta']) && index.search.words.has(['the']));
  const tasks = await run(name, [
    settings(name, { searchableAttributes: ['title'], stopWords: ['the'] }),
    addition(name, [{ id: 2, title: 'gamma', body: 'delta' }]),
  ]);
  assert.deepEqual(tasks.map((t) => t.status), ['succeeded', 'succeeded']);
  assert.equal(index.search.words.has(['beta']), false, 'body is no longer searchable');
  assert.equal(index.search.words.has(['delta']), false, 'the later addition follows the new settings');
  assert.equal(index.search.words.has(['the']), false, 'stop words are not indexed');
  assert.deepEqual(ids(index, 'gamma'), [1]);
  assert.ok(!hasWord(index, 'beta') && !hasWord(index, 'the') && hasWord(index, 'alpha'));
  // a position shifted by the stop word: "alpha" is still at 1
  assert.deepEqual(index.search.wordPosition.docids(['alpha', 1]).toArray(), [0]);
});

test('settings that do not change indexing leave the tables alone', async () => {
  const name = 'metadata';
  await run(name, [settings(name, { searchableAttributes: ['title', 'body'] }), addition(name, [{ id: 1, title: 'alpha', body: 'beta' }])]);
  const index = indexOf(name);
  const generation = index.generation();
  const before = [...index.search.wordPosition.raw.keys()];
  await run(name, [settings(name, { rankingRules: ['words', 'typo'] }), settings(name, { searchableAttributes: ['body', 'title'] })]);
  assert.equal(index.generation(), generation + 1);
  assert.deepEqual([...index.search.wordPosition.raw.keys()], before);
  assert.deepEqual(ids(index, 'beta'), [0]);
});

test('a failed task leaves no search trace; a replayed batch applies nothing twice', async () => {
  const name = 'failures';
  const tasks = [
    addition(name, [{ id: 1, title: 'kept' }]),
    addition(name, [{ id: 2, title: 'ghost' }, { id: 'not valid!', title: 'bad' }]),
    deletion(name, ['1']),
    addition(name, [{ id: 1, title: 'again' }]),
  ];
  const first = await run(name, tasks);
  assert.deepEqual(first.map((t) => t.status), ['succeeded', 'failed', 'succeeded', 'succeeded']);
  const index = indexOf(name);
  assert.equal(index.search.words.has(['ghost']), false);
  assert.equal(index.search.words.has(['kept']), false);
  assert.deepEqual(ids(index, 'again'), [0]);
  const replayed = await run(name, tasks);
  assert.deepEqual(replayed.map((t) => t.status), first.map((t) => t.status));
  assert.deepEqual(ids(index, 'again'), [0]);
  assert.ok(hasWord(index, 'again') && !hasWord(index, 'kept') && !hasWord(index, 'ghost'));
});

test('documents stored before search indexing are indexed by the next batch', async () => {
  const name = 'legacy';
  await run(name, [settings(name, { stopWords: [] })]);
  const index = indexOf(name);
  // documents written the way the scheduler did before the search tables existed
  index.env.write(() => {
    const w = new DocumentsWriter(index);
    w.addDocument({ id: 1, title: 'old timer' }, 'id', { method: 'replace', primaryKey: 'id', skipCreation: false });
    w.save(2);
  });
  index.env.write(() => index.main.remove('words'));
  await run(name, [addition(name, [{ id: 2, title: 'newcomer' }])]);
  assert.deepEqual(ids(index, 'timer'), [0]);
  assert.deepEqual(ids(index, 'newcomer'), [1]);
  assert.ok(hasWord(index, 'old') && hasWord(index, 'newcomer'));
});
