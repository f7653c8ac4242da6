// POST /multi-search through the official client (multi-search.md). Properties checked:
// 1. without `federation`: one result per query in request order, each the single search
//    response with `indexUid` first, all sharing one `requestUid`; `queries: []` → no result
// 2. federated: hits merged by weighted score (single-search `_rankingScore` × weight),
//    `_federation` between the document fields and `_rankingScore`, a document kept once per
//    index with its best query, ties to the lower query position, keyword hits before
//    placeholder hits, response keys in the order of §3
// 3. federated pagination: `limit`/`offset`, page mode, page 0, and `estimatedTotalHits` as the
//    union of each index's queries' candidates (also when the windows did not hold them all)
// 4. errors: body shape, `queries`, `indexUid`, `federationOptions` without `federation`, the
//    weight, unknown index (400, first failing query), the restrictions of §3.2, the
//    ranking-rules check of §3.4, filters checked per query (facets, distinct, sort and filter
//    features: multi-search-facets.test.ts)
// 5. each query's index is authorized against the key's `indexes`
// 6. the embedded library answers `multiSearch` like the route
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Muninn } from '../../src/lib.ts';
import { assertApiError, assertErrorBody, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
let movies: string;
let comics: string;
let words: string;

before(async () => {
  t = await startTestServer();
  movies = uniqueIndex('ms_movies');
  comics = uniqueIndex('ms_comics');
  words = uniqueIndex('ms_words');
  await t.client.index(movies).addDocuments([
    { id: 1, title: 'Batman' },
    { id: 2, title: 'Batman Returns' },
    { id: 3, title: 'The Dark Knight' },
    { id: 4, title: 'Superman' },
  ]).waitTask();
  await t.client.index(comics).addDocuments([
    { id: 'a', title: 'Batman: Year One' },
    { id: 'b', title: 'Badman' },
    { id: 'c', title: 'Superman Returns' },
  ]).waitTask();
  // alpha: 1-20, beta: 11-30 → 30 documents match one or the other
  const docs = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, text: i < 10 ? 'alpha' : i < 20 ? 'alpha beta' : 'beta' }));
  await t.client.index(words).addDocuments(docs).waitTask();
});
after(async () => {
  await t.close();
});

/** `_rankingScore` of each hit of a single search. */
async function scores(uid: string, q: string): Promise<Map<unknown, number>> {
  const res = await t.client.index(uid).search(q, { showRankingScore: true });
  return new Map(res.hits.map((h) => [h.id, h._rankingScore!]));
}

const fed = (hits: any[]) => hits.map((h) => [h.id, h._federation.queriesPosition, h._federation.weightedRankingScore]);

describe('multi-search', () => {
  test('independent results in request order, one requestUid', async () => {
    const res = await t.client.multiSearch({
      queries: [
        { indexUid: comics, q: 'batman' },
        { indexUid: movies, q: 'batman', showRankingScore: true, limit: 1 },
        { indexUid: movies, q: '' },
      ],
    });
    assert.deepEqual(res.results.map((r) => r.indexUid), [comics, movies, movies]);
    const raw = await t.fetch('POST', '/multi-search', { body: { queries: [{ indexUid: movies, q: 'batman', limit: 1 }, { indexUid: comics }] } });
    assert.equal(raw.status, 200);
    assert.deepEqual(Object.keys(raw.body), ['results']);
    const [first, second] = raw.body.results;
    assert.deepEqual(Object.keys(first), ['indexUid', 'hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    assert.equal(first.requestUid, second.requestUid);
    assert.match(first.requestUid, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // each result is the single search response
    for (const [i, q] of [[1, { q: 'batman', showRankingScore: true, limit: 1 }], [0, { q: 'batman' }], [2, { q: '' }]] as const) {
      const r = res.results[i]! as any;
      const single = (await t.fetch('POST', `/indexes/${r.indexUid}/search`, { body: q })).body;
      const strip = ({ processingTimeMs: _p, requestUid: _r, indexUid: _i, ...rest }: any) => rest;
      assert.deepEqual(strip(r), strip(single));
    }
    assert.deepEqual((await t.client.multiSearch({ queries: [] })).results, []);
  });

  test('federated: weighted scores, one hit per document, key order', async () => {
    const m = await scores(movies, 'batman');
    const c = await scores(comics, 'batman');
    const r = await scores(movies, 'returns');
    assert.equal(m.get(1), 1, 'an exact title match scores 1');
    assert.ok(r.get(2)! < m.get(2)!, '"Batman Returns" ranks better for "batman" than for "returns"');
    const res = await t.client.multiSearch({
      federation: {},
      queries: [
        { indexUid: movies, q: 'batman' },
        { indexUid: comics, q: 'batman', showRankingScore: true, federationOptions: { weight: 2 } },
        { indexUid: movies, q: 'returns' },
      ],
    });
    // by hand: a 2×0.98 > 1: 1×1 > 2: max(0.98 via q0, r via q2) > b: 2×0.46
    assert.deepEqual(fed(res.hits), [
      ['a', 1, 2 * c.get('a')!],
      [1, 0, 1],
      [2, 0, m.get(2)!],
      ['b', 1, 2 * c.get('b')!],
    ]);
    assert.equal(res.estimatedTotalHits, 4);
    assert.deepEqual(Object.keys(res.hits[0]!), ['id', 'title', '_federation', '_rankingScore']);
    assert.equal(res.hits[0]!._rankingScore, c.get('a'));
    assert.deepEqual(Object.keys(res.hits[0]!._federation!), ['indexUid', 'queriesPosition', 'weightedRankingScore']);
    assert.equal(res.hits[0]!._federation!.indexUid, comics);
    const raw = await t.fetch('POST', '/multi-search', { body: { federation: {}, queries: [{ indexUid: movies, q: 'batman' }] } });
    assert.deepEqual(Object.keys(raw.body), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    // `Meili-Include-Metadata`: one entry per query, in request order
    const meta = await t.fetch('POST', '/multi-search', {
      body: { federation: { showPerformanceDetails: true }, queries: [{ indexUid: comics }, { indexUid: movies }] },
      headers: { 'meili-include-metadata': 'true' },
    });
    assert.deepEqual(Object.keys(meta.body).slice(-3), ['requestUid', 'metadata', 'performanceDetails']);
    assert.deepEqual(meta.body.metadata.map((m: any) => [m.indexUid, m.primaryKey, typeof m.queryUid]), [[comics, 'id', 'string'], [movies, 'id', 'string']]);
  });

  test('federated: ties go to the lower query position, keyword hits before placeholder hits', async () => {
    const tie = await t.client.multiSearch({
      federation: {},
      queries: [{ indexUid: comics, q: 'badman' }, { indexUid: movies, q: 'batman' }],
    });
    assert.deepEqual(fed(tie.hits).slice(0, 2), [['b', 0, 1], [1, 1, 1]]);
    const sc = (await scores(comics, 'superman')).get('c')!;
    const mixed = await t.client.multiSearch({
      federation: {},
      queries: [{ indexUid: movies }, { indexUid: comics, q: 'superman', federationOptions: { weight: 0.5 } }],
    });
    // a placeholder hit has no relevancy score to compare: any keyword hit ranks before it
    assert.deepEqual(fed(mixed.hits), [['c', 1, 0.5 * sc], [1, 0, 1], [2, 0, 1], [3, 0, 1], [4, 0, 1]]);
    const zero = await t.client.multiSearch({ federation: {}, queries: [{ indexUid: movies, q: 'superman', federationOptions: { weight: 0 } }] });
    assert.deepEqual(fed(zero.hits), [[4, 0, 0]]);
  });

  test('federated pagination and counts', async () => {
    const queries = [{ indexUid: movies }, { indexUid: comics }];
    const window = await t.client.multiSearch({ federation: { limit: 2, offset: 3 }, queries });
    assert.deepEqual(window.hits.map((h) => h.id), [4, 'a']);
    assert.equal(window.estimatedTotalHits, 7);
    assert.equal(window.limit, 2);
    assert.equal(window.offset, 3);
    const page = await t.fetch('POST', '/multi-search', { body: { federation: { page: 2, hitsPerPage: 2 }, queries } });
    assert.deepEqual(Object.keys(page.body), ['hits', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid']);
    assert.deepEqual(page.body.hits.map((h: any) => h.id), [3, 4]);
    assert.deepEqual([page.body.hitsPerPage, page.body.page, page.body.totalPages, page.body.totalHits], [2, 2, 4, 7]);
    const zero = (await t.fetch('POST', '/multi-search', { body: { federation: { page: 0 }, queries } })).body;
    assert.deepEqual([zero.hits, zero.page, zero.hitsPerPage, zero.totalHits, zero.totalPages], [[], 0, 20, 7, 1]);
    // two queries of one index: the union of their candidates, though each window held 3
    const union = await t.client.multiSearch({ federation: { limit: 3 }, queries: [{ indexUid: words, q: 'alpha' }, { indexUid: words, q: 'beta' }] });
    assert.equal(union.hits.length, 3);
    assert.equal(union.estimatedTotalHits, 30);
    const empty = await t.fetch('POST', '/multi-search', { body: { federation: {}, queries: [] } });
    assert.deepEqual({ ...empty.body, processingTimeMs: 0, requestUid: '' }, { hits: [], processingTimeMs: 0, limit: 20, offset: 0, estimatedTotalHits: 0, requestUid: '' });
  });

  test('body validation', async () => {
    const post = (body: unknown) => t.fetch('POST', '/multi-search', { body });
    assertErrorBody(await post([]), 'bad_request', 400, 'Invalid value type: expected an object, but found an array: `[]`');
    assertErrorBody(await post({}), 'bad_request', 400, 'Missing field `queries`');
    assertErrorBody(await post({ federation: {} }), 'bad_request', 400, 'Missing field `queries`');
    assertErrorBody(await post({ queries: [{ q: 'glass' }] }), 'missing_index_uid', 400, 'Missing field `indexUid` inside `.queries[0]`');
    assertErrorBody(
      await post({ federation: {}, queries: [{ indexUid: 'hé', q: 'glass' }] }),
      'invalid_index_uid',
      400,
      'Invalid value at `.queries[0].indexUid`: `hé` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    );
    assertErrorBody(await post({ queries: [{ indexUid: movies }, { indexUid: movies, limit: 'x' }] }), 'invalid_search_limit', 400, 'Invalid value type at `.queries[1].limit`: expected a positive integer, but found a string: `"x"`');
    assertErrorBody(await post({ queries: [{ indexUid: movies, doggo: 1 }] }), 'bad_request', 400, /^Unknown field `doggo` inside `.queries\[0\]`: expected one of `indexUid`, `q`, `offset`,.* `federationOptions`$/);
    assertErrorBody(await post({ queries: [], doggo: 1 }), 'bad_request', 400, 'Unknown field `doggo`: expected one of `queries`, `federation`');
    await assertApiError(
      t.client.multiSearch({ queries: [{ indexUid: movies }, { indexUid: movies, federationOptions: { weight: 2 } }] } as any),
      'invalid_multi_search_federation_options',
      400,
      'Inside `.queries[1]`: Using `federationOptions` is not allowed in a non-federated search.\n - Hint: remove `federationOptions` from the query or add `federation` to the request.',
    );
    await assertApiError(
      t.client.multiSearch({ federation: {}, queries: [{ indexUid: movies }, { indexUid: movies, federationOptions: { weight: -1 } }] }),
      'invalid_multi_search_weight',
      400,
      'Invalid value at `.queries[1].federationOptions.weight`: the value of `weight` is invalid, expected a positive float (>= 0.0).',
    );
  });

  test('unknown indexes are a 400 naming the first failing query', async () => {
    for (const federation of [undefined, {}]) {
      await assertApiError(
        t.client.multiSearch({ ...(federation ? { federation } : {}), queries: [{ indexUid: movies }, { indexUid: 'ms_nope' }, { indexUid: 'ms_nope_too' }] } as any),
        'index_not_found',
        400,
        'Inside `.queries[1]`: Index `ms_nope` not found.',
      );
    }
    // request order: the bad sort of query 0 comes before the missing index of query 1
    await assertApiError(
      t.client.multiSearch({ queries: [{ indexUid: movies, sort: ['id:asc'] }, { indexUid: 'ms_nope' }] }),
      'invalid_search_sort',
      400,
      /^Inside `\.queries\[0\]`: Index `ms_movies_[0-9_]+`: Attribute `id` is not sortable\. This index does not have configured sortable attributes\.$/,
    );
  });

  test('restrictions on federated queries', async () => {
    const one = (extra: Record<string, unknown>, federation: Record<string, unknown> = {}) =>
      t.client.multiSearch({ federation, queries: [{ indexUid: comics }, { indexUid: movies, ...extra }] } as any);
    await assertApiError(
      one({ limit: 5 }),
      'invalid_multi_search_query_pagination',
      400,
      'Inside `.queries[1]`: Using pagination options is not allowed in federated queries.\n - Hint: remove `limit` from the query or remove `federation` from the request\n - Hint: pass `federation.limit` and `federation.offset` for pagination in federated search',
    );
    await assertApiError(one({ hitsPerPage: 5, offset: 0 }), 'invalid_multi_search_query_pagination', 400, /remove `offset` from the query/);
    await assertApiError(
      one({ facets: ['genre', 'color'] }),
      'invalid_multi_search_query_facets',
      400,
      `Inside \`.queries[1]\`: Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from the query or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${movies}: ["genre", "color"]\` for facets in federated search`,
    );
    assert.equal(((await one({ facets: [] })) as any).hits.length, 7, '`facets: []` is accepted');
    await assertApiError(
      one({ showPerformanceDetails: true }),
      'invalid_multi_search_query_show_performance_details',
      400,
      'Inside `.queries[1]`: Using `.showPerformanceDetails` is not allowed in federated queries.\n - Hint: remove `showPerformanceDetails` from the query or remove `federation` from the request',
    );
    await assertApiError(
      one({ distinct: 'title' }, { distinct: 'title' }),
      'invalid_multi_search_distinct',
      400,
      'Inside `.queries[1]`: Using `distinct` options is not allowed in federated queries when it also appears in `.federation.distinct`.\n - Hint: remove `distinct` from the query or remove `federation` from the request\n  - Note: `distinct` at the query level is discouraged in federated search.',
    );
  });

  test('query filters are checked; indexes named for facets must exist', async () => {
    const queries = [{ indexUid: movies }];
    await assertApiError(
      t.client.multiSearch({ federation: {}, queries: [{ indexUid: movies, filter: 'id = 1' }] }),
      'invalid_search_filter',
      400,
      /^Inside `\.queries\[0\]`: Index `ms_movies_[0-9_]+`: Attribute `id` is not filterable\. This index does not have configured filterable attributes\.\n2:4 "id" = "1"$/,
    );
    // an index listed without facets must still exist
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { ms_zorglub: null } } as any, queries }),
      'index_not_found',
      400,
      'Inside `.federation.facetsByIndex.ms_zorglub`: Index `ms_zorglub` not found.\n - Note: index `ms_zorglub` is not used in queries',
    );
  });

  test('ranking rules of merged queries must be comparable', async () => {
    const sorted = uniqueIndex('ms_sorted');
    await t.client.index(sorted).addDocuments([{ id: 1, title: 'Batman' }]).waitTask();
    const rules = ['title:asc', 'words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'];
    await t.client.index(sorted).updateRankingRules(rules).waitTask();
    // `ms_movies…` runs before `ms_sorted…` (uid order): query 1 is checked against query 0
    const expected =
      'Inside `.queries[1]`: The results of queries #0 and #1 are incompatible: \n' +
      `  1. \`queries[0]\`, \`${movies}.rankingRules[0..=5]\`: relevancy rule(s) words, typo, proximity, attributeRank, wordPosition, exactness\n` +
      `  2. \`queries[1]\`, \`${sorted}.rankingRules[0]\`: ascending sort rule(s) title:asc\n` +
      '  - cannot compare a relevancy rule with a sort rule\n' +
      '  - note: The ranking rules of query #0 were modified during canonicalization:\n' +
      '   1. Removed rule `sort` at position #4 in ranking rules because `query.sort` is empty\n' +
      '  - note: The ranking rules of query #1 were modified during canonicalization:\n' +
      '   1. Removed rule `sort` at position #5 in ranking rules because `query.sort` is empty\n';
    await assertApiError(
      t.client.multiSearch({ federation: {}, queries: [{ indexUid: movies, q: 'batman' }, { indexUid: sorted, q: 'batman' }] }),
      'invalid_multi_search_query_ranking_rules',
      400,
      expected,
    );
    // placeholder queries drop their relevancy rules: nothing left to compare on `movies`
    const ok = await t.client.multiSearch({ federation: {}, queries: [{ indexUid: movies }, { indexUid: sorted, q: 'batman' }] });
    assert.equal(ok.hits.length, 5);
    // without federation nothing is merged, nothing is checked
    assert.equal((await t.client.multiSearch({ queries: [{ indexUid: movies, q: 'batman' }, { indexUid: sorted, q: 'batman' }] })).results.length, 2);
  });

  test('each query is authorized against the key', async () => {
    const { key } = await t.client.createKey({ actions: ['search'], indexes: [movies], expiresAt: null });
    const client = t.clientWith(key);
    const ok = await client.multiSearch({ queries: [{ indexUid: movies, q: 'batman' }] });
    assert.equal(ok.results[0]!.hits.length, 2);
    for (const federation of [undefined, {}]) {
      await assertApiError(
        client.multiSearch({ ...(federation ? { federation } : {}), queries: [{ indexUid: movies }, { indexUid: comics }] } as any),
        'invalid_api_key',
        403,
        'Inside `.queries[1]`: The provided API key is invalid.',
      );
    }
    const noSearch = await t.client.createKey({ actions: ['documents.get'], indexes: ['*'], expiresAt: null });
    await assertApiError(t.clientWith(noSearch.key).multiSearch({ queries: [{ indexUid: movies }] }), 'invalid_api_key', 403, 'The provided API key is invalid.');
  });

  test('the embedded library', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-lib-'));
    const m = await Muninn.open({ dbPath: dir });
    try {
      const { body } = await m.request<{ taskUid: number }>('POST', '/indexes/lib/documents', [{ id: 1, title: 'Batman' }, { id: 2, title: 'Superman' }]);
      await m.waitForTask(body.taskUid);
      const res = m.multiSearch({ federation: {}, queries: [{ indexUid: 'lib', q: 'superman' }, { indexUid: 'lib', q: 'batman', federationOptions: { weight: 0.5 } }] });
      assert.deepEqual(fed(res.hits as any[]), [[2, 0, 1], [1, 1, 0.5]]);
      assert.throws(() => m.multiSearch({ queries: [{ indexUid: 'nope' }] }), (err: any) => err.code === 'index_not_found' && err.status === 400);
    } finally {
      await m.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
