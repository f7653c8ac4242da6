// Responses are compressed as the client asks (br, gzip, deflate, with q-values; any size, as
// Meilisearch's actix Compress does); request bodies may come compressed, zstd where Node has it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { MASTER_KEY, startTestServer } from './helpers.ts';

function get(url: string, path: string, acceptEncoding: string | null): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${MASTER_KEY}` };
    if (acceptEncoding !== null) headers['accept-encoding'] = acceptEncoding;
    http.get(url + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const decode: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync, deflate: zlib.inflateSync };

test('responses come in the encoding the client prefers, or as they are', async () => {
  const t = await startTestServer();
  try {
    const plain = await get(t.url, '/version', null);
    assert.equal(plain.headers['content-encoding'], undefined);
    const expected = JSON.parse(plain.body.toString());
    for (const [accept, encoding] of [['gzip', 'gzip'], ['br', 'br'], ['deflate', 'deflate'], ['br, gzip', 'br'], ['gzip;q=0, br', 'br'], ['gzip, deflate', 'gzip']] as const) {
      const res = await get(t.url, '/version', accept);
      assert.equal(res.headers['content-encoding'], encoding, accept);
      assert.match(String(res.headers.vary), /accept-encoding/i);
      assert.deepEqual(JSON.parse(decode[encoding]!(res.body).toString()), expected, accept);
    }
    for (const accept of ['identity', 'zstd', 'compress']) assert.equal((await get(t.url, '/version', accept)).headers['content-encoding'], undefined, accept);
    // a large search answer, and an error answer
    const docs = Array.from({ length: 1000 }, (_, i) => ({ id: i, title: `movie ${i} about lorem ipsum dolor sit amet` }));
    await t.client.index('movies').addDocuments(docs).waitTask();
    await t.client.index('movies').updatePagination({ maxTotalHits: 1000 }).waitTask();
    const search = await get(t.url, '/indexes/movies/search?q=lorem&limit=1000', 'gzip');
    const hits = JSON.parse(zlib.gunzipSync(search.body).toString()).hits;
    assert.equal(hits.length, 1000);
    assert.ok(search.body.length * 5 < JSON.stringify(hits).length, `${search.body.length} compressed bytes`);
    const missing = await get(t.url, '/indexes/nope', 'br');
    assert.equal(JSON.parse(zlib.brotliDecompressSync(missing.body).toString()).code, 'index_not_found');
    // the official client reads compressed answers (fetch asks for them)
    assert.equal((await t.client.index('movies').search('lorem', { limit: 3 })).hits.length, 3);
  } finally {
    await t.close();
  }
});

test('compressed request bodies: gzip, deflate, br, and zstd where Node has it', async (tc) => {
  const t = await startTestServer();
  try {
    const body = Buffer.from(JSON.stringify([{ id: 1, title: 'Carol' }]));
    const codecs: [string, Buffer][] = [['gzip', zlib.gzipSync(body)], ['deflate', zlib.deflateSync(body)], ['br', zlib.brotliCompressSync(body)]];
    const zstd = (zlib as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;
    if (zstd) codecs.push(['zstd', zstd(body)]);
    else tc.diagnostic(`zstd request bodies are not tested: Node ${process.version} has no zstd in zlib (22.15 and later do)`);
    for (const [encoding, bytes] of codecs) {
      const res = await t.fetch('POST', `/indexes/${encoding}/documents`, { raw: bytes, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
      assert.equal(res.status, 202, `${encoding}: ${JSON.stringify(res.body)}`);
      const task = await t.client.tasks.waitForTask(res.body.taskUid);
      assert.equal(task.status, 'succeeded', `${encoding}: ${JSON.stringify(task.error)}`);
    }
  } finally {
    await t.close();
  }
});
