// `_geojson` documents and the geo filters over them, through the official client, reproducing
// Meilisearch's tests (crates/meilisearch/tests/documents/geojson) and adding the cases they
// leave out. Properties checked:
// 1. settings then documents: a polygon finds the point inside it, not a document without
//    `_geojson` nor a polygon elsewhere (Lille); documents come back as sent
// 2. documents then settings: not filterable first (Meilisearch's message), then found once the
//    settings task has built the shapes; turning `_geojson` off again forgets them
// 3. deleting a document removes its shape; adding it back finds it again
// 4. a partial update moves the shape (the old place no longer matches)
// 5. Meilisearch's countries: the Europe box gives its 17 countries; the box across the
//    antimeridian gives Russia and the United States (Meilisearch also returns Canada, whose
//    westernmost point is at −141°, east of the box's −148°: docs/compat.md)
// 6. radius and box search `_geo` points and `_geojson` shapes together; the polygon only
//    shapes; FeatureCollections, lines and MultiPolygons are indexed
// 7. invalid `_geojson`: the task fails with `invalid_document_geojson_field` naming the document;
//    nothing is checked while `_geojson` is not filterable; the settings task that turns it on
//    fails on a stored invalid value
// 8. a polygon's coordinates are checked once `_geojson` is filterable (filters.md §6)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fixturePath } from '../fixtures/paths.ts';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t?.close();
});

/** Lille, roughly (a hand-drawn outline around the city). */
const LILLE = {
  type: 'Polygon',
  coordinates: [[[3.01, 50.6], [3.09, 50.59], [3.13, 50.63], [3.1, 50.67], [3.03, 50.66], [3.01, 50.6]]],
};
const POINT = { type: 'Point', coordinates: [1, 1] };
const SQUARE = '_geoPolygon([0,0],[0,2],[2,2],[2,0])';
const SMALL_SQUARE = '_geoPolygon([0,0],[0,0.9],[0.9,0.9],[0.9,0])';

async function ids(uid: string, filter: string): Promise<unknown[]> {
  const res = await t.client.index(uid).search('', { filter, limit: 200, attributesToRetrieve: ['id'] });
  return res.hits.map((h) => h.id);
}

async function succeeded(promise: { waitTask(): Promise<{ status: string; error: unknown }> }) {
  const task = await promise.waitTask();
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
  return task;
}

describe('Meilisearch’s geojson tests', () => {
  test('settings, then documents', async () => {
    const uid = uniqueIndex('geojson');
    const index = t.client.index(uid);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    assert.deepEqual((await index.search('', { filter: SQUARE })).hits, []);
    const task = await succeeded(index.addDocuments([{ id: 'missing' }, { id: 'point', _geojson: POINT }, { id: 'lille', _geojson: LILLE }]));
    assert.deepEqual((task as unknown as { details: unknown }).details, { receivedDocuments: 3, indexedDocuments: 3 });
    const docs = await t.fetch('GET', `/indexes/${uid}/documents?ids=missing,point`);
    assert.deepEqual(docs.body, { results: [{ id: 'missing' }, { id: 'point', _geojson: POINT }], offset: 0, limit: 20, total: 2 });
    const res = await t.fetch('GET', `/indexes/${uid}/search?filter=${encodeURIComponent(SQUARE)}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.hits, [{ id: 'point', _geojson: POINT }]);
    assert.equal(res.body.estimatedTotalHits, 1);
    // Lille is found by its own area
    assert.deepEqual(await ids(uid, '_geoPolygon([50.62, 3.05], [50.64, 3.05], [50.64, 3.07], [50.62, 3.07])'), ['lille']);
    assert.deepEqual(await ids(uid, '_geoRadius(50.63, 3.06, 100)'), ['lille']);
  });

  test('documents, then settings', async () => {
    const uid = uniqueIndex('geojson');
    const index = t.client.index(uid);
    const task = await succeeded(index.addDocuments([{ id: 'missing' }, { id: 'point', _geojson: POINT }, { id: 'lille', _geojson: LILLE }]));
    assert.deepEqual((task as unknown as { details: unknown }).details, { receivedDocuments: 3, indexedDocuments: 3 });
    const refused = await t.fetch('GET', `/indexes/${uid}/search?filter=${encodeURIComponent(SQUARE)}`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'invalid_search_filter');
    assert.match(
      refused.body.message,
      new RegExp(`^Index \`${uid}\`: Attribute \`_geojson\` is not filterable\\. This index does not have configured filterable attributes\\.\\n14:15 _geoPolygon\\(`),
    );
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    const res = await t.fetch('GET', `/indexes/${uid}/search?filter=${encodeURIComponent(SQUARE)}`);
    assert.deepEqual(res.body.hits, [{ id: 'point', _geojson: POINT }]);
    // `_geo` only: shapes are dropped, the polygon is refused again
    await succeeded(index.updateSettings({ filterableAttributes: ['_geo'] }));
    const again = await t.fetch('GET', `/indexes/${uid}/search?filter=${encodeURIComponent(SQUARE)}`);
    assert.equal(again.status, 400);
    assert.deepEqual(await ids(uid, '_geoRadius(1, 1, 1000)'), []);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    assert.deepEqual(await ids(uid, '_geoRadius(1, 1, 1000)'), ['point']);
  });

  test('add and remove', async () => {
    const uid = uniqueIndex('geojson');
    const index = t.client.index(uid);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    await succeeded(index.addDocuments([{ id: 'missing' }, { id: 0, _geojson: POINT }]));
    assert.deepEqual(await ids(uid, SMALL_SQUARE), []);
    assert.deepEqual(await ids(uid, SQUARE), [0]);
    await succeeded(index.deleteDocument(0));
    assert.deepEqual(await ids(uid, SMALL_SQUARE), []);
    assert.deepEqual(await ids(uid, SQUARE), []);
    await succeeded(index.addDocuments([{ id: 0, _geojson: POINT }]));
    assert.deepEqual(await ids(uid, SMALL_SQUARE), []);
    assert.deepEqual(await ids(uid, SQUARE), [0]);
    // cleared: nothing left, then indexed again
    await succeeded(index.deleteAllDocuments());
    assert.deepEqual(await ids(uid, SQUARE), []);
    await succeeded(index.addDocuments([{ id: 1, _geojson: POINT }]));
    assert.deepEqual(await ids(uid, SQUARE), [1]);
  });

  test('partial update', async () => {
    const uid = uniqueIndex('geojson');
    const index = t.client.index(uid);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    await succeeded(index.addDocuments([{ id: 0, title: 'kept', _geojson: POINT }]));
    assert.deepEqual(await ids(uid, SMALL_SQUARE), []);
    assert.deepEqual(await ids(uid, SQUARE), [0]);
    await succeeded(index.updateDocuments([{ id: 0, _geojson: { type: 'Point', coordinates: [0.5, 0.5] } }]));
    assert.deepEqual(await ids(uid, SMALL_SQUARE), [0]);
    assert.deepEqual(await ids(uid, SQUARE), [0]);
    assert.deepEqual(await ids(uid, '_geoPolygon([0.9,0.9],[0.9,2],[2,2],[2,0.9])'), []);
    assert.deepEqual(await index.getDocument(0), { id: 0, title: 'kept', _geojson: { type: 'Point', coordinates: [0.5, 0.5] } });
    // an update leaving `_geojson` alone keeps the shape
    await succeeded(index.updateDocuments([{ id: 0, title: 'renamed' }]));
    assert.deepEqual(await ids(uid, SMALL_SQUARE), [0]);
    // null removes it
    await succeeded(index.updateDocuments([{ id: 0, _geojson: null }]));
    assert.deepEqual(await ids(uid, SQUARE), []);
  });

  test('the countries: a box over Europe, a box across the antimeridian', async () => {
    const uid = uniqueIndex('geojson_countries');
    const index = t.client.index(uid);
    const countries = JSON.parse(fs.readFileSync(fixturePath('meili/countries-geojson.json'), 'utf8'));
    await succeeded(index.addDocuments(countries, { primaryKey: 'name' }));
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    const names = async (filter: string) =>
      (await index.search('', { filter, attributesToRetrieve: ['name'] })).hits.map((h) => h.name);
    assert.deepEqual(await names('_geoBoundingBox([50.53987503447863,21.43443989912143],[43.76393151539099,0.54979129195425])'), [
      'Austria', 'Belgium', 'Bosnia_and_Herzegovina', 'Switzerland', 'Czech_Republic', 'Germany', 'France', 'Croatia', 'Hungary',
      'Italy', 'Luxembourg', 'Netherlands', 'Poland', 'Romania', 'Republic_of_Serbia', 'Slovakia', 'Slovenia',
    ]);
    // Meilisearch: Canada, Russia, United_States_of_America
    assert.deepEqual(await names('_geoBoundingBox([70,-148],[63,152])'), ['Russia', 'United_States_of_America']);
    assert.deepEqual(await names('_geoPolygon([48, 2], [49, 2], [49, 3])'), ['France']);
    assert.deepEqual(await names('_geoRadius(50.63, 3.06, 300000)'), ['Belgium', 'Germany', 'France', 'United_Kingdom', 'Luxembourg', 'Netherlands']);
    // a small circle finds nothing at sea
    assert.deepEqual(await names('_geoRadius(45, -30, 100000, 16)'), []);
  });

  test('a FeatureCollection (Meilisearch issue 5904)', async () => {
    const uid = uniqueIndex('geojson');
    const index = t.client.index(uid);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [4.23914, 48.382893] }, properties: {} };
    await succeeded(index.addDocuments([{ id: 1, _geojson: { type: 'FeatureCollection', features: [feature] } }], { primaryKey: 'id' }));
    assert.deepEqual(await ids(uid, '_geoRadius(48.382893, 4.23914, 10)'), [1]);
  });
});

describe('beyond Meilisearch’s tests', () => {
  test('radius and box search points and shapes; the polygon only shapes', async () => {
    const uid = uniqueIndex('geojson_mixed');
    const index = t.client.index(uid);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geo', '_geojson'] }));
    await succeeded(
      index.addDocuments([
        { id: 1, _geo: { lat: 1, lng: 1 } },
        { id: 2, _geojson: POINT },
        { id: 3, _geojson: { type: 'LineString', coordinates: [[-5, 1], [5, 1]] } },
        { id: 4, _geojson: { type: 'MultiPolygon', coordinates: [[[[10, 10], [11, 10], [11, 11], [10, 10]]], [[[0.5, 0.5], [1.5, 0.5], [1.5, 1.5], [0.5, 1.5], [0.5, 0.5]]]] } },
        { id: 5, _geo: { lat: 40, lng: 40 }, _geojson: { type: 'Point', coordinates: [-40, -40] } },
        { id: 6, _geojson: { type: 'Polygon', coordinates: [[[170, -10], [-170, -10], [-170, 10], [170, 10], [170, -10]]] } },
      ]),
    );
    assert.deepEqual(await ids(uid, '_geoRadius(1, 1, 1000)'), [1, 2, 3, 4]);
    assert.deepEqual(await ids(uid, '_geoBoundingBox([2, 2], [0, 0])'), [1, 2, 3, 4]);
    assert.deepEqual(await ids(uid, SQUARE), [2, 3, 4]);
    // `_geo` at 40, 40 and the shape at -40, -40 of one document
    assert.deepEqual(await ids(uid, '_geoRadius(40, 40, 1000)'), [5]);
    assert.deepEqual(await ids(uid, '_geoRadius(-40, -40, 1000)'), [5]);
    assert.deepEqual(await ids(uid, '_geoPolygon([39, 39], [41, 39], [41, 41])'), []);
    // a shape across the antimeridian, found from either side
    assert.deepEqual(await ids(uid, '_geoRadius(0, 179.9, 1000)'), [6]);
    assert.deepEqual(await ids(uid, '_geoBoundingBox([1, -175], [-1, -176])'), [6]);
    assert.deepEqual(await ids(uid, 'NOT _geoRadius(1, 1, 1000)'), [5, 6]);
  });

  test('invalid `_geojson`', async () => {
    const uid = uniqueIndex('geojson_invalid');
    const index = t.client.index(uid);
    // not filterable: not checked
    await succeeded(index.addDocuments([{ id: 1, _geojson: { type: 'Circle', radius: 3 } }]));
    // turning it on checks the stored documents
    const settings = await index.updateSettings({ filterableAttributes: ['_geojson'] }).waitTask();
    assert.equal(settings.status, 'failed');
    assert.equal(settings.error?.code, 'invalid_document_geojson_field');
    assert.equal(
      settings.error?.message,
      `Index \`${uid}\`: The \`_geojson\` field in the document with the id: \`"1"\` is not valid GeoJSON: \`_geojson.type\` is \`Circle\`, expected \`Point\`, \`MultiPoint\`, \`LineString\`, \`MultiLineString\`, \`Polygon\`, \`MultiPolygon\`, \`GeometryCollection\`, \`Feature\` or \`FeatureCollection\`.`,
    );
    await succeeded(index.deleteDocument(1));
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    const failed = await index.addDocuments([{ id: 2, _geojson: POINT }, { id: 3, _geojson: { type: 'Polygon', coordinates: [[[0, 0], [1]]] } }]).waitTask();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'invalid_document_geojson_field');
    assert.equal(failed.error?.type, 'invalid_request');
    assert.equal(
      failed.error?.message,
      `Index \`${uid}\`: The \`_geojson\` field in the document with the id: \`"3"\` is not valid GeoJSON: \`_geojson.coordinates[0][1]\` must be a position (an array of two or more numbers: longitude, latitude), found \`[1]\`.`,
    );
    // nothing of the failed task is indexed
    assert.deepEqual(await ids(uid, SQUARE), []);
    assert.equal((await index.getDocuments()).total, 0);
  });

  test('a polygon’s coordinates are checked once `_geojson` is filterable', async () => {
    const uid = uniqueIndex('geojson_errors');
    const index = t.client.index(uid);
    await succeeded(index.updateSettings({ filterableAttributes: ['_geojson'] }));
    await succeeded(index.addDocuments([{ id: 1, _geojson: POINT }]));
    const fetchDocs = (filter: string) => t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { filter } });
    const cases: [string, string][] = [
      ['_geoPolygon([100, 0], [0, 0], [0, 1])', 'Bad latitude `100`. Latitude must be contained between -90 and 90 degrees.\n14:17 _geoPolygon([100, 0], [0, 0], [0, 1])'],
      [
        '_geoPolygon([0, 0], [0, 1], [1, 200])',
        'Bad longitude `200`. Longitude must be contained between -180 and 180 degrees. Hint: try using `-160` instead.\n33:36 _geoPolygon([0, 0], [0, 1], [1, 200])',
      ],
      ['_geoRadius(1, 1, 10, 2)', 'Invalid resolution `2`. Resolution must be between 3 and 1000.\n22:23 _geoRadius(1, 1, 10, 2)'],
    ];
    for (const [filter, message] of cases) {
      const res = await fetchDocs(filter);
      assert.equal(res.status, 400, filter);
      assert.deepEqual(res.body, { message, code: 'invalid_document_filter', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#invalid_document_filter' });
    }
    // with a resolution, the circle's polygon has that many points
    const ok = await fetchDocs('_geoRadius(1, 1, 1000, 3)');
    assert.deepEqual(ok.body.results.map((d: { id: number }) => d.id), [1]);
  });
});
