// A server with a tiny `--max-indexing-memory` (1 MiB: steps of 64 estimated pages, deltas of
// 256 KiB) and a batch size limit far above its payloads indexes everything: each document batch
// is committed in many steps (src/tasks/processors/document-steps.ts), every task succeeds and
// every document is found.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer({ args: ['--max-indexing-memory', '1MiB', '--experimental-limit-batched-tasks-total-size', '1GiB'] });
});

after(async () => {
  await server.close();
});

test('batches far larger than the indexing memory are committed in steps and all succeed', async () => {
  const uid = uniqueIndex('steps');
  const index = server.client.index(uid);
  const payloads = 8;
  const perPayload = 500;
  // words far apart (no typo turns one into another)
  const parts = ['apple', 'banana', 'cherry', 'damson', 'elderberry', 'fig', 'grape', 'hazelnut'];
  const tasks = [];
  for (let p = 0; p < payloads; p++) {
    const docs = Array.from({ length: perPayload }, (_, i) => ({ id: p * perPayload + i, title: `${parts[p]} common`, body: `filler number${i % 17} text` }));
    tasks.push(await index.addDocuments(docs, { primaryKey: 'id' }));
  }
  const done = await server.client.tasks.waitForTasks(tasks.map((t) => t.taskUid), { timeout: 60_000 });
  assert.deepEqual(done.map((t) => t.status), tasks.map(() => 'succeeded'));
  assert.equal((await index.getStats()).numberOfDocuments, payloads * perPayload);
  assert.equal((await index.search('common', { limit: 0 })).estimatedTotalHits, payloads * perPayload);
  for (const part of parts) assert.equal((await index.search(part, { limit: 0 })).estimatedTotalHits, perPayload, part);
  const hit = await index.search('hazelnut number16', { limit: 1 });
  assert.equal(hit.hits[0]?.title, 'hazelnut common');
});
