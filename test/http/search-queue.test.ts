// The search queue (`--experimental-search-queue-size`, `--experimental-nb-searches-per-core`):
// under a flood of searches the ones past the queue are answered 503 `too_many_search_requests`
// with `Retry-After: 10`, the others are answered; `showPerformanceDetails` times the steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer } from './helpers.ts';

test('a flood of searches past the queue gets 503 too_many_search_requests; the rest are answered', async () => {
  const t = await startTestServer({ args: ['--experimental-search-queue-size', '1', '--experimental-nb-searches-per-core', '1'] });
  try {
    const docs = Array.from({ length: 2000 }, (_, i) => ({ id: i, text: `lorem ipsum dolor sit amet ${i} consectetur adipiscing elit` }));
    await t.client.index('a').addDocuments(docs).waitTask();
    const statuses = new Map<number, number>();
    let tooMany: { status: number; body: unknown; headers: Headers } | null = null;
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await t.fetch('POST', '/indexes/a/search', { body: { q: `lorem dolor ${i}`, limit: 50, attributesToHighlight: ['*'] } });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503) tooMany = res;
      }),
    );
    assert.ok((statuses.get(200) ?? 0) >= 2, `answered: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(503) ?? 0) > 0, `some dropped: ${JSON.stringify([...statuses])}`);
    assert.deepEqual([...statuses.keys()].sort(), [200, 503]);
    assertErrorBody(tooMany!, 'too_many_search_requests', 503, 'Too many search requests running at the same time: 1. Retry after 10s.');
    assert.equal(tooMany!.headers.get('retry-after'), '10');
    // once the flood is over, searches are answered again
    assert.equal((await t.fetch('POST', '/indexes/a/search', { body: { q: 'lorem' } })).status, 200);

    // the queue gauges of GET /metrics
    await t.fetch('PATCH', '/experimental-features', { body: { metrics: true } });
    const metrics = String((await t.fetch('GET', '/metrics')).body);
    assert.match(metrics, /^meilisearch_search_queue_size 1$/m);
    assert.match(metrics, /^meilisearch_searches_running 0$/m);
    assert.match(metrics, /^meilisearch_searches_waiting_to_be_processed 0$/m);
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
