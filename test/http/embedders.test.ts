// Embedders that compute vectors (issue 14, first part): the synchronous template errors of the
// settings route, and the search text embedded by the embedder's server — a REST stand-in on
// 127.0.0.1 in the REST, OpenAI and Ollama shapes — for semantic and hybrid searches, with the
// hybrid fallback to keywords when the server fails and the query-embedding cache. Documents carry
// their vectors here (`regenerate: false`): Muninn does not embed documents yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertErrorBody, startTestServer, type TestServer } from './helpers.ts';

const LOOPBACK = ['--experimental-allowed-ip-networks', '127.0.0.0/8'];

/** Deterministic vectors: which of three words the text holds. */
function vectorOf(text: string): number[] {
  if (/cat/i.test(text)) return [1, 0, 0];
  if (/dog/i.test(text)) return [0, 1, 0];
  return [0, 0, 1];
}

interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A stand-in embedding server: REST (`/rest`, one text), OpenAI (`/v1/embeddings`), Ollama (`/api/embed`, `/api/embeddings`). */
async function standIn(opts: { fail?: () => number | null } = {}) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || 'null');
      seen.push({ path: req.url!, headers: req.headers, body });
      const status = opts.fail?.() ?? null;
      if (status !== null) return void res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":"down"}');
      let out: unknown;
      if (req.url === '/rest') out = { result: { vector: vectorOf(body.input.text) } };
      else if (req.url === '/v1/embeddings') out = { data: (body.input as string[]).map((t) => ({ embedding: vectorOf(t) })) };
      else if (req.url === '/api/embed') out = { embeddings: (body.input as string[]).map(vectorOf) };
      else if (req.url === '/api/embeddings') out = { embedding: vectorOf(body.prompt) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

const DOCS = [
  { id: 1, title: 'A cat on a mat', _vectors: { e: { embeddings: [1, 0, 0], regenerate: false } } },
  { id: 2, title: 'A dog in the fog', _vectors: { e: { embeddings: [0, 1, 0], regenerate: false } } },
  { id: 3, title: 'A bird in the sky', _vectors: { e: { embeddings: [0, 0, 1], regenerate: false } } },
];

async function indexWith(t: TestServer, embedder: Record<string, unknown>): Promise<void> {
  const task = await t.client.index('pets').updateSettings({ embedders: { e: embedder } as never }).waitTask();
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
  const docs = await t.client.index('pets').addDocuments(DOCS).waitTask();
  assert.equal(docs.status, 'succeeded', JSON.stringify(docs.error));
}

const semantic = (t: TestServer, q: string, ratio = 1) => t.fetch('POST', '/indexes/pets/search', { body: { q, hybrid: { embedder: 'e', semanticRatio: ratio } } });

test('REST request and response templates and document templates are checked by the settings route', async () => {
  const t = await startTestServer();
  try {
    const put = (e: Record<string, unknown>) => t.fetch('PATCH', '/indexes/x/settings', { body: { embedders: { r: e } } });
    const rest = { source: 'rest', url: 'http://127.0.0.1:9/e', dimensions: 2 };
    const note = '\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"';
    assertErrorBody(await put({ ...rest, request: { input: 'x' }, response: { e: '{{embedding}}' } }), 'vector_embedding_error', 400,
      `Error while generating embeddings: user error: in \`request\`: "{{text}}" not found${note}`);
    assertErrorBody(await put({ ...rest, request: { input: ['{{..}}', '{{text}}'] }, response: { e: '{{embedding}}' } }), 'vector_embedding_error', 400,
      `Error while generating embeddings: user error: in \`request.input\`: "{{..}}" expected at position #1, but found at position #0${note}`);
    assertErrorBody(await put({ ...rest, request: { input: ['{{text}}', '{{..}}'] }, response: { e: '{{embedding}}' } }), 'vector_embedding_error', 400,
      'Error while generating embeddings: user error: in `response`: `response` has a single embedding, but `request` has multiple texts to embed');
    assertErrorBody(await put({ ...rest, request: { input: '{{text}}' }, response: { e: 'x' } }), 'vector_embedding_error', 400,
      'Error while generating embeddings: user error: in `response`: "{{embedding}}" not found');
    assertErrorBody(await put({ source: 'openAi', documentTemplate: '{% if %}' }), 'invalid_settings_embedders', 400, /^`\.embedders\.r\.documentTemplate`: Invalid template: /);
  } finally {
    await t.close();
  }
});

test('semantic and hybrid searches embed q with the REST, OpenAI and Ollama shapes', async () => {
  const s = await standIn();
  const t = await startTestServer({ args: LOOPBACK });
  try {
    const shapes: [string, Record<string, unknown>, (seen: Seen) => void][] = [
      ['rest', { source: 'rest', url: `${s.url}/rest`, dimensions: 3, request: { input: { text: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } }, headers: { 'X-Extra': 'yes' }, apiKey: 'restkey' },
        (seen) => {
          assert.deepEqual(seen.body, { input: { text: 'fluffy cat' } });
          assert.equal(seen.headers['x-extra'], 'yes');
          assert.equal(seen.headers.authorization, 'Bearer restkey');
        }],
      ['openAi', { source: 'openAi', url: `${s.url}/v1/embeddings`, apiKey: 'sk-test', model: 'text-embedding-3-small', dimensions: 3 },
        (seen) => {
          assert.deepEqual(seen.body, { model: 'text-embedding-3-small', input: ['fluffy cat'], dimensions: 3 });
          assert.equal(seen.headers.authorization, 'Bearer sk-test');
        }],
      ['ollama /api/embed', { source: 'ollama', url: `${s.url}/api/embed`, model: 'nomic-embed-text', dimensions: 3 },
        (seen) => assert.deepEqual(seen.body, { model: 'nomic-embed-text', input: ['fluffy cat'] })],
      ['ollama /api/embeddings', { source: 'ollama', url: `${s.url}/api/embeddings`, model: 'nomic-embed-text', dimensions: 3 },
        (seen) => assert.deepEqual(seen.body, { model: 'nomic-embed-text', prompt: 'fluffy cat' })],
    ];
    for (const [name, embedder, check] of shapes) {
      await t.client.deleteIndex('pets').waitTask();
      await indexWith(t, embedder);
      s.seen.length = 0;
      const res = await semantic(t, 'fluffy cat');
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
      const body = res.body as { hits: { id: number }[]; semanticHitCount: number };
      assert.equal(body.hits[0]!.id, 1, name);
      assert.equal(body.semanticHitCount, 3, name);
      assert.equal(s.seen.length, 1, name);
      check(s.seen[0]!);
      // hybrid: the vector side ranks the dog first for a text that matches no word
      const hybrid = (await semantic(t, 'good dog', 0.9)).body as { hits: { id: number }[] };
      assert.equal(hybrid.hits[0]!.id, 2, name);
    }
  } finally {
    await t.close();
    await s.close();
  }
});

test('a failing embedding server: hybrid falls back to keywords, semantic answers vector_embedding_error; the cache spares requests', async () => {
  let failing = false;
  const s = await standIn({ fail: () => (failing ? 400 : null) });
  const t = await startTestServer({ args: [...LOOPBACK, '--experimental-embedding-cache-entries', '10'] });
  try {
    await indexWith(t, { source: 'rest', url: `${s.url}/rest`, dimensions: 3, request: { input: { text: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } });
    // the cache: the same text twice, one request
    await semantic(t, 'a cat');
    await semantic(t, 'a cat');
    assert.equal(s.seen.length, 1);
    failing = true;
    const hybrid = await semantic(t, 'bird', 0.5);
    assert.equal(hybrid.status, 200);
    assert.deepEqual((hybrid.body as { hits: { id: number }[] }).hits.map((h) => h.id), [3]);
    assert.equal((hybrid.body as { semanticHitCount: number }).semanticHitCount, 0);
    const failed = await semantic(t, 'bird');
    assertErrorBody(failed, 'vector_embedding_error', 400,
      /^Error while generating embeddings: user error: sent a bad request to embedding server\n {2}- Hint: check that the `request` in the embedder configuration matches the remote server's API\n {2}- server replied with `\{"error":"down"\}`$/);
    // multi-search embeds each query too
    failing = false;
    const multi = await t.fetch('POST', '/multi-search', { body: { queries: [{ indexUid: 'pets', q: 'my dog', hybrid: { embedder: 'e', semanticRatio: 1 } }] } });
    assert.equal((multi.body as { results: { hits: { id: number }[] }[] }).results[0]!.hits[0]!.id, 2);
  } finally {
    await t.close();
    await s.close();
  }
});

test('the private-network rule applies to embedders', async () => {
  const s = await standIn();
  const t = await startTestServer();
  try {
    await indexWith(t, { source: 'rest', url: `${s.url}/rest`, dimensions: 3, request: { input: { text: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } });
    const res = await semantic(t, 'cat');
    assertErrorBody(res, 'vector_embedding_error', 400, /non-global address/);
    assert.equal(s.seen.length, 0);
  } finally {
    await t.close();
    await s.close();
  }
});

/** A batched REST stand-in: `{inputs: [texts]}` → `{vectors: [...]}`; `hang` never answers; records texts. */
async function batchServer(opts: { status?: () => number; hang?: () => boolean } = {}) {
  const texts: string[][] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (opts.hang?.()) return;
      const body = JSON.parse(raw) as { inputs: string[] };
      texts.push(body.inputs);
      const status = opts.status?.() ?? 200;
      if (status !== 200) return void res.writeHead(status).end('{"error":"no"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ vectors: body.inputs.map(vectorOf) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    texts,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

const batched = (url: string, extra: Record<string, unknown> = {}) => ({
  source: 'rest', url: `${url}/embed`, dimensions: 3, documentTemplate: '{{doc.title}}',
  request: { inputs: ['{{text}}', '{{..}}'] }, response: { vectors: ['{{embedding}}', '{{..}}'] }, ...extra,
});

test('documents are embedded at indexing: additions, updates, own vectors kept, and an embedder added later embeds what is stored', async () => {
  const s = await batchServer();
  const t = await startTestServer({ args: LOOPBACK });
  try {
    // documents first, then the embedder: the settings task embeds them
    await t.client.index('pets').addDocuments([{ id: 1, title: 'A cat on a mat' }, { id: 2, title: 'A dog in the fog' }]).waitTask();
    const settings = await t.client.index('pets').updateSettings({ embedders: { e: batched(s.url) } as never }).waitTask();
    assert.equal(settings.status, 'succeeded', JSON.stringify(settings.error));
    assert.deepEqual(s.texts.flat().sort(), ['A cat on a mat', 'A dog in the fog']);
    // then additions: 25 documents, three requests of at most ten texts
    s.texts.length = 0;
    const birds = Array.from({ length: 25 }, (_, i) => ({ id: 100 + i, title: `bird number ${i}` }));
    const add = await t.client.index('pets').addDocuments(birds).waitTask();
    assert.equal(add.status, 'succeeded', JSON.stringify(add.error));
    assert.equal(s.texts.length, 3);
    const batch = await t.client.batches.getBatch(add.batchUid!);
    assert.deepEqual((batch.stats as { embedderRequests?: unknown }).embedderRequests, { total: 3, failed: 0 });
    // a document that brings its own vectors is not sent
    s.texts.length = 0;
    await t.client.index('pets').addDocuments([{ id: 3, title: 'my cat', _vectors: { e: { embeddings: [0, 1, 0], regenerate: false } } }]).waitTask();
    assert.equal(s.texts.length, 0);
    // an update renders the stored document with its new fields; a text that stays the same is not sent
    await t.client.index('pets').updateDocuments([{ id: 2, color: 'brown' }]).waitTask();
    await t.client.index('pets').addDocuments([{ id: 1, title: 'A cat on a mat' }]).waitTask();
    assert.deepEqual(s.texts, []);
    await t.client.index('pets').updateDocuments([{ id: 2, title: 'A dog in the fog, barking' }]).waitTask();
    assert.deepEqual(s.texts, [['A dog in the fog, barking']]);

    const hits = async (q: string) => ((await semantic(t, q)).body as { hits: { id: number }[] }).hits.map((h) => h.id);
    assert.equal((await hits('cat'))[0], 1, 'the cat document, by its computed vector');
    assert.equal((await hits('dog'))[0] === 2 || (await hits('dog'))[0] === 3, true);
    const doc = await t.client.index('pets').getDocument(1, { retrieveVectors: true } as never);
    assert.deepEqual((doc as { _vectors: unknown })._vectors, { e: { embeddings: [[1, 0, 0]], regenerate: true } });
    const own = await t.client.index('pets').getDocument(3, { retrieveVectors: true } as never);
    assert.deepEqual((own as { _vectors: unknown })._vectors, { e: { embeddings: [[0, 1, 0]], regenerate: false } });
    // its own vectors stay when the document changes, updated or replaced (Meilisearch 1.50)...
    s.texts.length = 0;
    await t.client.index('pets').updateDocuments([{ id: 3, title: 'my cat, asleep' }]).waitTask();
    await t.client.index('pets').addDocuments([{ id: 3, title: 'my cat, awake' }]).waitTask();
    assert.deepEqual(s.texts, []);
    const kept = await t.client.index('pets').getDocument(3, { retrieveVectors: true } as never);
    assert.deepEqual((kept as { _vectors: unknown })._vectors, { e: { embeddings: [[0, 1, 0]], regenerate: false } });
    // ...until the document asks for `regenerate: true`
    await t.client.index('pets').updateDocuments([{ id: 3, _vectors: { e: { regenerate: true } } }]).waitTask();
    assert.deepEqual(s.texts, [['my cat, awake']]);
    const regenerated = await t.client.index('pets').getDocument(3, { retrieveVectors: true } as never);
    assert.deepEqual((regenerated as { _vectors: unknown })._vectors, { e: { embeddings: [[1, 0, 0]], regenerate: true } });

    // a new template embeds again the documents whose text changes (document 3 asked for
    // regeneration), not the ones with their own vectors
    await t.client.index('pets').addDocuments([{ id: 4, title: 'own cat', _vectors: { e: { embeddings: [0, 1, 0], regenerate: false } } }]).waitTask();
    s.texts.length = 0;
    await t.client.index('pets').updateSettings({ embedders: { e: batched(s.url, { documentTemplate: 'title: {{doc.title}}' }) } as never }).waitTask();
    assert.equal(s.texts.flat().length, 28);
    assert.ok(s.texts.flat().every((x: string) => x.startsWith('title: ')));
    // a template that renders the birds alike: only the others are sent
    s.texts.length = 0;
    await t.client.index('pets').updateSettings({ embedders: { e: batched(s.url, { documentTemplate: '{% if doc.title contains "bird" %}title: {{doc.title}}{% else %}{{doc.title}}{% endif %}' }) } as never }).waitTask();
    assert.deepEqual(s.texts.flat().sort(), ['A cat on a mat', 'A dog in the fog, barking', 'my cat, awake']);
  } finally {
    await t.close();
    await s.close();
  }
});

test('indexing fails the task on a server error or a missing field; a hanging server is canceled', async () => {
  let status = 400;
  let hang = false;
  const s = await batchServer({ status: () => status, hang: () => hang });
  const t = await startTestServer({ args: LOOPBACK });
  try {
    await t.client.index('pets').updateSettings({ embedders: { e: batched(s.url) } as never }).waitTask();
    const bad = await t.client.index('pets').addDocuments([{ id: 1, title: 'x' }]).waitTask();
    assert.equal(bad.status, 'failed');
    assert.equal(bad.error?.code, 'vector_embedding_error');
    assert.match(bad.error!.message, /^Index `pets`: While embedding documents for embedder `e`: user error: sent a bad request to embedding server\n {2}- Hint: check that the `request` in the embedder configuration matches the remote server's API\n {2}- server replied with `\{"error":"no"\}`$/);
    status = 200;
    const missing = await t.client.index('pets').addDocuments([{ id: 2, name: 'no title' }]).waitTask();
    assert.equal(missing.status, 'failed');
    assert.equal(missing.error?.code, 'invalid_document_fields');
    assert.match(missing.error!.message, /^Index `pets`: missing field in document `2`: /);
    // a server that never answers: the cancelation ends the batch
    hang = true;
    const stuck = await t.client.index('pets').addDocuments([{ id: 3, title: 'stuck' }]);
    await new Promise((r) => setTimeout(r, 300));
    const cancel = await t.client.tasks.cancelTasks({ uids: [stuck.taskUid] }).waitTask({ timeout: 10_000 });
    assert.equal(cancel.status, 'succeeded');
    assert.equal((await t.client.tasks.getTask(stuck.taskUid)).status, 'canceled');
    assert.equal((await t.client.index('pets').getStats()).numberOfDocuments, 0);
  } finally {
    await t.close();
    await s.close();
  }
});

test('a composite embedder embeds documents with its indexing embedder and queries with its search embedder', async () => {
  const indexing = await batchServer();
  const search = await standIn();
  const t = await startTestServer({ args: LOOPBACK });
  try {
    await t.fetch('PATCH', '/experimental-features', { body: { compositeEmbedders: true } });
    const { source: _s, dimensions: _d, ...indexingEmbedder } = batched(indexing.url);
    const embedder = {
      source: 'composite',
      indexingEmbedder: { source: 'rest', ...indexingEmbedder },
      searchEmbedder: { source: 'rest', url: `${search.url}/rest`, request: { input: { text: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } },
    };
    const settings = await t.client.index('pets').updateSettings({ embedders: { e: embedder } as never }).waitTask();
    assert.equal(settings.status, 'succeeded', JSON.stringify(settings.error));
    // both sides embedded the three probe texts, and agreed
    assert.equal(indexing.texts.flat().length, 3);
    assert.equal(search.seen.length, 3);
    indexing.texts.length = 0;
    search.seen.length = 0;
    await t.client.index('pets').addDocuments([{ id: 1, title: 'A cat on a mat' }, { id: 2, title: 'A dog in the fog' }]).waitTask();
    assert.deepEqual(indexing.texts.flat().sort(), ['A cat on a mat', 'A dog in the fog']);
    const res = await semantic(t, 'dog');
    assert.equal((res.body as { hits: { id: number }[] }).hits[0]!.id, 2, JSON.stringify(res.body));
    assert.deepEqual(search.seen.map((x) => x.body), [{ input: { text: 'dog' } }]);
  } finally {
    await t.close();
    await indexing.close();
    await search.close();
  }
});

test('429 and 5xx answers are retried (Meilisearch waits 100 + 10^n and 10^n ms); the batch counts every request', async () => {
  const answers = [429, 503, 500];
  const s = await batchServer({ status: () => answers.shift() ?? 200 });
  const t = await startTestServer({ args: LOOPBACK });
  try {
    await t.client.index('pets').updateSettings({ embedders: { e: batched(s.url) } as never }).waitTask();
    const add = await t.client.index('pets').addDocuments([{ id: 1, title: 'A cat' }]).waitTask();
    assert.equal(add.status, 'succeeded', JSON.stringify(add.error));
    assert.equal(s.texts.length, 4, 'three refused attempts, then the answer');
    const batch = await t.client.batches.getBatch(add.batchUid!);
    assert.deepEqual((batch.stats as { embedderRequests?: unknown }).embedderRequests, { total: 4, failed: 0 });
  } finally {
    await t.close();
    await s.close();
  }
});

test('a rest embedder without dimensions embeds "test" when its settings apply; a bad answer fails the settings task', async () => {
  const s = await standIn();
  const t = await startTestServer({ args: LOOPBACK });
  try {
    const ok = await t.client.index('p').updateSettings({ embedders: { e: { source: 'rest', url: `${s.url}/rest`, request: { input: { text: '{{text}}' } }, response: { result: { vector: '{{embedding}}' } } } } as never }).waitTask();
    assert.equal(ok.status, 'succeeded', JSON.stringify(ok.error));
    assert.deepEqual(s.seen.map((x) => x.body), [{ input: { text: 'test' } }]);
    const bad = await t.client.index('q').updateSettings({ embedders: { e: { source: 'rest', url: `${s.url}/rest`, request: { input: { text: '{{text}}' } }, response: { e: '{{embedding}}' } } } as never }).waitTask();
    assert.equal(bad.status, 'failed');
    assert.equal(bad.error?.code, 'vector_embedding_error');
    // Meilisearch 1.50's words, checked against the binary
    assert.equal(bad.error?.message,
      'Index `q`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with runtime error: error extracting embeddings from the response:\n  - in `response`, while extracting a single "{{embedding}}", configuration expects key "e", which is missing in response');
  } finally {
    await t.close();
    await s.close();
  }
});

test('MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES lets documents through without vectors', async () => {
  const s = await batchServer({ status: () => 400 });
  process.env.MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES = 'ignore_document_template_failures,ignore_embedder_failures';
  const t = await startTestServer({ args: LOOPBACK });
  try {
    await t.client.index('pets').updateSettings({ embedders: { e: batched(s.url) } as never }).waitTask();
    const add = await t.client.index('pets').addDocuments([{ id: 1, title: 'x' }, { id: 2, name: 'no title' }]).waitTask();
    assert.equal(add.status, 'succeeded', JSON.stringify(add.error));
    assert.equal((await t.client.index('pets').getStats()).numberOfDocuments, 2);
    assert.equal((await t.client.index('pets').getStats()).numberOfEmbeddedDocuments, 0);
  } finally {
    delete process.env.MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES;
    await t.close();
    await s.close();
  }
});

test('a payload, and a settings change, larger than a chunk of embedding are embedded whole', async () => {
  const s = await batchServer();
  const t = await startTestServer({ args: LOOPBACK });
  try {
    await t.client.index('many').updateSettings({ embedders: { e: batched(s.url) } as never }).waitTask();
    const docs = Array.from({ length: 2500 }, (_, i) => ({ id: i, title: i % 2 === 0 ? `cat ${i}` : `dog ${i}` }));
    const add = await t.client.index('many').addDocuments(docs).waitTask();
    assert.equal(add.status, 'succeeded', JSON.stringify(add.error));
    assert.equal(s.texts.flat().length, 2500);
    const stats = await t.client.index('many').getStats();
    assert.equal(stats.numberOfEmbeddedDocuments, 2500);
    const last = await t.client.index('many').getDocument(2499, { retrieveVectors: true } as never);
    assert.deepEqual((last as { _vectors: unknown })._vectors, { e: { embeddings: [[0, 1, 0]], regenerate: true } });

    // a new template embeds the stored documents again, a chunk at a time
    s.texts.length = 0;
    const set = await t.client.index('many').updateSettings({ embedders: { e: batched(s.url, { documentTemplate: 'a {{doc.title}}' }) } as never }).waitTask();
    assert.equal(set.status, 'succeeded', JSON.stringify(set.error));
    assert.equal(s.texts.flat().length, 2500);
    assert.equal((await t.client.index('many').getStats()).numberOfEmbeddedDocuments, 2500);
    const first = await t.client.index('many').getDocument(0, { retrieveVectors: true } as never);
    assert.deepEqual((first as { _vectors: unknown })._vectors, { e: { embeddings: [[1, 0, 0]], regenerate: true } });
  } finally {
    await t.close();
    await s.close();
  }
});
