// Facet distribution, facet stats and facet search through the official client (facets.md).
// Properties checked:
// 1. `facets`: distribution over every candidate of the query (not only the page), original
//    spellings of normalized values, numbers as Rust prints them, nested fields of a requested
//    parent, `{}` for fields without values, sorted fields, stats of numeric fields only,
//    `facets: []` / absent → no keys, `*`, the GET encoding
// 2. settings: `maxValuesPerFacet` (numbers first), `sortFacetValuesBy` per field and `*`
// 3. `facets` errors: not filterable (with and without filterable attributes), matched rule
//    without filter features
// 4. facet search: prefix of the whole value, typos by query length, `q` restricting the
//    documents, no `facetQuery`, `count` order and the limit, key order of the response
// 5. facet search errors: disabled setting, not facet-searchable names (three messages),
//    missing / mistyped fields, unknown index, unknown body fields ignored
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, assertErrorBody, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

/** The distribution and facet search results need the facet index (engine/facet) plugged into searches. */
const RESULTS = {};

let t: TestServer;
let movies: string;

const MOVIES = [
  { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], price: 9.99, director: { name: 'Todd Haynes', born: 1961 } },
  { id: 2, title: 'Wonder Woman', genres: ['Action', 'Adventure'], price: 15, director: { name: 'Patty Jenkins', born: 1971 } },
  { id: 3, title: 'Life of Pi', genres: ['Adventure', 'drama'], price: 15.0, director: { name: 'Ang Lee', born: 1954 } },
  { id: 4, title: 'Mad Max: Fury Road', genres: ['Adventure', 'Science Fiction', '  action'], price: 12.5 },
  { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], price: 'free' },
  { id: 6, title: 'Philadelphia', genres: ['Drama'], tags: [] },
  { id: 7, title: 'Jane Austen Book Club', genres: ['Comedy', 'Multiple Words', 'Jane Austen'] },
];

before(async () => {
  t = await startTestServer();
  movies = uniqueIndex('facets_movies');
  const index = t.client.index(movies);
  await index.addDocuments(MOVIES).waitTask();
  await index.updateSettings({ filterableAttributes: ['genres', 'price', 'director', 'tags', 'title'] }).waitTask();
});
after(async () => {
  await t.close();
});

describe('facet distribution', () => {
  test('over the candidates of the query', RESULTS, async () => {
    const res = await t.client.index(movies).search('', { facets: ['genres', 'price'], limit: 1 });
    assert.deepEqual(Object.keys(res), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetDistribution', 'facetStats', 'requestUid']);
    assert.deepEqual(res.facetDistribution, {
      genres: {
        Action: 3, Adventure: 3, Comedy: 1, Drama: 3, Fantasy: 1, 'Jane Austen': 1, 'Multiple Words': 1, Romance: 1, 'Science Fiction': 1,
      },
      price: { '9.99': 1, '12.5': 1, '15': 2, free: 1 },
    });
    assert.deepEqual(res.facetStats, { price: { min: 9.99, max: 15 } });
    // values in alphabetical order of their normalized form (non-numeric keys keep their order in JSON)
    assert.deepEqual(Object.keys(res.facetDistribution!.genres!), ['Action', 'Adventure', 'Comedy', 'Drama', 'Fantasy', 'Jane Austen', 'Multiple Words', 'Romance', 'Science Fiction']);
    const q = await t.client.index(movies).search('adventure', { facets: ['genres'] });
    // the spelling of the first candidate holding the value
    assert.deepEqual(q.facetDistribution, { genres: { Action: 2, Adventure: 3, drama: 1, 'Science Fiction': 1 } });
    assert.deepEqual(q.facetStats, {});
  });

  test('nested fields, parents and fields without values', RESULTS, async () => {
    const res = await t.client.index(movies).search('', { facets: ['director', 'tags'] });
    assert.deepEqual(Object.keys(res.facetDistribution!), ['director', 'director.born', 'director.name', 'tags']);
    assert.deepEqual(res.facetDistribution!.director, {});
    assert.deepEqual(res.facetDistribution!.tags, {});
    assert.deepEqual(res.facetDistribution!['director.name'], { 'Ang Lee': 1, 'Patty Jenkins': 1, 'Todd Haynes': 1 });
    assert.deepEqual(res.facetStats, { 'director.born': { min: 1954, max: 1971 } });
    const all = await t.client.index(movies).search('', { facets: ['*'] });
    assert.deepEqual(Object.keys(all.facetDistribution!), ['director', 'director.born', 'director.name', 'genres', 'price', 'tags', 'title']);
  });

  test('empty and absent facets', async () => {
    for (const facets of [undefined, []]) {
      const res = await t.client.index(movies).search('', facets === undefined ? {} : { facets });
      assert.equal('facetDistribution' in res, false);
      assert.equal('facetStats' in res, false);
    }
  });

  test('GET encoding', RESULTS, async () => {
    const res = await t.fetch('GET', `/indexes/${movies}/search?facets=price,director.born&limit=0`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.facetDistribution, { 'director.born': { '1954': 1, '1961': 1, '1971': 1 }, price: { '9.99': 1, '12.5': 1, '15': 2, free: 1 } });
  });

  test('maxValuesPerFacet and sortFacetValuesBy', RESULTS, async () => {
    const uid = uniqueIndex('facets_sorted');
    const index = t.client.index(uid);
    await index.addDocuments(MOVIES).waitTask();
    await index.updateSettings({
      filterableAttributes: ['genres', 'price'],
      faceting: { maxValuesPerFacet: 3, sortFacetValuesBy: { genres: 'count' } },
    }).waitTask();
    const res = await index.search('', { facets: ['genres', 'price'] });
    assert.deepEqual(Object.entries(res.facetDistribution!.genres!), [['Drama', 3], ['Adventure', 3], ['Action', 3]]);
    // numbers take the first slots, strings the rest
    assert.deepEqual(res.facetDistribution!.price, { '9.99': 1, '12.5': 1, '15': 2 });
    // requested through `*`, a field uses the `*` order
    const star = await index.search('', { facets: ['*'] });
    assert.deepEqual(Object.keys(star.facetDistribution!.genres!), ['Action', 'Adventure', 'Comedy']);
    await index.updateSettings({ faceting: { maxValuesPerFacet: 0 } }).waitTask();
    const none = await index.search('', { facets: ['genres'] });
    assert.deepEqual(none.facetDistribution, { genres: {} });
  });

  test('facets that are not filterable', async () => {
    const index = t.client.index(movies);
    await assertApiError(
      index.search('', { facets: ['doggo'] }), 'invalid_search_facets', 400,
      'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `director, genres, price, tags, title`.',
    );
    await assertApiError(
      index.search('', { facets: ['genres', 'doggo', 'cat'] }), 'invalid_search_facets', 400,
      /Pattern `doggo`/,
    );
    const bare = uniqueIndex('facets_bare');
    await t.client.index(bare).addDocuments([{ id: 1 }]).waitTask();
    await assertApiError(
      t.client.index(bare).search('', { facets: ['*'] }), 'invalid_search_facets', 400,
      'Invalid facet distribution: Pattern `*` is not filterable. This index does not have configured filterable attributes.',
    );
    await t.client.index(bare).updateSettings({
      filterableAttributes: [{ attributePatterns: ['genres'], features: { facetSearch: true, filter: { equality: false, comparison: false } } }] as never,
    }).waitTask();
    await assertApiError(
      t.client.index(bare).search('', { facets: ['genres'] }), 'invalid_search_facets', 400,
      'Invalid facet distribution: Attribute `genres` matched rule #0 in filterableAttributes, but this rule does not enable filtering.\n' +
        'Hint: enable filtering in rule #0 by modifying the features.filter object\n' +
        'Hint: prepend another rule matching `genres` with appropriate filter features before rule #0',
    );
  });
});

describe('facet search', () => {
  test('prefix of the whole value', RESULTS, async () => {
    const index = t.client.index(movies);
    const res = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'a' });
    assert.deepEqual(Object.keys(res), ['facetHits', 'facetQuery', 'processingTimeMs']);
    assert.deepEqual(res.facetHits, [{ value: 'Action', count: 3 }, { value: 'Adventure', count: 3 }]);
    assert.equal(res.facetQuery, 'a');
    const jane = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'Jane' });
    assert.deepEqual(jane.facetHits, [{ value: 'Jane Austen', count: 1 }]);
    for (const facetQuery of ['Austen', 'words']) {
      assert.deepEqual((await index.searchForFacetValues({ facetName: 'genres', facetQuery })).facetHits, []);
    }
    // five bytes or more: one typo
    const typo = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'advenhure' });
    assert.deepEqual(typo.facetHits, [{ value: 'Adventure', count: 3 }]);
    assert.deepEqual((await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'acton' })).facetHits, [{ value: 'Action', count: 3 }]);
    assert.deepEqual((await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'dram' })).facetHits, [{ value: 'Drama', count: 3 }]);
  });

  test('the search restricts the documents', RESULTS, async () => {
    const index = t.client.index(movies);
    const res = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'a', q: 'moana' });
    assert.deepEqual(res.facetHits, [{ value: 'Action', count: 1 }]);
    const exhaustive = await t.fetch('POST', `/indexes/${movies}/facet-search`, {
      body: { facetName: 'genres', q: 'mad max', exhaustiveFacetCount: true, matchingStrategy: 'all' },
    });
    assert.equal(exhaustive.status, 200, JSON.stringify(exhaustive.body));
    assert.deepEqual(exhaustive.body.facetHits, [
      { value: 'Action', count: 1 }, { value: 'Adventure', count: 1 }, { value: 'Science Fiction', count: 1 },
    ]);
    assert.equal(exhaustive.body.facetQuery, null);
  });

  test('count order and limit', RESULTS, async () => {
    const uid = uniqueIndex('facets_search_count');
    const index = t.client.index(uid);
    await index.addDocuments(MOVIES).waitTask();
    await index.updateSettings({ filterableAttributes: ['genres'], faceting: { maxValuesPerFacet: 2, sortFacetValuesBy: { genres: 'count' } } }).waitTask();
    const res = await index.searchForFacetValues({ facetName: 'genres' });
    assert.equal(res.facetHits.length, 2);
    assert.ok(res.facetHits.every((h) => h.count === 3));
    const a = await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'a' });
    assert.deepEqual(a.facetHits, [{ value: 'Adventure', count: 3 }, { value: 'Action', count: 3 }]);
  });

  test('errors', async () => {
    const index = t.client.index(movies);
    await assertApiError(
      index.searchForFacetValues({ facetName: 'invalid', facetQuery: 'a' }), 'invalid_facet_search_facet_name', 400,
      'Attribute `invalid` is not facet-searchable. Available facet-searchable attributes patterns are: `director, genres, price, tags, title`. To make it facet-searchable add it to the `filterableAttributes` index settings.',
    );
    const res = await t.fetch('POST', `/indexes/${movies}/facet-search`, { body: { facetQuery: 'a' } });
    assertErrorBody(res, 'missing_facet_search_facet_name', 400, 'Missing field `facetName`');
    const typed = await t.fetch('POST', `/indexes/${movies}/facet-search`, { body: { facetName: 'genres', facetQuery: 1 } });
    assertErrorBody(typed, 'invalid_facet_search_query', 400, 'Invalid value type at `.facetQuery`: expected a string, but found a positive integer: `1`');
    const missing = await t.fetch('POST', `/indexes/${uniqueIndex('nope')}/facet-search`, { body: { facetName: 'genres' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'index_not_found');

    const uid = uniqueIndex('facets_search_errors');
    const other = t.client.index(uid);
    await other.addDocuments([{ id: 1, genres: 'Action' }]).waitTask();
    await assertApiError(
      other.searchForFacetValues({ facetName: 'invalid.name' }), 'invalid_facet_search_facet_name', 400,
      'Attribute `invalid.name` is not facet-searchable. This index does not have configured facet-searchable attributes. To make it facet-searchable add it to the `filterableAttributes` index settings.',
    );
    await other.updateSettings({
      filterableAttributes: [{ attributePatterns: ['genres'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }] as never,
    }).waitTask();
    await assertApiError(
      other.searchForFacetValues({ facetName: 'genres' }), 'invalid_facet_search_facet_name', 400,
      'Attribute `genres` is not facet-searchable. Note: this attribute matches rule #0 in filterableAttributes, but this rule does not enable facetSearch.\n' +
        'Hint: enable facetSearch in rule #0 by adding `"facetSearch": true` to the rule.\n' +
        'Hint: prepend another rule matching genres with facetSearch: true before rule #0',
    );
    await other.updateSettings({ filterableAttributes: ['genres'], facetSearch: false }).waitTask();
    await assertApiError(
      other.searchForFacetValues({ facetName: 'genres' }), 'facet_search_disabled', 400, 'The facet search is disabled for this index',
    );
  });

  test('unknown body fields are ignored', RESULTS, async () => {
    const res = await t.fetch('POST', `/indexes/${movies}/facet-search`, { body: { facetName: 'genres', facetQuery: 'fan', doggo: true, limit: 'x' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.facetHits, [{ value: 'Fantasy', count: 1 }]);
  });
});
