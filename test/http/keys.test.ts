// API keys and authorization through the official client (auth-keys.md). Properties checked:
// 1. default keys exist with their names, listed newest first
// 2. create / get by uid or key / update / delete, with derived key values
// 3. index-scoped keys, expiry and action checks on real routes, with exact 401/403 answers
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { assertApiError, assertErrorBody, MASTER_KEY, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t.close();
});

describe('keys', () => {
  test('default keys', async () => {
    const { results } = await t.client.getKeys({ limit: 100 });
    const names = results.map((k) => k.name);
    for (const n of ['Default Search API Key', 'Default Admin API Key', 'Default Read-Only Admin API Key', 'Default Chat API Key']) assert.ok(names.includes(n), n);
    const search = results.find((k) => k.name === 'Default Search API Key')!;
    assert.deepEqual(search.actions, ['search']);
    assert.equal(search.key, createHmac('sha256', MASTER_KEY).update(search.uid).digest('hex'));
    assert.deepEqual(Object.keys(search), ['name', 'description', 'key', 'uid', 'actions', 'indexes', 'expiresAt', 'createdAt', 'updatedAt']);
  });

  test('create, get, update, delete', async () => {
    const uid = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';
    const created = await t.client.createKey({ uid, description: 'Indexing API key', actions: ['documents.add'], indexes: ['products'], expiresAt: new Date('2050-11-13T00:00:00Z') });
    assert.equal(created.uid, uid);
    assert.equal(created.key, createHmac('sha256', MASTER_KEY).update(uid).digest('hex'));
    assert.equal(created.expiresAt as unknown as string, '2050-11-13T00:00:00Z');
    assert.equal((await t.client.getKey(created.key)).uid, uid);
    assert.equal((await t.client.getKey(uid)).key, created.key);
    const updated = await t.client.updateKey(uid, { name: 'renamed' });
    assert.equal(updated.name, 'renamed');
    assert.equal(updated.description, 'Indexing API key');
    const { results } = await t.client.getKeys();
    assert.equal(results[0]!.uid, uid, 'newest key first');
    await assertApiError(t.client.createKey({ uid, actions: ['search'], indexes: ['*'], expiresAt: null }), 'api_key_already_exists', 409);
    await t.client.deleteKey(uid);
    await assertApiError(t.client.getKey(uid), 'api_key_not_found', 404, `API key \`${uid}\` not found.`);
  });

  test('key validation errors', async () => {
    assertErrorBody(await t.fetch('POST', '/keys', { body: { indexes: ['*'], expiresAt: null } }), 'missing_api_key_actions', 400, 'Missing field `actions`');
    assertErrorBody(await t.fetch('POST', '/keys', { body: { actions: ['doc.add'], indexes: ['*'], expiresAt: null } }), 'invalid_api_key_actions', 400, /^Unknown value `doc.add` at `.actions\[0\]`: expected one of `\*`, `search`/);
    assertErrorBody(await t.fetch('POST', '/keys', { body: { actions: ['search'], indexes: ['*'], expiresAt: '2000-01-01' } }), 'invalid_api_key_expires_at', 400);
    assertErrorBody(await t.fetch('POST', '/keys', { body: { actions: ['version'], indexes: ['products'], expiresAt: null } }), 'index_scoped_api_key_with_global_action', 400);
    assertErrorBody(await t.fetch('PATCH', '/keys/4bc0887a-0e41-4f3b-935d-0c451dcee9c8', { body: { actions: [] } }), 'immutable_api_key_actions', 400);
    assertErrorBody(await t.fetch('POST', '/keys', { body: { actions: ['search'], indexes: ['*'], expiresAt: null }, key: 'wrong' }), 'invalid_api_key', 403);
  });

  test('an index-scoped key sees only its indexes', async () => {
    const allowed = uniqueIndex('scoped');
    const other = uniqueIndex('other');
    await t.client.createIndex(allowed).waitTask();
    await t.client.createIndex(other).waitTask();
    const key = await t.client.createKey({ actions: ['indexes.get', 'tasks.get', 'stats.get'], indexes: [allowed], expiresAt: null });
    const scoped = t.clientWith(key.key);
    assert.equal((await scoped.getRawIndex(allowed)).uid, allowed);
    await assertApiError(scoped.getRawIndex(other), 'invalid_api_key', 403, `The API key cannot acces the index \`${other}\`, authorized indexes are ["${allowed}"].`);
    const listed = await scoped.getRawIndexes({ limit: 1000 });
    assert.deepEqual(listed.results.map((i) => i.uid), [allowed]);
    const tasks = await scoped.tasks.getTasks({ limit: 1000 });
    assert.ok(tasks.results.every((task) => task.indexUid === allowed));
    await assertApiError(scoped.deleteIndex(allowed), 'invalid_api_key', 403, 'The provided API key is invalid.');
    await assertApiError(scoped.getKeys(), 'invalid_api_key', 403);
  });

  test('authorization header rules', async () => {
    assertErrorBody(await t.fetch('GET', '/indexes', { key: null }), 'missing_authorization_header', 401, 'The Authorization header is missing. It must use the bearer authorization method.');
    assertErrorBody(await t.fetch('GET', '/indexes', { key: null, headers: { authorization: 'Basic abc' } }), 'missing_authorization_header', 401);
    assertErrorBody(await t.fetch('GET', '/indexes', { key: null, headers: { authorization: 'Bearer' } }), 'invalid_api_key', 403);
  });
});

describe('without a master key', () => {
  test('routes are open except /keys', async () => {
    const open = await startTestServer({ masterKey: null });
    try {
      assert.equal((await open.fetch('GET', '/indexes')).status, 200);
      assertErrorBody(
        await open.fetch('GET', '/keys'),
        'missing_master_key',
        401,
        'Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.',
      );
    } finally {
      await open.close();
    }
  });
});
