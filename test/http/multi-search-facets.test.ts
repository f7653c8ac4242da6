// Federated facets, federation distinct, sort merging and filter features in POST /multi-search,
// through the official client (multi-search.md §3.3, §4). Properties checked:
// 1. `facetsByIndex`: one `{distribution, stats}` per index, keys in uid order, computed over the
//    union of that index's queries' candidates (a single query: the single search's facets); `[]`
//    gives empty maps, `null` no entry; an index no query uses is checked, not reported
// 2. its errors: `invalid_multi_search_facets` naming the entry, with a note saying which query
//    uses the index or that none does; unknown index; an index without filterable attributes
// 3. `mergeFacets`: counts of equal keys summed, stats widened, values re-sorted (alpha: by key
//    bytes; count: decreasing), cut to `maxValuesPerFacet`, no `facetsByIndex`; an order that
//    differs between indexes is `invalid_multi_search_facet_order` (first index named first)
// 4. `federation.distinct`: across indexes and across queries of one index, rejected hits leave
//    the count and the facet counts; the attribute must be filterable in every queried index
// 5. sort rules merge by value across indexes (asc and desc)
// 6. query filters see the instance's experimental features: `CONTAINS` works in multi-search
//    (federated or not) once `containsFilter` is on, and is refused (per query) while it is off
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
// uid order (which Meilisearch runs indexes in): counted < counted2 < outlet < plain < shop
let counted: string;
let counted2: string;
let outlet: string;
let plain: string;
let shop: string;

const SHOP = [
  { id: 1, name: 'red phone', brand: 'Apple', color: 'Red', price: 10, sku: 'x1' },
  { id: 2, name: 'blue phone', brand: 'Samsung', color: 'blue', price: 20, sku: 'x2' },
  { id: 3, name: 'blue tablet', brand: 'Apple', color: 'Blue', price: 30, sku: 'x3' },
  { id: 4, name: 'green laptop', brand: 'Dell', color: 'green', price: 900, sku: 'x4' },
];
const OUTLET = [
  { id: 1, name: 'phone case', brand: 'Apple', color: 'red', price: 5, sku: 'x1' },
  { id: 2, name: 'tablet stand', brand: 'Belkin', color: 'black', price: 50, sku: 'y2' },
  { id: 3, name: 'old phone', brand: 'Samsung', color: 'Blue', price: 15, sku: 'x2' },
];
const FILTERABLE = ['brand', 'color', 'price', 'sku'];

before(async () => {
  t = await startTestServer();
  counted = uniqueIndex('msf_counted');
  counted2 = uniqueIndex('msf_counted2');
  outlet = uniqueIndex('msf_outlet');
  plain = uniqueIndex('msf_plain');
  shop = uniqueIndex('msf_shop');
  const tasks = [
    t.client.index(shop).updateSettings({ filterableAttributes: FILTERABLE, sortableAttributes: ['price'] }),
    t.client.index(shop).addDocuments(SHOP),
    t.client.index(outlet).updateSettings({ filterableAttributes: FILTERABLE, sortableAttributes: ['price'] }),
    t.client.index(outlet).addDocuments(OUTLET),
    t.client.index(plain).addDocuments([{ id: 1, brand: 'Apple', sku: 'x1' }]),
    t.client.index(counted).updateSettings({ filterableAttributes: ['brand'], faceting: { sortFacetValuesBy: { brand: 'count' } } }),
    t.client.index(counted).addDocuments([{ id: 1, brand: 'Apple' }, { id: 2, brand: 'Apple' }, { id: 3, brand: 'Zed' }]),
    t.client.index(counted2).updateSettings({ filterableAttributes: ['brand'], faceting: { sortFacetValuesBy: { '*': 'count' } } }),
    t.client.index(counted2).addDocuments([{ id: 1, brand: 'Zed' }, { id: 2, brand: 'Zed' }, { id: 3, brand: 'Zed' }]),
  ];
  for (const task of tasks) assert.equal((await task.waitTask()).status, 'succeeded');
});
after(async () => {
  await t.close();
});

const post = (body: unknown) => t.fetch('POST', '/multi-search', { body });
const ids = (hits: any[]) => hits.map((h) => [h._federation.indexUid, h.id]);

describe('federated facets', () => {
  test('facetsByIndex: per index, over the union of its queries', async () => {
    const res = await post({
      federation: { facetsByIndex: { [shop]: ['brand', 'price'], [outlet]: ['color', 'price'], [counted]: ['brand'] } },
      queries: [{ indexUid: shop, q: 'phone' }, { indexUid: shop, q: 'tablet' }, { indexUid: outlet }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetsByIndex', 'requestUid']);
    // `counted` is named but queried by nobody: checked, not reported
    assert.deepEqual(Object.keys(res.body.facetsByIndex), [outlet, shop]);
    // shop: documents 1, 2 (phone) and 3 (tablet)
    assert.deepEqual(res.body.facetsByIndex[shop], {
      distribution: { brand: { Apple: 2, Samsung: 1 }, price: { '10': 1, '20': 1, '30': 1 } },
      stats: { price: { min: 10, max: 30 } },
    });
    // one query on outlet: exactly the single search's facets
    const single = await t.client.index(outlet).search('', { facets: ['color', 'price'] });
    assert.deepEqual(res.body.facetsByIndex[outlet], { distribution: single.facetDistribution, stats: single.facetStats });
    assert.deepEqual(Object.keys(res.body.facetsByIndex[outlet].distribution.color), ['black', 'Blue', 'red']);
    // `[]`: empty maps; `null`: no entry
    const empty = await t.client.multiSearch({ federation: { facetsByIndex: { [shop]: [], [outlet]: null } as any }, queries: [{ indexUid: shop }, { indexUid: outlet }] });
    assert.deepEqual(empty.facetsByIndex, { [shop]: { distribution: {}, stats: {} } });
    // a filter and a wildcard pattern
    const filtered = await t.client.multiSearch({ federation: { facetsByIndex: { [shop]: ['*'] } }, queries: [{ indexUid: shop, filter: 'price > 15' }] });
    const direct = await t.client.index(shop).search('', { filter: 'price > 15', facets: ['*'] });
    assert.deepEqual(filtered.facetsByIndex![shop], { distribution: direct.facetDistribution, stats: direct.facetStats });
    // two queries of one index, one filtered: the union of what each query matches
    const union = await t.client.multiSearch({
      federation: { facetsByIndex: { [shop]: ['sku'] } },
      queries: [{ indexUid: shop, q: 'phone', filter: 'price > 15' }, { indexUid: shop, q: 'tablet' }],
    });
    assert.equal(union.estimatedTotalHits, 2);
    assert.deepEqual(union.facetsByIndex![shop]!.distribution, { sku: { x2: 1, x3: 1 } });
    // no facets asked: no key
    const none = await post({ federation: {}, queries: [{ indexUid: shop }] });
    assert.equal('facetsByIndex' in none.body, false);
  });

  test('facetsByIndex errors name the entry and the query using the index', async () => {
    // Meilisearch 1.50: a used index is named after its first query, an unused one in a note
    const notFilterable = (inside: string, note: string) =>
      `${inside}Inside \`.federation.facetsByIndex.${outlet}\`: Invalid facet distribution: Pattern \`name\` is not filterable. ` +
      `Available filterable attributes patterns are: \`brand, color, price, sku\`.${note}`;
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { [shop]: ['brand'], [outlet]: ['brand', 'name'] } }, queries: [{ indexUid: shop }, { indexUid: outlet }] }),
      'invalid_multi_search_facets',
      400,
      notFilterable('Inside `.queries[1]`: ', ''),
    );
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { [shop]: ['brand'], [outlet]: ['name'] } }, queries: [{ indexUid: shop }, { indexUid: shop, q: 'phone' }] }),
      'invalid_multi_search_facets',
      400,
      notFilterable('', `\n - Note: index \`${outlet}\` is not used in queries`),
    );
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { [plain]: ['brand'] } }, queries: [{ indexUid: shop }] }),
      'invalid_multi_search_facets',
      400,
      `Inside \`.federation.facetsByIndex.${plain}\`: Invalid facet distribution: Pattern \`brand\` is not filterable. This index does not have configured filterable attributes.\n - Note: index \`${plain}\` is not used in queries`,
    );
    // a query error comes before the facets of its index; queried indexes before unused ones
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { [shop]: ['name'], ms_zorglub: ['a'] } }, queries: [{ indexUid: shop, filter: 'name = x' }] }),
      'invalid_search_filter',
      400,
      /^Inside `\.queries\[0\]`: Index `msf_shop_[0-9_]+`: Attribute `name` is not filterable\./,
    );
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { [shop]: ['name'], ms_zorglub: ['a'] } }, queries: [{ indexUid: shop }] }),
      'invalid_multi_search_facets',
      400,
      /^Inside `\.queries\[0\]`: Inside `\.federation\.facetsByIndex\.msf_shop_[0-9_]+`: Invalid facet distribution: Pattern `name` is not filterable\./,
    );
    // without federation, a query's own `facets` (the single search's code, the query named)
    await assertApiError(
      t.client.multiSearch({ queries: [{ indexUid: shop, facets: ['brand'] }, { indexUid: outlet, facets: ['name'] }] }),
      'invalid_search_facets',
      400,
      'Inside `.queries[1]`: Invalid facet distribution: Pattern `name` is not filterable. Available filterable attributes patterns are: `brand, color, price, sku`.',
    );
    const multi = await t.client.multiSearch({ queries: [{ indexUid: shop, q: 'phone', facets: ['brand', 'price'] }] });
    const single = await t.client.index(shop).search('phone', { facets: ['brand', 'price'] });
    assert.deepEqual([multi.results[0]!.facetDistribution, multi.results[0]!.facetStats], [single.facetDistribution, single.facetStats]);
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex: { ms_zorglub: ['a'] } }, queries: [{ indexUid: shop }] }),
      'index_not_found',
      400,
      'Inside `.federation.facetsByIndex.ms_zorglub`: Index `ms_zorglub` not found.\n - Note: index `ms_zorglub` is not used in queries',
    );
  });

  test('mergeFacets: counts summed, stats widened, values sorted again and cut', async () => {
    const queries = [{ indexUid: shop }, { indexUid: outlet }];
    const facetsByIndex = { [shop]: ['brand', 'price'], [outlet]: ['brand', 'price'] };
    const res = await post({ federation: { facetsByIndex, mergeFacets: {} }, queries });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetDistribution', 'facetStats', 'requestUid']);
    // alpha: by the bytes of the key, numbers too ("5" after "30": see the cut below; a JSON object
    // lists integer-like keys in numeric order whatever the server's order, docs/compat.md)
    assert.deepEqual(Object.entries(res.body.facetDistribution.brand), [['Apple', 3], ['Belkin', 1], ['Dell', 1], ['Samsung', 2]]);
    assert.deepEqual(res.body.facetDistribution.price, { '5': 1, '10': 1, '15': 1, '20': 1, '30': 1, '50': 1, '900': 1 });
    assert.deepEqual(res.body.facetStats, { price: { min: 5, max: 900 } });
    // the merge is the sum of the per-index results
    const apart = (await post({ federation: { facetsByIndex }, queries })).body.facetsByIndex;
    for (const [value, count] of Object.entries(res.body.facetDistribution.brand)) {
      assert.equal(count, (apart[shop].distribution.brand[value] ?? 0) + (apart[outlet].distribution.brand[value] ?? 0), value);
    }
    const cut = await t.client.multiSearch({ federation: { facetsByIndex, mergeFacets: { maxValuesPerFacet: 2 } }, queries });
    assert.deepEqual(cut.facetDistribution, { brand: { Apple: 3, Belkin: 1 }, price: { '10': 1, '15': 1 } });
    // no facets asked: no facet key at all
    const none = await post({ federation: { mergeFacets: {} }, queries });
    assert.deepEqual(Object.keys(none.body), ['hits', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
  });

  test('mergeFacets: count order, and orders must agree', async () => {
    // counted orders `brand` by count (its own entry), counted2 every facet (`*`)
    const both = await t.client.multiSearch({
      federation: { facetsByIndex: { [counted]: ['brand'], [counted2]: ['brand'] }, mergeFacets: {} },
      queries: [{ indexUid: counted }, { indexUid: counted2 }],
    });
    assert.deepEqual(Object.entries(both.facetDistribution!.brand!), [['Zed', 4], ['Apple', 2]]);
    const queries = [{ indexUid: counted }, { indexUid: shop }];
    const facetsByIndex = { [counted]: ['brand'], [shop]: ['brand'] };
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex, mergeFacets: {} }, queries }),
      'invalid_multi_search_facet_order',
      400,
      `Inside \`.queries[1]\`: Inside \`.federation.facetsByIndex.${shop}\`: Inconsistent order for values in facet \`brand\`: index \`${counted}\` orders by count, ` +
        `but index \`${shop}\` orders alphabetically.\n - Hint: Remove \`federation.mergeFacets\` or change \`faceting.sortFacetValuesBy\` to be consistent in settings.`,
    );
    // an index no query uses is checked too
    await assertApiError(
      t.client.multiSearch({ federation: { facetsByIndex, mergeFacets: {} }, queries: [{ indexUid: counted }] }),
      'invalid_multi_search_facet_order',
      400,
      new RegExp(`orders alphabetically\\.\\n - Hint: .*\\n - Note: index \`${shop}\` is not used in queries$`),
    );
    // without the merge, each index keeps its own order
    const apart = await t.client.multiSearch({ federation: { facetsByIndex }, queries });
    assert.deepEqual(Object.entries(apart.facetsByIndex![counted]!.distribution.brand!), [['Apple', 2], ['Zed', 1]]);
    assert.deepEqual(Object.entries(apart.facetsByIndex![shop]!.distribution.brand!), [['Apple', 2], ['Dell', 1], ['Samsung', 1]]);
  });
});

describe('federation distinct', () => {
  test('across indexes: the best hit of each value, counts and facets without the others', async () => {
    const res = await t.client.multiSearch({
      federation: { distinct: 'sku', facetsByIndex: { [outlet]: ['brand', 'sku'] } },
      queries: [{ indexUid: shop }, { indexUid: outlet }],
    });
    // placeholder hits tie: query 0 (shop) first; outlet's x1 and x2 are duplicates
    assert.deepEqual(ids(res.hits), [[shop, 1], [shop, 2], [shop, 3], [shop, 4], [outlet, 2]]);
    assert.equal(res.estimatedTotalHits, 5);
    assert.deepEqual(res.facetsByIndex![outlet]!.distribution, { brand: { Belkin: 1 }, sku: { y2: 1 } });
    const merged = await t.client.multiSearch({
      federation: { distinct: 'sku', facetsByIndex: { [shop]: ['brand'], [outlet]: ['brand'] }, mergeFacets: {} },
      queries: [{ indexUid: shop }, { indexUid: outlet }],
    });
    assert.deepEqual(merged.facetDistribution, { brand: { Apple: 2, Belkin: 1, Dell: 1, Samsung: 1 } });
    // a page past the first hits still counts every rejection
    const page = await t.client.multiSearch({ federation: { distinct: 'sku', limit: 2, offset: 1 }, queries: [{ indexUid: shop }, { indexUid: outlet }] });
    assert.deepEqual(ids(page.hits), [[shop, 2], [shop, 3]]);
    assert.equal(page.estimatedTotalHits, 5);
    // the other way round: outlet's hits win
    const swapped = await t.client.multiSearch({ federation: { distinct: 'sku' }, queries: [{ indexUid: outlet }, { indexUid: shop }] });
    assert.deepEqual(ids(swapped.hits), [[outlet, 1], [outlet, 2], [outlet, 3], [shop, 3], [shop, 4]]);
  });

  test('across the queries of one index, normalized values; the attribute must be filterable', async () => {
    // `phone` finds 1 (Red) and 2 (blue), `tablet` finds 3 (Blue): the same value once normalized
    const res = await t.client.multiSearch({ federation: { distinct: 'color' }, queries: [{ indexUid: shop, q: 'phone' }, { indexUid: shop, q: 'tablet' }] });
    assert.deepEqual(ids(res.hits), [[shop, 1], [shop, 2]]);
    assert.equal(res.estimatedTotalHits, 2);
    await assertApiError(
      t.client.multiSearch({ federation: { distinct: 'sku' }, queries: [{ indexUid: shop }, { indexUid: plain }] }),
      'invalid_search_distinct',
      400,
      `Inside \`.queries[1]\`: Index \`${plain}\`: Attribute \`sku\` is not filterable and thus, cannot be used as distinct attribute. This index does not have configured filterable attributes.`,
    );
  });
});

describe('federated sort and filters', () => {
  test('sort values merge across indexes', async () => {
    for (const [dir, order] of [['asc', 1], ['desc', -1]] as const) {
      const res = await t.client.multiSearch({ federation: {}, queries: [{ indexUid: shop, sort: [`price:${dir}`] }, { indexUid: outlet, sort: [`price:${dir}`] }] });
      const prices = res.hits.map((h) => h.price as number);
      assert.deepEqual(prices, [...prices].sort((a, b) => order * (a - b)), dir);
      assert.equal(prices.length, 7);
    }
    // a weight does not reorder sort values
    const weighted = await t.client.multiSearch({
      federation: { limit: 3 },
      queries: [{ indexUid: shop, sort: ['price:asc'], federationOptions: { weight: 0.1 } }, { indexUid: outlet, sort: ['price:asc'] }],
    });
    assert.deepEqual(weighted.hits.map((h) => h.price), [5, 10, 15]);
  });

  test('CONTAINS follows the containsFilter feature in multi-search', async () => {
    const filter = 'color CONTAINS lu';
    const body = (federation?: object) => ({ ...(federation ? { federation } : {}), queries: [{ indexUid: shop }, { indexUid: outlet, filter }] });
    for (const federation of [undefined, {}]) {
      await assertApiError(
        t.client.multiSearch(body(federation) as any),
        'feature_not_enabled',
        400,
        'Inside `.queries[1]`: Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n7:15 color CONTAINS lu',
      );
    }
    assert.equal((await t.fetch('PATCH', '/experimental-features', { body: { containsFilter: true } })).status, 200);
    try {
      const single = await t.client.index(outlet).search('', { filter });
      assert.deepEqual(single.hits.map((h) => h.id), [3]);
      const multi = await t.client.multiSearch(body());
      assert.deepEqual(multi.results[1]!.hits, single.hits);
      const federated: any = await t.client.multiSearch(body({ facetsByIndex: { [outlet]: ['color'] } }) as any);
      assert.deepEqual(ids(federated.hits).filter(([uid]: any) => uid === outlet), [[outlet, 3]]);
      assert.deepEqual(federated.facetsByIndex[outlet].distribution, { color: { Blue: 1 } });
    } finally {
      await t.fetch('PATCH', '/experimental-features', { body: { containsFilter: false } });
    }
  });
});
