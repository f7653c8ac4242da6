// Filters, sort and facets through the search route (filters.md §4, search.md §6, facets.md §2).
// Properties checked:
// 1. string equality is normalized (case), `!=` includes documents without the field
// 2. `TO` ranges combine with the `sort` parameter; numbers sort by value
// 3. facet distribution counts the candidates and shows an original spelling
// 4. a field that is not filterable answers invalid_search_filter with Meilisearch's message
// 5. distinct keeps the best-ranked document per value (normalized), documents without it all
//    stay; a distinct attribute that is not filterable is refused
// 6. geo: radius filter, geo sort nearest first, `_geoDistance` in hits (search.md §6 example)
// 7. documents fetch and browse take a filter; their not-filterable error echoes the original text
// 8. delete by filter: syntax checked at once, filterability by the task (which then fails with
//    the index prefix); details carry the JSON text of the filter
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
  await t.client.createIndex('f', { primaryKey: 'id' }).waitTask();
  const idx = t.client.index('f');
  await idx.updateSettings({ filterableAttributes: ['color', 'price'], sortableAttributes: ['price'] }).waitTask();
  await idx
    .addDocuments([
      { id: 0, color: 'red', price: 5, t: 'shoe' },
      { id: 1, color: 'blue', price: 10, t: 'shoe' },
      { id: 2, color: 'Blue', price: 20, t: 'hat' },
      { id: 3, t: 'shoe' },
    ])
    .waitTask();
});
after(async () => {
  await t?.close();
});

const ids = (r: { hits: Record<string, unknown>[] }) => r.hits.map((h) => h.id);

test('equality, inequality, ranges and sort', async () => {
  const idx = t.client.index('f');
  assert.deepEqual(ids(await idx.search('', { filter: 'color = BLUE' })), [1, 2]);
  assert.deepEqual(ids(await idx.search('shoe', { filter: 'color != blue' })), [0, 3]);
  assert.deepEqual(ids(await idx.search('', { filter: ['price 6 TO 20'], sort: ['price:desc'] })), [2, 1]);
  assert.deepEqual(ids(await idx.search('', { sort: ['price:asc'] })), [0, 1, 2, 3]);
});

test('facet distribution over the candidates', async () => {
  const res = await t.client.index('f').search('shoe', { facets: ['color', 'price'] });
  assert.deepEqual(res.facetDistribution, { color: { blue: 1, red: 1 }, price: { 10: 1, 5: 1 } });
  assert.deepEqual(res.facetStats, { price: { min: 5, max: 10 } });
});

test('a field that is not filterable', async () => {
  await assertApiError(
    t.client.index('f').search('', { filter: 't = shoe' }),
    'invalid_search_filter',
    400,
    // 1.50 echoes the re-serialized filter in search (filters.md §8)
    'Index `f`: Attribute `t` is not filterable. Available filterable attribute patterns are: `color`, `price`.\n2:3 "t" = "shoe"',
  );
});

test('distinct', async () => {
  const idx = t.client.index('f');
  // blue (1) and Blue (2) share the normalized value; 3 has no color and is never deduplicated
  assert.deepEqual(ids(await idx.search('', { distinct: 'color' })), [0, 1, 3]);
  assert.deepEqual(ids(await idx.search('', { distinct: 'color', sort: ['price:desc'] })), [2, 0, 3]);
  const page = await idx.search('', { distinct: 'color', hitsPerPage: 2 });
  assert.equal(page.totalHits, 3);
  await assertApiError(
    idx.search('', { distinct: 't' }),
    'invalid_search_distinct',
    400,
    'Index `f`: Attribute `t` is not filterable and thus, cannot be used as distinct attribute. Available filterable attributes patterns are: `color, price`.',
  );
});

test('geo radius, geo sort and _geoDistance', async () => {
  await t.client.createIndex('geo', { primaryKey: 'id' }).waitTask();
  const idx = t.client.index('geo');
  await idx.updateSettings({ filterableAttributes: ['_geo'], sortableAttributes: ['_geo'] }).waitTask();
  await idx
    .addDocuments([
      { id: 'la', _geo: { lat: 34.0522, lng: -118.2437 } },
      { id: 'milan', _geo: { lat: 45.4642, lng: 9.19 } },
      { id: 'paris', _geo: { lat: '48.8566', lng: '2.3522' } },
      { id: 'nowhere' },
    ])
    .waitTask();
  const res = await idx.search('', { sort: ['_geoPoint(45.4777599, 9.1967508):asc'] });
  assert.deepEqual(ids(res), ['milan', 'paris', 'la', 'nowhere']);
  assert.equal(res.hits[2]!._geoDistance, 9714063);
  assert.equal(res.hits[3]!._geoDistance, undefined);
  assert.deepEqual(ids(await idx.search('', { filter: '_geoRadius(45.4777599, 9.1967508, 700000)' })), ['milan', 'paris']);
});

test('documents fetch and browse with a filter', async () => {
  const idx = t.client.index('f');
  const fetched = await idx.getDocuments({ filter: 'price > 6', fields: ['id'] });
  assert.deepEqual(fetched.results, [{ id: 1 }, { id: 2 }]);
  assert.equal(fetched.total, 2);
  const browse = await t.fetch('GET', '/indexes/f/documents?filter=color%20%3D%20red&fields=id');
  assert.deepEqual((browse.body as { results: unknown[] }).results, [{ id: 0 }]);
  await assertApiError(
    idx.getDocuments({ filter: 't = shoe' }),
    'invalid_document_filter',
    400,
    'Attribute `t` is not filterable. Available filterable attribute patterns are: `color`, `price`.\n1:2 t = shoe',
  );
});

test('delete by filter', async () => {
  await t.client.createIndex('del', { primaryKey: 'id' }).waitTask();
  const idx = t.client.index('del');
  await idx.updateFilterableAttributes(['color']).waitTask();
  await idx.addDocuments([{ id: 1, color: 'blue' }, { id: 2, color: 'red' }, { id: 3, color: 'Blue' }]).waitTask();
  const task = await idx.deleteDocuments({ filter: 'color = blue' }).waitTask();
  assert.equal(task.status, 'succeeded');
  assert.equal(task.type, 'documentDeletion');
  assert.deepEqual(task.details, { providedIds: 0, deletedDocuments: 2, originalFilter: '"color = blue"' });
  assert.deepEqual((await idx.getDocuments()).results, [{ id: 2, color: 'red' }]);
  await assertApiError(idx.deleteDocuments({ filter: 'color =' }), 'invalid_document_filter', 400);
  const failed = await idx.deleteDocuments({ filter: 'doggo = bernese' }).waitTask();
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error?.code, 'invalid_document_filter');
  assert.equal(failed.error?.message, 'Index `del`: Attribute `doggo` is not filterable. Available filterable attribute patterns are: `color`.\n1:6 doggo = bernese');
});
