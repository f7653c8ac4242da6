// Document batches keep the facet tables in step (index-operation.ts + engine/facet). Checks:
// 1. additions, partial updates, deletions and clears maintain values, exists/null/empty sets,
//    per-document values and geo points
// 2. settings that change what is faceted (filterable, sortable, distinct, asc/desc rules, `_geo`)
//    rebuild the tables, also for later tasks of the batch; other settings leave them alone
// 3. an invalid `_geo` fails its task with milli's message (``Index `uid`: `` prefix) and leaves
//    no trace; making `_geo` filterable over an invalid stored `_geo` fails the settings task
// 4. documents stored before facet indexing are indexed by the next batch
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import { facetReader, type FacetReader } from '../../engine/facet/index.ts';
import type { Index } from '../../engine/index/index.ts';
import { storedSettings } from '../index-settings.ts';
import { batchHarness } from './batch-harness.test-support.ts';

const { addition, settings, deletion, clear, run, indexOf } = batchHarness('muninn-index-operation-');

/** value → internal ids, numbers then strings, for one field. */
function values(r: FacetReader, field: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const fid = r.fieldId(field);
  if (fid === undefined) return out;
  for (const [n, d] of r.numbers(fid, 'asc')) out[`#${n}`] = d.toArray();
  for (const [s, o, d] of r.strings(fid, 'asc')) out[s === o ? s : `${s}(${o})`] = d.toArray();
  return out;
}

test('additions, partial updates, deletions and clears maintain the facet tables', async () => {
  const name = 'facet-docs';
  await run(name, [
    settings(name, { filterableAttributes: ['color', 'price', 'tags', '_geo'], sortableAttributes: ['price'] }),
    addition(name, [
      { id: 1, color: 'Red', price: 10, tags: ['a'], _geo: { lat: 50.6, lng: 3.06 } },
      { id: 2, color: 'blue', price: 20, tags: [] },
      { id: 3, color: null, price: '30' },
    ]),
  ]);
  const index = indexOf(name);
  const r = facetReader(index);
  assert.deepEqual(values(r, 'color'), { blue: [1], 'red(Red)': [0] });
  assert.deepEqual(values(r, 'price'), { '#10': [0], '#20': [1], '30': [2] });
  assert.deepEqual(r.isNull(r.fieldId('color')!).toArray(), [2]);
  assert.deepEqual(r.isEmpty(r.fieldId('tags')!).toArray(), [1]);
  assert.deepEqual(r.geoPoint(0), [50.6, 3.06]);
  assert.deepEqual(r.geoRadius(50.6, 3.06, 10).toArray(), [0]);
  assert.deepEqual(r.numberRange(r.fieldId('_geo.lat')!, { value: 50, inclusive: true }, null).toArray(), [0]);

  const tasks = await run(name, [
    addition(name, [{ id: 2, price: 25 }], 'update'),
    deletion(name, ['1']),
    addition(name, [{ id: 4, color: 'BLUE', _geo: { lat: '1', lng: '2' } }]),
  ]);
  assert.deepEqual(tasks.map((t) => t.status), ['succeeded', 'succeeded', 'succeeded']);
  // id 4 reuses internal id 0: the smallest holder's spelling is shown
  assert.deepEqual(values(r, 'color'), { 'blue(BLUE)': [0, 1] });
  assert.deepEqual(values(r, 'price'), { '#25': [1], '30': [2] });
  assert.deepEqual(r.docStrings(r.fieldId('color')!, 1), ['blue']);
  assert.deepEqual(r.docOriginals(r.fieldId('color')!, 0), ['BLUE']);
  assert.deepEqual(r.geoPoint(0), [1, 2]);
  assert.deepEqual(r.exists(r.fieldId('tags')!).toArray(), [1]);

  await run(name, [clear(name), addition(name, [{ id: 9, color: 'green' }])]);
  assert.deepEqual(values(r, 'color'), { green: [0] });
  assert.deepEqual(values(r, 'price'), {});
  assert.equal(r.geoPoint(1), undefined);
  assert.deepEqual(r.geoRadius(0, 0, 20_000_000).toArray(), []);
});

test('settings that change what is faceted rebuild the tables; others leave them alone', async () => {
  const name = 'facet-settings';
  await run(name, [addition(name, [{ id: 1, genre: 'Rock', year: 1999, dog: { name: 'Rex' } }])]);
  const index = indexOf(name);
  const r = facetReader(index);
  assert.deepEqual(values(r, 'genre'), {});
  const tasks = await run(name, [
    settings(name, { filterableAttributes: ['genre'], distinctAttribute: 'dog.name' }),
    addition(name, [{ id: 2, genre: 'Jazz', year: 2001 }]),
  ]);
  assert.deepEqual(tasks.map((t) => t.status), ['succeeded', 'succeeded']);
  assert.deepEqual(values(r, 'genre'), { 'jazz(Jazz)': [1], 'rock(Rock)': [0] });
  assert.deepEqual(values(r, 'dog.name'), { 'rex(Rex)': [0] });
  assert.deepEqual(values(r, 'year'), {});

  await run(name, [settings(name, { rankingRules: ['words', 'year:desc'], filterableAttributes: [] })]);
  assert.deepEqual(values(r, 'year'), { '#1999': [0], '#2001': [1] });
  assert.deepEqual(values(r, 'genre'), {});

  const generation = index.generation();
  const before = [...index.facets.numbers.keys()];
  await run(name, [settings(name, { stopWords: ['the'], faceting: { maxValuesPerFacet: 3 } })]);
  assert.equal(index.generation(), generation + 1);
  assert.deepEqual([...index.facets.numbers.keys()], before);
});

test('an invalid _geo fails its task without a trace; enabling _geo over one fails the settings task', async () => {
  const name = 'facet-geo';
  const tasks = await run(name, [
    settings(name, { filterableAttributes: ['_geo', 'n'] }),
    addition(name, [{ id: 1, n: 1, _geo: { lat: 1, lng: 2 } }]),
    addition(name, [{ id: 2, n: 2, _geo: { lat: 3, lng: 4 } }, { id: 11, n: 11, _geo: { lng: 12 } }]),
    addition(name, [{ id: 12, _geo: { lat: 1, lng: 2, doggo: 'are the best' } }]),
  ]);
  assert.deepEqual(tasks.map((t) => t.status), ['succeeded', 'succeeded', 'failed', 'failed']);
  assert.deepEqual(tasks[2]!.error, {
    message: 'Index `facet-geo`: Could not find latitude in the document with the id: `"11"`. Was expecting a `_geo.lat` field.',
    code: 'invalid_document_geo_field',
    type: 'invalid_request',
    link: 'https://docs.meilisearch.com/errors#invalid_document_geo_field',
  });
  assert.equal(tasks[3]!.error!.message, 'Index `facet-geo`: The `_geo` field in the document with the id: `"12"` contains the following unexpected fields: `{"doggo":"are the best"}`.');
  const index = indexOf(name);
  const r = facetReader(index);
  assert.deepEqual(values(r, 'n'), { '#1': [0] });
  assert.deepEqual(r.geoRadius(0, 0, 20_000_000).toArray(), [0]);

  // geo off: an invalid `_geo` is stored; turning geo on must then fail
  const other = 'facet-geo-later';
  await run(other, [addition(other, [{ id: 1, _geo: 'somewhere' }, { id: 2, _geo: { lat: 5, lng: 6 } }])]);
  const [failed, ok] = await run(other, [settings(other, { sortableAttributes: ['_geo'] }), settings(other, { sortableAttributes: ['x'] })]);
  assert.equal(failed!.status, 'failed');
  assert.equal(failed!.error!.message, 'Index `facet-geo-later`: The `_geo` field in the document with the id: `"1"` is not an object. Was expecting an object with the `_geo.lat` and `_geo.lng` fields but instead got `"somewhere"`.');
  assert.equal(ok!.status, 'succeeded');
  assert.deepEqual(storedSettings(indexOf(other)).sortableAttributes, ['x']);
  assert.equal(facetReader(indexOf(other)).geoPoint(1), undefined);
});

test('documents stored before facet indexing are indexed by the next batch', async () => {
  const name = 'facet-legacy';
  await run(name, [settings(name, { filterableAttributes: ['kind', '_geo'] })]);
  const index = indexOf(name);
  // documents written the way the scheduler did before the facet tables existed
  index.env.write(() => {
    const w = new DocumentsWriter(index);
    w.addDocument({ id: 1, kind: 'Old', _geo: 'not a point' }, 'id', { method: 'replace', primaryKey: 'id', skipCreation: false });
    w.save(2);
  });
  // an index from before facet indexing records no configuration
  index.env.write(() => index.facets.meta.remove('indexedWith'));
  await run(name, [addition(name, [{ id: 2, kind: 'new', _geo: { lat: 1, lng: 1 } }])]);
  const r = facetReader(index);
  assert.deepEqual(values(r, 'kind'), { new: [1], 'old(Old)': [0] });
  assert.deepEqual(r.geoRadius(1, 1, 1).toArray(), [1]);
});
