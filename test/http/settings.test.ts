// Settings through the official client (settings.md). Properties checked:
// 1. a fresh index answers the documented defaults with 20 keys in order
// 2. PATCH /settings and every sub-route verb update, DELETE resets; GET normalises
// 3. validation errors are synchronous 400s; a settings task creates a missing index
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

const DEFAULTS = {
  displayedAttributes: ['*'],
  searchableAttributes: ['*'],
  filterableAttributes: [],
  sortableAttributes: [],
  rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'],
  stopWords: [],
  nonSeparatorTokens: [],
  separatorTokens: [],
  dictionary: [],
  synonyms: {},
  distinctAttribute: null,
  proximityPrecision: 'byWord',
  typoTolerance: { enabled: true, minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 }, disableOnWords: [], disableOnAttributes: [], disableOnNumbers: false },
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
  pagination: { maxTotalHits: 1000 },
  embedders: {},
  searchCutoffMs: null,
  localizedAttributes: null,
  facetSearch: true,
  prefixSearch: 'indexingTime',
};

describe('settings', () => {
  test('defaults of a fresh index', async () => {
    const uid = uniqueIndex('set');
    await t.client.createIndex(uid).waitTask();
    const res = await t.fetch('GET', `/indexes/${uid}/settings`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), Object.keys(DEFAULTS));
    assert.deepEqual(res.body, DEFAULTS);
    assertErrorBody(await t.fetch('GET', '/indexes/nope_settings/settings'), 'index_not_found', 404);
  });

  test('update, normalise, reset', async () => {
    const uid = uniqueIndex('set');
    const index = t.client.index(uid);
    const task = await index
      .updateSettings({
        searchableAttributes: ['title', 'overview'],
        sortableAttributes: ['year', 'title', 'year'],
        stopWords: ['the', 'a'],
        synonyms: { wolverine: ['xmen', 'logan'] },
        typoTolerance: { minWordSizeForTypos: { oneTypo: 4 } },
        pagination: { maxTotalHits: 50 },
      })
      .waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.equal(task.type, 'settingsUpdate');
    const s = await index.getSettings();
    assert.deepEqual(s.searchableAttributes, ['title', 'overview']);
    assert.deepEqual(s.sortableAttributes, ['title', 'year']);
    assert.deepEqual(s.stopWords, ['a', 'the']);
    assert.deepEqual(s.typoTolerance?.minWordSizeForTypos, { oneTypo: 4, twoTypos: 9 });
    assert.deepEqual(s.pagination, { maxTotalHits: 50 });

    await index.updateRankingRules(['typo', 'words']).waitTask();
    assert.deepEqual(await index.getRankingRules(), ['typo', 'words']);
    await index.updateTypoTolerance({ enabled: false }).waitTask();
    assert.equal((await index.getTypoTolerance())?.enabled, false);
    await index.resetRankingRules().waitTask();
    assert.deepEqual(await index.getRankingRules(), DEFAULTS.rankingRules);
    await index.resetSettings().waitTask();
    assert.deepEqual(await t.fetch('GET', `/indexes/${uid}/settings`).then((r) => r.body), DEFAULTS);
  });

  test('validation errors and verbs', async () => {
    const uid = uniqueIndex('set');
    await t.client.createIndex(uid).waitTask();
    assertErrorBody(await t.fetch('PATCH', `/indexes/${uid}/settings`, { body: { doggo: 1 } }), 'bad_request', 400, /^Unknown field `doggo`/);
    assertErrorBody(await t.fetch('PATCH', `/indexes/${uid}/settings`, { body: { rankingRules: ['notARule'] } }), 'invalid_settings_ranking_rules', 400);
    assertErrorBody(await t.fetch('PATCH', `/indexes/${uid}/settings`, { body: { displayedAttributes: 'title' } }), 'invalid_settings_displayed_attributes', 400);
    assertErrorBody(await t.fetch('PUT', `/indexes/${uid}/settings/searchable-attributes`, { body: 'title' }), 'invalid_settings_searchable_attributes', 400);
    const wrongVerb = await t.fetch('PATCH', `/indexes/${uid}/settings/searchable-attributes`, { body: ['title'] });
    assert.equal(wrongVerb.status, 405);
    await assertApiError(t.client.index(uid).updateFilterableAttributes('x' as never), 'invalid_settings_filterable_attributes', 400);
  });

  test('a settings task creates a missing index', async () => {
    const uid = uniqueIndex('set');
    const task = await t.client.index(uid).updateSearchableAttributes(['name']).waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.deepEqual(task.details, { searchableAttributes: ['name'] });
    assert.deepEqual(await t.client.index(uid).getSearchableAttributes(), ['name']);
  });

  test('document sort needs sortable attributes', async () => {
    const uid = uniqueIndex('set');
    await t.client.index(uid).addDocuments([{ id: 1, age: 3 }]).waitTask();
    assertErrorBody(
      await t.fetch('GET', `/indexes/${uid}/documents?sort=age:asc`),
      'invalid_document_sort',
      400,
      'Attribute `age` is not sortable. This index does not have configured sortable attributes.',
    );
  });
});

describe('fields', () => {
  test('every field with what the settings make of it', async () => {
    const uid = uniqueIndex('fields');
    await t.client.index(uid).addDocuments([{ id: 1, title: 't', genre: 'g', price: 3, info: { year: 2000 } }]).waitTask();
    const task = await t.client
      .index(uid)
      .updateSettings({
        displayedAttributes: ['id', 'title'],
        searchableAttributes: ['title'],
        sortableAttributes: ['price'],
        distinctAttribute: 'genre',
        rankingRules: ['words', 'price:desc'],
        filterableAttributes: ['genre', { attributePatterns: ['info.*'], features: { facetSearch: false, filter: { equality: true, comparison: true } } }],
      })
      .waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    const res = await t.fetch('POST', `/indexes/${uid}/fields`, { body: {} });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.results.map((f: any) => f.name), ['id', 'title', 'genre', 'price', 'info', 'info.year']);
    assert.equal(res.body.total, 6);
    const price = res.body.results.find((f: any) => f.name === 'price');
    assert.deepEqual(price, {
      name: 'price',
      displayed: { enabled: false },
      searchable: { enabled: false },
      sortable: { enabled: true },
      distinct: { enabled: false },
      rankingRule: { enabled: true, order: 'desc' },
      filterable: { enabled: false, sortBy: 'alpha', facetSearch: false, equality: false, comparison: false },
      localized: { locales: [] },
    });
    const year = res.body.results.find((f: any) => f.name === 'info.year');
    assert.deepEqual(year.filterable, { enabled: true, sortBy: 'alpha', facetSearch: false, equality: true, comparison: true });
    const genre = res.body.results.find((f: any) => f.name === 'genre');
    assert.deepEqual([genre.distinct, genre.filterable.facetSearch], [{ enabled: true }, true]);
    const filtered = await t.fetch('POST', `/indexes/${uid}/fields`, { body: { filter: { displayed: true }, limit: 1 } });
    assert.deepEqual([filtered.body.results.map((f: any) => f.name), filtered.body.total, filtered.body.limit], [['id'], 2, 1]);
    const patterns = await t.fetch('POST', `/indexes/${uid}/fields`, { body: { filter: { attributePatterns: ['ti*'] } } });
    assert.deepEqual(patterns.body.results.map((f: any) => f.name), ['title']);
    assertErrorBody(await t.fetch('POST', `/indexes/${uid}/fields`, { body: { filter: { displayed: 'yes' } } }), 'invalid_index_fields_filter_displayed', 400);
    assertErrorBody(await t.fetch('POST', '/indexes/nope_fields/fields', { body: {} }), 'index_not_found', 404);
  });
});
