// Webhooks (tasks.md §13): the /webhooks API through the official client and raw requests, with
// the errors and masks Meilisearch 1.50 answers (probed on the binary), and deliveries checked by a
// receiver on 127.0.0.1: gzip NDJSON of each batch's tasks, every finished task exactly once, also
// across a restart, and a failing receiver that never holds the task queue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { assertApiError, assertErrorBody, startTestServer } from './helpers.ts';

const LOOPBACK = ['--experimental-allowed-ip-networks', '127.0.0.0/8'];
const NIL = '00000000-0000-0000-0000-000000000000';

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  tasks: Record<string, unknown>[];
}

/** A receiver recording every delivery; `status` answers with that code instead of 200. */
async function receiver(opts: { status?: () => number } = {}) {
  const deliveries: Delivery[] = [];
  let wake: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = opts.status?.() ?? 200;
      if (status === 200) {
        const raw = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
        const tasks = raw.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
        deliveries.push({ path: req.url!, headers: req.headers, tasks });
        wake?.();
      }
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    deliveries,
    /** task uids received on `path`, in order */
    uids: (path: string) => deliveries.filter((d) => d.path === path).flatMap((d) => d.tasks.map((t) => t.uid as number)),
    async waitFor(check: () => boolean, ms = 10_000) {
      const until = Date.now() + ms;
      while (!check()) {
        if (Date.now() > until) throw new Error(`timed out; received ${JSON.stringify(deliveries.map((d) => [d.path, d.tasks.map((t) => t.uid)]))}`);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

test('the /webhooks API: CRUD through the official client, masks, limits and errors as Meilisearch answers them', async () => {
  const t = await startTestServer({ args: ['--task-webhook-url', 'http://127.0.0.1:9/launch', '--task-webhook-authorization-header', 'Bearer hooksecret'] });
  try {
    const initial = await t.client.getWebhooks();
    assert.deepEqual(initial.results, [{ uuid: NIL, isEditable: false, url: 'http://127.0.0.1:9/launch', headers: { Authorization: 'Bearer hoXXXX...' } }]);

    const made = await t.client.createWebhook({ url: 'http://127.0.0.1:9/api', headers: { authorization: 'Bearer abcdefghijkl', 'X-Custom': 'v' } });
    assert.equal(made.isEditable, true);
    assert.match(made.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // headers in key (byte) order, only the authorization value masked
    assert.deepEqual(Object.entries(made.headers!), [['X-Custom', 'v'], ['authorization', 'Bearer abXXXX...']]);
    assert.deepEqual(await t.client.getWebhook(made.uuid), made);

    const patched = await t.client.updateWebhook(made.uuid, { headers: { 'X-Custom': null, New: 'abcdefghijklmnop' } as unknown as Record<string, string> });
    assert.deepEqual(patched.headers, { New: 'abcdefghijklmnop', authorization: 'Bearer abXXXX...' });
    const cleared = await t.client.updateWebhook(made.uuid, { headers: null as unknown as Record<string, string>, url: 'https://example.com/x' });
    assert.deepEqual(cleared, { uuid: made.uuid, isEditable: true, url: 'https://example.com/x', headers: {} });

    // the masks of secrets: by length, after a `Bearer ` prefix
    for (const [value, shown] of [['abcd', 'XXX...'], ['abcdefghij', 'abXXXX...'], ['abcdefghijklmnopqrstuvwxyz', 'abcXXXXX...'], ['Bearer x', 'Bearer XXX...'], ['bearer abcdefghijkl', 'beXXXX...']]) {
      const w = await t.client.createWebhook({ url: 'http://a', headers: { AUTHORIZATION: value!, 'X-Api-Key': value! } });
      assert.deepEqual(w.headers, { AUTHORIZATION: shown, 'X-Api-Key': value }, value);
      await t.client.deleteWebhook(w.uuid);
    }
    // a null header at creation is kept as the empty string
    const empty = await t.fetch('POST', '/webhooks', { body: { url: 'http://a', headers: { a: null } } });
    assert.equal(empty.status, 201);
    assert.deepEqual((empty.body as { headers: unknown }).headers, { a: '' });
    await t.client.deleteWebhook((empty.body as { uuid: string }).uuid);

    const bad = async (method: string, path: string, body: unknown, code: string, status: number, message: string | RegExp) =>
      assertErrorBody(await t.fetch(method, path, { body }), code, status, message);
    await bad('POST', '/webhooks', {}, 'invalid_webhook_url', 400, /^The URL for the webhook `[0-9a-f-]{36}` is missing\.$/);
    await bad('POST', '/webhooks', { url: 'notaurl' }, 'invalid_webhook_url', 400, 'Invalid URL `notaurl`: relative URL without a base');
    await bad('POST', '/webhooks', { url: 'http://' }, 'invalid_webhook_url', 400, 'Invalid URL `http://`: empty host');
    await bad('POST', '/webhooks', { url: 'http://a:99999' }, 'invalid_webhook_url', 400, 'Invalid URL `http://a:99999`: invalid port number');
    await bad('POST', '/webhooks', { url: 5 }, 'invalid_webhook_url', 400, 'Invalid value type at `.url`: expected a string, but found a positive integer: `5`');
    await bad('POST', '/webhooks', { url: 'http://x', headers: { a: 1 } }, 'invalid_webhook_headers', 400, 'Invalid value type at `.headers.a`: expected a string, but found a positive integer: `1`');
    await bad('POST', '/webhooks', { url: 'http://x', headers: [] }, 'invalid_webhook_headers', 400, 'Invalid value type at `.headers`: expected an object, but found an array: `[]`');
    await bad('POST', '/webhooks', { url: 'http://x', headers: { 'a b': 'x' } }, 'invalid_webhook_headers', 400, 'Invalid header name `a b`: invalid HTTP header name');
    await bad('POST', '/webhooks', { url: 'http://x', headers: { ok: 'y\n' } }, 'invalid_webhook_headers', 400, 'Invalid header value `ok`: failed to parse header value');
    await bad('POST', '/webhooks', { url: 'http://x', uuid: 'abc' }, 'immutable_webhook_uuid', 400, 'Immutable field `uuid`: expected one of `url`, `headers`');
    await bad('POST', '/webhooks', { url: 'http://x', isEditable: true }, 'immutable_webhook_is_editable', 400, 'Immutable field `isEditable`: expected one of `url`, `headers`');
    await bad('POST', '/webhooks', { url: 'http://x', foo: true }, 'bad_request', 400, 'Unknown field `foo`: expected one of `url`, `headers`');
    await bad('POST', '/webhooks', [], 'bad_request', 400, 'Invalid value type: expected an object, but found an array: `[]`');
    const headers201 = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`h${i}`, 'v']));
    await bad('PATCH', `/webhooks/${made.uuid}`, { headers: headers201 }, 'invalid_webhook_headers', 400,
      `Too many headers for the webhook \`${made.uuid}\`. Please limit the number of headers to 200. Hint: To remove an already defined header set its value to \`null\``);
    await bad('PATCH', `/webhooks/${made.uuid}`, { url: null }, 'invalid_webhook_url', 400, `The URL for the webhook \`${made.uuid}\` is missing.`);
    await bad('PATCH', `/webhooks/${NIL}`, { url: 'http://a' }, 'immutable_webhook', 400,
      `Webhook \`${NIL}\` is immutable. The webhook defined from the command line cannot be modified using the API.`);
    assertErrorBody(await t.fetch('DELETE', `/webhooks/${NIL}`), 'immutable_webhook', 400);
    assertErrorBody(await t.fetch('GET', '/webhooks/nope'), 'invalid_webhook_uuid', 400, 'Invalid UUID: invalid character: found `n` at 0');
    assertErrorBody(await t.fetch('GET', '/webhooks/1234'), 'invalid_webhook_uuid', 400, 'Invalid UUID: invalid length: found 4');
    const missing = 'e6883474-884a-44d6-b490-af574022876b';
    assertErrorBody(await t.fetch('GET', `/webhooks/${missing}`), 'webhook_not_found', 404, `Webhook \`${missing}\` not found.`);
    // other uuid forms name the same webhook
    assert.equal((await t.fetch('GET', `/webhooks/${made.uuid.replaceAll('-', '').toUpperCase()}`)).status, 200);
    assertErrorBody(await t.fetch('PATCH', `/webhooks/${made.uuid}`, { raw: '', headers: { 'content-type': 'application/json' } }), 'missing_payload', 400);

    // twenty editable webhooks at most (the launch one aside)
    for (let i = 1; i < 20; i++) await t.client.createWebhook({ url: `http://a/${i}` });
    await assertApiError(t.client.createWebhook({ url: 'http://a/21' }), 'invalid_webhooks', 400,
      'Defining too many webhooks would crush the server. Please limit the number of webhooks to 20. You may use a third-party proxy server to dispatch events to more than 20 endpoints.');
    const all = (await t.client.getWebhooks()).results;
    assert.equal(all.length, 21);
    assert.equal(all[0]!.uuid, NIL);
    const uuids = all.slice(1).map((w) => w.uuid);
    assert.deepEqual(uuids, [...uuids].sort(), 'listed by uuid');

    await t.client.deleteWebhook(made.uuid);
    await assertApiError(t.client.getWebhook(made.uuid), 'webhook_not_found', 404);
    // a key needs the webhooks actions
    const key = await t.client.createKey({ actions: ['webhooks.get'], indexes: ['*'], expiresAt: null });
    assert.equal((await t.fetch('GET', '/webhooks', { key: key.key })).status, 200);
    assertErrorBody(await t.fetch('POST', '/webhooks', { key: key.key, body: { url: 'http://a' } }), 'invalid_api_key', 403);
  } finally {
    await t.close();
  }
});

test('every finished task reaches each webhook once, as gzip NDJSON with its headers, across a restart', async () => {
  const r = await receiver();
  // a database the test owns, so that it outlives the first server
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-webhooks-'));
  let t = await startTestServer({ dbPath, args: [...LOOPBACK, '--task-webhook-url', `${r.url}/launch`, '--task-webhook-authorization-header', 'Bearer hooksecret'] });
  try {
    const api = await t.client.createWebhook({ url: `${r.url}/api`, headers: { 'X-Custom': 'v' } });
    await t.client.index('a').addDocuments([{ id: 1 }], { customMetadata: 'meta1' } as never).waitTask();
    const failed = await t.client.index('a').deleteDocuments({ filter: 'nope = 1' }).waitTask();
    assert.equal(failed.status, 'failed');
    await r.waitFor(() => r.uids('/launch').length >= 2 && r.uids('/api').length >= 2);

    const first = r.deliveries.find((d) => d.path === '/launch')!;
    assert.equal(first.headers['content-type'], 'application/x-ndjson');
    assert.equal(first.headers['content-encoding'], 'gzip');
    assert.equal(first.headers.authorization, 'Bearer hooksecret');
    assert.equal(r.deliveries.find((d) => d.path === '/api')!.headers['x-custom'], 'v');
    // the task objects of GET /tasks
    const [view] = first.tasks;
    assert.deepEqual(view, await t.fetch('GET', `/tasks/${view!.uid}`).then((res) => res.body));
    assert.equal(view!.customMetadata, 'meta1');
    assert.equal(r.deliveries.flatMap((d) => d.tasks).find((x) => x.uid === failed.uid)?.status, 'failed');

    // tasks finished while the server is down are sent after the restart; none twice
    await t.close();
    t = await startTestServer({ dbPath, args: [...LOOPBACK, '--task-webhook-url', `${r.url}/launch`, '--task-webhook-authorization-header', 'Bearer hooksecret'] });
    const more = await t.client.index('b').addDocuments([{ id: 1 }]).waitTask();
    await t.client.index('b').addDocuments([{ id: 2 }]).waitTask();
    await r.waitFor(() => r.uids('/launch').includes(more.uid + 1) && r.uids('/api').includes(more.uid + 1));
    const every = (await t.client.tasks.getTasks({ limit: 100 })).results.map((x) => x.uid).sort((x, y) => x - y);
    assert.deepEqual(r.uids('/launch'), every);
    assert.deepEqual(r.uids('/api'), every);
    await t.client.deleteWebhook(api.uuid);
  } finally {
    await t.close();
    await r.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('a webhook that fails or hangs is retried, then skipped, without holding the task queue; private addresses need the network rule', async () => {
  let calls = 0;
  const r = await receiver({ status: () => (++calls <= 2 ? 503 : 200) });
  const t = await startTestServer({ args: LOOPBACK });
  const hang = http.createServer(() => undefined); // never answers
  await new Promise<void>((res) => hang.listen(0, '127.0.0.1', res));
  try {
    await t.client.createWebhook({ url: `${r.url}/flaky` });
    await t.client.createWebhook({ url: `http://127.0.0.1:${(hang.address() as AddressInfo).port}/hang` });
    const started = Date.now();
    const task = await t.client.index('a').addDocuments([{ id: 1 }]).waitTask();
    await t.client.index('a').addDocuments([{ id: 2 }]).waitTask();
    assert.ok(Date.now() - started < 5000, 'the queue does not wait for webhooks');
    // two 503s, then the delivery goes through on the third attempt (backoff 0.5 s, then 1 s)
    await r.waitFor(() => r.uids('/flaky').includes(task.uid + 1));
    assert.deepEqual(r.uids('/flaky'), [task.uid, task.uid + 1]);
  } finally {
    await t.close();
    await r.close();
    hang.closeAllConnections();
    hang.close();
  }

  // without the network rule, a loopback receiver is never called
  const r2 = await receiver();
  const t2 = await startTestServer({ args: ['--task-webhook-url', `${r2.url}/launch`] });
  try {
    await t2.client.index('a').addDocuments([{ id: 1 }]).waitTask();
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(r2.deliveries.length, 0);
  } finally {
    await t2.close();
    await r2.close();
  }
});

test('webhooks created through the API travel in dumps (the launch one does not) and are not sent the imported batches', async () => {
  const r = await receiver();
  const dumpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-webhook-dumps-'));
  const source = await startTestServer({ args: [...LOOPBACK, '--dump-dir', dumpDir, '--task-webhook-url', 'http://127.0.0.1:9/launch'] });
  let restored: Awaited<ReturnType<typeof startTestServer>> | null = null;
  try {
    const made = await source.client.createWebhook({ url: `${r.url}/api`, headers: { Authorization: 'Bearer abcdefghijkl' } });
    await source.client.index('a').addDocuments([{ id: 1 }]).waitTask();
    const dump = await source.client.createDump().waitTask();
    await r.waitFor(() => r.uids('/api').includes(dump.uid));
    await source.close();
    const file = path.join(dumpDir, `${(dump.details as { dumpUid: string }).dumpUid}.dump`);
    restored = await startTestServer({ args: [...LOOPBACK, '--import-dump', file] });
    assert.deepEqual((await restored.client.getWebhooks()).results, [made]);
    const after = await restored.client.index('b').addDocuments([{ id: 1 }]).waitTask();
    await r.waitFor(() => r.uids('/api').includes(after.uid));
    // the imported batches were not sent again
    assert.deepEqual(r.uids('/api'), [0, 1, after.uid]);
  } finally {
    await source.close().catch(() => undefined);
    await restored?.close();
    await r.close();
    fs.rmSync(dumpDir, { recursive: true, force: true });
  }
});
