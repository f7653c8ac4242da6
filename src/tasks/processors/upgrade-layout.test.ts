// The index migration of a database upgrade (decision 0011): an index whose search tables are in an
// older layout (before chunks, decision 0006; chunk last, decision 0007) is re-indexed for search:
// its postings then read back in chunks, chunk first, the old keys are gone, and an index already in
// the layout only gets its format recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchHarness } from './batch-harness.test-support.ts';
import { migrateIndex } from './upgrade.ts';
import { STORAGE_VERSION } from '../../engine/version.ts';

const h = batchHarness('muninn-search-layout-');

test('search tables in the old layout are rebuilt in chunks by the upgrade', async () => {
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
  const words = [...fresh.search.words.raw.keys()];

  assert.equal(migrateIndex(old), true);
  assert.equal(old.storageVersion(), STORAGE_VERSION);
  assert.equal(old.postingsChunkBits(), 16);
  assert.deepEqual(old.search.words.docids(['fox']).toArray(), [0, 1]);
  assert.deepEqual(old.search.words.docids(['red']).toArray(), [0]);
  assert.ok([...old.search.words.raw.keys()].every((k) => Array.isArray(k) && typeof k[0] === 'number'), 'no bare string key is left');
  assert.equal(migrateIndex(fresh), false, 'an index in the chunked layout is not rebuilt');
  assert.deepEqual([...fresh.search.words.raw.keys()], words);
  assert.equal(migrateIndex(old), false);
});

test('search tables with the chunk last are rebuilt chunk first by the upgrade', async () => {
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
  assert.equal(migrateIndex(index), true);
  assert.equal(index.searchLayoutCurrent(), true);
  assert.deepEqual(index.search.words.docids(['wolf']).toArray(), [0, 1]);
  assert.deepEqual(index.search.words.docids(['grey']).toArray(), [0]);
  assert.ok([...index.search.words.raw.keys()].every((k) => typeof k[0] === 'number'), 'no (word, chunk) key is left');
});
