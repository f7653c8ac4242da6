// Fragments of REST embedders and the `media` search parameter (experimental `multimodal`,
// vectors-embedders.md §2.4), through a REST stand-in on 127.0.0.1. The expected bodies, vectors,
// orders and messages are those Meilisearch 1.50 gave for the same requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertErrorBody, startTestServer, type TestServer } from './helpers.ts';

/** A deterministic 3-d vector of any JSON value. */
function vectorOf(value: unknown): number[] {
  let h = 0;
  for (const ch of JSON.stringify(value)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return [1 + (h % 7), 1 + (h % 5), 1 + (h % 3)];
}

async function standIn() {
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { inputs: unknown[] };
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ vectors: body.inputs.map(vectorOf) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/embed`,
    bodies,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

const multimodal = (url: string, extra: Record<string, unknown> = {}) => ({
  source: 'rest', url, dimensions: 3,
  indexingFragments: { title: { value: '{{doc.title}}' }, img: { value: { type: 'image_url', url: '{{doc.url}}' } } },
  searchFragments: { text: { value: '{{q}}' }, img: { value: { type: 'image_url', url: '{{media.url}}' } } },
  request: { inputs: ['{{fragment}}', '{{..}}'] }, response: { vectors: ['{{embedding}}', '{{..}}'] },
  ...extra,
});

const DOCS = [
  { id: 1, title: 'red cat', url: 'http://x/cat.png' },
  { id: 2, title: 'blue truck' },
  { id: 3, url: 'http://x/dog.png' },
  { id: 4, other: 1 },
  { id: 5, title: 'cat', url: '', _vectors: { e: [[9, 9, 9]] } },
];

async function setUp(t: TestServer, url: string): Promise<void> {
  await t.fetch('PATCH', '/experimental-features', { body: { multimodal: true } });
  const set = await t.client.index('m').updateSettings({ embedders: { e: multimodal(url) } as never }).waitTask();
  assert.equal(set.status, 'succeeded', JSON.stringify(set.error));
  const add = await t.client.index('m').addDocuments(DOCS).waitTask();
  assert.equal(add.status, 'succeeded', JSON.stringify(add.error));
}

test('indexing fragments: one embedding per fragment that renders, in the order of their names', async () => {
  const s = await standIn();
  const t = await startTestServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
  try {
    await setUp(t, s.url);
    // strings render as text, other values stay; a fragment that needs a missing field is left out
    assert.deepEqual(s.bodies, [{ inputs: [{ type: 'image_url', url: 'http://x/cat.png' }, 'red cat', 'blue truck', { type: 'image_url', url: 'http://x/dog.png' }] }]);
    const fetched = (await t.fetch('POST', '/indexes/m/documents/fetch', { body: { retrieveVectors: true } })).body as { results: { id: number; _vectors: unknown }[] };
    const vec = (v: unknown) => vectorOf(v);
    assert.deepEqual(fetched.results.map((d) => d._vectors), [
      { e: { embeddings: [vec({ type: 'image_url', url: 'http://x/cat.png' }), vec('red cat')], regenerate: true } },
      { e: { embeddings: [vec('blue truck')], regenerate: true } },
      { e: { embeddings: [vec({ type: 'image_url', url: 'http://x/dog.png' })], regenerate: true } },
      { e: { embeddings: [], regenerate: true } },
      { e: { embeddings: [[9, 9, 9]], regenerate: false } },
    ]);
    const stats = (await t.fetch('GET', '/indexes/m/stats')).body as { numberOfEmbeddings: number; numberOfEmbeddedDocuments: number };
    assert.equal(stats.numberOfEmbeddings, 5);
    assert.equal(stats.numberOfEmbeddedDocuments, 4);

    // an update that leaves the rendered fragments alone sends nothing; one that changes them sends the document's fragments
    s.bodies.length = 0;
    await t.client.index('m').updateDocuments([{ id: 1, color: 'red' }]).waitTask();
    assert.deepEqual(s.bodies, []);
    await t.client.index('m').updateDocuments([{ id: 2, title: 'big truck' }]).waitTask();
    assert.deepEqual(s.bodies, [{ inputs: ['big truck'] }]);
  } finally {
    await t.close();
    await s.close();
  }
});

test('search fragments: q and media each pick the one fragment that renders', async () => {
  const s = await standIn();
  const t = await startTestServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
  try {
    await setUp(t, s.url);
    const search = (body: Record<string, unknown>) => t.fetch('POST', '/indexes/m/search', { body: { hybrid: { embedder: 'e', semanticRatio: 1 }, attributesToRetrieve: ['id'], ...body } });
    const ids = (res: { body: unknown }) => (res.body as { hits: { id: number }[] }).hits.map((h) => h.id);
    s.bodies.length = 0;
    assert.deepEqual(ids(await search({ q: 'cat' })), [5, 3, 1, 2, 4]);
    assert.deepEqual(ids(await search({ media: { url: 'http://x/cat.png' } })), [1, 2, 5, 3, 4]);
    assert.deepEqual(s.bodies, [{ inputs: ['cat'] }, { inputs: [{ type: 'image_url', url: 'http://x/cat.png' }] }]);
    const hybrid = (await t.fetch('POST', '/indexes/m/search', { body: { q: 'cat', hybrid: { embedder: 'e', semanticRatio: 0.5 }, limit: 3, attributesToRetrieve: ['id'] } })).body as { hits: { id: number }[]; semanticHitCount: number };
    assert.deepEqual(hybrid.hits.map((h) => h.id), [5, 1, 3]);
    assert.equal(hybrid.semanticHitCount, 1);

    assertErrorBody(await search({ q: 'cat', media: { url: 'http://x/cat.png' } }), 'vector_embedding_error', 400,
      'Error while generating embeddings: user error: Query matches multiple search fragments.\n  - Note: First matched fragment `img`.\n  - Note: Second matched fragment `text`.\n  - Note: {"q":"cat","media":{"url":"http://x/cat.png"}}');
    assertErrorBody(await search({ q: '', media: { url: 'a' } }), 'vector_embedding_error', 400,
      'Error while generating embeddings: user error: Query matches multiple search fragments.\n  - Note: First matched fragment `img`.\n  - Note: Second matched fragment `text`.\n  - Note: {"q":"","media":{"url":"a"}}');
    assertErrorBody(await search({ media: { other: 1 } }), 'vector_embedding_error', 400,
      'Error while generating embeddings: user error: Query matches no search fragment.\n  - Note: {"q":null,"media":{"other":1}}');
    assertErrorBody(await search({ media: { url: 'a' }, vector: [1, 2, 3] }), 'invalid_search_media_and_vector', 400, 'Invalid request: both `media` and `vector` parameters are present.');
    assertErrorBody(await t.fetch('POST', '/indexes/m/search', { body: { media: { url: 'a' } } }), 'missing_search_hybrid', 400,
      'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');

    // an embedder without search fragments cannot embed media
    const plain = { source: 'rest', url: s.url, dimensions: 3, request: { inputs: ['{{text}}', '{{..}}'] }, response: { vectors: ['{{embedding}}', '{{..}}'] } };
    await t.client.index('m').updateSettings({ embedders: { plain } as never }).waitTask();
    assertErrorBody(await search({ media: { url: 'a' }, hybrid: { embedder: 'plain', semanticRatio: 1 } }), 'vector_embedding_error', 400,
      "Error while generating embeddings: user error: `media` requested, and the configuration has source `rest`, but the configuration doesn't have `searchFragments`.");

    // with multimodal off, media is refused once the search kind is known
    await t.fetch('PATCH', '/experimental-features', { body: { multimodal: false } });
    const gate = 'passing `media` in a search query requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846';
    assertErrorBody(await search({ media: { url: 'a' } }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await search({ media: { url: 'a' }, hybrid: { embedder: 'e', semanticRatio: 0 } }), 'feature_not_enabled', 400, gate);
    assertErrorBody(await search({ media: { url: 'a' }, hybrid: { embedder: 'nope', semanticRatio: 1 } }), 'invalid_search_embedder', 400, 'Cannot find embedder with name `nope`.');
  } finally {
    await t.close();
    await s.close();
  }
});

test('fragment settings: the request placeholder, templates, dimensions and both sides are checked', async () => {
  const t = await startTestServer();
  try {
    await t.fetch('PATCH', '/experimental-features', { body: { multimodal: true } });
    const url = 'http://127.0.0.1:9/embed';
    const put = (e: Record<string, unknown>, index = 'x') => t.fetch('PATCH', `/indexes/${index}/settings`, { body: { embedders: { e } } });
    const fragmentNote = '\n  - Note: this template is using fragments, and so expects to contain the placeholder "{{fragment}}" rathern than "{{text}}"';
    assertErrorBody(await put(multimodal(url, { request: { inputs: ['{{text}}', '{{..}}'] } })), 'vector_embedding_error', 400,
      `Error while generating embeddings: user error: in \`request.inputs[0]\`: Expected "{{fragment}}" inside of the repeated value${fragmentNote}`);
    assertErrorBody(await put(multimodal(url, { request: { input: '{{text}}' }, response: { vector: '{{embedding}}' } })), 'vector_embedding_error', 400,
      `Error while generating embeddings: user error: in \`request\`: "{{fragment}}" not found${fragmentNote}`);
    assertErrorBody(await put(multimodal(url, { documentTemplate: 'x' })), 'vector_embedding_error', 400,
      'Error while generating embeddings: user error: cannot pass both fragments and a document template.\n  - Note: 2 fragments declared in `indexingFragments` and 2 fragments declared in `search_fragments_len`.\n  - Hint: remove the declared fragments or remove the `documentTemplate`');
    const bad = await put(multimodal(url, { indexingFragments: { t: { value: '{{doc.title' } } }));
    assert.equal(bad.status, 400);
    assert.match((bad.body as { message: string }).message, /^Error while generating embeddings: user error: error while parsing template: /);

    // checks made when the task applies
    const failed = async (e: Record<string, unknown>, index: string) => {
      const res = await put(e, index);
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const task = await t.client.tasks.waitForTask((res.body as { taskUid: number }).taskUid);
      assert.equal(task.status, 'failed');
      assert.equal(task.error?.code, 'vector_embedding_error');
      return task.error!.message;
    };
    const { dimensions: _d, ...noDimensions } = multimodal(url);
    assert.equal(await failed(noDimensions, 'a'),
      "Index `a`: Error while generating embeddings: user error: cannot infer `dimensions` for an embedder using `indexingFragments`.\n  - Note: Specify `dimensions` explicitly or don't use `indexingFragments`.");
    const { searchFragments: _s, ...indexingOnly } = multimodal(url);
    assert.equal(await failed(indexingOnly, 'b'),
      'Index `b`: Error while generating embeddings: user error: inconsistent fragments: `searchFragments` is empty, but `indexingFragments` declares 2 fragments: img, title\n - Hint: declare at least one fragment in `searchFragments` or remove fragments from `indexingFragments` by setting them to `null`');
    const { indexingFragments: _i, ...searchOnly } = multimodal(url);
    assert.equal(await failed(searchOnly, 'c'),
      'Index `c`: Error while generating embeddings: user error: inconsistent fragments: `indexingFragments` is empty, but `searchFragments` declares 2 fragments: img, text\n  - Hint: declare at least one fragment in `indexingFragments` or remove fragments from `searchFragments` by setting them to `null`');
    // `{{fragment}}` without fragments passes the route (the index may have some) and fails the task
    const { indexingFragments: _a, searchFragments: _b, ...noFragments } = multimodal(url);
    assert.equal(await failed(noFragments, 'd'),
      'Index `d`: Error while generating embeddings: user error: in `request.inputs[0]`: Expected "{{text}}" inside of the repeated value\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"');
  } finally {
    await t.close();
  }
});
