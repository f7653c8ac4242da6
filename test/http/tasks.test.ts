// Tasks and batches (tasks.md). Properties checked:
// 1. task objects have the exact shape, order and formats; summarized tasks have 5 keys
// 2. GET /tasks filters and from/limit/next pagination; errors with their codes
// 3. cancelation and deletion tasks; batches list and get
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, assertErrorBody, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

describe('tasks', () => {
  test('task shapes', async () => {
    const uid = uniqueIndex('shape');
    const enq = await t.fetch('POST', '/indexes', { body: { uid } });
    assert.equal(enq.status, 202);
    assert.deepEqual(Object.keys(enq.body), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']);
    assert.equal(enq.body.status, 'enqueued');
    const task = await t.client.tasks.waitForTask(enq.body.taskUid);
    const raw = await t.fetch('GET', `/tasks/${task.uid}`);
    assert.deepEqual(Object.keys(raw.body), ['uid', 'batchUid', 'indexUid', 'status', 'type', 'canceledBy', 'details', 'error', 'duration', 'enqueuedAt', 'startedAt', 'finishedAt']);
    assert.match(raw.body.duration, /^PT\d+(\.\d+)?S$/);
    assert.equal(typeof raw.body.batchUid, 'number');
    const withMeta = await t.fetch('DELETE', `/indexes/${uid}/documents?customMetadata=hello`);
    assert.equal(withMeta.body.customMetadata, 'hello');
  });

  test('filters and pagination', async () => {
    const uid = uniqueIndex('page');
    const uids: number[] = [];
    for (let i = 0; i < 5; i++) uids.push((await t.fetch('POST', '/indexes', { body: { uid: `${uid}_${i}` } })).body.taskUid);
    await t.client.tasks.waitForTasks(uids);
    const first = await t.fetch('GET', `/tasks?types=indexCreation&limit=2&uids=${uids.join(',')}`);
    assert.deepEqual(first.body.results.map((r: any) => r.uid), [uids[4], uids[3]]);
    assert.equal(first.body.total, 5);
    assert.equal(first.body.limit, 2);
    assert.equal(first.body.from, uids[4]);
    assert.equal(first.body.next, uids[2]);
    const second = await t.fetch('GET', `/tasks?limit=2&uids=${uids.join(',')}&from=${first.body.next}`);
    assert.deepEqual(second.body.results.map((r: any) => r.uid), [uids[2], uids[1]]);
    const rev = await t.fetch('GET', `/tasks?limit=3&reverse=true&uids=${uids.join(',')}`);
    assert.deepEqual(rev.body.results.map((r: any) => r.uid), [uids[0], uids[1], uids[2]]);
    assert.equal(rev.body.next, uids[3]);
    const byStatus = await t.client.tasks.getTasks({ statuses: ['succeeded'], indexUids: [`${uid}_0`] });
    assert.equal(byStatus.results.length, 1);
    const none = await t.fetch('GET', '/tasks?statuses=failed&indexUids=nothing_here');
    assert.deepEqual([none.body.results, none.body.from, none.body.next], [[], null, null]);
  });

  test('query errors', async () => {
    assertErrorBody(await t.fetch('GET', '/tasks?lol=1'), 'bad_request', 400, /^Unknown parameter `lol`: expected one of `limit`, `from`, `reverse`/);
    assertErrorBody(await t.fetch('GET', '/tasks?limit=doggo'), 'invalid_task_limit', 400);
    assertErrorBody(await t.fetch('GET', '/tasks?statuses=doggo'), 'invalid_task_statuses', 400);
    assertErrorBody(await t.fetch('GET', '/tasks?types=doggo'), 'invalid_task_types', 400);
    assertErrorBody(await t.fetch('GET', '/tasks?afterEnqueuedAt=2021'), 'invalid_task_after_enqueued_at', 400);
    assertErrorBody(await t.fetch('GET', '/tasks/abc'), 'invalid_task_uids', 400, 'Task uid `abc` is invalid. It should only contain numeric characters.');
    assertErrorBody(await t.fetch('GET', '/tasks/4294967295'), 'task_not_found', 404, 'Task `4294967295` not found.');
    assertErrorBody(await t.fetch('POST', '/tasks/cancel'), 'missing_task_filters', 400);
    assertErrorBody(await t.fetch('DELETE', '/tasks'), 'missing_task_filters', 400);
    assertErrorBody(await t.fetch('GET', '/batches/abc'), 'invalid_batch_uids', 400);
    assertErrorBody(await t.fetch('GET', '/batches/4294967295'), 'batch_not_found', 404);
  });

  test('cancel and delete tasks', async () => {
    const uid = uniqueIndex('cancel');
    const created = await t.client.createIndex(uid).waitTask();
    const cancel = await t.fetch('POST', `/tasks/cancel?uids=${created.uid}`);
    assert.equal(cancel.status, 200);
    assert.equal(cancel.body.type, 'taskCancelation');
    const cancelTask = await t.client.tasks.waitForTask(cancel.body.taskUid);
    assert.equal(cancelTask.status, 'succeeded');
    assert.deepEqual(cancelTask.details, { matchedTasks: 1, canceledTasks: 0, originalFilter: `?uids=${created.uid}` });

    const del = await t.client.tasks.deleteTasks({ uids: [created.uid] }).waitTask();
    assert.equal(del.status, 'succeeded');
    assert.deepEqual(del.details, { matchedTasks: 1, deletedTasks: 1, originalFilter: `?uids=${created.uid}` });
    await assertApiError(t.client.tasks.getTask(created.uid), 'task_not_found', 404);
  });

  test('batches', async () => {
    const uid = uniqueIndex('batch');
    const task = await t.client.createIndex(uid).waitTask();
    const batch = await t.client.batches.getBatch(task.batchUid!);
    assert.equal(batch.uid, task.batchUid);
    assert.equal(batch.progress, null);
    assert.equal(batch.stats.totalNbTasks, 1);
    assert.deepEqual(batch.stats.types, { indexCreation: 1 });
    assert.deepEqual(batch.stats.indexUids, { [uid]: 1 });
    assert.equal(typeof batch.batchStrategy, 'string');
    const list = await t.fetch('GET', `/batches?uids=${task.uid}`);
    assert.deepEqual(list.body.results.map((b: any) => b.uid), [task.batchUid]);
  });
});

describe('cancelation of the batch in progress', () => {
  test('interrupts the batch; its tasks end canceled and nothing is written', { timeout: 60_000 }, async () => {
    const uid = uniqueIndex('interrupt');
    const lines: string[] = [];
    for (let i = 0; i < 300_000; i++) lines.push(`{"id":${i},"title":"document number ${i}"}`);
    const enq = await t.fetch('POST', `/indexes/${uid}/documents`, { raw: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(enq.status, 202);
    let processing = false;
    for (let i = 0; i < 2000 && !processing; i++) {
      processing = (await t.fetch('GET', `/tasks/${enq.body.taskUid}`)).body.status === 'processing';
      if (!processing) await new Promise((r) => setTimeout(r, 2));
    }
    assert.ok(processing, 'the task must be seen processing');
    const batches = await t.fetch('GET', `/batches?uids=${enq.body.taskUid}`);
    assert.equal(batches.body.results.length, 1);
    assert.notEqual(batches.body.results[0].progress, undefined);
    const cancel = await t.client.tasks.cancelTasks({ uids: [enq.body.taskUid] }).waitTask();
    assert.equal(cancel.status, 'succeeded');
    assert.deepEqual(cancel.details, { matchedTasks: 1, canceledTasks: 1, originalFilter: `?uids=${enq.body.taskUid}` });
    const task = await t.client.tasks.getTask(enq.body.taskUid);
    assert.equal(task.status, 'canceled');
    assert.equal(task.canceledBy, cancel.uid);
    assert.equal(task.batchUid, cancel.batchUid);
    assert.deepEqual(task.details, { receivedDocuments: 300_000, indexedDocuments: 0 });
    const batch = await t.client.batches.getBatch(cancel.batchUid!);
    assert.deepEqual(batch.stats.status, { succeeded: 1, canceled: 1 });
    await assertApiError(t.client.getRawIndex(uid), 'index_not_found', 404);
  });
});

describe('task documents (experimental)', () => {
  test('returns the payload of an enqueued task once the feature is on', async () => {
    const paused = await startTestServer({ args: ['--experimental-max-number-of-batched-tasks', '0'] });
    try {
      const enq = await paused.fetch('POST', '/indexes/docs/documents', { body: [{ id: 1, a: 'x' }, { id: 2 }] });
      assertErrorBody(await paused.fetch('GET', `/tasks/${enq.body.taskUid}/documents`), 'feature_not_enabled', 400);
      await paused.fetch('PATCH', '/experimental-features', { body: { getTaskDocumentsRoute: true } });
      const res = await paused.fetch('GET', `/tasks/${enq.body.taskUid}/documents`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
      assert.equal(res.body, '{"id":1,"a":"x"}\n{"id":2}\n');
      const other = await paused.fetch('POST', '/indexes', { body: { uid: 'x' } });
      assertErrorBody(await paused.fetch('GET', `/tasks/${other.body.taskUid}/documents`), 'task_file_not_found', 404);
      // with the scheduler off, tasks stay enqueued
      assert.equal((await paused.fetch('GET', `/tasks/${enq.body.taskUid}`)).body.status, 'enqueued');
    } finally {
      await paused.close();
    }
  });
});
