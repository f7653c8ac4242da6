// Indexes through the official client (indexes.md). Properties checked:
// 1. create / get / list (pagination, uid order) / update primary key / delete, with task details
// 2. rename through PATCH uid and swaps rewrite history
// 3. every synchronous error with its code and status; asynchronous errors as failed tasks
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

describe('indexes', () => {
  test('create, get, update primary key, delete', async () => {
    const uid = uniqueIndex('movies');
    const created = await t.client.createIndex(uid, { primaryKey: 'id' }).waitTask();
    assert.equal(created.status, 'succeeded');
    assert.equal(created.type, 'indexCreation');
    assert.deepEqual(created.details, { primaryKey: 'id' });
    const raw = await t.client.getRawIndex(uid);
    assert.deepEqual(Object.keys(raw), ['uid', 'createdAt', 'updatedAt', 'primaryKey']);
    assert.equal(raw.primaryKey, 'id');
    assert.equal(raw.createdAt, raw.updatedAt);
    assert.match(raw.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const updated = await t.client.updateIndex(uid, { primaryKey: 'key' }).waitTask();
    assert.equal(updated.status, 'succeeded');
    assert.equal((await t.client.getRawIndex(uid)).primaryKey, 'key');

    const deleted = await t.client.deleteIndex(uid).waitTask();
    assert.equal(deleted.status, 'succeeded');
    assert.deepEqual(deleted.details, { deletedDocuments: 0 });
    await assertApiError(t.client.getRawIndex(uid), 'index_not_found', 404, `Index \`${uid}\` not found.`);
  });

  test('list is sorted by uid and paginated', async () => {
    const prefix = uniqueIndex('list');
    for (const s of ['c', 'a', 'b']) await t.client.createIndex(`${prefix}_${s}`).waitTask();
    const all = await t.client.getRawIndexes({ limit: 1000 });
    const mine = all.results.filter((i) => i.uid.startsWith(prefix)).map((i) => i.uid);
    assert.deepEqual(mine, [`${prefix}_a`, `${prefix}_b`, `${prefix}_c`]);
    const page = await t.fetch('GET', '/indexes?offset=1&limit=1');
    assert.equal(page.status, 200);
    assert.deepEqual(Object.keys(page.body), ['results', 'offset', 'limit', 'total']);
    assert.equal(page.body.results.length, 1);
    assert.equal(page.body.offset, 1);
    assert.equal(page.body.total, all.total);
    const def = await t.fetch('GET', '/indexes');
    assert.equal(def.body.limit, 20);
  });

  test('creating an existing index fails the task', async () => {
    const uid = uniqueIndex();
    await t.client.createIndex(uid).waitTask();
    const task = await t.client.createIndex(uid).waitTask();
    assert.equal(task.status, 'failed');
    assert.deepEqual(task.error, {
      message: `Index \`${uid}\` already exists.`,
      code: 'index_already_exists',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#index_already_exists',
    });
  });

  test('operations on a missing index fail as tasks', async () => {
    const uid = uniqueIndex('missing');
    const del = await t.client.deleteIndex(uid).waitTask();
    assert.equal(del.status, 'failed');
    assert.equal(del.error?.code, 'index_not_found');
    const upd = await t.client.updateIndex(uid, { primaryKey: 'x' }).waitTask();
    assert.equal(upd.error?.code, 'index_not_found');
  });

  test('synchronous validation errors', async () => {
    assertErrorBody(
      await t.fetch('GET', '/indexes/the%20good%20doggo'),
      'invalid_index_uid',
      400,
      '`the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    );
    assertErrorBody(await t.fetch('POST', '/indexes', { body: { uid: 'the best doggo' } }), 'invalid_index_uid', 400, /^Invalid value at `\.uid`: `the best doggo` is not a valid index uid/);
    assertErrorBody(await t.fetch('POST', '/indexes', { body: { uid: true } }), 'invalid_index_uid', 400, 'Invalid value type at `.uid`: expected a string, but found a boolean: `true`');
    assertErrorBody(await t.fetch('POST', '/indexes', { body: {} }), 'missing_index_uid', 400, 'Missing field `uid`');
    assertErrorBody(await t.fetch('POST', '/indexes', { body: { uid: 'a', doggo: 1 } }), 'bad_request', 400, 'Unknown field `doggo`: expected one of `uid`, `primaryKey`');
    assertErrorBody(
      await t.fetch('POST', '/indexes', { body: { uid: 'a', primaryKey: ['the', 'best', 'doggo'] } }),
      'invalid_index_primary_key',
      400,
      'Invalid value type at `.primaryKey`: expected a string, but found an array: `["the","best","doggo"]`',
    );
    assertErrorBody(await t.fetch('PATCH', '/indexes/abc', { body: { createdAt: 'x' } }), 'immutable_index_created_at', 400, 'Immutable field `createdAt`: expected one of `primaryKey`, `uid`');
    assertErrorBody(await t.fetch('GET', '/indexes?offset=doggo'), 'invalid_index_offset', 400, 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer');
    assertErrorBody(await t.fetch('GET', '/indexes?doggo=nolimit'), 'bad_request', 400, 'Unknown parameter `doggo`: expected one of `offset`, `limit`');
    assertErrorBody(await t.fetch('POST', '/indexes', { raw: '{"uid": "a"', headers: { 'content-type': 'application/json' } }), 'malformed_payload', 400);
    assertErrorBody(await t.fetch('POST', '/indexes', { raw: 'uid=a', headers: { 'content-type': 'text/plain' } }), 'invalid_content_type', 415);
    assertErrorBody(await t.fetch('POST', '/indexes', { raw: Buffer.from('{"uid":"a"}') }), 'missing_content_type', 415);
    assertErrorBody(await t.fetch('POST', '/indexes', { raw: '', headers: { 'content-type': 'application/json' } }), 'missing_payload', 400, 'A json payload is missing.');
  });

  test('rename through PATCH moves the index and its history', async () => {
    const from = uniqueIndex('old');
    const to = uniqueIndex('new');
    const created = await t.client.createIndex(from).waitTask();
    const task = await t.client.updateIndex(from, { uid: to } as never).waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.deepEqual(task.details, { primaryKey: null, oldIndexUid: from, newIndexUid: to });
    await assertApiError(t.client.getRawIndex(from), 'index_not_found', 404);
    assert.equal((await t.client.getRawIndex(to)).uid, to);
    assert.equal((await t.client.tasks.getTask(created.uid)).indexUid, to);
  });

  test('swap exchanges indexes and validates its body', async () => {
    const a = uniqueIndex('swapa');
    const b = uniqueIndex('swapb');
    await t.client.createIndex(a, { primaryKey: 'pa' }).waitTask();
    await t.client.createIndex(b, { primaryKey: 'pb' }).waitTask();
    const task = await t.client.swapIndexes([{ indexes: [a, b], rename: false }]).waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.equal(task.indexUid, null);
    assert.deepEqual(task.details, { swaps: [{ indexes: [a, b], rename: false }] });
    assert.equal((await t.client.getRawIndex(a)).primaryKey, 'pb');
    assert.equal((await t.client.getRawIndex(b)).primaryKey, 'pa');

    const missing = await t.client.swapIndexes([{ indexes: [a, 'nope_x'], rename: false }]).waitTask();
    assert.equal(missing.status, 'failed');
    assert.equal(missing.error?.message, 'Index `nope_x` not found.');

    assertErrorBody(await t.fetch('POST', '/swap-indexes', { body: 'doggo' }), 'bad_request', 400, 'Invalid value type: expected an array, but found a string: `"doggo"`');
    assertErrorBody(await t.fetch('POST', '/swap-indexes', { body: [{ indexes: ['doggo'] }] }), 'invalid_swap_indexes', 400, 'Two indexes must be given for each swap. The list `["doggo"]` contains 1 indexes.');
    assertErrorBody(
      await t.fetch('POST', '/swap-indexes', { body: [{ indexes: ['a', 'b'] }, { indexes: ['b', 'c'] }] }),
      'invalid_swap_duplicate_index_found',
      400,
      'Indexes must be declared only once during a swap. `b` was specified several times.',
    );
    assertErrorBody(await t.fetch('POST', '/swap-indexes', { body: [{}] }), 'missing_swap_indexes', 400);
  });

  test('stats of an index', async () => {
    const uid = uniqueIndex('stats');
    await t.client.createIndex(uid).waitTask();
    const stats = await t.fetch('GET', `/indexes/${uid}/stats`);
    assert.equal(stats.status, 200);
    assert.deepEqual(stats.body, {
      numberOfDocuments: 0,
      rawDocumentDbSize: 0,
      avgDocumentSize: 0,
      isIndexing: false,
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      fieldDistribution: {},
    });
    assertErrorBody(await t.fetch('GET', '/indexes/nope_stats/stats'), 'index_not_found', 404);
  });
});
