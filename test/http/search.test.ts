// Search route through the official client (search.md). Properties checked:
// 1. placeholder search returns documents in insertion order, in both pagination modes
// 2. attributesToRetrieve, displayedAttributes, showRankingScore, _formatted on placeholder hits
// 3. `_geo`, `_geojson` and `_vectors` hold no searchable words
// 4. what is not supported yet (query terms, filter, sort...) is refused with a clear error
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, assertErrorBody, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
let uid: string;
before(async () => {
  t = await startTestServer();
  uid = uniqueIndex('search');
  const docs = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, title: `movie ${i + 1}`, secret: 's' }));
  await t.client.index(uid).addDocuments(docs).waitTask();
});
after(async () => {
  await t.close();
});

describe('search', () => {
  test('placeholder search, offset/limit mode', async () => {
    const res = await t.client.index(uid).search('', { limit: 2, offset: 1 });
    assert.deepEqual(res.hits, [
      { id: 2, title: 'movie 2', secret: 's' },
      { id: 3, title: 'movie 3', secret: 's' },
    ]);
    assert.equal(res.estimatedTotalHits, 5);
    assert.equal(res.limit, 2);
    assert.equal(res.offset, 1);
    assert.equal(res.query, '');
    assert.equal(typeof res.processingTimeMs, 'number');
    const raw = await t.fetch('POST', `/indexes/${uid}/search`, { body: {} });
    assert.deepEqual(Object.keys(raw.body).slice(0, 2), ['hits', 'query']);
  });

  test('placeholder search, page mode and GET', async () => {
    const res = await t.client.index(uid).search(null, { page: 2, hitsPerPage: 2 });
    assert.deepEqual(res.hits.map((h) => h.id), [3, 4]);
    assert.equal(res.totalHits, 5);
    assert.equal(res.totalPages, 3);
    assert.equal(res.page, 2);
    assert.equal(res.hitsPerPage, 2);
    const get = await t.client.index(uid).searchGet('', { limit: 1 });
    assert.deepEqual(get.hits.map((h) => h.id), [1]);
  });

  test('retrieval and decorations', async () => {
    const res = await t.client.index(uid).search('', { limit: 1, attributesToRetrieve: ['title'], showRankingScore: true, attributesToHighlight: ['title'] });
    assert.deepEqual(res.hits[0], { title: 'movie 1', _formatted: { title: 'movie 1' }, _rankingScore: 1 });
    await t.client.index(uid).updateDisplayedAttributes(['id', 'title']).waitTask();
    const shown = await t.client.index(uid).search('', { limit: 1 });
    assert.deepEqual(shown.hits[0], { id: 1, title: 'movie 1' });
    await t.client.index(uid).resetDisplayedAttributes().waitTask();
  });

  test('keyword search ranks, scores and highlights', async () => {
    const res = await t.client.index(uid).search('movie 1', { showRankingScore: true, attributesToHighlight: ['title'], limit: 2 });
    assert.equal(res.hits[0]!.title, 'movie 1');
    assert.equal(res.hits[0]!._formatted!.title, '<em>movie</em> <em>1</em>');
    assert.ok(res.hits[0]!._rankingScore! > res.hits[1]!._rankingScore!);
  });

  test('_geo, _geojson and _vectors are never searched', async () => {
    const other = uniqueIndex('reserved');
    const docs = [
      { id: 1, name: 'paris', _geo: { lat: 48.8566, lng: 2.3522 }, _vectors: { manual: [0.25, 0.5] } },
      { id: 2, name: 'point', _geojson: { type: 'Point', coordinates: [7.5, 7.25] } },
    ];
    await t.client.index(other).addDocuments(docs).waitTask();
    for (const q of ['48', '3522', '25', 'point', 'coordinates', 'manual', '7']) {
      const res = await t.client.index(other).search(q);
      assert.deepEqual(res.hits.map((h) => h.id), q === 'point' ? [2] : [], q);
    }
  });

  test('what is not supported yet is refused, never ignored', async () => {
    await assertApiError(t.client.index(uid).search('', { filter: 'id = 1' }), 'invalid_search_filter', 400);
    await assertApiError(t.client.index(uid).search('', { sort: ['id:asc'] }), 'invalid_search_sort', 400);
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/search`, { body: { limit: 'x' } }), 'invalid_search_limit', 400);
    assertErrorBody(await t.fetch('POST', '/indexes/nope_search/search', { body: {} }), 'index_not_found', 404);
  });
});
