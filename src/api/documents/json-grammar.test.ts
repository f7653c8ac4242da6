// The fast path (DocumentRun) against the state machine. Fed one byte at a time, no document
// ends inside a chunk, so the state machine alone does the work: every other way of cutting a
// payload must give the same documents or the same error. Expected messages were produced by
// Meilisearch's document_formats.rs logic run with serde_json 1.0.154.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { DocumentRun } from './json-grammar.ts';
import { JsonScanner } from './json-scanner.ts';
import { OutputBuffer } from './out-buffer.ts';

type Result = { docs: string[] } | { error: string };

/** Feeds the payload in chunks of the given sizes (the last one repeated). */
function scan(format: 'json' | 'ndjson', payload: Buffer, sizes: number[]): Result {
  const out = new OutputBuffer();
  const scanner = new JsonScanner(format, out);
  try {
    for (let at = 0, k = 0; at < payload.length; k++) {
      const size = sizes[Math.min(k, sizes.length - 1)]!;
      scanner.feed(payload.subarray(at, at + size));
      at += size;
    }
    scanner.end();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return { error: error.message };
  }
  const text = Buffer.concat(out.takeAll()).toString('utf8');
  assert.equal(out.bytes, Buffer.byteLength(text));
  const docs = text === '' ? [] : text.slice(0, -1).split('\n');
  assert.equal(docs.length, scanner.count);
  return { docs };
}

/** Documents the fast path takes while `run` runs. */
function fastDocuments(run: () => void): number {
  const scanMethod = DocumentRun.prototype.scan;
  let documents = 0;
  DocumentRun.prototype.scan = function (this: DocumentRun, b: Uint8Array, i: number, limit: number): number {
    const stop = scanMethod.call(this, b, i, limit);
    documents += this.documents;
    return stop;
  };
  try {
    run();
  } finally {
    DocumentRun.prototype.scan = scanMethod;
  }
  return documents;
}

/** Every way of cutting the payload gives what the state machine alone gives. */
function scanEverywhere(format: 'json' | 'ndjson', payload: Buffer): Result {
  const reference = scan(format, payload, [1]);
  assert.deepEqual(scan(format, payload, [payload.length]), reference, 'whole');
  for (const size of [2, 3, 5, 7, 16, 64]) assert.deepEqual(scan(format, payload, [size]), reference, `chunks of ${size}`);
  for (let cut = 1; cut < payload.length; cut++) {
    assert.deepEqual(scan(format, payload, [cut, payload.length]), reference, `cut at ${cut}`);
    assert.deepEqual(scan(format, payload, [cut, 1, payload.length]), reference, `1-byte chunk at ${cut}`);
  }
  return reference;
}

const malformed = (format: string, reason: string): string =>
  `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${reason}\`.`;
const bytes = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => Buffer.from(p as string)));

const CASES: [string, 'json' | 'ndjson', Buffer, string[] | string][] = [
  ['escapes, numbers, literals, nesting', 'ndjson', bytes('{"a":{"b":[1,-2.5e+3,0,true,false,null,"s\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9",{}],"c":[]},"d":{}}\n{"e":""}'), ['{"a":{"b":[1,-2.5e+3,0,true,false,null,"s\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9",{}],"c":[]},"d":{}}', '{"e":""}']],
  ['multi-byte UTF-8', 'ndjson', bytes('{"é":"Sant Julià de Lòria 😀"}\n{"名":"東京"}\n'), ['{"é":"Sant Julià de Lòria 😀"}', '{"名":"東京"}']],
  ['whitespace inside and between elements', 'json', bytes('[ {"a" : [1, {"b" :null} ], "c": "d\\"e"} , {"f":"\\u00e9\\n"} ]'), ['{"a":[1,{"b":null}],"c":"d\\"e"}', '{"f":"\\u00e9\\n"}']],
  ['element separators', 'json', bytes('[{"a":1}, {"b":2} ,{"c":3}\n,\n{"d":4}]'), ['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']],
  ['ndjson separators', 'ndjson', bytes('{"a":1}{"b":2} {"c":3}\r\n{"d":4}\n\n'), ['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']],
  ['a surrogate pair in a top-level key', 'json', bytes('[{"a":1},{"b":"\\ud83d\\ude00","\\ud83d\\ude00":2},{"c":3}]'), ['{"a":1}', '{"b":"\\ud83d\\ude00","\\ud83d\\ude00":2}', '{"c":3}']],
  ['number out of range inside a document', 'ndjson', bytes('{"a":1}\n{"b":1e400}\n'), ['{"a":1}', '{"b":1e400}']],
  ['deeper than the fast path stack', 'ndjson', bytes(`{"a":1}\n{"b":[${'['.repeat(300)}${']'.repeat(300)}]}\n{"c":2}`), ['{"a":1}', `{"b":[${'['.repeat(300)}${']'.repeat(300)}]}`, '{"c":2}']],
  ['invalid UTF-8 in a string', 'ndjson', bytes('{"a":"x"}\n{"b":"', [0xff], '"}\n'), 'invalid unicode code point at line 2 column 9'], // after the document (binary)
  ['invalid UTF-8 between documents', 'ndjson', bytes('{"a":"x"}\n', [0xff], '\n{"b":1}\n'), 'expected value at line 2 column 1'],
  ['truncated UTF-8 after a document', 'ndjson', bytes('{"a":"x"}\n{"b":1}', [0xc3], '\n'), 'expected value at line 2 column 8'],
  ['truncated UTF-8 in a string', 'json', bytes('[{"a":"x"},{"b":"', [0xe2, 0x82], '"}]'), 'invalid unicode code point at line 1 column 21'], // after the document (binary)
  ['invalid UTF-8 after a comma', 'json', bytes('[{"a":"x"}, ', [0xf0], ']'), 'expected value at line 1 column 13'],
  ['encoded surrogate in a key', 'json', bytes('[{"a":"x"},{"', [0xed, 0xa0, 0x80], '":1}]'), 'invalid unicode code point at line 1 column 20'], // after the document (binary)
  ['control character in a later document', 'ndjson', bytes('{"a":"x"}\n{"b":"y\u0001z"}\n'), 'control character (\\u0000-\\u001F) found while parsing a string at line 2 column 7'],
  ['tab in a string', 'json', bytes('[{"a":"x"},\n {"b":"y\tz"}]'), 'control character (\\u0000-\\u001F) found while parsing a string at line 2 column 8'],
  ['lone trailing surrogate in a top-level key', 'json', bytes('[{"a":1},{"\\udc00":2},{"c":3}]'), 'trailing characters at line 1 column 23'],
  ['leading surrogate alone in a top-level key', 'ndjson', bytes('{"a":1}\n{"\\ud800":2}\n'), 'unexpected end of hex escape at line 1 column 9'],
  ['leading zero', 'json', bytes('[{"a":1},{"b":01}]'), 'invalid number at line 1 column 16'],
  ['dot without digits', 'json', bytes('[{"a":1},{"b":1.}]'), 'invalid number at line 1 column 17'],
  ['bad literal', 'json', bytes('[{"a":1},{"b":tru}]'), 'expected ident at line 1 column 18'],
  ['invalid escape', 'json', bytes('[{"a":1},{"b":"\\x"}]'), 'invalid escape at line 1 column 17'],
  ['invalid unicode escape', 'json', bytes('[{"a":1},{"b":"\\u12G4"}]'), 'invalid escape at line 1 column 21'],
  ['trailing comma after documents', 'json', bytes('[{"a":1},{"b":2},]'), 'trailing comma at line 1 column 18'],
  ['a number after documents', 'json', bytes('[{"a":1},{"b":2}, 3]'), 'data are neither an object nor a list of objects'],
  ['garbage after documents', 'json', bytes('[{"a":1},{"b":2} x]'), 'expected `,` or `]` at line 1 column 18'],
  ['comma after an ndjson document', 'ndjson', bytes('{"a":1}\n{"b":2},\n'), 'expected value at line 2 column 8'],
  ['a number after ndjson documents', 'ndjson', bytes('{"a":1}\n2\n'), 'data are neither an object nor a list of objects'],
];

for (const [name, format, payload, expected] of CASES) {
  test(`json fast path: ${name}`, () => {
    const result = scanEverywhere(format, payload);
    if (typeof expected === 'string') assert.deepEqual(result, { error: malformed(format, expected) });
    else assert.deepEqual(result, { docs: expected });
  });
}

const cities = Array.from({ length: 3000 }, (_, i) => ({
  id: 3039154 + i,
  name: i % 7 === 0 ? `Sant Julià de Lòria ${i}` : `El Tarter ${i}`,
  country: 'AD',
  altCountry: i % 5 === 0 ? 'ES, FR' : '',
  population: i * 37,
  score: i % 3 === 0 ? -1.5e-3 : 42.57952,
  flags: [true, false, null],
  _geo: { lat: 42.57952 + i / 1e5, lng: 1.65362 },
}));
const compact = cities.map((doc) => JSON.stringify(doc));

test('json fast path: takes the documents of a chunk, in any chunking, across output blocks', () => {
  const payloads: ['json' | 'ndjson', Buffer][] = [
    ['ndjson', Buffer.from(compact.join('\n') + '\n')],
    ['json', Buffer.from(JSON.stringify(cities))],
    ['json', Buffer.from(JSON.stringify(cities, null, 2))],
  ];
  for (const [format, payload] of payloads) {
    // three times over: more than 1 MiB of output
    const inner = payload.subarray(1, -1).toString();
    const source = Buffer.from(format === 'json' ? `[${[inner, inner, inner].join(',')}]` : payload.toString().repeat(3));
    const expected = { docs: [...compact, ...compact, ...compact] };
    let taken = 0;
    for (const sizes of [[source.length], [65_536], [4096], [1000, 333]]) {
      const documents = fastDocuments(() => assert.deepEqual(scan(format, source, sizes), expected, `${format} in chunks of ${sizes}`));
      if (sizes[0]! >= 65_536) taken += documents;
    }
    assert.ok(taken > 2 * 9000 * 0.95, `fast path took ${taken} documents`);
  }
});

test('json fast path: a document with many whitespace runs', () => {
  const doc = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, [i, { v: `s${i}` }]]));
  const payload = Buffer.from(JSON.stringify([doc, doc, { z: 0 }], null, '\t'));
  const expected = { docs: [JSON.stringify(doc), JSON.stringify(doc), '{"z":0}'] };
  const taken = fastDocuments(() => assert.deepEqual(scan('json', payload, [payload.length]), expected));
  assert.equal(taken, 2); // the last one ends after the last `"` of the chunk: left to the state machine
});

test('json fast path: every byte of a payload replaced by a delimiter, a digit or junk', () => {
  const docs = [
    '{"s":["","a","ab","abc","abcd","abcde","abcdef","abcdefg","abcdefgh","a\\"b\\u00e9c"]}',
    '{"n":[0,-1,12,123,1234,12345,123456,1234567,12345678,1.5,-0.25e+10,2E3],"l":[true,false,null]}',
    '{"o":{"p":[[{}],[]],"q":{"r":{}}},"t":1}',
  ];
  const replacements = [0x00, 0x1f, 0x0a, 0x20, 0x22, 0x5c, 0x3a, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d, 0x30, 0x39, 0x2e, 0x65, 0x58, 0x7f, 0xc3, 0xff];
  for (const [format, text] of [
    ['ndjson', `${docs.join('\n')}\n{"end":"x"}`],
    ['json', `[${docs.join(',')},{"end":"x"}]`],
  ] as const) {
    const payload = Buffer.from(text);
    for (let at = 0; at < payload.length; at++) {
      for (const byte of replacements) {
        const changed = Buffer.from(payload);
        changed[at] = byte;
        // chunks of 8 bytes: shorter than any document, so no document is taken by the fast path
        assert.deepEqual(scan(format, changed, [changed.length]), scan(format, changed, [8]), `${format}: byte ${at} set to ${byte}`);
      }
    }
  }
});

test('json fast path: random payloads agree with the state machine', () => {
  let seed = 12345;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
  const strings = ['""', '"a"', '"El Tarter"', '"é😀"', '"\\"\\\\\\n"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\udc00"'];
  const value = (depth: number): string => {
    const kind = random(depth > 2 ? 4 : 6);
    if (kind === 0) return pick(strings);
    if (kind === 1) return pick(['0', '-0', '12', '-3.25', '1e5', '2E-3', '1e400', '18446744073709551616']);
    if (kind === 2) return pick(['true', 'false', 'null']);
    if (kind === 3) return `{${Array.from({ length: random(3) }, () => `${pick(strings)}:${value(depth + 1)}`).join(',')}}`;
    return `[${Array.from({ length: random(3) }, () => value(depth + 1)).join(', ')}]`;
  };
  const document = (): string => `{${Array.from({ length: 1 + random(4) }, () => `${pick(['"id"', '"name"', '"_geo"', '"\\ud800"', '"x y"'])}:${value(1)}`).join(',')}}`;
  const junk = ['\u0001', '\\x', '01', '1.', 'tru', ',', ']', '}', ':', '"', '\n', ' '];
  for (let round = 0; round < 400; round++) {
    const format = random(2) === 0 ? 'json' : 'ndjson';
    const docs = Array.from({ length: 1 + random(6) }, document);
    let text = format === 'json' ? `[${docs.join(pick([',', ', ', ',\n ']))}]` : docs.join(pick(['\n', '\r\n', '', ' \n']));
    if (random(3) === 0) {
      const at = random(text.length + 1);
      text = text.slice(0, at) + pick(junk) + text.slice(at + random(2));
    }
    const payload = random(8) === 0 ? Buffer.concat([Buffer.from(text), Buffer.from([0xc3])]) : Buffer.from(text);
    const reference = scan(format, payload, [1]);
    for (const sizes of [[payload.length], [1 + random(40)], [random(payload.length) + 1, 1 + random(9)]]) {
      assert.deepEqual(scan(format, payload, sizes), reference, `${format} ${JSON.stringify(text)} in chunks of ${sizes}`);
    }
  }
});
