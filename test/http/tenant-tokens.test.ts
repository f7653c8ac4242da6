// Tenant tokens through the official client (auth-keys.md §7). Properties checked:
// 1. tokens of the SDK's `generateTenantToken` (HS256/384/512) search with list, object and `*`
//    rules, on POST and GET search
// 2. every refusal is a 403 `invalid_api_key` with Meilisearch's exact message: index outside the
//    rules or the key, expired token, wrong signing key, unknown key, key without `search`,
//    malformed tokens (shape, base64, JSON, algorithm, audience)
// 3. a deleted or expired parent key stops its tokens at once
// 4. on any other route a tenant token is an unknown API key
// 5. a rule's filter is ANDed with the query's (same outcome as the combined filter sent with the
//    master key), never dropped; multi-search applies the rules per query, federated or not (hits,
//    counts and facets), and refuses an index outside the rules in the query that names it
// 6. on /multi-search too: expired token, wrong signing key, deleted parent key
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { MeilisearchApiError, type Key, type SearchResponse } from 'meilisearch';
import { generateTenantToken } from 'meilisearch/token';
import { assertApiError, assertErrorBody, MASTER_KEY, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

const INVALID = 'The provided API key is invalid.';

let t: TestServer;
let sales: string;
let movies: string;
let searchKey: Key;
let scopedKey: Key;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function tenantToken(key: Key, searchRules: Parameters<typeof generateTenantToken>[0]['searchRules'], opts: { expiresAt?: number; algorithm?: 'HS256' | 'HS384' | 'HS512'; apiKey?: string } = {}) {
  return generateTenantToken({ apiKey: opts.apiKey ?? key.key, apiKeyUid: key.uid, searchRules, expiresAt: opts.expiresAt ?? nowSeconds() + 3600, ...(opts.algorithm ? { algorithm: opts.algorithm } : {}) });
}

/** A JWT over raw parts, HMAC-SHA256 with `secret`. */
function rawToken(header: unknown, claims: unknown, secret: string): string {
  const enc = (part: unknown) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url');
  const message = `${enc(header)}.${enc(claims)}`;
  return `${message}.${crypto.createHmac('sha256', secret).update(message).digest('base64url')}`;
}

const searchWith = (token: string, index = sales, query: Record<string, unknown> = {}) => t.clientWith(token).index(index).search('', query);

/** The hits, or the error code and message, of a search. */
async function outcome(p: Promise<SearchResponse>): Promise<unknown> {
  try {
    return { hits: (await p).hits };
  } catch (err) {
    assert.ok(err instanceof MeilisearchApiError, String(err));
    return { code: err.cause?.code, message: err.cause?.message, status: err.response.status };
  }
}

before(async () => {
  t = await startTestServer();
  sales = uniqueIndex('sales');
  movies = uniqueIndex('movies');
  const docs = [
    { id: 1, color: 'blue', title: 'one' },
    { id: 2, color: 'red', title: 'two' },
    { id: 3, color: 'blue', title: 'three' },
  ];
  await t.client.index(sales).addDocuments(docs).waitTask();
  await t.client.index(sales).updateFilterableAttributes(['color', 'id']).waitTask();
  await t.client.index(movies).addDocuments([{ id: 1, title: 'alien' }]).waitTask();
  searchKey = await t.client.createKey({ actions: ['search'], indexes: ['*'], expiresAt: null });
  scopedKey = await t.client.createKey({ actions: ['*'], indexes: [sales], expiresAt: null });
});
after(async () => {
  await t.close();
});

describe('tenant tokens', () => {
  test('search with list, object and `*` rules, every HMAC algorithm', async () => {
    for (const algorithm of ['HS256', 'HS384', 'HS512'] as const) {
      const res = await searchWith(await tenantToken(searchKey, [sales], { algorithm }));
      assert.deepEqual(res.hits.map((h) => h.id), [1, 2, 3], algorithm);
    }
    for (const rules of [['*'], ['sales*'], [sales, movies], { '*': {} }, { '*': null }, { [sales]: {} }, { [sales]: null }, { [sales]: { filter: null } }]) {
      const token = await tenantToken(searchKey, rules as string[]);
      assert.equal((await searchWith(token)).hits.length, 3, JSON.stringify(rules));
    }
    const token = await tenantToken(searchKey, ['*']);
    assert.deepEqual((await t.clientWith(token).index(movies).searchGet('')).hits, [{ id: 1, title: 'alien' }]);
    // no `exp`: valid until the key goes
    const forever = await generateTenantToken({ apiKey: searchKey.key, apiKeyUid: searchKey.uid, searchRules: ['*'] });
    assert.equal((await searchWith(forever)).hits.length, 3);
  });

  test('an index outside the rules or outside the key', async () => {
    await assertApiError(
      searchWith(await tenantToken(searchKey, [sales]), movies),
      'invalid_api_key',
      403,
      `The provided tenant token cannot acces the index \`${movies}\`, allowed indexes are ["${sales}"].`,
    );
    await assertApiError(
      searchWith(await tenantToken(searchKey, { [sales]: null, 'zz*': { filter: 'a = 1' }, aa: {} }), movies),
      'invalid_api_key',
      403,
      `The provided tenant token cannot acces the index \`${movies}\`, allowed indexes are ["aa", "${sales}", "zz*"].`,
    );
    await assertApiError(
      searchWith(await tenantToken(scopedKey, ['*']), movies),
      'invalid_api_key',
      403,
      `The API key used to generate this tenant token cannot acces the index \`${movies}\`.`,
    );
    assert.equal((await searchWith(await tenantToken(scopedKey, ['*']))).hits.length, 3);
  });

  test('expired token, wrong signing key, unknown key, key without search', async () => {
    const exp = nowSeconds() - 60;
    await assertApiError(
      searchWith(await tenantToken(searchKey, ['*'], { expiresAt: exp })),
      'invalid_api_key',
      403,
      new RegExp(`^Tenant token expired\\. Was valid up to \`${exp}\` and we're now \`\\d+\`\\.$`),
    );
    await assertApiError(searchWith(await tenantToken(searchKey, ['*'], { apiKey: scopedKey.key })), 'invalid_api_key', 403, 'Could not decode tenant token, InvalidSignature.');
    await assertApiError(searchWith(await tenantToken(searchKey, ['*'], { apiKey: MASTER_KEY })), 'invalid_api_key', 403, 'Could not decode tenant token, InvalidSignature.');
    // a well-signed token of a key that does not exist
    const ghost = '11111111-2222-4333-8444-555555555555';
    const ghostValue = crypto.createHmac('sha256', MASTER_KEY).update(ghost).digest('hex');
    await assertApiError(searchWith(rawToken({ alg: 'HS256' }, { searchRules: ['*'], apiKeyUid: ghost }, ghostValue)), 'invalid_api_key', 403, INVALID);
    const noSearch = await t.client.createKey({ actions: ['documents.get', 'settings.*'], indexes: ['*'], expiresAt: null });
    await assertApiError(searchWith(await tenantToken(noSearch, ['*'])), 'invalid_api_key', 403, INVALID);
  });

  test('a deleted key stops its tokens at once', async () => {
    const key = await t.client.createKey({ actions: ['search'], indexes: ['*'], expiresAt: null });
    const token = await tenantToken(key, ['*']);
    assert.equal((await searchWith(token)).hits.length, 3);
    await t.client.deleteKey(key.uid);
    await assertApiError(searchWith(token), 'invalid_api_key', 403, INVALID);
  });

  test('an expired key stops its tokens at once', async () => {
    const expiresAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    const key = await t.client.createKey({ actions: ['search'], indexes: ['*'], expiresAt });
    const token = await tenantToken(key, ['*']);
    assert.equal((await searchWith(token)).hits.length, 3);
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    await assertApiError(searchWith(token), 'invalid_api_key', 403, INVALID);
  });

  test('on any other route a tenant token is an unknown API key', async () => {
    const token = await tenantToken(searchKey, ['*']);
    const allKey = await t.client.createKey({ actions: ['*'], indexes: ['*'], expiresAt: null });
    const strong = await tenantToken(allKey, ['*']);
    for (const key of [token, strong]) {
      for (const [method, path] of [
        ['GET', `/indexes/${sales}/documents`],
        ['GET', `/indexes/${sales}/documents/1`],
        ['POST', `/indexes/${sales}/documents`],
        ['GET', `/indexes/${sales}`],
        ['GET', '/indexes'],
        ['GET', `/indexes/${sales}/settings`],
        ['GET', '/tasks'],
        ['GET', '/keys'],
        ['GET', '/version'],
      ] as const) {
        assertErrorBody(await t.fetch(method, path, { key, body: method === 'POST' ? [{ id: 9 }] : undefined }), 'invalid_api_key', 403, INVALID);
      }
    }
    assert.equal((await t.fetch('GET', '/health', { key: token })).status, 200);
  });

  test('malformed tokens', async () => {
    const secret = searchKey.key;
    const claims = { searchRules: ['*'], apiKeyUid: searchKey.uid };
    const good = rawToken({ alg: 'HS256', typ: 'JWT' }, claims, secret);
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const cases: [string, string | RegExp][] = [
      ['a.b', INVALID],
      [`${header}.${payload}`, INVALID],
      // the crate's message ends with a period, and Meilisearch adds its own
      [`!!!.${payload}.${signature}`, 'Could not decode tenant token, Base64 error: Invalid symbol 33, offset 0..'],
      [`${header}.${payload}.${signature}+`, `Could not decode tenant token, Base64 error: Invalid symbol 43, offset ${signature.length}..`],
      [rawToken({ alg: 'HS256' }, { tamo: 'kefir' }, secret), 'Could not decode tenant token, JSON error: missing field `searchRules` at line 1 column 16.'],
      [rawToken({ alg: 'HS256' }, { searchRules: 'kefir' }, secret), 'Could not decode tenant token, JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 23.'],
      [rawToken({ alg: 'HS256' }, { searchRules: ['*'] }, secret), 'Could not decode tenant token, JSON error: missing field `apiKeyUid` at line 1 column 21.'],
      [rawToken({ alg: 'HS256' }, '{"searchRules":["*"],"apiKeyUid":"foo"}', secret), 'Could not decode tenant token, JSON error: UUID parsing failed: invalid character: found `o` at 1 at line 1 column 38.'],
      [rawToken({ alg: 'HS256' }, { ...claims, exp: 1.5 }, secret), /^Could not decode tenant token, JSON error: invalid type: floating point `1\.5`, expected i64 at line 1 column \d+\.$/],
      [rawToken({ typ: 'JWT' }, claims, secret), 'Could not decode tenant token, JSON error: missing field `alg` at line 1 column 13.'],
      [rawToken({ alg: 'RS256' }, claims, secret), 'Could not decode tenant token, InvalidKeyFormat.'],
      [rawToken({ alg: 'HS256' }, { ...claims, aud: 'shop' }, secret), 'Could not decode tenant token, InvalidAudience.'],
      [`${header}.${rawToken({ alg: 'HS256' }, { ...claims, searchRules: [movies] }, secret).split('.')[1]}.${signature}`, 'Could not decode tenant token, InvalidSignature.'],
    ];
    for (const [token, message] of cases) {
      assertErrorBody(await t.fetch('POST', `/indexes/${sales}/search`, { key: token, body: {} }), 'invalid_api_key', 403, message);
    }
    // the good one, for comparison
    assert.equal((await t.fetch('POST', `/indexes/${sales}/search`, { key: good, body: {} })).status, 200);
  });

  test("a rule's filter is ANDed with the query's, never dropped", async () => {
    const master = t.client.index(sales);
    const unfiltered = await outcome(master.search('', {}));
    const rule = await tenantToken(searchKey, { [sales]: { filter: 'color = blue' }, '*': null });
    // same outcome as the master key sending the rule's filter, and not the unfiltered one
    const withRule = await outcome(searchWith(rule));
    assert.deepEqual(withRule, await outcome(master.search('', { filter: 'color = blue' })));
    assert.notDeepEqual(withRule, unfiltered);
    assert.deepEqual(await outcome(t.clientWith(rule).index(sales).searchGet('')), await outcome(master.search('', { filter: 'color = blue' })));
    // the query's filter comes first, then the rule's
    assert.deepEqual(await outcome(searchWith(rule, sales, { filter: 'id > 1' })), await outcome(master.search('', { filter: ['id > 1', 'color = blue'] })));
    const listRule = await tenantToken(searchKey, { 'sal*': { filter: ['color = blue', ['id = 1', 'id = 3']] } });
    assert.deepEqual(
      await outcome(searchWith(listRule, sales, { filter: ['id > 1'] })),
      await outcome(master.search('', { filter: ['id > 1', 'color = blue', ['id = 1', 'id = 3']] })),
    );
    assert.deepEqual((withRule as { hits: { id: number }[] }).hits.map((h) => h.id), [1, 3]);
    // an index without a rule filter (a null rule under the same token) searches unfiltered
    assert.deepEqual((await searchWith(rule, movies)).hits, [{ id: 1, title: 'alien' }]);
  });

  test('multi-search applies the rules query by query', async () => {
    const token = await tenantToken(searchKey, { [sales]: { filter: 'color = blue' }, [movies]: null });
    const multi = (key: string, indexUid: string) => t.fetch('POST', '/multi-search', { key, body: { queries: [{ indexUid }] } });
    const open = await multi(token, movies);
    assert.equal(open.status, 200);
    assert.deepEqual(open.body.results[0].hits, [{ id: 1, title: 'alien' }]);
    const filtered = await multi(token, sales);
    const direct = await t.fetch('POST', '/multi-search', { body: { queries: [{ indexUid: sales, filter: 'color = blue' }] } });
    assert.equal(filtered.status, direct.status);
    if (direct.status !== 200) assert.deepEqual(filtered.body, direct.body);
    else assert.deepEqual(filtered.body.results[0].hits, direct.body.results[0].hits);
    assertErrorBody(await multi(await tenantToken(searchKey, [sales]), movies), 'invalid_api_key', 403, `Inside \`.queries[0]\`: ${INVALID}`);
  });

  test('federated multi-search: the rule filter reaches hits, counts and facets', async () => {
    const token = await tenantToken(searchKey, { [sales]: { filter: 'color = blue' }, [movies]: null });
    const body = (filter?: string) => ({
      federation: { facetsByIndex: { [sales]: ['color'] } },
      queries: [{ indexUid: sales, ...(filter ? { filter } : {}) }, { indexUid: movies }],
    });
    const withToken = await t.fetch('POST', '/multi-search', { key: token, body: body() });
    assert.equal(withToken.status, 200, JSON.stringify(withToken.body));
    const master = await t.fetch('POST', '/multi-search', { body: body('color = blue') });
    const strip = ({ processingTimeMs: _p, requestUid: _r, ...rest }: any) => rest;
    assert.deepEqual(strip(withToken.body), strip(master.body));
    assert.deepEqual(withToken.body.hits.map((h: any) => [h._federation.indexUid, h.id]), [[sales, 1], [sales, 3], [movies, 1]]);
    assert.equal(withToken.body.estimatedTotalHits, 3);
    assert.deepEqual(withToken.body.facetsByIndex[sales].distribution, { color: { blue: 2 } });
    // the query's own filter is kept too
    const both = await t.fetch('POST', '/multi-search', { key: token, body: body('id > 1') });
    assert.deepEqual(both.body.hits.map((h: any) => h.id), [3, 1]);
    // an index outside the rules: the query naming it, federated or not
    const narrow = await tenantToken(searchKey, [movies]);
    for (const federation of [undefined, {}]) {
      const res = await t.fetch('POST', '/multi-search', { key: narrow, body: { ...(federation ? { federation } : {}), queries: [{ indexUid: movies }, { indexUid: sales }] } });
      assertErrorBody(res, 'invalid_api_key', 403, `Inside \`.queries[1]\`: ${INVALID}`);
    }
  });

  test('multi-search refuses expired tokens, wrong signatures and tokens of deleted keys', async () => {
    const multi = (key: string) => t.fetch('POST', '/multi-search', { key, body: { federation: {}, queries: [{ indexUid: sales }] } });
    const exp = nowSeconds() - 1;
    assertErrorBody(await multi(await tenantToken(searchKey, ['*'], { expiresAt: exp })), 'invalid_api_key', 403, new RegExp(`^Tenant token expired\\. Was valid up to \`${exp}\``));
    assertErrorBody(await multi(await tenantToken(searchKey, ['*'], { apiKey: scopedKey.key })), 'invalid_api_key', 403, 'Could not decode tenant token, InvalidSignature.');
    const key = await t.client.createKey({ actions: ['search'], indexes: ['*'], expiresAt: null });
    const token = await tenantToken(key, ['*']);
    assert.equal((await multi(token)).status, 200);
    await t.client.deleteKey(key.uid);
    assertErrorBody(await multi(token), 'invalid_api_key', 403, INVALID);
    // the deleted key's own value is refused at once as well
    assertErrorBody(await multi(key.key), 'invalid_api_key', 403, INVALID);
  });
});
