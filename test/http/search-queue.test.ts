// The search queue (`--experimental-search-queue-size`, `--experimental-nb-searches-per-core`):
// searches whose bodies are held back keep their permits, so the queue fills on cue; the ones past
// it are answered 503 `too_many_search_requests` with `Retry-After: 10`, the others are answered;
// `showPerformanceDetails` times the steps.
import { test } from 'node:test';
import http from 'node:http';
import os from 'node:os';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer } from './helpers.ts';

/** A search whose body is sent only when `finish()` is called: it arrives (headers) now. */
function slowSearch(url: string, key: string, index: string) {
  const body = JSON.stringify({ q: 'lorem' });
  const u = new URL(`${url}/indexes/${index}/search`);
  let req!: http.ClientRequest;
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { answer, finish: () => req.end(body) };
}

test('searches past the queue get 503 too_many_search_requests with Retry-After; the others are answered', async () => {
  const t = await startTestServer({ args: ['--experimental-search-queue-size', '1', '--experimental-nb-searches-per-core', '1'] });
  try {
    await t.client.index('a').addDocuments([{ id: 1, text: 'lorem ipsum' }]).waitTask();
    const settle = () => new Promise((r) => setTimeout(r, 150));
    // searches in progress from their arrival: as many as cores × 1 hold every permit
    const permits = os.availableParallelism();
    const running = Array.from({ length: permits }, () => slowSearch(t.url, t.masterKey!, 'a'));
    await settle();
    const waiting = slowSearch(t.url, t.masterKey!, 'a');
    await settle();
    // the queue holds one: the next arrival takes the place of the one waiting, which is answered 503
    const last = slowSearch(t.url, t.masterKey!, 'a');
    await settle();
    for (const s of [...running, waiting, last]) s.finish();
    const dropped = await waiting.answer;
    assertErrorBody(dropped, 'too_many_search_requests', 503, 'Too many search requests running at the same time: 1. Retry after 10s.');
    assert.equal(dropped.headers['retry-after'], '10');
    for (const s of [...running, last]) assert.equal((await s.answer).status, 200);
    // the queue gauges of GET /metrics, once everything was answered
    await t.fetch('PATCH', '/experimental-features', { body: { metrics: true } });
    const metrics = String((await t.fetch('GET', '/metrics')).body);
    assert.match(metrics, /^meilisearch_search_queue_size 1$/m);
    assert.match(metrics, /^meilisearch_searches_running 0$/m);
    assert.match(metrics, /^meilisearch_searches_waiting_to_be_processed 0$/m);
  } finally {
    await t.close();
  }
});

test('with a queue of 0 no search waits', async () => {
  const t = await startTestServer({ args: ['--experimental-search-queue-size', '0', '--experimental-nb-searches-per-core', '1'] });
  try {
    await t.client.index('a').addDocuments([{ id: 1, text: 'lorem ipsum' }]).waitTask();
    const running = Array.from({ length: os.availableParallelism() }, () => slowSearch(t.url, t.masterKey!, 'a'));
    await new Promise((r) => setTimeout(r, 150));
    assertErrorBody(await t.fetch('POST', '/indexes/a/search', { body: { q: 'lorem' } }), 'too_many_search_requests', 503);
    for (const s of running) s.finish();
    for (const s of running) assert.equal((await s.answer).status, 200);
    assert.equal((await t.fetch('POST', '/indexes/a/search', { body: { q: 'lorem' } })).status, 200);
  } finally {
    await t.close();
  }
});

test('showPerformanceDetails reports the steps of a search and its wait in the queue', async () => {
  const t = await startTestServer();
  try {
    await t.client.index('a').updateFilterableAttributes(['n']).waitTask();
    await t.client.index('a').addDocuments([{ id: 1, text: 'hello world', n: 1 }, { id: 2, text: 'hello there', n: 2 }]).waitTask();
    const res = await t.fetch('POST', '/indexes/a/search', { body: { q: 'hello', filter: 'n > 0', facets: ['n'], showPerformanceDetails: true } });
    const details = (res.body as { performanceDetails: Record<string, string> }).performanceDetails;
    assert.deepEqual(Object.keys(details), [
      'wait in queue', 'search > load settings', 'search > evaluate filter', 'search > keyword ranking', 'search > facet distribution', 'search > format', 'search',
    ]);
    for (const v of Object.values(details)) assert.match(v, /^\d+\.\d\d(s|ms|µs|ns)$/);
    const placeholder = await t.fetch('GET', '/indexes/a/search?showPerformanceDetails=true');
    assert.ok('search > placeholder ranking' in (placeholder.body as { performanceDetails: object }).performanceDetails);
    const plain = await t.fetch('POST', '/indexes/a/search', { body: { q: 'hello' } });
    assert.equal('performanceDetails' in (plain.body as object), false);
  } finally {
    await t.close();
  }
});
