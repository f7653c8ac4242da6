// Seeded fuzzing of every route that reads a JSON body (or the task routes' query strings), with
// the hostile inputs of fuzz-gen.ts. Properties checked, for every request of every seed:
// 1. no answer is a 5xx; every error answer is exactly {message, code, type, link}, all strings,
//    the link naming the code;
// 2. an answer 4xx enqueues no task and changes no stored data: documents, settings and
//    primary keys of the fuzz indexes, the index list, the API keys;
// 3. an accepted write (202) is waited for; if its task fails, nothing stored changed and its error
//    has the same four fields; its code is `internal` only for what serde refuses in a document's
//    field value (Meilisearch's own task error);
// 4. 2xx answers to reads are JSON; a request head over 128 KiB gets a bodiless 431 (as actix).
// Seeds: SEEDS, or FUZZ_SEEDS=7,8 (comma-separated); FUZZ_REQUESTS sets the requests per seed.
// Each seed is printed; a failure names the seed, the request number, the route and the body.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { SUB_ROUTES } from '../../src/api/settings/parse.ts';
import { startTestServer, type TestServer } from './helpers.ts';
import {
  contentType, damage, documentsPayload, Gen, makeRng, objectOf, S, SEARCH, SETTINGS, tasksQuery, weird, type Shape,
} from './fuzz-gen.ts';

const SEEDS = process.env.FUZZ_SEEDS ? process.env.FUZZ_SEEDS.split(',').map(Number) : [1, 2, 3];
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100);
const INDEXES = ['fuzz_a', 'fuzz_b', 'fuzz_c'];

let t: TestServer;
let searchKey: { uid: string; key: string };
let fuzzKeyUid: string;

interface Request {
  route: string;
  method: string;
  path: string;
  body?: Uint8Array;
  contentType?: string;
  /** Authorization; the master key when absent */
  token?: string;
  write: boolean;
}

interface Answer {
  status: number;
  text: string;
  json: any;
}

async function send(r: Request): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${r.token ?? t.masterKey}` };
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  const res = await fetch(t.url + r.path, { method: r.method, headers, ...(r.body !== undefined ? { body: new Uint8Array(r.body) } : {}) });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

async function master(method: string, path: string, body?: unknown): Promise<any> {
  const res = await t.fetch(method, path, body === undefined ? {} : { body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function waitTask(uid: number): Promise<any> {
  for (;;) {
    const task = await master('GET', `/tasks/${uid}`);
    if (task.status !== 'enqueued' && task.status !== 'processing') return task;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What must not change after an invalid request. */
async function snapshot(): Promise<unknown> {
  const read = async (path: string) => {
    const res = await t.fetch('GET', path);
    return res.status === 200 ? res.body : res.status;
  };
  const indexes = ((await read('/indexes?limit=1000')) as { results: { uid: string; primaryKey: string | null }[] }).results.map((i) => [i.uid, i.primaryKey]);
  const perIndex = [];
  for (const uid of INDEXES) perIndex.push([uid, await read(`/indexes/${uid}/documents?limit=1000`), await read(`/indexes/${uid}/settings`)]);
  return { indexes, perIndex, keys: await read('/keys?limit=1000') };
}

async function lastTaskUid(): Promise<number | null> {
  const page = await master('GET', '/tasks?limit=1');
  return page.results[0]?.uid ?? null;
}

function assertErrorShape(error: any, where: string): void {
  assert.ok(error !== null && typeof error === 'object', `${where}: not an error object`);
  assert.deepEqual(Object.keys(error), ['message', 'code', 'type', 'link'], where);
  for (const k of ['message', 'code', 'type', 'link']) assert.equal(typeof error[k], 'string', `${where}: ${k}`);
  assert.equal(error.link, `https://docs.meilisearch.com/errors#${error.code}`, where);
}

/** serde's messages for a field value, which Meilisearch's indexer reports as `internal`. */
const VALUE_ERROR = /^Index `[^`]+`: internal: (recursion limit exceeded|lone leading surrogate in hex escape|unexpected end of hex escape|number out of range) at line \d+ column \d+\.$/;

// ---- the requests ----

function json(g: Gen, route: string, method: string, path: string, text: string, write: boolean): Request {
  let body: Uint8Array = Buffer.from(text);
  if (g.hostile && g.chance(0.2)) body = damage(g, Buffer.from(body));
  if (g.hostile && g.chance(0.03)) body = Buffer.alloc(0);
  const type = contentType(g, 'application/json');
  return { route, method, path, body, ...(type !== undefined ? { contentType: type } : {}), write };
}

const body = (g: Gen, shape: Record<string, Shape>, required: readonly string[] = []): string => (g.hostile && g.chance(0.05) ? weird(g) : objectOf(g, shape, required));

function tenantToken(g: Gen): string {
  const enc = (s: string) => Buffer.from(s).toString('base64url');
  const rules = g.hostile ? g.pick([() => S.filter(g), () => weird(g)])() : g.pick(['["fuzz_a"]', '{"*":{}}', `{"fuzz_a":{"filter":${S.filter(g)}}}`, '{"fuzz_a":null}']);
  const exp = g.hostile ? g.pick(['1', '1e400', '"x"', '-0', '18446744073709551616']) : String(Math.floor(Date.now() / 1000) + 3600);
  const claims = `{"searchRules":${rules},"apiKeyUid":${JSON.stringify(searchKey.uid)},"exp":${exp}}`;
  const header = g.hostile && g.chance(0.3) ? g.pick(['{"alg":"none"}', '{"alg":"HS256"', weird(g)]) : '{"alg":"HS256","typ":"JWT"}';
  const message = `${enc(header)}.${enc(claims)}`;
  const signature = crypto.createHmac('sha256', searchKey.key).update(message).digest('base64url');
  return !g.hostile || g.chance(0.9) ? `${message}.${signature}` : g.pick(['a.b.c', `${message}.`, 'x'.repeat(5000)]);
}

const GENERATORS: ((g: Gen) => Request)[] = [
  (g) => json(g, 'search', 'POST', `/indexes/${g.pick(['fuzz_a', 'fuzz_a', 'fuzz_zz'])}/search`, body(g, SEARCH), false),
  (g) => {
    const query = (): string => objectOf(g, { indexUid: S.string(['fuzz_a', 'fuzz_b', 'fuzz_a', 'nope', 'bad uid']), ...SEARCH, federationOptions: S.object({ weight: S.float }) }, ['indexUid']);
    const federation = g.chance(0.4) ? `,"federation":${objectOf(g, { limit: S.uint, offset: S.uint, facetsByIndex: S.object({ fuzz_a: S.strings(['genre']) }), mergeFacets: S.object({ maxValuesPerFacet: S.uint }) })}` : '';
    return json(g, 'multi-search', 'POST', '/multi-search', g.hostile && g.chance(0.05) ? weird(g) : `{"queries":[${Array.from({ length: g.int(4) }, query).join(',')}]${federation}}`, false);
  },
  (g) => json(g, 'facet-search', 'POST', '/indexes/fuzz_a/facet-search', body(g, { facetName: S.string(['genre', 'year', 'title']), facetQuery: S.string(), exhaustiveFacetCount: S.bool, ...SEARCH }, ['facetName']), false),
  (g) => {
    const token = tenantToken(g);
    const request = json(g, 'tenant-token search', 'POST', '/indexes/fuzz_a/search', body(g, SEARCH), false);
    return { ...request, token };
  },
  (g) => json(g, 'documents fetch', 'POST', '/indexes/fuzz_a/documents/fetch', body(g, { offset: S.uint, limit: S.uint, fields: S.strings(), retrieveVectors: S.bool, ids: S.array(S.raw('1', '"2"', '"x y"', 'null')), filter: S.filter, sort: S.strings(['year:asc']) }), false),
  (g) => json(g, 'documents delete by filter', 'POST', '/indexes/fuzz_a/documents/delete', body(g, { filter: S.filter }, ['filter']), true),
  (g) => json(g, 'documents delete batch', 'POST', '/indexes/fuzz_a/documents/delete-batch', !g.hostile || g.chance(0.8) ? S.array(S.raw('99', '"nope"', '"a b"', 'null', '[1]', '1.5'), 3)(g) : weird(g), true),
  (g) => {
    const payload = documentsPayload(g);
    let bytes: Uint8Array = Buffer.from(payload.text);
    if (g.hostile && g.chance(0.2)) bytes = damage(g, Buffer.from(bytes));
    const type = contentType(g, payload.contentType);
    const method = g.pick(['POST', 'PUT']);
    return { route: `documents ${method}`, method, path: '/indexes/fuzz_a/documents', body: bytes, ...(type !== undefined ? { contentType: type } : {}), write: true };
  },
  (g) => json(g, 'settings', 'PATCH', '/indexes/fuzz_a/settings', body(g, SETTINGS), true),
  (g) => {
    const sub = g.pick(SUB_ROUTES);
    const shape = SETTINGS[sub.setting] as Shape | undefined;
    const text = shape && (!g.hostile || g.chance(0.7)) ? shape(g) : weird(g);
    return json(g, `settings/${sub.route}`, sub.verb, `/indexes/fuzz_a/settings/${sub.route}`, text, true);
  },
  (g) => json(g, 'keys create', 'POST', '/keys', body(g, {
    description: S.string(), name: S.string(), uid: S.string([crypto.randomUUID(), 'x']),
    actions: S.strings(['search', 'documents.add', '*', 'bogus', 'indexes.*']), indexes: S.strings(['fuzz_a', '*', 'bad uid', 'fuzz_*']),
    expiresAt: S.raw('null', '"2999-01-01T00:00:00Z"', '"2000-01-01"', '"x"', '1'),
  }, ['actions', 'indexes', 'expiresAt']), true),
  (g) => json(g, 'keys update', 'PATCH', `/keys/${fuzzKeyUid}`, body(g, { description: S.string(), name: S.string(), actions: S.strings(['search']), uid: S.string() }), true),
  (g) => json(g, 'indexes create', 'POST', '/indexes', body(g, { uid: S.string(['fuzz_new1', 'fuzz_new2', 'bad uid', 'fuzz_a']), primaryKey: S.string(['id', 'title', '']) }, ['uid']), true),
  (g) => json(g, 'indexes update', 'PATCH', '/indexes/fuzz_c', body(g, { primaryKey: S.string(['id', 'sku']), uid: S.string(['fuzz_c', 'fuzz_b', 'bad uid']) }), true),
  (g) => json(g, 'indexes swap', 'POST', '/swap-indexes', !g.hostile || g.chance(0.9) ? S.array(S.object({ indexes: S.strings(['fuzz_b', 'fuzz_c', 'nope', 'bad uid']), rename: S.bool }, ['indexes']), 2)(g) : weird(g), true),
  (g) => ({ route: 'tasks cancel', method: 'POST', path: `/tasks/cancel?${tasksQuery(g)}`, write: true }),
  (g) => ({ route: 'tasks delete', method: 'DELETE', path: `/tasks?${tasksQuery(g)}`, write: true }),
];

before(async () => {
  t = await startTestServer();
  const docs = Array.from({ length: 12 }, (_, i) => ({
    id: i + 1, title: `Title ${i} drama`, genre: i % 2 ? 'drama' : 'comedy', year: 1990 + i, price: i * 1.5,
    tags: ['a', String(i)], nested: { a: `n${i}` }, _geo: { lat: 45 + i / 10, lng: 7 },
  }));
  for (const uid of INDEXES) {
    const task = await master('POST', '/indexes', { uid, primaryKey: 'id' });
    await waitTask(task.taskUid);
  }
  await waitTask((await master('POST', '/indexes/fuzz_a/documents', docs)).taskUid);
  await waitTask((await master('POST', '/indexes/fuzz_b/documents', docs.slice(0, 3))).taskUid);
  await waitTask((await master('PATCH', '/indexes/fuzz_a/settings', { filterableAttributes: ['genre', 'year', '_geo'], sortableAttributes: ['year', 'price', 'title', '_geo'] })).taskUid);
  const key = await master('POST', '/keys', { actions: ['search'], indexes: ['*'], expiresAt: null });
  searchKey = { uid: key.uid, key: key.key };
  fuzzKeyUid = (await master('POST', '/keys', { name: 'fuzz', actions: ['search'], indexes: ['fuzz_a'], expiresAt: null })).uid;
});

after(async () => {
  await t.close();
});

for (const seed of SEEDS) {
  test(`fuzz: seed ${seed} (${REQUESTS} requests)`, async (ctx) => {
    ctx.diagnostic(`seed ${seed}`);
    const g = new Gen(makeRng(seed));
    let current = await snapshot();
    const outcomes = new Map<string, number>();
    const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    for (let n = 0; n < REQUESTS; n++) {
      g.hostile = g.chance(0.5);
      const request = g.pick(GENERATORS)(g);
      const shown = request.body === undefined ? '' : Buffer.from(request.body.subarray(0, 300)).toString('utf8');
      const where = `seed ${seed}, request ${n}: ${request.route} ${request.method} ${request.path.slice(0, 200)} [${request.contentType}] ${shown}`;
      const lastTask = request.write ? await lastTaskUid() : null;
      const answer = await send(request);
      count(`${answer.status}`);
      assert.ok(answer.status < 500, `${where}\n→ ${answer.status} ${answer.text.slice(0, 500)}`);
      // a request head over 128 KiB (a long tenant token): refused by HTTP itself, as actix does
      if (answer.status === 431) {
        assert.equal(answer.text, '', where);
        continue;
      }
      if (answer.status >= 400) {
        assertErrorShape(answer.json, `${where}\n→ ${answer.status} ${answer.text.slice(0, 300)}`);
        if (request.write) {
          assert.equal(await lastTaskUid(), lastTask, `${where}: a refused request enqueued a task`);
          assert.deepEqual(await snapshot(), current, `${where}: a refused request changed stored data`);
        }
        continue;
      }
      assert.notEqual(answer.json, undefined, `${where}: a ${answer.status} that is not JSON: ${answer.text.slice(0, 200)}`);
      if (!request.write) continue;
      if (answer.status === 202) {
        const task = await waitTask(answer.json.taskUid);
        count(`task ${task.status}`);
        if (task.status === 'failed') {
          assertErrorShape(task.error, `${where}: task ${task.uid}`);
          if (task.error.code === 'internal') assert.match(task.error.message, VALUE_ERROR, `${where}: task ${task.uid}`);
          assert.deepEqual(await snapshot(), current, `${where}: failed task ${task.uid} changed stored data`);
          continue;
        }
      }
      current = await snapshot();
    }
    ctx.diagnostic(`seed ${seed}: ${[...outcomes].sort().map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  });
}

test('fuzz: the server still answers normally afterwards', async () => {
  const res = await t.fetch('POST', '/indexes/fuzz_b/search', { body: { q: 'drama', limit: 1 } });
  assert.ok(res.status === 200 || res.status === 404, JSON.stringify(res.body));
  assert.equal((await t.fetch('GET', '/health')).body.status, 'available');
});
