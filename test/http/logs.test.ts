// /logs/stream and /logs/stderr (stats-health.md §7): the feature gate, body errors as Meilisearch
// 1.50 answers them, one stream at a time, its lines (JSON and human), target filters, and the end
// of a stream by DELETE or by its reader leaving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { assertErrorBody, startTestServer, type TestServer } from './helpers.ts';

/** Opens a stream (node:http, one connection of its own) and collects its text until `stop()` or the server ends it. */
async function openStream(t: TestServer, body: unknown) {
  const u = new URL(`${t.url}/logs/stream`);
  const payload = JSON.stringify(body);
  let text = '';
  let ended = false;
  let req!: http.ClientRequest;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent: false, headers: { authorization: `Bearer ${t.masterKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, resolve);
    req.on('error', reject);
    req.end(payload);
  });
  res.setEncoding('utf8');
  res.on('data', (c: string) => (text += c));
  res.on('end', () => {
    ended = true;
    finish();
  });
  res.on('close', () => finish());
  return {
    res: { status: res.statusCode!, headers: { get: (name: string) => (res.headers[name] as string | undefined) ?? null } },
    text: () => text,
    ended: () => ended,
    done,
    async waitFor(check: (text: string) => boolean) {
      const until = Date.now() + 10_000;
      while (!check(text)) {
        if (Date.now() > until) throw new Error(`not seen in the stream: ${text}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: () => req.destroy(),
  };
}

test('the /logs routes: the feature gate, body errors, one stream at a time, its lines and filters', async () => {
  const t = await startTestServer();
  try {
    assertErrorBody(await t.fetch('POST', '/logs/stream', { body: {} }), 'feature_not_enabled', 400,
      'Modifying logs through the `/logs/*` routes requires enabling the `logs route` experimental feature. See https://github.com/orgs/meilisearch/discussions/721');
    assertErrorBody(await t.fetch('POST', '/logs/stderr', { body: {} }), 'feature_not_enabled', 400);
    assertErrorBody(await t.fetch('DELETE', '/logs/stream'), 'feature_not_enabled', 400);
    await t.fetch('PATCH', '/experimental-features', { body: { logsRoute: true } });

    const bad = async (path: string, body: unknown, message: string) => assertErrorBody(await t.fetch('POST', path, { body }), 'bad_request', 400, message);
    await bad('/logs/stderr', { target: 'foo=bar' }, 'Invalid value at `.target`: error parsing level filter: expected one of "off", "error", "warn", "info", "debug", "trace", or a number 0-5');
    await bad('/logs/stderr', { target: 5 }, 'Invalid value type at `.target`: expected a string, but found a positive integer: `5`');
    await bad('/logs/stderr', { target: 'info', mode: 'json' }, 'Unknown field `mode`: expected one of `target`');
    await bad('/logs/stream', { mode: 'xml' }, 'Unknown value `xml` at `.mode`: expected one of `human`, `json`, `profile`');
    await bad('/logs/stream', { foo: 1 }, 'Unknown field `foo`: expected one of `target`, `mode`, `profileMemory`');
    await bad('/logs/stream', { target: '==' }, "Invalid value at `.target`: invalid filter directive: too many '=' in filter directive, expected 0 or 1");
    await bad('/logs/stream', { profileMemory: 'x' }, 'Invalid value type at `.profileMemory`: expected a boolean, but found a string: `"x"`');
    await bad('/logs/stream', { target: '' },
      'Invalid value at `.target`: Empty string is not a valid target. If you want to get no logs use `OFF`. Usage: `info`, `meilisearch=info`, or you can write multiple filters in one target: `index_scheduler=info,milli=trace`');
    assert.equal((await t.fetch('POST', '/logs/stderr', { body: { target: 'muninn=warn' } })).status, 204);
    // no stream open: nothing to end
    assert.equal((await t.fetch('DELETE', '/logs/stream')).status, 204);

    // JSON lines of the requests, in Meilisearch's shape; Meilisearch's target names work
    const json = await openStream(t, { target: 'meilisearch=info', mode: 'json' });
    assert.equal(json.res.status, 200);
    assert.equal(json.res.headers.get('content-type'), 'application/octet-stream');
    assertErrorBody(await t.fetch('POST', '/logs/stream', { body: {} }), 'bad_request', 400, 'The `/logs/stream` route is currently in use by someone else.');
    await t.fetch('GET', '/health');
    await json.waitFor((text) => text.includes('"route":"/health"'));
    const line = json.text().split('\n').map((l) => JSON.parse(l || 'null')).find((l) => l?.span?.route === '/health');
    assert.equal(line.level, 'INFO');
    assert.equal(line.target, 'muninn::http');
    assert.equal(line.fields.message, 'close');
    assert.equal(line.span.status_code, 200);
    assert.equal(line.span.name, 'HTTP request');
    // the refused POST was logged as a warning
    assert.match(json.text(), /"level":"WARN".*currently in use by someone else/);
    // DELETE ends the stream; the route is free again
    assert.equal((await t.fetch('DELETE', '/logs/stream')).status, 204);
    await json.done;
    assert.equal(json.ended(), true);

    // human lines; a filter that leaves the HTTP lines out sees none of them
    const quiet = await openStream(t, { target: 'actix_web=off,info' });
    await t.fetch('GET', '/version');
    await new Promise((r) => setTimeout(r, 200));
    assert.doesNotMatch(quiet.text(), /route=\/version/);
    quiet.stop();
    await quiet.done;
    // the reader left: a new stream may open
    let next: Awaited<ReturnType<typeof openStream>> | null = null;
    for (let i = 0; i < 50 && next === null; i++) {
      const s = await openStream(t, { target: 'info', mode: 'human' });
      if (s.res.status === 200) next = s;
      else await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(next, 'the route is free once its reader left');
    await t.fetch('GET', '/stats');
    await next.waitFor((text) => /INFO HTTP request\{method=GET .*route=\/stats .*status_code=200\}: muninn::http: close time\.busy=/.test(text));
    next.stop();
    await next.done;
  } finally {
    await t.close();
  }
});
