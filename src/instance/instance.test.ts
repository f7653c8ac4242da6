// Queue limits of tasks.md §10, with small thresholds. Properties checked:
// 1. past `maxTasks` stored tasks, a taskDeletion of the oldest finished tasks is enqueued and run
// 2. past 40 % of the task database, new tasks are refused except deletions that free space
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Instance } from './index.ts';
import { ApiError } from '../api/errors/index.ts';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-instance-'));
}

async function waitIdle(instance: Instance): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    instance.queue.env.refresh();
    if (instance.queue.bitmap('status:enqueued').size === 0 && instance.scheduler.processing() === null) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('queue did not drain');
}

test('a full queue deletes its oldest finished tasks', async () => {
  const dbPath = tmp();
  const instance = await Instance.open({ dbPath, masterKey: null, maxBatchedTasks: Infinity, maxBatchedBytes: 1e9, payloadSizeLimit: 1e8, taskQueue: { maxTasks: 8, deleteCount: 4 } });
  try {
    for (let i = 0; i < 8; i++) {
      await instance.register({ indexUid: `i${i}`, kind: { kind: 'indexCreation', primaryKey: null }, details: { primaryKey: null } });
      await waitIdle(instance);
    }
    await instance.register({ indexUid: 'last', kind: { kind: 'indexCreation', primaryKey: null }, details: { primaryKey: null } });
    await waitIdle(instance);
    const deletions = instance.queue.bitmap('type:taskDeletion').toArray().map((uid) => instance.queue.get(uid)!);
    assert.equal(deletions.length, 1);
    const [deletion] = deletions;
    assert.equal(deletion!.status, 'succeeded');
    assert.equal(deletion!.details?.deletedTasks, 4);
    assert.match(String(deletion!.details?.originalFilter), /^\?beforeEnqueuedAt=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z&statuses=succeeded,failed,canceled$/);
    for (const uid of [0, 1, 2, 3]) assert.equal(instance.queue.get(uid), undefined);
    assert.ok(instance.queue.get(4));
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('past 40 % of the task database only freeing tasks are accepted', async () => {
  const dbPath = tmp();
  const instance = await Instance.open({ dbPath, masterKey: null, maxBatchedTasks: 0, maxBatchedBytes: 1e9, payloadSizeLimit: 1e8, taskQueue: { maxDbBytes: 1 } });
  try {
    await assert.rejects(
      instance.register({ indexUid: 'x', kind: { kind: 'indexCreation', primaryKey: null }, details: { primaryKey: null } }),
      (err: unknown) => err instanceof ApiError && err.code === 'no_space_left_on_device' && err.status === 422,
    );
    const emptyMatch = { kind: 'taskDeletion' as const, query: '?uids=0', matched: new Uint8Array() };
    await assert.rejects(instance.register({ indexUid: null, kind: emptyMatch, details: null }), ApiError);
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('handles of deleted indexes are closed on the reading side', async () => {
  const dbPath = tmp();
  const instance = await Instance.open({ dbPath, masterKey: null, maxBatchedTasks: Infinity, maxBatchedBytes: 1e9, payloadSizeLimit: 1e8 });
  try {
    for (let i = 0; i < 5; i++) {
      await instance.register({ indexUid: `i${i}`, kind: { kind: 'indexCreation', primaryKey: null }, details: { primaryKey: null } });
    }
    await waitIdle(instance);
    for (let i = 0; i < 5; i++) assert.ok(instance.indexes.get(`i${i}`));
    assert.equal(instance.indexes.openCount, 5);
    for (let i = 0; i < 5; i++) await instance.register({ indexUid: `i${i}`, kind: { kind: 'indexDeletion' }, details: { deletedDocuments: null } });
    await waitIdle(instance);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(instance.indexes.openCount, 0);
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});
