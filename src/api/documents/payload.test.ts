import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { ApiError } from '../errors/index.ts';
import { writeDocumentsPayload, type DocumentsPayloadInput, type PayloadFormat } from './payload.ts';

const dir = mkdtempSync(join(tmpdir(), 'muninn-payload-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function input(format: PayloadFormat, body: AsyncIterable<Buffer | Uint8Array>, extra: Partial<DocumentsPayloadInput> = {}): DocumentsPayloadInput {
  return {
    body,
    contentEncoding: undefined,
    format,
    delimiter: 44,
    limit: 100_000_000,
    limitText: '100 MB',
    outPath: join(dir, `update-${fileNo++}.ndjson`),
    ...extra,
  };
}

async function expectApiError(promise: Promise<unknown>, code: string, message: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    return true;
  });
}

test('json array → one compact document per line, fsynced file', async () => {
  const args = input('json', chunks(Buffer.from('[\n {"id": 1, "t": "a, [b]"},\n {"id": "x"}\n]'), 5));
  const result = await writeDocumentsPayload(args);
  const text = readFileSync(args.outPath, 'utf8');
  assert.equal(text, '{"id":1,"t":"a, [b]"}\n{"id":"x"}\n');
  assert.deepEqual(result, { documentsCount: 2, bytesWritten: Buffer.byteLength(text), valueError: null });
});

test('every format in 1-byte chunks', async () => {
  const cases: [PayloadFormat, string, string][] = [
    ['json', '{"id": 1, "s": "é😀"}', '{"id":1,"s":"é😀"}\n'],
    ['ndjson', '{"id": 1}\n{"id": 2, "s": "é😀"}\n', '{"id":1}\n{"id":2,"s":"é😀"}\n'],
    ['csv', 'id:number,s\n1,"é😀, ""x"""\n', '{"id":1,"s":"é😀, \\"x\\""}\n'],
  ];
  for (const [format, payload, expected] of cases) {
    const args = input(format, chunks(Buffer.from(payload), 1));
    const result = await writeDocumentsPayload(args);
    assert.equal(readFileSync(args.outPath, 'utf8'), expected, format);
    assert.equal(result.documentsCount, expected.split('\n').length - 1);
  }
});

test('csv with another delimiter', async () => {
  const args = input('csv', chunks(Buffer.from('id;n:number\n1;2.5\n'), 3), { delimiter: 59 });
  await writeDocumentsPayload(args);
  assert.equal(readFileSync(args.outPath, 'utf8'), '{"id":"1","n":2.5}\n');
});

test('compressed bodies are decoded while streaming', async () => {
  const ndjson = Buffer.from(Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: i, text: `document ${i}` })).join('\n'));
  const encodings: [string, Buffer][] = [
    ['gzip', gzipSync(ndjson)],
    ['GZIP', gzipSync(ndjson)],
    ['deflate', deflateSync(ndjson)],
    ['br', brotliCompressSync(ndjson)],
    ['identity', ndjson],
  ];
  for (const [encoding, body] of encodings) {
    for (const size of [7, 65536]) {
      const args = input('ndjson', chunks(body, size), { contentEncoding: encoding });
      const result = await writeDocumentsPayload(args);
      assert.equal(result.documentsCount, 2000, encoding);
      assert.equal(readFileSync(args.outPath, 'utf8'), ndjson.toString() + '\n', encoding);
    }
  }
});

test('many output blocks: written in the background in order, the file is complete', async () => {
  // about 13 MB of output: more blocks than are queued at once, and more than one background datasync
  const docs = Array.from({ length: 60_000 }, (_, i) => JSON.stringify({ id: i, text: `document ${i} `.repeat(20), n: [i, -i / 7] }));
  const expected = docs.join('\n') + '\n';
  for (const [format, payload] of [
    ['ndjson', expected],
    ['json', `[${docs.join(',')}]`],
  ] as const) {
    for (const size of [65_536, 1_000_003]) {
      const args = input(format, chunks(Buffer.from(payload), size));
      const result = await writeDocumentsPayload(args);
      assert.deepEqual(result, { documentsCount: docs.length, bytesWritten: Buffer.byteLength(expected), valueError: null });
      assert.ok(readFileSync(args.outPath).equals(Buffer.from(expected)), `${format} in chunks of ${size}`);
    }
  }
  // a parse error far into the payload: no partial file is left
  const args = input('ndjson', chunks(Buffer.from(`${expected}{"id": x}`), 65_536));
  await expectApiError(
    writeDocumentsPayload(args),
    'malformed_payload',
    `The \`ndjson\` payload provided is malformed. \`Couldn't serialize document value: expected value at line ${docs.length + 1} column 8\`.`,
  );
  assert.equal(existsSync(args.outPath), false);
});

test('missing payload, per format; the file is removed', async () => {
  for (const format of ['json', 'ndjson', 'csv'] as const) {
    const args = input(format, chunks(Buffer.alloc(0), 1));
    await expectApiError(writeDocumentsPayload(args), 'missing_payload', `A ${format} payload is missing.`);
    assert.equal(existsSync(args.outPath), false);
  }
  // an empty gzip stream decodes to nothing
  await expectApiError(writeDocumentsPayload(input('json', chunks(gzipSync(Buffer.alloc(0)), 4), { contentEncoding: 'gzip' })), 'missing_payload', 'A json payload is missing.');
});

test('malformed payload: ApiError and no partial file', async () => {
  const args = input('ndjson', chunks(Buffer.from('{"id": 1}\n{id: 2}'), 3));
  await expectApiError(
    writeDocumentsPayload(args),
    'malformed_payload',
    "The `ndjson` payload provided is malformed. `Couldn't serialize document value: key must be a string at line 2 column 2`.",
  );
  assert.equal(existsSync(args.outPath), false);
});

test('an existing file at outPath is replaced', async () => {
  const args = input('json', chunks(Buffer.from('[{"id":1}]'), 100));
  writeFileSync(args.outPath, 'old content that is longer than the new one\n');
  await writeDocumentsPayload(args);
  assert.equal(readFileSync(args.outPath, 'utf8'), '{"id":1}\n');
});

test('a gzip header with a broken body, or a truncated gzip body → bad_request', async () => {
  const INCOMPLETE = 'The provided payload is incomplete and cannot be parsed';
  const garbage = Buffer.from('[{"id": 1}]');
  const truncated = gzipSync(Buffer.from('[{"id": 1}, {"id": 2}]')).subarray(0, 15);
  for (const body of [garbage, truncated]) {
    const args = input('json', chunks(body, 4), { contentEncoding: 'gzip' });
    await expectApiError(writeDocumentsPayload(args), 'bad_request', INCOMPLETE);
    assert.equal(existsSync(args.outPath), false);
  }
  // a body stream that fails
  const failing = new Readable({ read() { this.destroy(new Error('ECONNRESET')); } });
  await expectApiError(writeDocumentsPayload(input('json', failing)), 'bad_request', INCOMPLETE);
});

test('size limit: 413 with the configured text, also when the payload is malformed early', async () => {
  const TOO_LARGE = 'The provided payload reached the size limit. The maximum accepted payload size is 1 KiB.';
  const big = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i }))));
  assert.ok(big.length > 1024);
  const limited = { limit: 1024, limitText: '1 KiB' };
  await expectApiError(writeDocumentsPayload(input('json', chunks(big, 100), limited)), 'payload_too_large', TOO_LARGE);
  // Meilisearch copies the whole body before parsing it: the size wins over the syntax error
  const broken = Buffer.concat([Buffer.from('[x'), big]);
  const args = input('json', chunks(broken, 100), limited);
  await expectApiError(writeDocumentsPayload(args), 'payload_too_large', TOO_LARGE);
  assert.equal(existsSync(args.outPath), false);
  // exactly at the limit is fine
  const exact = Buffer.from(`[{"id":"${'a'.repeat(1024 - 11)}"}]`);
  assert.equal(exact.length, 1024);
  assert.equal((await writeDocumentsPayload(input('json', chunks(exact, 100), limited))).documentsCount, 1);
  // the limit applies to the decoded bytes, like Meilisearch (a zip bomb cannot get through)
  await expectApiError(
    writeDocumentsPayload(input('json', chunks(gzipSync(big), 100), { ...limited, contentEncoding: 'gzip' })),
    'payload_too_large',
    TOO_LARGE,
  );
});

test('a request stream is left readable (resumed, not destroyed) after an error', async () => {
  const stream = new PassThrough();
  stream.write('[x');
  const pending = writeDocumentsPayload(input('json', stream, { limit: 10, limitText: '10 B' }));
  stream.write('0123456789');
  await expectApiError(pending, 'payload_too_large', 'The provided payload reached the size limit. The maximum accepted payload size is 10 B.');
  assert.equal(stream.destroyed, false);
  // the rest is discarded
  stream.end('more data');
  await new Promise((resolve) => stream.once('end', resolve));
});

async function withServer(limit: number, fn: (port: number) => Promise<void>): Promise<void> {
  const server = createServer((req: IncomingMessage, res) => {
    writeDocumentsPayload({
      body: req,
      contentEncoding: req.headers['content-encoding'],
      format: 'json',
      delimiter: 44,
      limit,
      limitText: `${limit} B`,
      outPath: join(dir, `http-${fileNo++}.ndjson`),
    }).then(
      (result) => res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
      (error: ApiError) => res.writeHead(error.status, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(error.toBody())),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await fn((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function post(port: number, body: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('over HTTP: errors reach the client, the connection is not reset', async () => {
  const big = Buffer.from(JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i, text: 'some text' }))));
  await withServer(100_000_000, async (port) => {
    const ok = await post(port, big);
    assert.equal(ok.status, 202);
    assert.equal(JSON.parse(ok.body).documentsCount, 200_000);
    const malformed = await post(port, Buffer.concat([Buffer.from('[{id'), big]));
    assert.equal(malformed.status, 400);
    assert.equal(JSON.parse(malformed.body).code, 'malformed_payload');
    const gzip = await post(port, gzipSync(big), { 'content-encoding': 'gzip' });
    assert.equal(JSON.parse(gzip.body).documentsCount, 200_000);
  });
  await withServer(1_000_000, async (port) => {
    const tooLarge = await post(port, big);
    assert.equal(tooLarge.status, 413);
    assert.equal(JSON.parse(tooLarge.body).code, 'payload_too_large');
  });
});
