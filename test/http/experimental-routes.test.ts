// Routes and parameters of experimental features Muninn does not build (`network`, `chatCompletions`),
// literal paths that parametric routes of other methods would take, and `useNetwork`: answers as
// Meilisearch 1.50 gave them for the same requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer } from './helpers.ts';

const NETWORK_GATE = 'requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805';
const CHATS_GATE = 'requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835';

test('/network and /chats answer the feature gates, then as an instance with no remotes and no chats', async () => {
  const t = await startTestServer();
  try {
    assertErrorBody(await t.fetch('GET', '/network'), 'feature_not_enabled', 400, `Using the /network route ${NETWORK_GATE}`);
    assertErrorBody(await t.fetch('PATCH', '/network', { body: {} }), 'feature_not_enabled', 400, `Using the /network route ${NETWORK_GATE}`);
    assertErrorBody(await t.fetch('GET', '/chats'), 'feature_not_enabled', 400, `listing the chats ${CHATS_GATE}`);
    assertErrorBody(await t.fetch('GET', '/chats/w'), 'feature_not_enabled', 400, `displaying a chat ${CHATS_GATE}`);
    assertErrorBody(await t.fetch('DELETE', '/chats/w'), 'feature_not_enabled', 400, `deleting a chat ${CHATS_GATE}`);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      assertErrorBody(await t.fetch(method, '/chats/w/settings', { body: method === 'PATCH' ? {} : undefined }), 'feature_not_enabled', 400, `using the /chats/settings route ${CHATS_GATE}`);
    }
    assertErrorBody(await t.fetch('POST', '/chats/w/chat/completions', { body: { model: 'x', messages: [] } }), 'feature_not_enabled', 400, `using the /chats chat completions route ${CHATS_GATE}`);
    assertErrorBody(await t.fetch('GET', '/chats?foo=1'), 'bad_request', 400, 'Unknown parameter `foo`: expected one of `offset`, `limit`');
    assert.equal((await t.fetch('GET', '/network', { key: null })).status, 401);
    assert.equal((await t.fetch('POST', '/network', { body: {} })).status, 405);

    await t.fetch('PATCH', '/experimental-features', { body: { network: true, chatCompletions: true } });
    assert.deepEqual((await t.fetch('GET', '/network')).body, { self: null, remotes: {}, shards: {}, leader: null, version: '00000000-0000-0000-0000-000000000000' });
    assert.deepEqual((await t.fetch('GET', '/chats')).body, { results: [], offset: 0, limit: 20, total: 0 });
    assertErrorBody(await t.fetch('GET', '/chats/w'), 'chat_not_found', 404, 'chat w not found');
    assertErrorBody(await t.fetch('GET', '/chats/w/settings'), 'chat_not_found', 404, 'Chat `w` not found');
    assert.equal((await t.fetch('PATCH', '/network', { body: {} })).status, 400);
  } finally {
    await t.close();
  }
});

test('a literal path answers 405 to the methods of a parametric route beside it', async () => {
  const t = await startTestServer();
  try {
    await t.client.index('m').addDocuments([{ id: 'fetch', title: 'a document named like a route' }]).waitTask();
    for (const [method, path] of [['GET', '/tasks/cancel'], ['GET', '/indexes/m/documents/fetch'], ['DELETE', '/indexes/m/documents/fetch'], ['GET', '/indexes/m/documents/delete-batch'], ['GET', '/indexes/m/documents/delete']] as const) {
      const res = await t.fetch(method, path);
      assert.equal(res.status, 405, `${method} ${path}`);
    }
    // without a key too: routing comes first
    assert.equal((await t.fetch('GET', '/tasks/cancel', { key: null })).status, 405);
    assert.equal((await t.client.index('m').getDocuments()).total, 1, 'DELETE …/documents/fetch deleted nothing');
  } finally {
    await t.close();
  }
});

test('useNetwork needs the network feature; GET document routes refuse it', async () => {
  const t = await startTestServer();
  try {
    await t.client.index('m').addDocuments([{ id: 1 }]).waitTask();
    const gate = `passing \`useNetwork\` in a search query ${NETWORK_GATE}`;
    assertErrorBody(await t.fetch('POST', '/indexes/m/search', { body: { useNetwork: false } }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await t.fetch('POST', '/indexes/nope/search', { body: { useNetwork: true } }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await t.fetch('GET', '/indexes/m/search?useNetwork=true'), 'feature_not_enabled', 400, gate);
    assertErrorBody(await t.fetch('POST', '/indexes/m/facet-search', { body: { facetName: 'x', useNetwork: true } }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await t.fetch('POST', '/multi-search', { body: { queries: [{ indexUid: 'nope', useNetwork: true }] } }), 'feature_not_enabled', 400, `Inside \`.queries[0]\`: ${gate}`);
    assertErrorBody(await t.fetch('POST', '/indexes/nope/documents/fetch', { body: { useNetwork: false } }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await t.fetch('POST', '/indexes/m/documents/fetch', { body: { useNetwork: 'x' } }), 'invalid_document_use_network', 400, 'Invalid value type at `.useNetwork`: expected a boolean, but found a string: `"x"`');
    assert.equal((await t.fetch('POST', '/indexes/m/documents/fetch', { body: { useNetwork: null } })).status, 200);
    assert.equal((await t.fetch('POST', '/indexes/m/search', { body: { useNetwork: null } })).status, 200);
    for (const path of ['/indexes/m/documents?useNetwork=true', '/indexes/m/documents/1?useNetwork=false']) {
      assertErrorBody(await t.fetch('GET', path), 'invalid_document_use_network', 400, /^Invalid value type for parameter `useNetwork`: expected a string, but found a string: `(true|false)`$/);
    }
    assertErrorBody(await t.fetch('GET', '/indexes/m/documents?foo=1'), 'bad_request', 400,
      'Unknown parameter `foo`: expected one of `offset`, `limit`, `fields`, `retrieveVectors`, `ids`, `filter`, `sort`, `useNetwork`');
  } finally {
    await t.close();
  }
});

test('POST /documents/edit: the body, then the feature; only a `*` key may call it', async () => {
  const t = await startTestServer();
  try {
    await t.client.index('m').addDocuments([{ id: 1 }]).waitTask();
    const edit = (body: unknown, index = 'm', key?: string) => t.fetch('POST', `/indexes/${index}/documents/edit`, { body, ...(key !== undefined ? { key } : {}) });
    assertErrorBody(await edit({}), 'missing_document_edition_function', 400, 'Missing field `function`');
    assertErrorBody(await edit({ function: 1 }), 'invalid_document_edition_function_filter', 400, 'Invalid value type at `.function`: expected a string, but found a positive integer: `1`');
    assertErrorBody(await edit({ function: 'x', foo: 1 }), 'bad_request', 400, 'Unknown field `foo`: expected one of `filter`, `context`, `function`');
    const gate = 'Using the documents edit route requires enabling the `edit documents by function` experimental feature. See https://github.com/orgs/meilisearch/discussions/762';
    assertErrorBody(await edit({ function: 'doc.x = 1', context: 1 }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await edit({ function: 'doc.x = 1' }, 'nope'), 'feature_not_enabled', 400, gate);
    const documentsKey = await t.client.createKey({ actions: ['documents.*'], indexes: ['*'], expiresAt: null });
    const allKey = await t.client.createKey({ actions: ['*'], indexes: ['m'], expiresAt: null });
    assert.equal((await edit({ function: 'x' }, 'm', documentsKey.key)).status, 403);
    assertErrorBody(await edit({ function: 'x' }, 'm', allKey.key), 'feature_not_enabled', 400, gate);
    await t.fetch('PATCH', '/experimental-features', { body: { editDocumentsByFunction: true } });
    assertErrorBody(await edit({ function: 'doc.x = 1' }), 'bad_request', 400, 'Editing documents with a function is not supported by this version of Muninn.');
    assert.equal((await t.fetch('GET', '/indexes/m/documents/edit')).status, 405);
  } finally {
    await t.close();
  }
});
