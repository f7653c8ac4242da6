// The scheduler worker runs only while there is work. Properties checked:
// 1. opening a data directory with no enqueued task starts no worker
// 2. a registered task starts the worker; once idle it is retired, and a later task starts a
//    new one that processes it
// 3. tasks enqueued before a restart are processed on open, without any new registration
// 4. wakes that arrive while workers retire (no idle delay at all) lose no task
// 5. the index handles of the HTTP thread are released when the worker retires, and reopen on use
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Instance, type InstanceOptions } from './index.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-lifecycle-'));

function options(dbPath: string, extra: Partial<InstanceOptions> = {}): InstanceOptions {
  return { dbPath, masterKey: null, maxBatchedTasks: Infinity, maxBatchedBytes: 1e9, payloadSizeLimit: 1e8, schedulerIdleMs: 20, ...extra };
}

const createIndex = (instance: Instance, uid: string) =>
  instance.register({ indexUid: uid, kind: { kind: 'indexCreation', primaryKey: null }, details: { primaryKey: null } });

async function finished(instance: Instance, uid: number): Promise<string> {
  for (;;) {
    instance.queue.env.refresh();
    const status = instance.queue.get(uid)?.status;
    if (status === 'succeeded' || status === 'failed' || status === 'canceled') return status;
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('no worker without work; an idle worker is retired and a later task starts a new one', async () => {
  const dbPath = tmp();
  const instance = await Instance.open(options(dbPath));
  try {
    assert.equal(instance.scheduler.workerRunning, false);
    assert.equal(instance.scheduler.workersStarted, 0);
    const retired = once(instance.scheduler, 'retired');
    const first = await createIndex(instance, 'first');
    assert.equal(instance.scheduler.workerRunning, true);
    assert.equal(await finished(instance, first.uid), 'succeeded');
    await retired;
    assert.equal(instance.scheduler.workerRunning, false);
    const second = await createIndex(instance, 'second');
    assert.equal(await finished(instance, second.uid), 'succeeded');
    assert.equal(instance.scheduler.workersStarted, 2);
    assert.ok(instance.indexes.get('second'));
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('tasks enqueued before a restart are processed on open', async () => {
  const dbPath = tmp();
  // --experimental-max-number-of-batched-tasks 0: tasks are registered, never processed
  const paused = await Instance.open(options(dbPath, { maxBatchedTasks: 0 }));
  const uids = [(await createIndex(paused, 'a')).uid, (await createIndex(paused, 'b')).uid];
  await paused.close();
  const instance = await Instance.open(options(dbPath));
  try {
    assert.equal(instance.scheduler.workerRunning, true);
    for (const uid of uids) assert.equal(await finished(instance, uid), 'succeeded');
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('wakes racing with retirements lose no task', async () => {
  const dbPath = tmp();
  const instance = await Instance.open(options(dbPath, { schedulerIdleMs: 0 }));
  try {
    const uids: number[] = [];
    for (let i = 0; i < 12; i++) {
      uids.push((await createIndex(instance, `i${i}`)).uid);
      // a few ticks apart: some wakes land on a running worker, some after it was asked to stop
      await new Promise((r) => setTimeout(r, i % 3));
    }
    for (const uid of uids) assert.equal(await finished(instance, uid), 'succeeded');
    assert.ok(instance.scheduler.workersStarted >= 1);
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('the reading side lets go of its index handles when the worker retires', async () => {
  const dbPath = tmp();
  const instance = await Instance.open(options(dbPath));
  try {
    const retired = once(instance.scheduler, 'retired');
    const task = await createIndex(instance, 'movies');
    assert.equal(await finished(instance, task.uid), 'succeeded');
    assert.ok(instance.indexes.get('movies'));
    assert.equal(instance.indexes.openCount, 1);
    await retired; // the instance's own listener, registered first, has closed them
    assert.equal(instance.indexes.openCount, 0);
    assert.equal(instance.indexes.get('movies')!.meta().primaryKey, null);
    assert.equal(instance.indexes.openCount, 1);
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('an index in the search layout before chunks is upgraded (--upgrade-db) before open resolves', async () => {
  const dbPath = tmp();
  const first = await Instance.open(options(dbPath));
  try {
    assert.equal(await finished(first, (await createIndex(first, 'old')).uid), 'succeeded');
    const index = first.indexes.get('old')!;
    // a database of the release before storage versions, with an index before chunks
    index.env.write(() => {
      index.removeMain('postingsChunkBits');
      index.removeMain('storageVersion');
    });
    first.queue.env.write(() => first.queue.meta.remove('storageVersion'));
  } finally {
    await first.close();
  }
  fs.rmSync(path.join(dbPath, 'muninn-version'));
  const instance = await Instance.open({ ...options(dbPath), upgradeDb: true });
  try {
    // the worker was started for the upgrade task, and open waited for it
    assert.equal(instance.scheduler.workersStarted, 1);
    assert.equal(instance.queue.get(1)?.status, 'succeeded');
    assert.equal(instance.indexes.get('old')!.postingsChunkBits(), 16);
  } finally {
    await instance.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});
