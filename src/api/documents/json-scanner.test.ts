// Expected messages were produced by Meilisearch's document_formats.rs logic run with
// serde_json 1.0.154 (the payloads are also fed in 1-byte chunks and split at every offset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { JsonScanner } from './json-scanner.ts';
import { truncateParserMessage } from './messages.ts';
import { OutputBuffer } from './out-buffer.ts';

type Result = { docs: string[] } | { error: string };

function scan(format: 'json' | 'ndjson', payload: Buffer, chunks: number[]): Result {
  const out = new OutputBuffer();
  const scanner = new JsonScanner(format, out);
  try {
    let at = 0;
    for (const size of chunks) {
      if (at >= payload.length) break;
      scanner.feed(payload.subarray(at, at + size));
      at += size;
    }
    if (at < payload.length) scanner.feed(payload.subarray(at));
    scanner.end();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, 'malformed_payload');
    assert.equal(error.status, 400);
    return { error: error.message };
  }
  const text = Buffer.concat(out.takeAll()).toString('utf8');
  assert.equal(out.bytes, Buffer.byteLength(text));
  const docs = text === '' ? [] : text.slice(0, -1).split('\n');
  assert.equal(docs.length, scanner.count);
  return { docs };
}

/** Every way of cutting the payload must give the same result. */
function scanEverywhere(format: 'json' | 'ndjson', payload: Buffer): Result {
  const whole = scan(format, payload, [payload.length]);
  assert.deepEqual(scan(format, payload, new Array<number>(payload.length).fill(1)), whole, '1-byte chunks');
  if (payload.length <= 300) {
    for (let cut = 1; cut < payload.length; cut++) {
      assert.deepEqual(scan(format, payload, [cut]), whole, `cut at ${cut}`);
    }
  }
  return whole;
}

const malformed = (format: string, reason: string): string =>
  `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${reason}\`.`;
const DATA = 'data are neither an object nor a list of objects';

// [format, payload, documents (compact) | error reason]
const CASES: [string, 'json' | 'ndjson', string | Buffer, string[] | string][] = [
  ['array', 'json', '[{"id": 1}, {"id" : "a"}]', ['{"id":1}', '{"id":"a"}']],
  ['single object', 'json', '{"id":1}', ['{"id":1}']],
  ['empty array', 'json', '[]', []],
  ['pretty array', 'json', '[\n  {\n    "id": 1,\n    "n": [1, 2]\n  },\n  {\n    "id": 2\n  }\n]\n', ['{"id":1,"n":[1,2]}', '{"id":2}']],
  ['strings keep brackets, quotes, escapes', 'json', '[{"id":1,"t":"a [ { \\" } ] \\\\ \\u00e9 \\ud83d\\ude00 , :"}, {"id":2}]', ['{"id":1,"t":"a [ { \\" } ] \\\\ \\u00e9 \\ud83d\\ude00 , :"}', '{"id":2}']],
  ['numbers kept as sent', 'json', '[{"id":1,"big":18446744073709551615,"f":1.50,"e":-2E+3,"z":-0}]', ['{"id":1,"big":18446744073709551615,"f":1.50,"e":-2E+3,"z":-0}']],
  ['nested whitespace removed', 'json', '[{"a" : [ 1 , { "b" : null } , true ] , "c" :"x y" }]', ['{"a":[1,{"b":null},true],"c":"x y"}']],
  ['ignore_value accepts what strict refuses', 'json', '[{"a":"\\udc00","b":1e400}]', ['{"a":"\\udc00","b":1e400}']],
  ['trailing garbage after the array is never read', 'json', '[{"id":1}] garbage', ['{"id":1}']],
  ['ndjson', 'ndjson', '{"a":1}\n\n  \r\n{"b":[1,2,{"c":null}]}\n', ['{"a":1}', '{"b":[1,2,{"c":null}]}']],
  ['ndjson without separators', 'ndjson', '{"a":1}{"b":2}', ['{"a":1}', '{"b":2}']],
  ['ndjson whitespace only', 'ndjson', ' \n ', []],
  ['key must be a string (reference)', 'json', '[{"id": 1}, {id: 2}]', 'key must be a string at line 1 column 14'],
  ['ndjson line/column over the payload', 'ndjson', '{"id": 1}\n{id: 2}', 'key must be a string at line 2 column 2'],
  ['a string payload', 'json', `"${'0123456789'.repeat(10)}m"`, DATA],
  ['whitespace only', 'json', ' ', 'EOF while parsing a value at line 1 column 1'],
  ['single object then more', 'json', '{"id":1} x', 'trailing characters at line 1 column 10'],
  ['two objects', 'json', '{"a":1}\n{"b":2}', 'trailing characters at line 2 column 1'],
  ['eof after [', 'json', '[', 'EOF while parsing a list at line 1 column 1'],
  ['eof after element', 'json', '[{"id":1}', 'EOF while parsing a list at line 1 column 9'],
  ['eof after comma', 'json', '[{"id":1},', 'EOF while parsing a value at line 1 column 10'],
  ['trailing comma (top-level array)', 'json', '[{"id":1},]', 'trailing comma at line 1 column 11'],
  ['missing comma', 'json', '[{"id":1} {"id":2}]', 'expected `,` or `]` at line 1 column 11'],
  ['trailing comma in element object', 'json', '[{"id":1,}]', 'key must be a string at line 1 column 10'],
  ['trailing comma in single object', 'json', '{"id":1,}', 'trailing comma at line 1 column 9'],
  ['trailing comma in nested array (strict)', 'json', '{"id":[1,]}', 'trailing comma at line 1 column 10'],
  ['trailing comma in nested array (element)', 'json', '[{"id":[1,]}]', 'expected value at line 1 column 11'],
  ['missing colon', 'json', '{"id" 1}', 'expected `:` at line 1 column 7'],
  ['missing value', 'json', '{"id":}', 'expected value at line 1 column 7'],
  ['bad literal', 'json', '[{"id":tru}]', 'expected ident at line 1 column 11'],
  ['lone minus', 'json', '[{"id":-}]', 'invalid number at line 1 column 9'],
  ['leading zero', 'json', '[{"id":01}]', 'invalid number at line 1 column 9'],
  ['dot without digits', 'json', '[{"id":1.}]', 'invalid number at line 1 column 10'],
  ['exponent without digits', 'json', '[{"id":1e}]', 'invalid number at line 1 column 10'],
  ['eof in a number: element', 'ndjson', '-', 'invalid number at line 1 column 1'],
  ['eof in a number: strict', 'json', '{"a":-', 'EOF while parsing a value at line 1 column 6'],
  ['invalid escape', 'json', '[{"id":"\\x"}]', 'invalid escape at line 1 column 10'],
  ['short unicode escape', 'json', '[{"id":"\\u12"}]', 'invalid escape at line 1 column 14'],
  ['unterminated string', 'json', '[{"id":"abc', 'EOF while parsing a string at line 1 column 11'],
  ['control character (element)', 'json', '[{"a":"\u0001"}]', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 7'],
  ['control character (strict)', 'json', '{"a":"\u0001"}', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 7'],
  ['non-object last element', 'json', '[{"id":1}, 2]', DATA],
  ['non-object then more: serde end_seq', 'json', '[{"id":1}, 2, {"id":3}]', 'trailing characters at line 1 column 15'],
  ['non-object then garbage', 'json', '[1 x]', 'trailing characters at line 1 column 4'],
  ['non-object then trailing comma', 'json', '[{"a":1}, 2 ,]', 'trailing comma at line 1 column 14'],
  ['non-object then eof', 'json', '[{"a":1}, 2', 'EOF while parsing a list at line 1 column 11'],
  ['top-level key: lone surrogate (relative to the document)', 'json', '[{"\\udc00":1}]', 'lone leading surrogate in hex escape at line 1 column 8'],
  ['top-level key of a later document', 'json', '[{"a":1},{"\\ud800":1}]', 'unexpected end of hex escape at line 1 column 9'],
  ['relative position across lines', 'json', '[{"a":1},\n  {"b":\n "\\udc00", "\\udc00": 2}]', 'lone leading surrogate in hex escape at line 2 column 18'],
  ['ndjson top-level key', 'ndjson', '{"\\ud800":1}', 'unexpected end of hex escape at line 1 column 9'],
  ['strict: lone trailing surrogate', 'json', '{"a":"\\udc00"}', 'lone leading surrogate in hex escape at line 1 column 12'],
  ['strict: leading surrogate alone', 'json', '{"a":"\\ud800x"}', 'unexpected end of hex escape at line 1 column 13'],
  ['strict: leading + non trailing', 'json', '{"a":"\\ud800\\u0041"}', 'lone leading surrogate in hex escape at line 1 column 18'],
  ['strict: number out of range', 'json', '{"a":1e400}', 'number out of range at line 1 column 10'],
  ['strict: exponent overflow', 'json', '{"a":12345e6789012345678901234567890}', 'number out of range at line 1 column 21'],
  ['top-level number out of range', 'json', '[1e400]', 'number out of range at line 1 column 5'],
  ['string payload', 'json', '"hello"', DATA],
  ['truncated literal', 'json', 'nul', 'EOF while parsing a value at line 1 column 3'],
  ['not json', 'json', 'x', 'expected value at line 1 column 1'],
  ['a BOM is not skipped', 'json', Buffer.from('\ufeff[]'), 'expected value at line 1 column 1'],
  ['ndjson comma', 'ndjson', '{"a":1},{"b":2}', 'expected value at line 1 column 8'],
  ['ndjson number', 'ndjson', '1', DATA],
  ['ndjson number then letter', 'ndjson', '1x', 'trailing characters at line 1 column 2'],
  ['ndjson string', 'ndjson', '"a"', DATA],
  ['ndjson array', 'ndjson', '[{"a":1}]', DATA],
  ['pretty with a missing bracket', 'json', '[\n  {\n    "id": 1,\n    "n": [1, 2\n  }\n]', 'expected `,` or `]` at line 5 column 3'],
  ['recursion limit (strict)', 'json', `{"a":${'['.repeat(127)}${']'.repeat(127)}}`, 'recursion limit exceeded at line 1 column 132'],
  // positions answered by the binary: after the document (RawValue), after the string (strict)
  ['invalid utf-8 (element)', 'json', Buffer.from([...Buffer.from('[{"a":"'), 0xff, ...Buffer.from('"}]')]), 'invalid unicode code point at line 1 column 10'],
  ['truncated utf-8 sequence', 'json', Buffer.from([...Buffer.from('[{"a":"'), 0xe2, 0x82, ...Buffer.from('"}]')]), 'invalid unicode code point at line 1 column 11'],
  ['invalid utf-8 (strict, escapes after it)', 'json', Buffer.from([...Buffer.from('{"a":"b'), 0xff, ...Buffer.from('c\\nd"}')]), 'invalid unicode code point at line 1 column 13'],
  ['invalid utf-8 (ndjson)', 'ndjson', Buffer.from([...Buffer.from('{"a":1}\n{"b":"x'), 0xe9, ...Buffer.from('"}')]), 'invalid unicode code point at line 2 column 10'],
];

for (const [name, format, payload, expected] of CASES) {
  test(`json scanner: ${name}`, () => {
    const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const result = scanEverywhere(format, bytes);
    if (typeof expected === 'string') assert.deepEqual(result, { error: malformed(format, expected) });
    else assert.deepEqual(result, { docs: expected });
  });
}

test('json scanner: the whole message of the reference example', () => {
  assert.deepEqual(scan('json', Buffer.from('[{"id": 1}, {id: 2}]'), [5]), {
    error: "The `json` payload provided is malformed. `Couldn't serialize document value: key must be a string at line 1 column 14`.",
  });
});

test('json scanner: documents are valid JSON that parses to the same values', () => {
  const docs = [
    { id: 1, s: 'a "quoted" [bracket] {brace} \\ back\nslash \u0000 é 😀', n: [1.5, -2, 0, 1e-7], o: { p: null, q: true } },
    { id: 'x', nested: [[[]], {}, [{ a: [] }]] },
  ];
  const pretty = Buffer.from(JSON.stringify(docs, null, 3));
  const result = scanEverywhere('json', pretty);
  assert.ok('docs' in result);
  assert.deepEqual(result.docs.map((line) => JSON.parse(line)), docs);
  assert.deepEqual(result.docs, docs.map((d) => JSON.stringify(d)));
});

test('json scanner: a document larger than the chunks and the output block', () => {
  const big = { id: 1, text: 'x'.repeat(3_000_000), list: Array.from({ length: 50_000 }, (_, i) => i) };
  const payload = Buffer.from(JSON.stringify([big, { id: 2 }]));
  const result = scan('json', payload, new Array<number>(200).fill(65_536));
  assert.ok('docs' in result);
  assert.equal(result.docs.length, 2);
  assert.deepEqual(JSON.parse(result.docs[0]!), big);
});

test('json scanner: deep nesting is fine for array elements (serde ignore_value has no limit)', () => {
  const deep = `[{"a":${'['.repeat(5000)}${']'.repeat(5000)}}]`;
  const result = scan('json', Buffer.from(deep), [deep.length]);
  assert.ok('docs' in result);
  assert.equal(result.docs[0], deep.slice(1, -1));
});

test('truncation of long parser messages: first 50 + ... + last 85 when longer than 138', () => {
  const short = 'a'.repeat(138);
  assert.equal(truncateParserMessage(short), short);
  const long = Array.from({ length: 139 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
  const cut = truncateParserMessage(long);
  assert.equal(cut, long.slice(0, 50) + '...' + long.slice(139 - 85));
  assert.equal(cut.length, 138);
});

// What Meilisearch's indexer refuses when it parses each top-level field value of a document
// strictly: the payload is accepted, the task fails with this message (relative to the value).
// Expected messages answered by the Meilisearch 1.50 binary (task errors), except where noted.
const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
const VALUE_ERRORS: [string, 'json' | 'ndjson', string, string][] = [
  ['127 levels in a field', 'json', `[{"id":1,"t":${nest(127)}}]`, ''],
  ['128 levels in a field', 'json', `[{"id":1,"t":${nest(128)}}]`, 'recursion limit exceeded at line 1 column 128'],
  ['128 levels, whitespace kept', 'json', `[{"id":1,"t": [ \n ${nest(127)}]}]`, 'recursion limit exceeded at line 2 column 128'],
  ['128 nested objects', 'json', `[{"id":1,"t":${'{"a":'.repeat(128)}1${'}'.repeat(128)}}]`, 'recursion limit exceeded at line 1 column 636'],
  ['100000 levels', 'json', `[{"id":1,"t":${nest(100_000)}}]`, 'recursion limit exceeded at line 1 column 128'],
  ['ndjson, second line', 'ndjson', `{"id":1}\n{"id":2,"t":${nest(130)}}\n`, 'recursion limit exceeded at line 1 column 128'],
  ['a lone surrogate in a nested key', 'json', '[{"id":1,"t":{"\\ud800":1}}]', 'unexpected end of hex escape at line 1 column 9'],
  ['a trailing surrogate in a nested string', 'json', '[{"id":1,"t":{"a":["x","\\udc00"]}}]', 'lone leading surrogate in hex escape at line 1 column 17'],
  ['the first error of the document wins', 'json', `[{"id":1,"u":"\\udc00","t":${nest(130)}}]`, 'lone leading surrogate in hex escape at line 1 column 7'],
  ['the first document with an error wins', 'json', '[{"id":1},{"id":2,"t":"\\ud800"}]', 'unexpected end of hex escape at line 1 column 8'],
  ['a surrogate after a newline', 'json', '[{"id":1,"t": {\n "a" : "\\udc00"}}]', 'lone leading surrogate in hex escape at line 2 column 14'],
  ['a valid surrogate pair', 'json', '[{"id":1,"t":"\\ud83d\\ude00"}]', ''],
  ['a nested number out of range', 'json', '[{"id":1,"t":{"a":[1, 2e400]}}]', 'number out of range at line 1 column 14'],
  ['a field out of range', 'json', '[{"id":1,"t":-1e400}]', 'number out of range at line 1 column 6'],
  ['a long number in range', 'json', `[{"id":1,"t":${'9'.repeat(300)}}]`, ''],
  ['a number of 310 digits', 'ndjson', `{"id":1,"t":[1${'0'.repeat(309)}]}\n`, 'number out of range at line 1 column 311'],
  ['`_geo` is not re-read', 'json', '[{"id":1,"_geo":{"lat":"\\ud800","lng":1e400}}]', ''],
  ['a nested `_geo` is', 'json', `[{"id":1,"a":{"_geo":${nest(128)}}}]`, 'recursion limit exceeded at line 1 column 135'],
  // Meilisearch accepts a `_geo` 128 levels deep; Muninn refuses any value that deep (docs/compat.md)
  ['depth counts in `_geo` too (Muninn)', 'json', `[{"id":1,"_geo":${nest(128)}}]`, 'recursion limit exceeded at line 1 column 128'],
];

function valueError(format: 'json' | 'ndjson', payload: Buffer, size: number): string {
  const scanner = new JsonScanner(format, new OutputBuffer());
  for (let at = 0; at < payload.length; at += size) scanner.feed(payload.subarray(at, at + size));
  scanner.end();
  return scanner.valueError;
}

for (const [name, format, payload, expected] of VALUE_ERRORS) {
  test(`json scanner, value errors: ${name}`, () => {
    const bytes = Buffer.from(payload);
    assert.equal(valueError(format, bytes, bytes.length), expected, 'whole');
    for (const size of [1, 7, 64]) assert.equal(valueError(format, bytes, size), expected, `chunks of ${size}`);
  });
}
