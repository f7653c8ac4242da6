// Searches on the search threads (api/search/pool.ts) answer exactly what the HTTP thread would.
// Properties checked:
// 1. concurrent searches and multi-searches (independent and federated), some on the threads and
//    some on the HTTP thread, give the response the engine gives when called directly (hits, counts,
//    facets, formatting), request uid and time aside
// 2. errors raised on a thread keep their code, status and message
// 3. an index deleted and created again under the same uid is searched afresh (a thread keeps no
//    handle of the old one); writes are seen by the next search
// 4. stopped threads (a quiet server) start again on the next search
// (semantic and hybrid queries are among those of 1)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { executeSearch, parseMultiSearchBody, parseSearchBody, runMultiSearch } from '../../src/api/search/index.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// two threads whatever the machine's cores, so the threads are always used
process.env.MUNINN_SEARCH_THREADS = '2';

let t: TestServer;

const COLORS = ['red', 'green', 'blue'];
const WORDS = ['river', 'stone', 'light', 'forest', 'ember', 'harbor', 'willow', 'summit'];

function documents(n: number, tag: string): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    title: `${WORDS[i % 8]} ${WORDS[(i * 3) % 8]} ${tag}`,
    body: `${WORDS[(i * 5) % 8]} of the ${WORDS[(i * 7) % 8]} number ${i}`,
    color: COLORS[i % 3],
    rank: i % 17,
    _vectors: { e: [Math.cos(i), Math.sin(i), (i % 5) / 5] },
  }));
}

before(async () => {
  t = await startTestServer();
  const index = t.client.index('threads');
  await index
    .updateSettings({ filterableAttributes: ['color', 'rank'], sortableAttributes: ['rank'], embedders: { e: { source: 'userProvided', dimensions: 3 } } })
    .waitTask();
  const added = await index.addDocuments(documents(500, 'first')).waitTask();
  assert.equal(added.status, 'succeeded', JSON.stringify(added.error));
  await t.server.searchPool.warm();
  assert.equal(t.server.searchPool.running, 2);
});

after(async () => {
  await t?.close();
});

/** A response without what differs between two runs of the same search. */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { processingTimeMs: _time, requestUid: _uid, ...rest } = body;
  return rest;
}

const QUERIES: Record<string, unknown>[] = [
  { q: 'river stone' },
  { q: 'rivr', attributesToHighlight: ['*'], showMatchesPosition: true },
  { q: 'sum', filter: 'color = red', facets: ['color', 'rank'] },
  { q: 'forest', sort: ['rank:desc'], showRankingScore: true, showRankingScoreDetails: true },
  { q: 'ember of', attributesToCrop: ['body'], cropLength: 3, page: 2, hitsPerPage: 5 },
  { filter: 'rank > 10', limit: 3 },
  { q: 'willow -harbor', matchingStrategy: 'all' },
  // semantic and hybrid: the vector store is read on the threads too
  { vector: [1, 0.2, 0.4], hybrid: { embedder: 'e' }, showRankingScore: true, retrieveVectors: true, limit: 5 },
  { q: 'river', vector: [0.3, 1, 0], hybrid: { embedder: 'e', semanticRatio: 0.6 }, filter: 'color = red', showRankingScore: true },
];

test('concurrent searches answer what the engine answers directly', async () => {
  const index = t.server.instance.indexes.get('threads')!;
  const expected = QUERIES.map((q) => stable(JSON.parse(JSON.stringify(executeSearch(index, 'threads', parseSearchBody(q))))));
  // more requests than threads at once: some run on the HTTP thread, some on the threads
  const rounds = await Promise.all(
    Array.from({ length: 6 }, () => Promise.all(QUERIES.map((q) => t.fetch('POST', '/indexes/threads/search', { body: q })))),
  );
  for (const round of rounds) {
    round.forEach((res, i) => {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.headers.get('content-type'), 'application/json');
      assert.deepEqual(stable(res.body), expected[i], `query ${JSON.stringify(QUERIES[i])}`);
    });
  }
  const get = await t.fetch('GET', '/indexes/threads/search?q=light&filter=color%20%3D%20blue&limit=2');
  assert.equal(get.status, 200);
  assert.deepEqual(stable(get.body), stable(JSON.parse(JSON.stringify(executeSearch(index, 'threads', parseSearchBody({ q: 'light', filter: 'color = blue', limit: 2 }))))));
});

test('multi-search, independent and federated, answers what the engine answers directly', async () => {
  const requests = [
    { queries: QUERIES.slice(0, 4).map((q) => ({ indexUid: 'threads', ...q })) },
    { federation: { limit: 7 }, queries: [{ indexUid: 'threads', q: 'river' }, { indexUid: 'threads', q: 'ember', filter: 'color = green' }] },
    { federation: { facetsByIndex: { threads: ['color'] } }, queries: [{ indexUid: 'threads', q: 'stone' }] },
  ];
  const expected = requests.map((r) => {
    const out = runMultiSearch(parseMultiSearchBody(r), { index: (uid) => t.server.instance.indexes.get(uid) });
    return dropVarying(JSON.parse(JSON.stringify(out)));
  });
  const answers = await Promise.all([...requests, ...requests, ...requests].map((body) => t.fetch('POST', '/multi-search', { body })));
  answers.forEach((res, i) => {
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(dropVarying(res.body), expected[i % requests.length]);
  });
  // an error names the query it comes from, with the status multi-search gives it (400 here, as Meilisearch)
  const bad = await Promise.all([0, 1, 2].map(() => t.fetch('POST', '/multi-search', { body: { queries: [{ indexUid: 'threads', q: 'x' }, { indexUid: 'missing_one', q: 'x' }] } })));
  for (const res of bad) {
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'index_not_found');
    assert.match(res.body.message, /^Inside `\.queries\[1\]`: Index `missing_one` not found\.$/);
  }
});

/** A multi-search answer without its timings and request uids. */
function dropVarying(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropVarying);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'processingTimeMs' && k !== 'requestUid') out[k] = dropVarying(v);
  return out;
}

test('errors raised on a thread keep their code, status and message', async () => {
  const cases = await Promise.all([
    t.fetch('POST', '/indexes/threads/search', { body: { q: 'river', filter: 'title = x' } }),
    t.fetch('POST', '/indexes/threads/search', { body: { q: 'river', sort: ['title:asc'] } }),
    t.fetch('POST', '/indexes/threads/search', { body: { q: 'river', filter: 'color = ' } }),
  ]);
  assert.deepEqual(cases.map((c) => [c.status, c.body.code]), [
    [400, 'invalid_search_filter'],
    [400, 'invalid_search_sort'],
    [400, 'invalid_search_filter'],
  ]);
  for (const c of cases) {
    assert.equal(c.body.type, 'invalid_request');
    assert.equal(c.body.link, `https://docs.meilisearch.com/errors#${c.body.code}`);
    assert.match(c.body.message, /\S/);
  }
  const missing = await t.fetch('POST', '/indexes/nowhere/search', { body: { q: 'river' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.code, 'index_not_found');
});

test('an index deleted and created again is searched afresh; writes are seen at once', async () => {
  const uid = 'again';
  const first = await t.client.index(uid).addDocuments(documents(40, 'oldtag')).waitTask();
  assert.equal(first.status, 'succeeded');
  for (let i = 0; i < 4; i++) assert.equal((await t.client.index(uid).search('oldtag')).hits.length, 20);
  assert.equal((await t.client.deleteIndex(uid).waitTask()).status, 'succeeded');
  const second = await t.client.index(uid).addDocuments(documents(30, 'newtag')).waitTask();
  assert.equal(second.status, 'succeeded');
  for (let i = 0; i < 4; i++) {
    const [oldHits, newHits] = await Promise.all([t.client.index(uid).search('oldtag'), t.client.index(uid).search('newtag', { limit: 50 })]);
    assert.equal(oldHits.hits.length, 0);
    assert.equal(newHits.hits.length, 30);
  }
  await t.client.index(uid).deleteDocument(0).waitTask();
  for (let i = 0; i < 4; i++) assert.equal((await t.client.index(uid).search('newtag', { limit: 50 })).hits.length, 29);
});

test('stopped threads start again on the next search', async () => {
  await t.server.searchPool.stop();
  assert.equal(t.server.searchPool.running, 0);
  const res = await t.client.index('threads').search('river');
  assert.ok(res.hits.length > 0);
  await t.server.searchPool.warm();
  assert.equal(t.server.searchPool.running, 2);
  const again = await Promise.all([1, 2, 3].map(() => t.client.index('threads').search('river')));
  for (const r of again) assert.deepEqual(r.hits, res.hits);
});
