// Index compaction (POST /indexes/{uid}/compact) and the experimental task queue compaction
// (POST /tasks/compact), through the official client and raw HTTP (tasks.md §3, §14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { assertErrorBody, startTestServer } from './helpers.ts';

test('compacting an index drops its free pages and keeps every document searchable', async () => {
  const t = await startTestServer();
  try {
    const index = t.client.index('cities');
    const docs = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `city ${i} ${i % 7 === 0 ? 'harbour' : 'hill'}` }));
    await index.addDocuments(docs).waitTask();
    await index.updateFilterableAttributes(['id']).waitTask();
    await index.deleteDocuments({ filter: 'id >= 2000' }).waitTask();
    const before = fs.readdirSync(path.join(t.dbPath, 'indexes'));
    const res = await t.fetch('POST', '/indexes/cities/compact');
    assert.equal(res.status, 202);
    assert.equal(res.body.type, 'indexCompaction');
    const task = await t.client.tasks.waitForTask(res.body.taskUid);
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    const details = task.details as { preCompactionSize: string; postCompactionSize: string };
    assert.match(details.preCompactionSize, /^\d+(\.\d+)? (B|KB|KiB|MB|MiB|GB|GiB)$/);
    const bytes = (s: string) => {
      const [n, unit] = s.split(' ');
      return Number(n) * ({ B: 1, KB: 1e3, KiB: 1024, MB: 1e6, MiB: 2 ** 20, GB: 1e9, GiB: 2 ** 30 } as Record<string, number>)[unit!]!;
    };
    assert.ok(bytes(details.postCompactionSize) < bytes(details.preCompactionSize), JSON.stringify(details));
    // the old directory is removed once the batch's commit is durable, just after the task shows succeeded
    let after = fs.readdirSync(path.join(t.dbPath, 'indexes'));
    for (let i = 0; i < 200 && after.length > 1; i++) {
      await new Promise((r) => setTimeout(r, 10));
      after = fs.readdirSync(path.join(t.dbPath, 'indexes'));
    }
    assert.equal(after.length, 1, 'the old directory is gone');
    assert.notDeepEqual(after, before, 'the index lives in its compacted copy');
    assert.equal((await index.getStats()).numberOfDocuments, 2000);
    const hits = await index.search('harbour', { filter: 'id < 100', limit: 100 });
    assert.equal(hits.hits.length, 15);
    await index.addDocuments([{ id: 99_999, name: 'new harbour' }]).waitTask();
    assert.equal((await index.search('new harbour')).hits[0]?.id, 99_999);
    const missing = await t.fetch('POST', '/indexes/nope/compact');
    const failed = await t.client.tasks.waitForTask(missing.body.taskUid);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'index_not_found');
    assert.deepEqual(failed.details, {});
  } finally {
    await t.close();
  }
});

test('POST /tasks/compact needs its feature, then asks for a restart; the restarted instance has every task', async () => {
  const t = await startTestServer();
  const dbPath = t.dbPath;
  let restarted: Awaited<ReturnType<typeof startTestServer>> | null = null;
  try {
    for (let i = 0; i < 20; i++) await t.client.index('a').addDocuments([{ id: i }]).waitTask();
    await t.client.tasks.deleteTasks({ uids: [0, 1, 2, 3, 4, 5] }).waitTask();
    assertErrorBody(
      await t.fetch('POST', '/tasks/compact'),
      'feature_not_enabled',
      400,
      'Using the /tasks/compact route requires enabling the `task queue compaction route` experimental feature. See https://github.com/orgs/meilisearch/discussions/883',
    );
    await t.fetch('PATCH', '/experimental-features', { body: { taskQueueCompactionRoute: true } });
    const tasksBefore = (await t.client.tasks.getTasks({ limit: 100 })).results;
    const res = await t.fetch('POST', '/tasks/compact');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['preSize', 'postSize', 'status', 'actionRequired']);
    assert.equal(res.body.status, 'succeeded');
    assert.equal(res.body.actionRequired, 'you must restart your instance');
    assert.match(res.body.preSize, /^\d+(\.\d+)? (B|KiB|MiB|GiB)$/);
    const health = await t.fetch('GET', '/health', { key: null });
    assert.equal(health.status, 500);
    assert.deepEqual(health.body, { status: 'mustRestart' });
    const write = await t.fetch('POST', '/indexes/a/documents', { body: [{ id: 100 }] });
    assert.equal(write.status, 500);
    assert.match(write.body.message, /restart/);
    // reads still work
    assert.equal((await t.client.index('a').getStats()).numberOfDocuments, 20);
    await t.server.close();

    restarted = await startTestServer({ dbPath });
    assert.deepEqual((await restarted.fetch('GET', '/health', { key: null })).body, { status: 'available' });
    assert.deepEqual((await restarted.client.tasks.getTasks({ limit: 100 })).results, tasksBefore);
    const next = await restarted.client.index('a').addDocuments([{ id: 100 }]).waitTask();
    assert.equal(next.status, 'succeeded');
    assert.equal(next.uid, tasksBefore[0]!.uid + 1);
  } finally {
    await restarted?.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});
