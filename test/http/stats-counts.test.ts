// Index stats counts (indexes.md §3.7, stats-health.md). The expected values are what the
// Meilisearch 1.50 binary answered for the same documents and writes. Properties checked:
// 1. `fieldDistribution` counts top-level fields only (`_geo`, `a`, a literal `a.b`, arrays,
//    null, {} and []), never nested paths, never `_vectors`, in GET /indexes/{uid}/stats and
//    GET /stats alike
// 2. it follows partial updates, deletions and replacements
// 3. `numberOfDocuments`, `isIndexing`, `numberOfEmbeddings` and `numberOfEmbeddedDocuments`
//    (0 without an embedder, `_vectors` of no embedder counts nothing)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;

before(async () => {
  t = await startTestServer();
});

after(async () => {
  await t.close();
});

const DOCUMENTS = [
  { id: 1, 'a.b': 1, n: null, e: {}, arr: [{ x: 1 }, { y: 2 }], _vectors: { foo: [1, 2] } },
  { id: 2, a: { c: 1 }, _geo: { lat: 1, lng: 2 }, _geojson: { type: 'Point', coordinates: [1, 2] } },
  { id: 3, arr: [], s: 'x' },
];

describe('fieldDistribution', () => {
  test('top-level fields, through additions, partial updates, deletions and replacements', async () => {
    const uid = uniqueIndex('fields');
    const index = t.client.index(uid);
    const succeeded = async (p: { waitTask(): Promise<{ status: string; error: unknown }> }) => {
      const task = await p.waitTask();
      assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    };
    await succeeded(index.addDocuments(DOCUMENTS));
    const stats = await index.getStats();
    assert.deepEqual(stats, {
      numberOfDocuments: 3,
      rawDocumentDbSize: stats.rawDocumentDbSize,
      avgDocumentSize: stats.avgDocumentSize,
      isIndexing: false,
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      fieldDistribution: { _geo: 1, _geojson: 1, a: 1, 'a.b': 1, arr: 2, e: 1, id: 3, n: 1, s: 1 },
    });
    const global = await t.client.getStats();
    assert.deepEqual(global.indexes[uid]!.fieldDistribution, stats.fieldDistribution);

    await succeeded(index.updateDocuments([{ id: 3, a: { z: 1 } }]));
    assert.deepEqual((await index.getStats()).fieldDistribution, { _geo: 1, _geojson: 1, a: 2, 'a.b': 1, arr: 2, e: 1, id: 3, n: 1, s: 1 });

    await succeeded(index.deleteDocuments([1]));
    const afterDelete = await index.getStats();
    assert.equal(afterDelete.numberOfDocuments, 2);
    assert.deepEqual(afterDelete.fieldDistribution, { _geo: 1, _geojson: 1, a: 2, arr: 1, id: 2, s: 1 });

    await succeeded(index.addDocuments([{ id: 2, only: true }]));
    const raw = await t.fetch('GET', `/indexes/${uid}/stats`);
    assert.deepEqual(raw.body.fieldDistribution, { a: 1, arr: 1, id: 2, only: 1, s: 1 });
    const all = await t.fetch('GET', '/stats');
    assert.deepEqual(all.body.indexes[uid].fieldDistribution, { a: 1, arr: 1, id: 2, only: 1, s: 1 });
  });
});
