// POST /render-template (experimental `renderRoute`): templates rendered with stored and inline
// documents, and the body's errors, as Meilisearch 1.50 answers them (probed on the binary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer } from './helpers.ts';

test('POST /render-template renders embedder and inline templates with stored and inline documents', async () => {
  const t = await startTestServer();
  try {
    const render = (body: unknown) => t.fetch('POST', '/render-template', { body });
    const inline = (tpl: unknown, input?: unknown) => render({ template: { kind: 'inlineDocumentTemplate', inline: tpl }, ...(input !== undefined ? { input } : {}) });
    assertErrorBody(await inline('x'), 'feature_not_enabled', 400,
      'calling the /render-template route requires enabling the `render_route` experimental feature. See https://github.com/orgs/meilisearch/discussions/888');
    // the body is checked before the feature
    assertErrorBody(await render({}), 'bad_request', 400, 'Missing field `template`');
    await t.fetch('PATCH', '/experimental-features', { body: { renderRoute: true } });
    // embedders on an index without documents (nothing to embed), documents in another
    await t.client.index('docs').addDocuments([{ id: 1, title: 'Hello', year: 2001 }]).waitTask();
    await t.client.index('wh').updateSettings({ embedders: { u: { source: 'userProvided', dimensions: 2 }, o: { source: 'openAi', apiKey: 'x', dimensions: 2, documentTemplate: 'title {{doc.title}}' } } as never }).waitTask();

    assert.deepEqual((await inline('{{doc.id}}', { kind: 'inlineDocument', inline: { id: 3, t: 'x' } })).body, { template: '{{doc.id}}', rendered: '3' });
    assert.deepEqual((await inline('x')).body, { template: 'x', rendered: null });
    assert.deepEqual((await inline('x', null)).body, { template: 'x', rendered: null });
    // no cut at documentTemplateMaxBytes on this route (as the binary)
    assert.deepEqual((await render({ template: { kind: 'inlineDocumentTemplate', inline: '{{doc.id}}', documentTemplateMaxBytes: 1 }, input: { kind: 'inlineDocument', inline: { id: 12345 } } })).body,
      { template: '{{doc.id}}', rendered: '12345' });
    const stored = await render({ template: { kind: 'documentTemplate', indexUid: 'wh', embedder: 'o' }, input: { kind: 'indexDocument', indexUid: 'docs', id: '1' } });
    assert.deepEqual(stored.body, { template: 'title {{doc.title}}', rendered: 'title Hello' });

    const bad = async (body: unknown, code: string, status: number, message: string | RegExp) => assertErrorBody(await render(body), code, status, message);
    await bad({ foo: 1 }, 'bad_request', 400, 'Unknown field `foo`: expected one of `template`, `input`');
    await bad({ template: 'x' }, 'invalid_render_template', 400, 'Invalid value type at `.template`: expected an object, but found a string: `"x"`');
    await bad({ template: {} }, 'invalid_render_template', 400, 'Missing field `kind` inside `.template`');
    await bad({ template: { kind: 'x' } }, 'invalid_render_template', 400,
      'Unknown value `x` at `.template.kind`: expected one of `documentTemplate`, `chatDocumentTemplate`, `indexingFragment`, `searchFragment`, `inlineDocumentTemplate`, `inlineFragment`');
    await bad({ template: { kind: 'inlineDocumentTemplate', template: 'x' } }, 'invalid_render_template', 400,
      'Unknown field `template` inside `.template`: expected one of `kind`, `indexUid`, `embedder`, `fragment`, `inline`, `documentTemplateMaxBytes`');
    await bad({ template: { kind: 'inlineDocumentTemplate' } }, 'invalid_render_template', 400, 'error while fetching template: parameter `inline` missing for kind `inlineDocumentTemplate`');
    await bad({ template: { kind: 'inlineDocumentTemplate', inline: 5 } }, 'invalid_render_template', 400, 'error while fetching template: inline document templates must be strings');
    await bad({ template: { kind: 'documentTemplate' } }, 'invalid_render_template', 400, 'error while fetching template: parameter `index_uid` missing for kind `documentTemplate`');
    await bad({ template: { kind: 'documentTemplate', indexUid: 'wh' } }, 'invalid_render_template', 400, 'error while fetching template: parameter `embedder` missing for kind `documentTemplate`');
    await bad({ template: { kind: 'documentTemplate', indexUid: 'nope', embedder: 'r' } }, 'index_not_found', 404, 'error while fetching template: cannot open index `nope`: Index `nope` not found.');
    await bad({ template: { kind: 'documentTemplate', indexUid: 'wh', embedder: 'r' } }, 'invalid_render_template', 400, 'error while fetching template: cannot find embedder `r` in index `wh`');
    await bad({ template: { kind: 'documentTemplate', indexUid: 'wh', embedder: 'u' } }, 'invalid_render_template', 400, 'error while fetching template: cannot find embedder `u` in index `wh`');
    await bad({ template: { kind: 'inlineDocumentTemplate', inline: '{{' } }, 'template_parsing_error', 400, /^error while fetching template: user error: cannot parse template: /);
    await bad({ template: { kind: 'inlineDocumentTemplate', inline: '{{doc.missing}}' }, input: { kind: 'inlineDocument', inline: { id: 1 } } }, 'template_rendering_error', 400,
      /^error while rendering template: user error: missing field in document: /);
    await bad({ template: { kind: 'chatDocumentTemplate', indexUid: 'wh' } }, 'feature_not_enabled', 400,
      'error while fetching template: accessing chat settings requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835');
    await bad({ template: { kind: 'indexingFragment', indexUid: 'wh', embedder: 'o', fragment: 'x' } }, 'feature_not_enabled', 400,
      'error while fetching template: accessing fragments requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846');
    const tpl = { kind: 'inlineDocumentTemplate', inline: 'x' };
    await bad({ template: tpl, input: {} }, 'invalid_render_input', 400, 'Missing field `kind` inside `.input`');
    await bad({ template: tpl, input: { kind: 'x' } }, 'invalid_render_input', 400, 'Unknown value `x` at `.input.kind`: expected one of `indexDocument`, `inlineDocument`, `inlineSearch`');
    await bad({ template: tpl, input: { kind: 'indexDocument', indexUid: 'wh', id: '1', foo: 1 } }, 'invalid_render_input', 400, 'Unknown field `foo` inside `.input`: expected one of `kind`, `indexUid`, `id`, `inline`');
    await bad({ template: tpl, input: { kind: 'indexDocument', indexUid: 'wh', id: 1 } }, 'invalid_render_input', 400, 'Invalid value type at `.input.id`: expected a string, but found a positive integer: `1`');
    await bad({ template: tpl, input: { kind: 'indexDocument' } }, 'invalid_render_input', 400, 'error while fetching input: parameter `indexUid` missing for kind `indexDocument`');
    await bad({ template: tpl, input: { kind: 'indexDocument', indexUid: 'wh' } }, 'invalid_render_input', 400, 'error while fetching input: parameter `id` missing for kind `indexDocument`');
    await bad({ template: tpl, input: { kind: 'indexDocument', indexUid: 'docs', id: '77' } }, 'render_document_not_found', 404, 'error while fetching input: document `77` not found in `docs`');
    await bad({ template: tpl, input: { kind: 'indexDocument', indexUid: 'nope', id: '1' } }, 'index_not_found', 404, 'Cannot open index `nope`: Index `nope` not found.');
    await bad({ template: tpl, input: { kind: 'inlineDocument' } }, 'invalid_render_input', 400, 'error while fetching input: parameter `inline` missing for kind `inlineDocument`');
    await bad({ template: tpl, input: { kind: 'inlineDocument', inline: [1] } }, 'invalid_render_input', 400,
      'error while fetching input: parsing inline document: invalid type: sequence, expected a map at line 1 column 0\n  - Note: the inline document must be a JSON map');
    await bad({ template: tpl, input: { kind: 'inlineSearch', inline: { q: 'x' } } }, 'feature_not_enabled', 400,
      'error while fetching input: rendering search requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846');

    // a key needs settings.get and documents.get
    const one = await t.client.createKey({ actions: ['settings.get'], indexes: ['*'], expiresAt: null });
    const both = await t.client.createKey({ actions: ['settings.get', 'documents.get'], indexes: ['*'], expiresAt: null });
    assert.equal((await t.fetch('POST', '/render-template', { key: one.key, body: { template: tpl } })).status, 403);
    assert.equal((await t.fetch('POST', '/render-template', { key: both.key, body: { template: tpl } })).status, 200);
  } finally {
    await t.close();
  }
});

test('POST /render-template renders fragments with documents and inline searches once multimodal is on', async () => {
  const t = await startTestServer();
  try {
    await t.fetch('PATCH', '/experimental-features', { body: { renderRoute: true, multimodal: true } });
    const embedder = {
      source: 'rest', url: 'http://127.0.0.1:9/embed', dimensions: 3,
      indexingFragments: { title: { value: '{{doc.title}}' }, img: { value: { type: 'image_url', url: '{{doc.url}}' } } },
      searchFragments: { text: { value: '{{q}}' }, img: { value: { type: 'image_url', url: '{{media.url}}' } } },
      request: { inputs: ['{{fragment}}', '{{..}}'] }, response: { vectors: ['{{embedding}}', '{{..}}'] },
    };
    // no server is called: the index is empty when the embedder is set, and the documents bring their vectors
    const set = await t.client.index('m').updateSettings({ embedders: { e: embedder } as never }).waitTask();
    assert.equal(set.status, 'succeeded', JSON.stringify(set.error));
    const own = { e: { embeddings: [[1, 2, 3]], regenerate: false } };
    const add = await t.client.index('m').addDocuments([{ id: 1, title: 'red cat', url: 'http://x/cat.png', _vectors: own }, { id: 2, title: 'blue truck', _vectors: own }]).waitTask();
    assert.equal(add.status, 'succeeded', JSON.stringify(add.error));
    const render = (body: unknown) => t.fetch('POST', '/render-template', { body });
    const ok = async (body: unknown, expected: unknown) => {
      const res = await render(body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, expected);
    };
    const bad = async (body: unknown, code: string, status: number, message: string | RegExp) => assertErrorBody(await render(body), code, status, message);
    const img = { kind: 'indexingFragment', indexUid: 'm', embedder: 'e', fragment: 'img' };

    await ok({ template: { kind: 'inlineFragment', inline: { a: '{{doc.title}}', n: 3 } }, input: { kind: 'inlineDocument', inline: { title: 'hi' } } }, { template: { a: '{{doc.title}}', n: 3 }, rendered: { a: 'hi', n: 3 } });
    await ok({ template: img, input: { kind: 'indexDocument', indexUid: 'm', id: '1' } }, { template: { type: 'image_url', url: '{{doc.url}}' }, rendered: { type: 'image_url', url: 'http://x/cat.png' } });
    await ok({ template: img, input: null }, { template: { type: 'image_url', url: '{{doc.url}}' }, rendered: null });
    await ok({ template: { kind: 'searchFragment', indexUid: 'm', embedder: 'e', fragment: 'img' }, input: { kind: 'inlineSearch', inline: { q: 'x', media: { url: 'u' } } } },
      { template: { type: 'image_url', url: '{{media.url}}' }, rendered: { type: 'image_url', url: 'u' } });
    await ok({ template: { kind: 'inlineFragment', inline: '{{q}} {{media.a}}' }, input: { kind: 'inlineSearch', inline: { q: 'hello', media: { a: [1, 2] }, x: 1 } } }, { template: '{{q}} {{media.a}}', rendered: 'hello 12' });

    // a fragment that needs what the input lacks says where (the liquid message is liquidjs's)
    await bad({ template: img, input: { kind: 'indexDocument', indexUid: 'm', id: '2' } }, 'template_rendering_error', 400, /^error while rendering template: in ``\.url``, error while rendering template: /);
    await bad({ template: { kind: 'searchFragment', indexUid: 'm', embedder: 'e', fragment: 'text' }, input: { kind: 'inlineSearch', inline: { media: { a: 1 } } } }, 'template_rendering_error', 400,
      /^error while rendering template: error while rendering template: /);
    await bad({ template: { kind: 'documentTemplate', indexUid: 'm', embedder: 'e' }, input: null }, 'invalid_render_template', 400,
      'error while fetching template: embedder `e` in index `m` does not use a document template.');
    await bad({ template: { kind: 'inlineDocumentTemplate', inline: 'x' }, input: { kind: 'inlineSearch', inline: { q: 'x' } } }, 'template_rendering_error', 400,
      'error while rendering template: cannot render a document template with a search query');
    await bad({ template: { ...img, fragment: 'nope' }, input: null }, 'invalid_render_template', 400, 'error while fetching template: cannot find indexing fragment `nope` for embedder `e` in index `m`');
    await bad({ template: { kind: 'searchFragment', indexUid: 'm', embedder: 'e', fragment: 'zz' }, input: null }, 'invalid_render_template', 400, 'error while fetching template: cannot find search fragment `zz` for embedder `e` in index `m`');
    await bad({ template: { kind: 'searchFragment', indexUid: 'm', embedder: 'zz', fragment: 'text' }, input: null }, 'invalid_render_template', 400, 'error while fetching template: cannot find indexing fragment `text` for embedder `zz` in index `m`');
    await bad({ template: { ...img, embedder: 'zz' }, input: null }, 'invalid_render_template', 400, 'error while fetching template: cannot find embedder `zz` in index `m`');
    await bad({ template: { kind: 'searchFragment', indexUid: 'm', embedder: 'e' }, input: null }, 'invalid_render_template', 400, 'error while fetching template: parameter `fragment` missing for kind `searchFragment`');
    await bad({ template: { kind: 'inlineFragment', inline: 'x {{q}}' }, input: { kind: 'inlineSearch' } }, 'invalid_render_input', 400, 'error while fetching input: parameter `inline` missing for kind `inlineSearch`');
    await bad({ template: { kind: 'inlineFragment', inline: 'x' }, input: { kind: 'inlineSearch', inline: [1] } }, 'invalid_render_input', 400,
      'error while fetching input: parsing inline search: invalid type: sequence, expected a map at line 1 column 0\n  - Note: the inline search query must be a JSON map containing `q` and/or `media`');
    await bad({ template: { kind: 'inlineFragment', inline: '{{doc.title' }, input: null }, 'template_parsing_error', 400, /^error while fetching template: error while parsing template: /);
  } finally {
    await t.close();
  }
});
