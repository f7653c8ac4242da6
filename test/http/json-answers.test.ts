// Every answer is JSON, as Meilisearch sends it. Properties checked:
// 1. every GET route the server registers (read from fastify's route table, so a new route is
//    walked too), with an index, documents and an API key present, answers its status with
//    `content-type: application/json` exactly (Meilisearch 1.50 sends no charset) and a body that
//    parses as JSON; null-valued settings are the JSON `null`;
// 2. errors are JSON the same way;
// 3. the official client reads every settings sub-route, the string-valued ones included
//    (`proximity-precision`, `distinct-attribute`, `prefix-search`...), default and set, and gets
//    the value `GET /settings` holds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Index } from 'meilisearch';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
let uid: string;
let apiKey: string;
let webhookUuid: string;
before(async () => {
  t = await startTestServer();
  uid = uniqueIndex('json');
  await t.client.createIndex(uid, { primaryKey: 'id' }).waitTask();
  await t.client.index(uid).addDocuments([{ id: 1, title: 'Carol', genre: 'drama' }, { id: 2, title: 'Alien', genre: 'horror' }]).waitTask();
  await t.client.updateExperimentalFeatures({ getTaskDocumentsRoute: true });
  apiKey = (await t.client.createKey({ actions: ['*'], indexes: ['*'], expiresAt: null })).key;
  webhookUuid = (await t.client.createWebhook({ url: 'http://127.0.0.1:9/hook' })).uuid;
});
after(async () => {
  await t.close();
});

/** GET route patterns of fastify's printRoutes tree (`├── /:key (GET)` under `├── keys (GET)`). */
function getRoutes(): string[] {
  const tree = t.server.app.printRoutes({ commonPrefix: false, method: 'GET' });
  const stack: { depth: number; path: string }[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)── (\S+) \(([^)]*)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const parent = stack[stack.length - 1]?.path ?? '';
    // a child that goes on with the same segment (`delete` → `-batch`) is joined without a slash
    const path = m[2]!.startsWith('/') || m[2]!.startsWith('-') || parent.endsWith('/') ? parent + m[2] : `${parent}/${m[2]}`;
    stack.push({ depth, path });
    if (m[3]!.split(', ').includes('GET')) routes.push(path);
  }
  return routes;
}

async function get(path: string, key = apiKey): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(t.url + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

test('every GET route answers application/json with a JSON body', async () => {
  const routes = getRoutes();
  assert.ok(routes.length >= 40, `routes read from fastify: ${routes.join(' ')}`);
  const task = (await t.client.tasks.getTasks({ indexUids: [uid], limit: 1 })).results[0]!;
  const keyUid = (await t.client.getKeys()).results[0]!.uid;
  const params: Record<string, string> = { indexUid: uid, documentId: '1', key: keyUid, taskUid: String(task.uid), batchUid: String(task.batchUid), uuid: webhookUuid, workspace: 'w' };
  // a finished task keeps no documents: that route answers its JSON error (it answers NDJSON otherwise)
  // the similar route needs `id` and `embedder`: its JSON error
  // /metrics answers Prometheus text, but only with its feature on: off, its JSON error
  // experimental routes of features Muninn does not build answer their gate while the feature is off
  const status: Record<string, number> = {
    '/tasks/:taskUid/documents': 404, '/indexes/:indexUid/similar': 400, '/metrics': 400,
    '/network': 400, '/chats': 400, '/chats/:workspace': 400, '/chats/:workspace/settings': 400,
  };
  // literal paths that answer an empty 405 to GET (app.ts), as actix does
  const emptyMethodNotAllowed = new Set(['/tasks/cancel', '/tasks/compact', '/indexes/:indexUid/documents/fetch', '/indexes/:indexUid/documents/delete-batch', '/indexes/:indexUid/documents/delete', '/indexes/:indexUid/documents/edit']);
  for (const route of routes) {
    if (emptyMethodNotAllowed.has(route)) {
      const res = await get(route.replace(':indexUid', uid));
      assert.deepEqual([res.status, res.text], [405, ''], route);
      continue;
    }
    const path = route.replace(/:(\w+)/g, (_, name: string) => params[name] ?? assert.fail(`no value for :${name} in ${route}`));
    const res = await get(path);
    assert.equal(res.status, status[route] ?? 200, `${path}: ${res.text}`);
    assert.equal(res.type, 'application/json', path);
    assert.doesNotThrow(() => JSON.parse(res.text), `${path} answers JSON: ${res.text}`);
  }
});

test('string and null settings are JSON values', async () => {
  const expected: Record<string, string> = {
    'proximity-precision': '"byWord"',
    'prefix-search': '"indexingTime"',
    'distinct-attribute': 'null',
    'search-cutoff-ms': 'null',
    'localized-attributes': 'null',
    'facet-search': 'true',
  };
  for (const [route, text] of Object.entries(expected)) {
    const res = await get(`/indexes/${uid}/settings/${route}`);
    assert.deepEqual([res.status, res.type, res.text], [200, 'application/json', text], route);
  }
});

test('errors are application/json too', async () => {
  for (const [path, key, status] of [[`/indexes/${uid}_missing`, apiKey, 404], ['/keys', 'wrong', 403], [`/indexes/${uid}/documents/99`, apiKey, 404]] as const) {
    const res = await get(path, key);
    assert.equal(res.status, status, path);
    assert.equal(res.type, 'application/json', path);
    assert.ok(typeof JSON.parse(res.text).code === 'string', path);
  }
});

/** The client getter of each settings sub-route, by setting name. */
const getters: Record<string, (i: Index) => Promise<unknown>> = {
  displayedAttributes: (i) => i.getDisplayedAttributes(),
  searchableAttributes: (i) => i.getSearchableAttributes(),
  filterableAttributes: (i) => i.getFilterableAttributes(),
  sortableAttributes: (i) => i.getSortableAttributes(),
  foreignKeys: (i) => i.getForeignKeys(),
  rankingRules: (i) => i.getRankingRules(),
  stopWords: (i) => i.getStopWords(),
  nonSeparatorTokens: (i) => i.getNonSeparatorTokens(),
  separatorTokens: (i) => i.getSeparatorTokens(),
  dictionary: (i) => i.getDictionary(),
  synonyms: (i) => i.getSynonyms(),
  distinctAttribute: (i) => i.getDistinctAttribute(),
  proximityPrecision: (i) => i.getProximityPrecision(),
  typoTolerance: (i) => i.getTypoTolerance(),
  faceting: (i) => i.getFaceting(),
  pagination: (i) => i.getPagination(),
  embedders: (i) => i.getEmbedders(),
  searchCutoffMs: (i) => i.getSearchCutoffMs(),
  localizedAttributes: (i) => i.getLocalizedAttributes(),
  facetSearch: (i) => i.getFacetSearch(),
  prefixSearch: (i) => i.getPrefixSearch(),
  chat: (i) => i.getChat(),
};

async function assertGettersMatch(index: Index): Promise<void> {
  const all = (await index.getSettings()) as Record<string, unknown>;
  for (const [name, getter] of Object.entries(getters)) {
    const value = await getter(index);
    // foreignKeys and chat are in GET /settings only with their experimental feature on
    if (name in all) assert.deepEqual(value, all[name], name);
    else assert.ok(['foreignKeys', 'chat'].includes(name) && value !== undefined, name);
  }
}

test('the official client reads every settings sub-route, default and set', async () => {
  const index = t.clientWith(apiKey).index(uid);
  await assertGettersMatch(index);
  assert.equal(await index.getProximityPrecision(), 'byWord');
  assert.equal(await index.getDistinctAttribute(), null);
  assert.equal(await index.getPrefixSearch(), 'indexingTime');
  assert.equal(await index.getFacetSearch(), true);
  assert.equal(await index.getSearchCutoffMs(), null);

  await index
    .updateSettings({
      proximityPrecision: 'byAttribute',
      distinctAttribute: 'genre',
      prefixSearch: 'disabled',
      facetSearch: false,
      searchCutoffMs: 150,
      localizedAttributes: [{ attributePatterns: ['title'], locales: ['eng'] }],
    })
    .waitTask();
  await assertGettersMatch(index);
  assert.equal(await index.getProximityPrecision(), 'byAttribute');
  assert.equal(await index.getDistinctAttribute(), 'genre');
  assert.equal(await index.getPrefixSearch(), 'disabled');
  assert.equal(await index.getFacetSearch(), false);
  assert.equal(await index.getSearchCutoffMs(), 150);
});
