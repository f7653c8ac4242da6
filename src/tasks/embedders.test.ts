import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { embedderClient } from './embedders.ts';

test('OpenAI: a 400 sends each text again, those over 8,191 tokens as their first 8,191 cl100k tokens', async () => {
  const inputs: unknown[][] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { input: unknown[] };
      inputs.push(body.input);
      // the stand-in refuses a long text, as OpenAI refuses one over the model's context
      const tooLong = body.input.some((x) => (typeof x === 'string' ? x.length > 20_000 : (x as number[]).length > 8191));
      if (tooLong || req.url!.endsWith('/refused')) return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"maximum context length is 8192 tokens"}}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: body.input.map((x) => ({ embedding: [typeof x === 'string' ? 1 : 0, 1] })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
    const client = embedderClient({ source: 'openAi', apiKey: 'k', url, dimensions: 2 }, { allowed: 'any', retries: 0 });
    const long = 'lorem ipsum '.repeat(6000);
    let requests = 0;
    const vectors = await client.embed([long, 'cat'], undefined, () => requests++);
    assert.deepEqual(vectors, [[0, 1], [1, 1]]);
    assert.equal(requests, 3);
    assert.equal(inputs.length, 3);
    assert.deepEqual(inputs[0], [long, 'cat']);
    const tokens = inputs[1]![0] as number[];
    assert.equal(tokens.length, 8191);
    assert.ok(tokens.every((t) => Number.isInteger(t)));
    assert.deepEqual(inputs[2], ['cat']);
    // a text that still fails is the task's error
    // one run of 40,000 letters (about 13,000 tokens) is cut without being tokenised whole; a text still refused fails
    inputs.length = 0;
    let seed = 7;
    const letters = Array.from({ length: 40_000 }, () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 26))).join('');
    const run = await client.embed([letters]);
    assert.deepEqual(run, [[0, 1]]);
    assert.equal((inputs[1]![0] as number[]).length, 8191);
    const refusing = embedderClient({ source: 'openAi', apiKey: 'k', url: url.replace('embeddings', 'refused'), dimensions: 2 }, { allowed: 'any', retries: 0 });
    await assert.rejects(refusing.embed(['cat']), /sent a bad request to embedding server/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
