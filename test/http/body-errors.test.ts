// Bad input gets Meilisearch's 4xx, never a 500: one test per class of bad request body. Every
// expected message was answered by the Meilisearch 1.50 binary to the same request.
// 1. nesting: 127 levels pass, the 128th is `recursion limit exceeded` (search, settings,
//    multi-search, 100,000 levels too); the server answers normally afterwards
// 2. empty bodies are `missing_payload` on every JSON route (search included), whitespace is
//    malformed, a body without Content-Type is `missing_content_type`
// 3. a Content-Type the `mime` crate cannot parse is 415 `invalid_content_type`, with the header
//    as sent (documents: as lossy UTF-8; JSON routes: `unknown` when not visible ASCII)
// 4. serde's strings: lone surrogate escapes and invalid UTF-8 are malformed, at serde's position
//    (request bodies and documents payloads in JSON, NDJSON and CSV)
// 5. unknown fields: `documents/delete` and `documents/fetch` refuse them at once, enqueue nothing
// 6. numbers out of the f64 range are malformed
// 7. `delete-batch` with another value than an array: serde's message and position
// 8. documents whose field values serde refuses (128 levels, lone surrogates, 1e400) are accepted,
//    and their task fails with Meilisearch's `internal` message; ids over 511 bytes fail cleanly
// 9. `__proto__` in bodies and documents is plain data: stored, returned, never a prototype
// 10. a request head over 128 KiB gets a bodiless 431, a long tenant token below it is read
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertErrorBody, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
let index: string;

const JSON_TYPE = { 'content-type': 'application/json' };
const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
const malformed = (reason: string) => `The json payload provided is malformed. \`${reason}\`.`;
const docsMalformed = (format: string, reason: string) => `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${reason}\`.`;

async function post(path: string, raw: string | Uint8Array, headers: Record<string, string> = JSON_TYPE, method = 'POST') {
  return t.fetch(method, path, { raw, headers });
}

async function lastTask(): Promise<number> {
  return (await t.fetch('GET', '/tasks?limit=1')).body.results[0].uid;
}

async function addDocuments(raw: string | Uint8Array, contentType = 'application/json') {
  const res = await post(`/indexes/${index}/documents`, raw, { 'content-type': contentType });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return t.client.tasks.waitForTask(res.body.taskUid);
}

before(async () => {
  t = await startTestServer();
  index = uniqueIndex('body');
  const task = await t.client.index(index).addDocuments([{ id: 1, title: 'hello' }, { id: 2, title: 'world' }], { primaryKey: 'id' });
  await t.client.tasks.waitForTask(task.taskUid);
});

after(async () => {
  await t.close();
});

test('1. nesting: the 128th level is refused where serde refuses it', async () => {
  const search = `/indexes/${index}/search`;
  assert.equal((await post(search, `{"q":"hello","filter":${nest(126)}}`)).body.code, 'invalid_search_filter'); // 127 levels: parsed
  assertErrorBody(await post(search, nest(128)), 'malformed_payload', 400, malformed('recursion limit exceeded at line 1 column 128'));
  assertErrorBody(await post(search, `{"q":${nest(127)}}`), 'malformed_payload', 400, malformed('recursion limit exceeded at line 1 column 132'));
  assertErrorBody(await post(search, `${'{"a":'.repeat(128)}1${'}'.repeat(128)}`), 'malformed_payload', 400, malformed('recursion limit exceeded at line 1 column 636'));
  const deep = nest(100_000);
  for (const [method, path] of [['POST', search], ['PATCH', `/indexes/${index}/settings`], ['POST', '/multi-search'], ['POST', `/indexes/${index}/documents/delete-batch`], ['POST', '/keys']]) {
    assertErrorBody(await post(path!, deep, JSON_TYPE, method), 'malformed_payload', 400, malformed('recursion limit exceeded at line 1 column 128'));
  }
  const res = await t.client.index(index).search('hello');
  assert.equal(res.hits.length, 1);
});

test('2. empty bodies: missing_payload on every JSON route, search included', async () => {
  const routes: [string, string][] = [
    ['POST', `/indexes/${index}/search`], ['POST', `/indexes/${index}/facet-search`], ['POST', '/multi-search'],
    ['POST', `/indexes/${index}/documents/fetch`], ['POST', `/indexes/${index}/documents/delete`], ['POST', `/indexes/${index}/fields`],
    ['PATCH', `/indexes/${index}/settings`], ['PUT', `/indexes/${index}/settings/synonyms`], ['POST', '/keys'], ['PATCH', '/experimental-features'],
  ];
  for (const [method, path] of routes) {
    assertErrorBody(await post(path, '', JSON_TYPE, method), 'missing_payload', 400, 'A json payload is missing.');
    assertErrorBody(await post(path, '  ', JSON_TYPE, method), 'malformed_payload', 400, malformed('EOF while parsing a value at line 1 column 2'));
    assertErrorBody(await t.fetch(method, path, {}), 'missing_content_type', 415, 'A Content-Type header is missing. Accepted values for the Content-Type header are: `application/json`');
  }
  assertErrorBody(await post(`/indexes/${index}/search`, 'null'), 'bad_request', 400, 'Invalid value type: expected an object, but found null');
});

test('3. unparsable Content-Type: 415 invalid_content_type', async () => {
  const JSON_ONLY = 'Accepted values for the Content-Type header are: `application/json`';
  const DOCS = 'Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`';
  for (const header of [';;;', 'application/', 'application/json;;', 'application/json ; x=y', 'application/json, text/plain']) {
    assertErrorBody(await post(`/indexes/${index}/documents`, '[]', { 'content-type': header }), 'invalid_content_type', 415, `The Content-Type \`${header}\` is invalid. ${DOCS}`);
    assertErrorBody(await post(`/indexes/${index}/search`, '{}', { 'content-type': header }), 'invalid_content_type', 415, `The Content-Type \`${header}\` is invalid. ${JSON_ONLY}`);
  }
  // a byte that is not visible ASCII: lossy UTF-8 on documents, `unknown` on JSON routes
  assertErrorBody(await post(`/indexes/${index}/documents`, '[]', { 'content-type': '\u00e9/json' }), 'invalid_content_type', 415, `The Content-Type \`\ufffd/json\` is invalid. ${DOCS}`);
  assertErrorBody(await post(`/indexes/${index}/search`, '{}', { 'content-type': '\u00e9/json' }), 'invalid_content_type', 415, `The Content-Type \`unknown\` is invalid. ${JSON_ONLY}`);
  // parsed: documents name `type/subtype` (no suffix, no parameters); JSON routes take any `json` subtype or suffix
  assertErrorBody(await post(`/indexes/${index}/documents`, '[]', { 'content-type': 'application/vnd.api+json' }), 'invalid_content_type', 415, `The Content-Type \`application/vnd.api\` is invalid. ${DOCS}`);
  assertErrorBody(await post(`/indexes/${index}/documents`, '[]', { 'content-type': 'text/plain; charset=utf-8' }), 'invalid_content_type', 415, `The Content-Type \`text/plain\` is invalid. ${DOCS}`);
  for (const header of ['application/vnd.api+json', 'text/json', 'application/json; x=', 'application/json;']) {
    assert.equal((await post(`/indexes/${index}/search`, '{"q":"hello"}', { 'content-type': header })).status, 200, header);
  }
});

test('4. serde strings: lone surrogates and invalid UTF-8 are malformed', async () => {
  const search = `/indexes/${index}/search`;
  assertErrorBody(await post(search, '{"q":"\\ud800"}'), 'malformed_payload', 400, malformed('unexpected end of hex escape at line 1 column 13'));
  assertErrorBody(await post(search, '{"q":"\\udc00"}'), 'malformed_payload', 400, malformed('lone leading surrogate in hex escape at line 1 column 12'));
  assertErrorBody(await post(search, '{"q":"\\ud800\\u0041"}'), 'malformed_payload', 400, malformed('lone leading surrogate in hex escape at line 1 column 18'));
  assert.equal((await post(search, '{"q":"\\ud83d\\ude00"}')).status, 200);
  assertErrorBody(await post(search, bytes('{"q":"a', [0xff], 'b"}')), 'malformed_payload', 400, malformed('invalid unicode code point at line 1 column 10'));
  assertErrorBody(await post(`/indexes/${index}/settings`, bytes('{"stopWords":["a', [0xff], '"]}'), JSON_TYPE, 'PATCH'), 'malformed_payload', 400, malformed('invalid unicode code point at line 1 column 18'));
  assertErrorBody(await post(`/indexes/${index}/settings`, bytes('{"synonyms":{"a', [0xfe], '":["b"]}}'), JSON_TYPE, 'PATCH'), 'malformed_payload', 400, malformed('invalid unicode code point at line 1 column 17'));
  // documents: after the document (RawValue), after the string (a single object), CSV's own message
  const docs = `/indexes/${index}/documents`;
  assertErrorBody(await post(docs, bytes('[{"id":100,"t":"a', [0xff], 'b"}]')), 'malformed_payload', 400, docsMalformed('json', 'invalid unicode code point at line 1 column 21'));
  assertErrorBody(await post(docs, bytes('{"id":100,"t":"a', [0xff], 'b"}')), 'malformed_payload', 400, docsMalformed('json', 'invalid unicode code point at line 1 column 19'));
  assertErrorBody(await post(docs, bytes('{"id":1}\n{"id":2,"t":"a', [0xff], 'b"}\n'), { 'content-type': 'application/x-ndjson' }), 'malformed_payload', 400, docsMalformed('ndjson', 'invalid unicode code point at line 2 column 18'));
  assertErrorBody(await post(docs, bytes('id,t\n100,a', [0xff], 'b\n'), { 'content-type': 'text/csv' }), 'malformed_payload', 400,
    'The `csv` payload provided is malformed: `CSV parse error: record 1 (line 2, field: 1, byte: 5): invalid utf-8: invalid UTF-8 in field 1 near byte index 1`.');
});

test('5. unknown fields on documents/delete and documents/fetch: refused at once', async () => {
  const before = await lastTask();
  assertErrorBody(await post(`/indexes/${index}/documents/delete`, '{"filter":"id = 1","foo":1}'), 'bad_request', 400, 'Unknown field `foo`: expected one of `filter`');
  assertErrorBody(await post(`/indexes/${index}/documents/delete`, '{"filtre":"id = 1"}'), 'bad_request', 400, 'Unknown field `filtre`: did you mean `filter`? expected one of `filter`');
  assertErrorBody(await post(`/indexes/${index}/documents/delete`, '{"filter":null}'), 'invalid_document_filter', 400, 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.');
  assert.equal(await lastTask(), before, 'nothing enqueued');
  const fetched = await post(`/indexes/${index}/documents/fetch`, '{"ids":["1"],"foo":1}');
  assertErrorBody(fetched, 'bad_request', 400, /^Unknown field `foo`: expected one of `offset`, `limit`, `fields`, `retrieveVectors`, `ids`, `filter`, `sort`/);
});

test('6. numbers out of the f64 range are malformed', async () => {
  assertErrorBody(await post(`/indexes/${index}/search`, '{"q":1e400}'), 'malformed_payload', 400, malformed('number out of range at line 1 column 10'));
  assertErrorBody(await post(`/indexes/${index}/documents/fetch`, '{"offset":1e400}'), 'malformed_payload', 400, malformed('number out of range at line 1 column 15'));
  assertErrorBody(await post(`/indexes/${index}/documents/delete-batch`, '[1e400]'), 'malformed_payload', 400, malformed('number out of range at line 1 column 6'));
});

test('7. delete-batch with another value than an array', async () => {
  const path = `/indexes/${index}/documents/delete-batch`;
  const notSeq = (found: string, at: string) => `Json deserialize error: invalid type: ${found}, expected a sequence at ${at}`;
  assertErrorBody(await post(path, '\n  {"a":1}'), 'bad_request', 400, notSeq('map', 'line 2 column 2'));
  assertErrorBody(await post(path, ' 12 '), 'bad_request', 400, notSeq('integer `12`', 'line 1 column 3'));
  assertErrorBody(await post(path, 'null'), 'bad_request', 400, notSeq('null', 'line 1 column 4'));
  assertErrorBody(await post(path, '"a\\"b\\u00e9\\n"'), 'bad_request', 400, notSeq('string "a\\"bé\\n"', 'line 1 column 14'));
});

test('8. field values serde refuses fail the task with its message; long ids fail cleanly', async () => {
  const failsWith = async (raw: string, message: string, contentType?: string) => {
    const task = await addDocuments(raw, contentType);
    assert.equal(task.status, 'failed', raw.slice(0, 80));
    assert.deepEqual(task.error, { message, code: 'internal', type: 'internal', link: 'https://docs.meilisearch.com/errors#internal' });
  };
  const internal = (reason: string) => `Index \`${index}\`: internal: ${reason}.`;
  assert.equal((await addDocuments(`[{"id":10,"t":${nest(127)}}]`)).status, 'succeeded');
  await failsWith(`[{"id":11,"t":${nest(128)}}]`, internal('recursion limit exceeded at line 1 column 128'));
  await failsWith(`[{"id":12,"t":${nest(100_000)}}]`, internal('recursion limit exceeded at line 1 column 128'));
  await failsWith(`{"id":13}\n{"id":14,"t": [ \n ${nest(127)}]}\n`, internal('recursion limit exceeded at line 2 column 128'), 'application/x-ndjson');
  await failsWith('[{"id":15,"t":{"a":["x","\\udc00"]}}]', internal('lone leading surrogate in hex escape at line 1 column 17'));
  await failsWith('[{"id":16,"t":{"a":[1, 2e400]}}]', internal('number out of range at line 1 column 14'));
  // Meilisearch checks every id first
  const idFirst = await addDocuments(`[{"id":17,"t":${nest(128)}},{"id":"bad id!"}]`);
  assert.equal(idFirst.error?.code, 'invalid_document_id');
  assert.equal((await addDocuments(JSON.stringify([{ id: 'a'.repeat(511) }]))).status, 'succeeded');
  const long = await addDocuments(JSON.stringify([{ id: 'a'.repeat(512) }]));
  assert.equal(long.error?.code, 'invalid_document_id');
  assert.match(long.error!.message, /^Document identifier `"a{512}"` is invalid\. .* can not be more than 511 bytes\.$/);
  const { results } = await t.client.index(index).getDocuments({ limit: 100 });
  assert.deepEqual(results.map((d) => d.id).sort(), [1, 10, 2, 'a'.repeat(511)].sort(), 'nothing of the failed tasks was stored');
  assert.equal((await t.fetch('GET', '/health')).body.status, 'available');
});

test('9. `__proto__` is plain data', async () => {
  // a search body: an unknown field like any other
  assertErrorBody(await post(`/indexes/${index}/search`, '{"__proto__":{"limit":1}}'), 'bad_request', 400, /^Unknown field `__proto__`: expected one of `q`/);
  // a document field: stored, returned whole and by name, counted in the field distribution
  const task = await addDocuments('[{"id":"proto","__proto__":{"polluted":true},"constructor":{"prototype":1},"nested":{"__proto__":2}}]');
  assert.equal(task.status, 'succeeded');
  const whole = await t.fetch('GET', `/indexes/${index}/documents/proto`);
  assert.equal(JSON.stringify(whole.body), '{"id":"proto","__proto__":{"polluted":true},"constructor":{"prototype":1},"nested":{"__proto__":2}}');
  const byName = await t.fetch('GET', `/indexes/${index}/documents/proto?fields=__proto__,nested.__proto__`);
  assert.equal(JSON.stringify(byName.body), '{"__proto__":{"polluted":true},"nested":{"__proto__":2}}');
  const hit = await t.fetch('POST', `/indexes/${index}/search`, { body: { q: '', limit: 100, attributesToRetrieve: ['id', '__proto__'] } });
  const raw = JSON.stringify(hit.body.hits.find((h: { id: unknown }) => h.id === 'proto'));
  assert.equal(raw, '{"id":"proto","__proto__":{"polluted":true}}');
  const stats = await t.fetch('GET', `/indexes/${index}/stats`);
  assert.ok(Object.prototype.hasOwnProperty.call(stats.body.fieldDistribution, '__proto__'), JSON.stringify(stats.body.fieldDistribution));
  // a settings map key
  const settings = await t.client.index(index).updateSettings({ synonyms: JSON.parse('{"__proto__":["x"],"constructor":["y"]}') });
  assert.equal((await t.client.tasks.waitForTask(settings.taskUid)).status, 'succeeded');
  const synonyms = await t.fetch('GET', `/indexes/${index}/settings/synonyms`);
  assert.deepEqual(Object.keys(synonyms.body), ['__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was touched');
});

test('10. request heads: a long tenant token is read, past 128 KiB a bodiless 431', async () => {
  const res = await t.fetch('POST', `/indexes/${index}/search`, { body: {}, key: 'x'.repeat(100_000) });
  assertErrorBody(res, 'invalid_api_key', 403, 'The provided API key is invalid.');
  const huge = await fetch(`${t.url}/indexes/${index}/search`, { method: 'POST', headers: { ...JSON_TYPE, authorization: `Bearer ${'x'.repeat(140_000)}` }, body: '{}' });
  assert.equal(huge.status, 431);
  assert.equal(await huge.text(), '');
});
