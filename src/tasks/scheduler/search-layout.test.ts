// An index whose search tables are in an older layout (before chunks, decision 0006; chunk last,
// decision 0007) is re-indexed for search when the scheduler starts: its postings then read back in
// chunks, chunk first, the old keys are gone, and an index already in the layout is left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskQueue } from '../queue.ts';
import { batchHarness } from '../processors/batch-harness.test-support.ts';
import { upgradeSearchLayouts } from './search-layout.ts';

const h = batchHarness('muninn-search-layout-');

test('search tables in the old layout are rebuilt in chunks at startup', async () => {
  await h.run('old', [h.addition('old', [{ id: 1, title: 'red fox' }, { id: 2, title: 'blue fox' }])]);
  await h.run('new', [h.addition('new', [{ id: 1, title: 'green owl' }])]);
  const old = h.indexOf('old');
  const fresh = h.indexOf('new');
  // the old layout: one value per word under a bare string key, no chunk width recorded
  old.env.write(() => {
    const fox = Uint8Array.from(old.search.words.docids(['fox']).serialize('portable'));
    old.search.words.clear();
    const raw = old.search.words.raw as unknown as { put(key: string, value: Uint8Array): void };
    raw.put('fox', fox);
    old.removeMain('postingsChunkBits');
  });
  const generation = fresh.generation();
  const queue = { indexUids: () => ['old', 'new'], indexUuid: (uid: string) => h.ctx().queue.indexUuid(uid) } as unknown as TaskQueue;

  assert.deepEqual(upgradeSearchLayouts(queue, h.ctx().registry), ['old']);
  assert.equal(old.postingsChunkBits(), 16);
  assert.deepEqual(old.search.words.docids(['fox']).toArray(), [0, 1]);
  assert.deepEqual(old.search.words.docids(['red']).toArray(), [0]);
  assert.ok([...old.search.words.raw.keys()].every((k) => Array.isArray(k) && typeof k[0] === 'number'), 'no bare string key is left');
  assert.equal(fresh.generation(), generation, 'an index in the chunked layout is not touched');
  assert.deepEqual(upgradeSearchLayouts(queue, h.ctx().registry), []);
});

test('search tables with the chunk last are rebuilt chunk first at startup', async () => {
  await h.run('last', [h.addition('last', [{ id: 1, title: 'grey wolf' }, { id: 2, title: 'white wolf' }])]);
  const index = h.indexOf('last');
  // the layout of decision 0006: (word, chunk) keys, a chunk width, no layout number
  index.env.write(() => {
    const wolf = Uint8Array.from(index.search.words.docids(['wolf']).serialize('portable'));
    index.search.words.clear();
    const raw = index.search.words.raw as unknown as { put(key: unknown[], value: Uint8Array): void };
    raw.put(['wolf', 0], wolf);
    index.removeMain('postingsLayout');
  });
  assert.equal(index.searchLayoutCurrent(), false);
  const queue = { indexUids: () => ['last'], indexUuid: (uid: string) => h.ctx().queue.indexUuid(uid) } as unknown as TaskQueue;
  assert.deepEqual(upgradeSearchLayouts(queue, h.ctx().registry), ['last']);
  assert.equal(index.searchLayoutCurrent(), true);
  assert.deepEqual(index.search.words.docids(['wolf']).toArray(), [0, 1]);
  assert.deepEqual(index.search.words.docids(['grey']).toArray(), [0]);
  assert.ok([...index.search.words.raw.keys()].every((k) => typeof k[0] === 'number'), 'no (word, chunk) key is left');
});
