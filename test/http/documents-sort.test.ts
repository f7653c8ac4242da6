// `sort` on GET /documents and POST /documents/fetch (documents.md §4.2). Properties checked:
// 1. numbers before strings, documents without the field last in both directions, ties by
//    internal id; several criteria; with ids and filter; `total` is the candidate count
// 2. `_geoPoint` sorts by distance; the GET form keeps its commas
// 3. errors: not sortable (with and without sortable attributes), bad syntax, under
//    `invalid_document_sort` and without an index prefix
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

const docs = [
  { id: 1, rank: 3, color: 'blue', _geo: { lat: 48.8566, lng: 2.3522 } }, // Paris
  { id: 2, rank: 'b', color: 'red', _geo: { lat: 51.5072, lng: -0.1276 } }, // London
  { id: 3, rank: 1, color: 'red', _geo: { lat: 52.52, lng: 13.405 } }, // Berlin
  { id: 4, color: 'blue' },
  { id: 5, rank: 'a', color: 'blue', _geo: { lat: 41.9028, lng: 12.4964 } }, // Rome
  { id: 6, rank: 3, color: 'green', _geo: { lat: 40.4168, lng: -3.7038 } }, // Madrid
  { id: 7, rank: 10, color: 'red' },
];

async function seeded(): Promise<string> {
  const uid = uniqueIndex('docsort');
  await t.client.index(uid).updateSettings({ sortableAttributes: ['rank', 'color', '_geo'], filterableAttributes: ['color'] }).waitTask();
  const task = await t.client.index(uid).addDocuments(docs).waitTask();
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
  return uid;
}

const ids = (page: { results: ReadonlyArray<{ id?: unknown }> }) => page.results.map((d) => d.id);

describe('documents sort', () => {
  test('numbers, then strings, then missing; ties by internal id; pages', async () => {
    const uid = await seeded();
    const index = t.client.index(uid);
    assert.deepEqual(ids(await index.getDocuments({ sort: ['rank:asc'] })), [3, 1, 6, 7, 5, 2, 4]);
    assert.deepEqual(ids(await index.getDocuments({ sort: ['rank:desc'] })), [7, 1, 6, 3, 2, 5, 4]);
    const page = await index.getDocuments({ sort: ['rank:asc'], offset: 2, limit: 3 });
    assert.deepEqual(ids(page), [6, 7, 5]);
    assert.equal(page.total, 7);
    assert.deepEqual(ids(await index.getDocuments({ sort: ['color:asc', 'rank:desc'] })), [1, 5, 4, 6, 7, 3, 2]);
  });

  test('with ids and filter, through POST /documents/fetch', async () => {
    const uid = await seeded();
    const index = t.client.index(uid);
    const filtered = await index.getDocuments({ filter: 'color = red', sort: ['rank:desc'] });
    assert.deepEqual(ids(filtered), [7, 3, 2]);
    assert.equal(filtered.total, 3);
    const byIds = await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { ids: [4, 6, 1], sort: ['rank:desc'], fields: ['id'] } });
    assert.equal(byIds.status, 200);
    assert.deepEqual(byIds.body, { results: [{ id: 1 }, { id: 6 }, { id: 4 }], offset: 0, limit: 20, total: 3 });
  });

  test('_geoPoint sorts by distance, also in the GET form', async () => {
    const uid = await seeded();
    const res = await t.fetch('GET', `/indexes/${uid}/documents?sort=${encodeURIComponent('_geoPoint(48.8566, 2.3522):asc,rank:asc')}&fields=id`);
    assert.equal(res.status, 200);
    // Paris, London, Berlin, Rome, Madrid by distance from Paris; no _geo: by rank, then internal id
    assert.deepEqual(
      res.body.results.map((d: { id: number }) => d.id),
      [1, 2, 3, 6, 5, 7, 4],
    );
    const desc = await t.client.index(uid).getDocuments({ sort: ['_geoPoint(48.8566, 2.3522):desc'], fields: ['id'] });
    assert.deepEqual(ids(desc).slice(0, 5), [5, 6, 3, 2, 1]);
  });

  test('errors', async () => {
    const uid = await seeded();
    assertErrorBody(
      await t.fetch('GET', `/indexes/${uid}/documents?sort=id:asc`),
      'invalid_document_sort',
      400,
      'Attribute `id` is not sortable. Available sortable attributes are: `_geo, color, rank`.',
    );
    assertErrorBody(
      await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { sort: ['rank'] } }),
      'invalid_document_sort',
      400,
      'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `rank`.',
    );
    assertErrorBody(
      await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { sort: ['_geoPoint(91, 0):asc'] } }),
      'invalid_document_sort',
      400,
      'Bad latitude `91`. Latitude must be contained between -90 and 90 degrees.',
    );
    assertErrorBody(
      await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { sort: 'rank:asc' } }),
      'invalid_document_sort',
      400,
      'Invalid value type at `.sort`: expected an array, but found a string: `"rank:asc"`',
    );
  });
});
