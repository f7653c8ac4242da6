// Document batches keep the `_geojson` shapes in step (index-operation.ts + engine/facet). Checks:
// 1. additions, partial updates (a moved shape, an untouched one, null), deletions and clears
//    maintain the shapes and their cells
// 2. an invalid `_geojson` fails its task with the document named (``Index `uid`: `` prefix) and
//    leaves no trace, while the batch's other tasks keep their shapes
// 3. making `_geojson` filterable indexes stored documents (an invalid one fails that settings
//    task, the next task of the batch runs); taking it out empties the shape tables
// 4. after random batches of additions, updates and deletions, queries equal a scan of the
//    documents and the cells equal a fresh filing of the stored shapes
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { facetReader } from '../../engine/facet/index.ts';
import { ShapeDelta } from '../../engine/facet/geojson-delta.ts';
import { cellEntryMap, cellKeyParts } from '../../engine/facet/geojson-grid.ts';
import { queryRegion, regionMeetsShape, type ShapeQuery } from '../../engine/facet/geojson-reader.ts';
import { decodeShape, geoJsonShapeOf } from '../../engine/facet/geojson.ts';
import type { Index } from '../../engine/index/index.ts';
import { rng } from '../../engine/random.fixtures.ts';
import { batchHarness } from './batch-harness.test-support.ts';

const { addition, settings, deletion, clear, run, indexOf } = batchHarness('muninn-index-operation-geojson-');

const square = (lng: number, lat: number, size = 1) => ({
  type: 'Polygon',
  coordinates: [[[lng, lat], [lng + size, lat], [lng + size, lat + size], [lng, lat + size], [lng, lat]]],
});
const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const near = (lat: number, lng: number, meters = 1000): ShapeQuery => ({ kind: 'circle', lat, lng, meters, resolution: 32 });
const box = (top: number, right: number, bottom: number, left: number): ShapeQuery => ({ kind: 'box', top, right, bottom, left });

function shapes(index: Index, query: ShapeQuery): number[] {
  return facetReader(index).geoShapes(query).toArray();
}

test('additions, partial updates, deletions and clears maintain the shapes', async () => {
  const name = 'geojson-docs';
  await run(name, [
    settings(name, { filterableAttributes: ['_geojson'] }),
    addition(name, [
      { id: 1, title: 'a', _geojson: point(3.06, 50.63) },
      { id: 2, _geojson: square(10, 10) },
      { id: 3, title: 'no shape' },
      { id: 4, _geojson: { type: 'LineString', coordinates: [[-5, 0], [5, 0]] } },
    ]),
  ]);
  const index = indexOf(name);
  assert.deepEqual(shapes(index, near(50.63, 3.06)), [0]);
  assert.deepEqual(shapes(index, box(12, 12, 9, 9)), [1]);
  assert.deepEqual(shapes(index, box(1, 1, -1, -1)), [3]);
  assert.deepEqual(shapes(index, box(90, 180, -90, -180)), [0, 1, 3]);

  const tasks = await run(name, [
    // moved
    addition(name, [{ id: 1, _geojson: point(2.35, 48.85) }], 'update'),
    // untouched by a partial update
    addition(name, [{ id: 2, note: 'x' }], 'update'),
    // removed by null, then by a replacement without it
    addition(name, [{ id: 4, _geojson: null }], 'update'),
    deletion(name, ['3']),
    addition(name, [{ id: 5, _geojson: square(-20, -20, 2) }]),
  ]);
  assert.deepEqual(tasks.map((t) => t.status), ['succeeded', 'succeeded', 'succeeded', 'succeeded', 'succeeded']);
  assert.deepEqual(shapes(index, near(50.63, 3.06)), []);
  assert.deepEqual(shapes(index, near(48.85, 2.35)), [0]);
  assert.deepEqual(shapes(index, box(12, 12, 9, 9)), [1]);
  assert.deepEqual(shapes(index, box(1, 1, -1, -1)), []);
  // id 5 reuses internal id 2
  assert.deepEqual(shapes(index, box(-17, -17, -19, -19)), [2]);

  await run(name, [clear(name), addition(name, [{ id: 9, _geojson: point(0, 0) }])]);
  assert.deepEqual(shapes(index, box(90, 180, -90, -180)), [0]);
  assert.equal(index.facets.geojsonShapes.count(), 1);
  await run(name, [deletion(name, ['9'])]);
  assert.equal(index.facets.geojsonShapes.count(), 0);
  assert.equal(index.facets.geojsonCells.count(), 0);
});

test('an invalid _geojson fails its task without a trace', async () => {
  const name = 'geojson-invalid';
  const tasks = await run(name, [
    settings(name, { filterableAttributes: ['_geojson'] }),
    addition(name, [{ id: 1, _geojson: point(1, 1) }]),
    addition(name, [{ id: 2, _geojson: point(2, 2) }, { id: 3, _geojson: { type: 'Point', coordinates: 'here' } }]),
    addition(name, [{ id: 4, _geojson: point(4, 4) }]),
  ]);
  assert.deepEqual(tasks.map((t) => t.status), ['succeeded', 'succeeded', 'failed', 'succeeded']);
  assert.deepEqual(tasks[2]!.error, {
    message:
      'Index `geojson-invalid`: The `_geojson` field in the document with the id: `"3"` is not valid GeoJSON: `_geojson.coordinates` must be a position (an array of two or more numbers: longitude, latitude), found `"here"`.',
    code: 'invalid_document_geojson_field',
    type: 'invalid_request',
    link: 'https://docs.meilisearch.com/errors#invalid_document_geojson_field',
  });
  const index = indexOf(name);
  assert.deepEqual(shapes(index, box(90, 180, -90, -180)), [0, 1]);
  assert.deepEqual(shapes(index, near(4, 4)), [1]);
  assert.deepEqual(shapes(index, near(2, 2)), []);
  assert.equal(index.facets.geojsonShapes.count(), 2);
});

test('settings index stored shapes, or fail on an invalid one; taking _geojson out empties the tables', async () => {
  const name = 'geojson-settings';
  await run(name, [addition(name, [{ id: 1, _geojson: point(1, 1) }, { id: 2, _geojson: { type: 'Circle' } }])]);
  const index = indexOf(name);
  assert.equal(index.facets.geojsonShapes.count(), 0);
  const [failed, next] = await run(name, [settings(name, { filterableAttributes: ['_geojson'] }), settings(name, { filterableAttributes: ['x'] })]);
  assert.equal(failed!.status, 'failed');
  assert.equal(failed!.error!.code, 'invalid_document_geojson_field');
  assert.match(failed!.error!.message, /^Index `geojson-settings`: The `_geojson` field in the document with the id: `"2"` is not valid GeoJSON: /);
  assert.equal(next!.status, 'succeeded');
  assert.equal(index.facets.geojsonShapes.count(), 0);

  const done = await run(name, [deletion(name, ['2']), settings(name, { filterableAttributes: ['_geojson', 'x'] })]);
  assert.deepEqual(done.map((t) => t.status), ['succeeded', 'succeeded']);
  assert.deepEqual(shapes(index, near(1, 1)), [0]);
  await run(name, [settings(name, { filterableAttributes: ['x'] })]);
  assert.equal(index.facets.geojsonShapes.count(), 0);
  assert.equal(index.facets.geojsonCells.count(), 0);
});

test('random batches: queries equal a scan, cells equal a fresh filing', async () => {
  const name = 'geojson-random';
  const random = rng(21);
  const randomValue = () => {
    const lng = random() * 40 - 20;
    const lat = random() * 40 - 20;
    const u = random();
    if (u < 0.1) return null;
    if (u < 0.4) return point(lng, lat);
    if (u < 0.6) return { type: 'LineString', coordinates: [[lng, lat], [lng + random() * 5, lat + random() * 5]] };
    return square(lng, lat, random() * 3);
  };
  await run(name, [settings(name, { filterableAttributes: ['_geojson'] })]);
  for (let batch = 0; batch < 4; batch++) {
    const tasks = [];
    for (let k = 0; k < 3; k++) {
      const changes: Record<string, unknown>[] = [];
      for (let i = 0; i < 60; i++) {
        const id = Math.floor(random() * 120);
        const value = randomValue();
        changes.push(random() < 0.2 ? { id, other: i } : { id, _geojson: value });
      }
      tasks.push(addition(name, changes, random() < 0.5 ? 'update' : 'replace'));
    }
    tasks.push(deletion(name, Array.from({ length: 10 }, () => String(Math.floor(random() * 120)))));
    const done = await run(name, tasks);
    assert.ok(done.every((t) => t.status === 'succeeded'));
  }
  const index = indexOf(name);
  // the stored documents are the reference: their `_geojson`, by internal id
  const stored = new Map<number, unknown>();
  for (const [id, json] of index.documents.entries()) {
    const doc = JSON.parse(Buffer.from(json).toString('utf8')) as Record<string, unknown>;
    if (doc._geojson !== undefined && doc._geojson !== null) stored.set(id, doc._geojson);
  }
  assert.ok(stored.size > 50, `documents with a shape: ${stored.size}`);
  let found = 0;
  for (let q = 0; q < 60; q++) {
    const lat = random() * 40 - 20;
    const lng = random() * 40 - 20;
    const query: ShapeQuery = random() < 0.5 ? box(lat + random() * 5, lng + random() * 5, lat, lng) : near(lat, lng, random() * 500_000);
    const region = queryRegion(query);
    const expected = [...stored].filter(([, v]) => regionMeetsShape(region, geoJsonShapeOf(v)!)).map(([id]) => id).sort((a, b) => a - b);
    assert.deepEqual(shapes(index, query), expected, JSON.stringify(query));
    if (expected.length > 0) found++;
  }
  assert.ok(found > 20, `queries finding shapes: ${found}`);
  // the cells hold exactly what filing the stored shapes gives
  const fresh = new ShapeDelta();
  for (const [id, bytes] of index.facets.geojsonShapes.entries()) fresh.add(id, decodeShape(bytes));
  assert.deepEqual([...index.facets.geojsonShapes.keys()], [...stored.keys()].sort((a, b) => a - b));
  const expectedCells = new Map<string, number[]>();
  for (const [key, ops] of fresh.cells) expectedCells.set(cellKeyParts(key).join('/'), [...ops.keys()].sort((a, b) => a - b));
  const actualCells = new Map<string, number[]>();
  for (const [key, bytes] of index.facets.geojsonCells.entries()) actualCells.set(`${key[0]}/${key[1]}`, [...cellEntryMap(bytes).keys()]);
  assert.deepEqual(new Map([...actualCells].sort()), new Map([...expectedCells].sort()));
});
