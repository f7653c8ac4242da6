// GET /metrics (stats-health.md §6): behind the `metrics` feature and a key that reaches every
// index; requests counted by route pattern from the start; the gauges read at each scrape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer } from './helpers.ts';

function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

test('metrics need the feature; requests are counted by route pattern with the feature off too', async () => {
  const t = await startTestServer();
  try {
    for (let i = 0; i < 3; i++) await t.fetch('GET', '/version');
    await t.fetch('GET', '/indexes/nope');
    await t.fetch('GET', '/no-such-route');
    assertErrorBody(
      await t.fetch('GET', '/metrics'),
      'feature_not_enabled',
      400,
      'Getting metrics requires enabling the `metrics` experimental feature. See https://github.com/meilisearch/product/discussions/625',
    );
    await t.fetch('PATCH', '/experimental-features', { body: { metrics: true } });
    await t.client.index('movies').addDocuments([{ id: 1 }, { id: 2 }]).waitTask();
    const scoped = await t.client.createKey({ actions: ['*'], indexes: ['movies'], expiresAt: null });
    assertErrorBody(await t.fetch('GET', '/metrics', { key: scoped.key }), 'invalid_api_key', 403);

    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.masterKey}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4');
    const text = await res.text();
    assert.equal(sample(text, 'meilisearch_http_requests_total{method="GET",path="/version",status="200"}'), 3);
    assert.equal(sample(text, 'meilisearch_http_requests_total{method="GET",path="/indexes/{index_uid}",status="404"}'), 1);
    assert.equal(sample(text, 'meilisearch_http_requests_total{method="GET",path="/no-such-route",status="404"}'), 1);
    assert.equal(sample(text, 'meilisearch_http_requests_total{method="GET",path="/metrics",status="400"}'), 1);
    assert.equal(sample(text, 'meilisearch_http_response_time_seconds_count{method="GET",path="/version"}'), 3);
    assert.equal(sample(text, 'meilisearch_http_response_time_seconds_count{method="GET",path="/no-such-route"}'), undefined, 'no histogram for unknown routes');
    assert.match(text, /^# HELP meilisearch_http_requests_total Meilisearch HTTP requests total$/m);
    assert.match(text, /^# TYPE meilisearch_http_response_time_seconds histogram$/m);
    assert.equal(sample(text, 'meilisearch_index_count'), 1);
    assert.equal(sample(text, 'meilisearch_index_docs_count{index="movies"}'), 2);
    assert.equal(sample(text, 'meilisearch_nb_tasks{kind="statuses",value="succeeded"}'), 1);
    assert.equal(sample(text, 'meilisearch_nb_tasks{kind="types",value="documentAdditionOrUpdate"}'), 1);
    assert.equal(sample(text, 'meilisearch_nb_tasks{kind="types",value="dumpCreation"}'), 0);
    assert.equal(sample(text, 'meilisearch_nb_tasks{kind="indexes",value="movies"}'), 1);
    assert.equal(sample(text, 'meilisearch_is_indexing'), 0);
    assert.equal(sample(text, 'meilisearch_task_queue_latency_seconds'), 0);
    assert.equal(sample(text, 'meilisearch_task_queue_max_size'), 20 * 1024 ** 3);
    assert.ok(sample(text, 'meilisearch_db_size_bytes')! > 0);
    assert.ok(sample(text, 'meilisearch_last_update')! > 1.7e9);
    assert.ok((sample(text, 'meilisearch_last_finished_batches_progress_trace_ms{batch_uid="0",step_name="processing tasks"}') ?? -1) >= 0);
    assert.match(text, /^process_resident_memory_bytes \d+/m);
    // the last document batch: batch 0 added the two movies
    assert.equal(sample(text, 'meilisearch_last_indexed_documents_count{batch_uid="0",index="movies"}'), 2);
    assert.ok((sample(text, 'meilisearch_last_indexed_documents_duration_ms{batch_uid="0",index="movies"}') ?? -1) >= 0);
    assert.equal(sample(text, 'meilisearch_searches_running'), 0);
    assert.equal(sample(text, 'meilisearch_search_queue_size'), 1000);
  } finally {
    await t.close();
  }
});

test('--experimental-enable-metrics turns the route on at launch', async () => {
  const t = await startTestServer({ args: ['--experimental-enable-metrics'] });
  try {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.masterKey}` } });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^meilisearch_index_count 0$/m);
  } finally {
    await t.close();
  }
});

test('searches that hit their cutoff are counted as degraded', async () => {
  const t = await startTestServer({ args: ['--experimental-enable-metrics'] });
  try {
    await t.client.index('a').addDocuments(Array.from({ length: 50 }, (_, i) => ({ id: i, text: `hello world ${i} lorem ipsum` }))).waitTask();
    await t.client.index('a').updateSettings({ searchCutoffMs: 0 } as never).waitTask();
    await t.client.index('a').search('hello world lorem');
    await t.client.multiSearch({ federation: {}, queries: [{ indexUid: 'a', q: 'hello world' }] });
    const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.masterKey}` } })).text();
    assert.equal(sample(text, 'meilisearch_degraded_search_requests'), 2);
  } finally {
    await t.close();
  }
});
