// Expected results were produced by Meilisearch's `read_csv` (csv 1.4 + serde_json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { CsvConverter, csvNumberJson, parseCsvHeader, rustTrim } from './csv.ts';
import { OutputBuffer } from './out-buffer.ts';

type Result = { lines: string[] } | { error: string };

function convert(payload: Buffer, delimiter: number, chunk: number): Result {
  const out = new OutputBuffer();
  const csv = new CsvConverter(delimiter, out);
  try {
    for (let at = 0; at < payload.length; at += chunk) csv.feed(payload.subarray(at, at + chunk));
    csv.end();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, 'malformed_payload');
    return { error: error.message };
  }
  const text = Buffer.concat(out.takeAll()).toString('utf8');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  assert.equal(lines.length, csv.count);
  return { lines };
}

function convertEverywhere(payload: Buffer, delimiter = 44): Result {
  const whole = convert(payload, delimiter, payload.length || 1);
  for (const chunk of [1, 2, 3, 7]) assert.deepEqual(convert(payload, delimiter, chunk), whole, `chunks of ${chunk}`);
  return whole;
}

const malformed = (reason: string): string => `The \`csv\` payload provided is malformed: \`${reason}\`.`;

// [name, payload, expected documents | error reason, delimiter]
const CASES: [string, string | Buffer, object[] | string, number?][] = [
  ['reference example', '#id:number,name:string,age:number,cute:boolean\n0,jean,2.5,true\n1,,,\n', [
    { '#id': 0, name: 'jean', age: 2.5, cute: true },
    { '#id': 1, name: null, age: null, cute: null },
  ]],
  ['quoting, CRLF, blank lines', 'id,name\r\n1,"a ""quoted"", name"\r\n2,"multi\nline"\r\n\r\n3,x"y\r\n', [
    { id: '1', name: 'a "quoted", name' },
    { id: '2', name: 'multi\nline' },
    { id: '3', name: 'x"y' },
  ]],
  ['typed cells are trimmed, strings are not', 'id,v:number,w:number,b:boolean,s\n1, 42 ,-0,  true , x \n2,+5,1e3,false,\n3,9223372036854775808,.5,, \n4,inf,NaN,,0\n', [
    { id: '1', v: 42, w: 0, b: true, s: ' x ' },
    { id: '2', v: 5, w: 1000, b: false, s: null },
    { id: '3', v: 9223372036854775808, w: 0.5, b: null, s: ' ' },
    { id: '4', v: null, w: null, b: null, s: '0' },
  ]],
  ['split on the last colon; unknown suffix keeps the header', 'id;name:string;a:b:number;c:date\n1;x;2;y\n', [{ id: '1', name: 'x', 'a:b': 2, 'c:date': 'y' }], 59],
  ['duplicate headers: first position, last value', 'id,name,id\n1,a,2\n', [{ id: '2', name: 'a' }]],
  ['BOM stripped', '\ufeffid,name\n1,x\n', [{ id: '1', name: 'x' }]],
  ['quoted number', 'id,n:number\n1,"  7 "\n', [{ id: '1', n: 7 }]],
  ['text after a closing quote', 'id\n"ab"c\n', [{ id: 'abc' }]],
  ['blank lines everywhere', '\n\nid\n\n1\n\n', [{ id: '1' }]],
  ['whitespace only: a header, no document', ' ', []],
  ['unterminated quote runs to the end', 'id,name\n1,"unterminated\n2,x', [{ id: '1', name: 'unterminated\n2,x' }]],
  ['tabs are trimmed from numbers', 'id:number\n"\t3\t"\n', [{ id: 3 }]],
  ['no trailing newline', 'a,b\n1,2', [{ a: '1', b: '2' }]],
  ['empty last field', 'a,b\n1,', [{ a: '1', b: null }]],
  ['structural error (reference)', 'id, content\n1234, hello, world\n12, hello world',
    'CSV error: record 1 (line: 2, byte: 12): found record with 3 fields, but the previous record has 2 fields'],
  ['too few fields', 'a,b\n1,2\n3\n', 'CSV error: record 2 (line: 3, byte: 8): found record with 1 fields, but the previous record has 2 fields'],
  ['CRLF: the position is taken before the LF', 'a,b\r\n1,2,3\r\n', 'CSV error: record 1 (line: 1, byte: 4): found record with 3 fields, but the previous record has 2 fields'],
  ['CR line endings do not count lines', 'a,b\r1,2\r3\r', 'CSV error: record 2 (line: 1, byte: 8): found record with 1 fields, but the previous record has 2 fields'],
  ['delimiter after a closing quote', 'id\n"1"x,\n', 'CSV error: record 1 (line: 2, byte: 3): found record with 2 fields, but the previous record has 1 fields'],
  ['bad boolean (reference)', '#id:number,a:boolean,b:number\n0,doggo,1', 'Error parsing boolean "doggo" at line 1: provided string was not `true` or `false`'],
  ['bad number (reference)', '#id:number,a:boolean,b:number\n0,true,doggo', 'Error parsing number "doggo" at line 1: invalid float literal'],
  ['bad number: Rust Debug of the raw cell', 'id,t:number\n1,1\n2,"a\nb"\n', 'Error parsing number "a\\nb" at line 2: invalid float literal'],
  ['invalid UTF-8', Buffer.from([...Buffer.from('id,name\n1,'), 0xff, 10]),
    'CSV parse error: record 1 (line 2, field: 1, byte: 8): invalid utf-8: invalid UTF-8 in field 1 near byte index 0'],
];

for (const [name, payload, expected, delimiter] of CASES) {
  test(`csv: ${name}`, () => {
    const result = convertEverywhere(Buffer.isBuffer(payload) ? payload : Buffer.from(payload), delimiter);
    if (typeof expected === 'string') {
      assert.deepEqual(result, { error: malformed(expected) });
    } else {
      assert.ok('lines' in result, JSON.stringify(result));
      assert.deepEqual(result.lines.map((line) => JSON.parse(line)), expected);
    }
  });
}

test('csv: number typing keeps integers exact and floats as floats', () => {
  const result = convertEverywhere(Buffer.from('id,n:number\n1,12345678901234567\n2,1.0\n3,007\n4,-12\n5,-0.0\n6,1e400\n'));
  assert.ok('lines' in result);
  assert.deepEqual(result.lines, [
    '{"id":"1","n":12345678901234567}',
    '{"id":"2","n":1.0}',
    '{"id":"3","n":7}',
    '{"id":"4","n":-12}',
    '{"id":"5","n":-0.0}',
    '{"id":"6","n":null}',
  ]);
});

test('csv: helpers', () => {
  assert.deepEqual(parseCsvHeader('a:b:number'), { name: 'a:b', type: 'number' });
  assert.deepEqual(parseCsvHeader('a:boolean'), { name: 'a', type: 'boolean' });
  assert.deepEqual(parseCsvHeader('a:Number'), { name: 'a:Number', type: 'string' });
  assert.deepEqual(parseCsvHeader('a'), { name: 'a', type: 'string' });
  assert.equal(rustTrim('\u00a0 x\u3000\t'), 'x');
  assert.equal(rustTrim('\ufeffx'), '\ufeffx'); // not whitespace for Rust
  for (const [text, json] of [
    ['1', '1'], ['+1', '1'], ['-0', '0'], ['0012', '12'], ['9223372036854775807', '9223372036854775807'],
    ['1.5', '1.5'], ['1.', '1.0'], ['.5', '0.5'], ['1E2', '100.0'], ['Infinity', 'null'], ['nan', 'null'],
  ] as const) {
    assert.equal(csvNumberJson(text), json, text);
  }
  for (const bad of ['0x10', '1_000', '', '.', 'e5', '1e', '--1', '1 2']) assert.equal(csvNumberJson(bad), undefined, bad);
});
