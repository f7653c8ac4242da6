// POST /export: indexes pushed to another server that speaks the Meilisearch API (a second Muninn,
// or a stand-in that records what it receives), the private-network rule, a stuck remote, and the
// body's validation as the binary answers it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { assertErrorBody, startTestServer, type TestServer } from './helpers.ts';

const LOOPBACK = ['--experimental-allowed-ip-networks', '127.0.0.0/8'];

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A stand-in remote: records every request; `GET /indexes/{uid}` answers 404 unless listed in `existing`. */
async function standIn(opts: { existing?: string[]; hang?: boolean } = {}): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (opts.hang) return; // never answers
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = zlib.gunzipSync(raw);
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body: raw.toString('utf8') });
      const uid = /^\/indexes\/([^/]+)$/.exec(req.url!)?.[1];
      if (req.method === 'GET' && uid !== undefined && !(opts.existing ?? []).includes(uid)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `Index \`${uid}\` not found.`, code: 'index_not_found', type: 'invalid_request', link: '' }));
        return;
      }
      res.writeHead(req.method === 'GET' ? 200 : 202, { 'content-type': 'application/json' }).end(JSON.stringify({ taskUid: received.length, status: 'enqueued' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

async function fill(t: TestServer): Promise<void> {
  await t.client.index('movies').updateSettings({ filterableAttributes: ['genre'], synonyms: { film: ['movie'] }, embedders: { manual: { source: 'userProvided', dimensions: 2 } } }).waitTask();
  await t.client.index('movies').addDocuments([
    { id: 1, title: 'Carol', genre: 'drama', _vectors: { manual: [1, 0] } },
    { id: 2, title: 'Wall-E', genre: 'animation', _vectors: { manual: [0, 1] } },
    { id: 3, title: 'Heat', genre: 'drama', _vectors: { manual: [0.5, 0.5] } },
  ]).waitTask();
  await t.client.index('books').addDocuments([{ isbn: 'a1', title: 'Dune' }], { primaryKey: 'isbn' }).waitTask();
}

test('an export to another Muninn recreates the matching indexes with their settings and filtered documents', async () => {
  const source = await startTestServer({ args: LOOPBACK });
  const remote = await startTestServer({ masterKey: 'remote-master-key-0123' });
  try {
    await fill(source);
    const res = await source.fetch('POST', '/export', { body: { url: remote.url, apiKey: 'remote-master-key-0123', payloadSize: '1 KiB', indexes: { 'mov*': { filter: 'genre = drama' } } } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.type, 'export');
    const task = await source.client.tasks.waitForTask(res.body.taskUid);
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.deepEqual(task.details, {
      url: remote.url,
      apiKey: 'remXXXXX...',
      payloadSize: '1 KiB',
      indexes: { movies: { filter: 'genre = drama', overrideSettings: false, matched_documents: 2 } },
    });
    // the remote's own tasks run on their own
    for (let i = 0; i < 500; i++) {
      const pending = await remote.client.tasks.getTasks({ statuses: ['enqueued', 'processing'] });
      if (pending.results.length === 0 && (await remote.client.getIndexes()).results.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const failures = await remote.client.tasks.getTasks({ statuses: ['failed'] });
    assert.deepEqual(failures.results, []);
    assert.deepEqual((await remote.client.getIndexes()).results.map((i) => [i.uid, i.primaryKey]), [['movies', 'id']]);
    assert.deepEqual(await remote.client.index('movies').getSettings(), await source.client.index('movies').getSettings());
    const docs = await remote.fetch('GET', '/indexes/movies/documents?retrieveVectors=true');
    assert.deepEqual(docs.body.results, [
      { id: 1, title: 'Carol', genre: 'drama', _vectors: { manual: { embeddings: [[1, 0]], regenerate: false } } },
      { id: 3, title: 'Heat', genre: 'drama', _vectors: { manual: { embeddings: [[0.5, 0.5]], regenerate: false } } },
    ]);
  } finally {
    await source.close();
    await remote.close();
  }
});

test('the requests an export sends: index, settings only when created or overridden, gzip NDJSON bounded by payloadSize', async () => {
  const source = await startTestServer({ args: LOOPBACK });
  const remote = await standIn({ existing: ['books'] });
  try {
    await fill(source);
    const docs = Array.from({ length: 200 }, (_, i) => ({ isbn: `x${i}`, title: `book number ${i} with a title` }));
    await source.client.index('books').addDocuments(docs).waitTask();
    const res = await source.fetch('POST', '/export', { body: { url: `${remote.url}/`, apiKey: 'theRemoteKey', payloadSize: 2000, indexes: { books: {}, movies: { overrideSettings: true } } } });
    const task = await source.client.tasks.waitForTask(res.body.taskUid);
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    const calls = remote.received.map((r) => `${r.method} ${r.path}`);
    const bookPosts = calls.filter((c) => c === 'POST /indexes/books/documents').length;
    assert.deepEqual([...new Set(calls)], ['GET /indexes/books', 'POST /indexes/books/documents', 'GET /indexes/movies', 'POST /indexes', 'PATCH /indexes/movies/settings', 'POST /indexes/movies/documents']);
    assert.ok(bookPosts > 3, `201 documents in payloads of 2000 bytes: ${bookPosts} requests`);
    for (const r of remote.received) assert.equal(r.headers.authorization, 'Bearer theRemoteKey');
    const posts = remote.received.filter((r) => r.path === '/indexes/books/documents');
    for (const r of posts) {
      assert.equal(r.headers['content-type'], 'application/x-ndjson');
      assert.equal(r.headers['content-encoding'], 'gzip');
      assert.ok(Buffer.byteLength(r.body) <= 2000, `${Buffer.byteLength(r.body)} bytes`);
    }
    const sent = posts.flatMap((r) => r.body.trim().split('\n').map((l) => JSON.parse(l).isbn));
    assert.equal(sent.length, 201);
    assert.deepEqual(JSON.parse(remote.received.find((r) => r.path === '/indexes')!.body), { uid: 'movies', primaryKey: 'id' });
    const settings = JSON.parse(remote.received.find((r) => r.method === 'PATCH')!.body);
    assert.deepEqual(settings.embedders, { manual: { source: 'userProvided', dimensions: 2 } });
    assert.equal('chat' in settings, false, 'settings behind experimental features stay home');
  } finally {
    await source.close();
    await remote.close();
  }
});

test('outgoing requests to private addresses are refused unless allowed', async () => {
  const source = await startTestServer();
  const remote = await standIn();
  try {
    await fill(source);
    const res = await source.fetch('POST', '/export', { body: { url: remote.url } });
    const task = await source.client.tasks.waitForTask(res.body.taskUid);
    assert.equal(task.status, 'failed');
    assert.equal(task.error?.code, 'internal');
    assert.match(task.error?.message ?? '', /127\.0\.0\.1, a non-global address .*--experimental-allowed-ip-networks/);
    assert.deepEqual(remote.received, []);
    const bad = await source.fetch('POST', '/export', { body: { url: 'ftp://example.com' } });
    const failed = await source.client.tasks.waitForTask(bad.body.taskUid);
    assert.equal(failed.error?.code, 'invalid_export_url');
  } finally {
    await source.close();
    await remote.close();
  }
});

test('a remote that never answers does not hold the queue: the export is canceled and the next task runs', async () => {
  const source = await startTestServer({ args: LOOPBACK });
  const remote = await standIn({ hang: true });
  try {
    await source.client.index('books').addDocuments([{ isbn: 'a1', title: 'Dune' }], { primaryKey: 'isbn' }).waitTask();
    const res = await source.fetch('POST', '/export', { body: { url: remote.url } });
    for (let i = 0; i < 200 && (await source.client.tasks.getTask(res.body.taskUid)).status !== 'processing'; i++) await new Promise((r) => setTimeout(r, 10));
    const next = await source.client.index('books').addDocuments([{ isbn: 'b2', title: 'Emma' }]);
    await source.client.tasks.cancelTasks({ uids: [res.body.taskUid] }).waitTask();
    assert.equal((await source.client.tasks.waitForTask(res.body.taskUid)).status, 'canceled');
    assert.equal((await source.client.tasks.waitForTask(next.taskUid)).status, 'succeeded');
  } finally {
    await source.close();
    await remote.close();
  }
});

test('export bodies are validated as Meilisearch validates them', async () => {
  const t = await startTestServer();
  try {
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 1 } }), 'invalid_export_url', 400, 'Invalid value type at `.url`: expected a string, but found a positive integer: `1`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', apiKey: 5 } }), 'invalid_export_api_key', 400, 'Invalid value type at `.apiKey`: expected a string, but found a positive integer: `5`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', foo: 1 } }), 'bad_request', 400, 'Unknown field `foo`: expected one of `url`, `apiKey`, `payloadSize`, `indexes`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', payloadSize: 'abc' } }), 'invalid_export_payload_size', 400, "Invalid value at `.payloadSize`: the character 'a' is not a number");
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', payloadSize: -1 } }), 'invalid_export_payload_size', 400, 'Invalid value type at `.payloadSize`: expected a positive integer or a string, but found a negative integer: `-1`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', indexes: { 'a b': {} } } }), 'bad_request', 400, 'Invalid value at `.indexes`: the key "a b" could not be deserialized into the key type `meilisearch_types::index_uid_pattern::IndexUidPattern`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', indexes: { a: { filter: 1, foo: 2 } } } }), 'bad_request', 400, 'Unknown field `foo` inside `.indexes.a`: expected one of `filter`, `overrideSettings`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', indexes: { a: { overrideSettings: 'yes' } } } }), 'invalid_export_index_override_settings', 400, 'Invalid value type at `.indexes.a.overrideSettings`: expected a boolean, but found a string: `"yes"`');
    assertErrorBody(await t.fetch('POST', '/export', { body: { url: 'http://x', indexes: [] } }), 'bad_request', 400, 'Invalid value type at `.indexes`: expected an object, but found an array: `[]`');
    const ok = await t.fetch('POST', '/export', { body: {} });
    assert.equal(ok.status, 200);
    const task = await t.client.tasks.getTask(ok.body.taskUid);
    assert.deepEqual(task.details, { url: '', indexes: { '*': { filter: null, overrideSettings: false } } });
    const sized = await t.fetch('POST', '/export', { body: { url: 'http://x', payloadSize: 100 } });
    assert.equal(((await t.client.tasks.getTask(sized.body.taskUid)).details as Record<string, unknown>).payloadSize, '100 B');
  } finally {
    await t.close();
  }
});
