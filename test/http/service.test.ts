// Service routes: health, version, stats, experimental features, unknown routes, CORS.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer, type TestServer } from './helpers.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

describe('service routes', () => {
  test('health needs no key; version and stats need one', async () => {
    assert.deepEqual((await t.client.health()), { status: 'available' });
    const health = await t.fetch('GET', '/health', { key: null });
    assert.deepEqual([health.status, health.body], [200, { status: 'available' }]);
    assert.deepEqual((await t.fetch('GET', '/', { key: null })).body, { status: 'Meilisearch is running' });
    const version = await t.client.getVersion();
    assert.equal(version.pkgVersion, '1.50.0');
    assert.deepEqual(Object.keys(version), ['commitSha', 'commitDate', 'pkgVersion']);
    assertErrorBody(await t.fetch('GET', '/version', { key: null }), 'missing_authorization_header', 401);
    assertErrorBody(await t.fetch('GET', '/version', { key: 'wrong' }), 'invalid_api_key', 403, 'The provided API key is invalid.');
  });

  test('global stats', async () => {
    const stats = await t.client.getStats();
    assert.deepEqual(Object.keys(stats), ['databaseSize', 'usedDatabaseSize', 'lastUpdate', 'indexes']);
    assert.ok(stats.databaseSize > 0);
    assertErrorBody(await t.fetch('GET', '/stats?sizeFormat=big'), 'invalid_stats_size_format', 400);
    assertErrorBody(await t.fetch('GET', '/stats?doggo=1'), 'bad_request', 400);
  });

  test('experimental features are stored and validated', async () => {
    const initial = await t.fetch('GET', '/experimental-features');
    assert.equal(initial.status, 200);
    assert.equal(initial.body.metrics, false);
    assert.equal(Object.keys(initial.body).length, 15);
    const patched = await t.fetch('PATCH', '/experimental-features', { body: { metrics: true, logsRoute: null } });
    assert.equal(patched.body.metrics, true);
    assert.equal(patched.body.logsRoute, false);
    assert.equal((await t.fetch('GET', '/experimental-features')).body.metrics, true);
    assertErrorBody(await t.fetch('PATCH', '/experimental-features', { body: { NotAFeature: true } }), 'bad_request', 400, /^Unknown field `NotAFeature`: expected one of `metrics`/);
  });

  test('unknown routes answer an empty 404, wrong methods an empty 405', async () => {
    const unknown = await t.fetch('GET', '/doggo');
    assert.deepEqual([unknown.status, unknown.body], [404, null]);
    const wrong = await t.fetch('PUT', '/health');
    assert.deepEqual([wrong.status, wrong.body], [405, null]);
    const trailing = await t.fetch('GET', '/indexes/');
    assert.equal(trailing.status, 200);
  });

  test('CORS is open', async () => {
    const res = await t.fetch('OPTIONS', '/indexes', { headers: { origin: 'http://example.test', 'access-control-request-method': 'POST' }, key: null });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-max-age'), '86400');
  });
});
