// Documents through the official client (documents.md). Properties checked:
// 1. add (replace) and update (merge) with JSON, NDJSON and CSV; primary key inference
// 2. get one / browse with offset, limit, fields, ids; fetch by POST; deletes
// 3. bad payloads answer synchronously; bad documents fail the task and change nothing
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

const movies = [
  { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], info: { year: 2015, director: 'Haynes' } },
  { id: 2, title: 'Wonder Woman', genres: ['Action'] },
  { id: '3', title: 'Life of Pi', genres: ['Adventure'] },
];

describe('documents', () => {
  test('add, infer the primary key, get, browse', async () => {
    const uid = uniqueIndex('movies');
    const task = await t.client.index(uid).addDocuments(movies).waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.deepEqual(task.details, { receivedDocuments: 3, indexedDocuments: 3 });
    assert.equal((await t.client.getRawIndex(uid)).primaryKey, 'id');
    assert.deepEqual(await t.client.index(uid).getDocument(1), movies[0]);
    assert.deepEqual(await t.client.index(uid).getDocument('3', { fields: ['title'] }), { title: 'Life of Pi' });
    const page = await t.client.index(uid).getDocuments({ limit: 2, offset: 1 });
    assert.deepEqual(page.results, [movies[1], movies[2]]);
    assert.equal(page.total, 3);
    const nested = await t.client.index(uid).getDocuments({ fields: ['info.year', 'id'] });
    assert.deepEqual(nested.results[0], { id: 1, info: { year: 2015 } });
    const byIds = await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { ids: ['3', 1] } });
    assert.deepEqual(byIds.body.results.map((d: any) => d.id), [1, '3']);
    const stats = await t.client.index(uid).getStats();
    assert.equal(stats.numberOfDocuments, 3);
    // top-level fields only (Meilisearch 1.50 counts `info`, not `info.year`)
    assert.deepEqual(stats.fieldDistribution, { genres: 3, id: 3, info: 1, title: 3 });
  });

  test('replace versus update', async () => {
    const uid = uniqueIndex('upd');
    await t.client.index(uid).addDocuments([{ id: 1, a: 1, b: 2 }]).waitTask();
    await t.client.index(uid).updateDocuments([{ id: 1, b: 3, c: 4 }]).waitTask();
    assert.deepEqual(await t.client.index(uid).getDocument(1), { id: 1, a: 1, b: 3, c: 4 });
    await t.client.index(uid).addDocuments([{ id: 1, z: 0 }]).waitTask();
    assert.deepEqual(await t.client.index(uid).getDocument(1), { id: 1, z: 0 });
  });

  test('NDJSON and CSV payloads', async () => {
    const uid = uniqueIndex('formats');
    const nd = await t.client.index(uid).addDocumentsFromString('{"sku":"a1","n":1}\n{"sku":"a2","n":2}\n', 'application/x-ndjson', { primaryKey: 'sku' }).waitTask();
    assert.equal(nd.status, 'succeeded', JSON.stringify(nd.error));
    const csv = await t.client.index(uid).addDocumentsFromString('sku,n:number,ok:boolean\na3,3,true\na4,,false\n', 'text/csv').waitTask();
    assert.equal(csv.status, 'succeeded', JSON.stringify(csv.error));
    assert.deepEqual(await t.client.index(uid).getDocument('a3'), { sku: 'a3', n: 3, ok: true });
    assert.deepEqual(await t.client.index(uid).getDocument('a4'), { sku: 'a4', n: null, ok: false });
  });

  test('deletions', async () => {
    const uid = uniqueIndex('del');
    await t.client.index(uid).addDocuments(movies).waitTask();
    const one = await t.client.index(uid).deleteDocument(2).waitTask();
    assert.deepEqual(one.details, { providedIds: 1, deletedDocuments: 1 });
    const batch = await t.client.index(uid).deleteDocuments(['1', 'nope']).waitTask();
    assert.deepEqual(batch.details, { providedIds: 2, deletedDocuments: 1 });
    await assertApiError(t.client.index(uid).getDocument(1), 'document_not_found', 404, 'Document `1` not found.');
    const cleared = await t.client.index(uid).deleteAllDocuments().waitTask();
    assert.deepEqual(cleared.details, { deletedDocuments: 1 });
    assert.equal((await t.client.index(uid).getDocuments()).total, 0);
    // freed internal ids are reused: new documents come back in insertion order
    await t.client.index(uid).addDocuments([{ id: 'x' }, { id: 'y' }]).waitTask();
    assert.deepEqual((await t.client.index(uid).getDocuments()).results, [{ id: 'x' }, { id: 'y' }]);
  });

  test('a bad document fails its task and leaves the index unchanged', async () => {
    const uid = uniqueIndex('bad');
    await t.client.index(uid).addDocuments([{ id: 1, v: 'kept' }]).waitTask();
    const bad = await t.client.index(uid).addDocuments([{ id: 1, v: 'changed' }, { id: 'foo & bar' }]).waitTask();
    assert.equal(bad.status, 'failed');
    assert.equal(bad.error?.code, 'invalid_document_id');
    assert.deepEqual(bad.details, { receivedDocuments: 2, indexedDocuments: 0 });
    assert.deepEqual(await t.client.index(uid).getDocument(1), { id: 1, v: 'kept' });
    const missing = await t.client.index(uid).addDocuments([{ name: 'no id' }]).waitTask();
    assert.equal(missing.error?.code, 'missing_document_id');
    const other = await t.client.index(uid).addDocuments([{ ref: 1 }], { primaryKey: 'ref' }).waitTask();
    assert.equal(other.error?.code, 'index_primary_key_already_exists');
    // without the ``Index `uid`: `` prefix of the other errors (Meilisearch 1.50)
    assert.equal(other.error?.message, 'Index already has a primary key: `id`.');
    assert.equal((await t.client.index(uid).getStats()).numberOfDocuments, 1);
  });

  test('primary key inference errors', async () => {
    const none = await t.client.index(uniqueIndex('pk')).addDocuments([{ name: 'x' }]).waitTask();
    assert.equal(none.error?.code, 'index_primary_key_no_candidate_found');
    const many = await t.client.index(uniqueIndex('pk')).addDocuments([{ id: 1, object_id: 2 }]).waitTask();
    assert.equal(many.error?.code, 'index_primary_key_multiple_candidates_found');
  });

  test('synchronous payload errors', async () => {
    const uid = uniqueIndex('sync');
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/documents`, { raw: Buffer.from('[{"id":1}]') }), 'missing_content_type', 415);
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/documents`, { raw: 'x', headers: { 'content-type': 'text/plain' } }), 'invalid_content_type', 415);
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/documents`, { raw: '', headers: { 'content-type': 'application/json' } }), 'missing_payload', 400, 'A json payload is missing.');
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/documents`, { raw: '[{"id":1}', headers: { 'content-type': 'application/json' } }), 'malformed_payload', 400);
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/documents?doggo=1`, { body: [] }), 'bad_request', 400, 'Unknown parameter `doggo`: expected one of `primaryKey`, `csvDelimiter`, `customMetadata`, `skipCreation`');
    assertErrorBody(await t.fetch('POST', `/indexes/bad%20uid/documents`, { body: [] }), 'invalid_index_uid', 400);
    assertErrorBody(await t.fetch('GET', `/indexes/${uid}/documents?limit=-1`), 'invalid_document_limit', 400);
    assertErrorBody(await t.fetch('GET', `/indexes/nope_docs/documents`), 'index_not_found', 404);
  });

  test('payload size limit', async () => {
    const small = await startTestServer({ args: ['--http-payload-size-limit', '1 KiB'] });
    try {
      const big = JSON.stringify([{ id: 1, text: 'x'.repeat(4000) }]);
      assertErrorBody(
        await small.fetch('POST', '/indexes/limit/documents', { raw: big, headers: { 'content-type': 'application/json' } }),
        'payload_too_large',
        413,
        'The provided payload reached the size limit. The maximum accepted payload size is 1 KiB.',
      );
      // every JSON body has the same limit
      assertErrorBody(await small.fetch('POST', '/indexes', { body: { uid: 'x'.repeat(3000) } }), 'payload_too_large', 413);
      assert.equal((await small.fetch('POST', '/indexes', { body: { uid: 'small' } })).status, 202);
    } finally {
      await small.close();
    }
  });
});
