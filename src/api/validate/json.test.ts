// serde_json's reading of request bodies. Every expected message below was answered by the
// Meilisearch 1.50 binary to `POST /indexes/{uid}/search` (inside its malformed_payload text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonSyntaxError, jsonPosition, parseJson } from './json.ts';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

const ERRORS: [string, Buffer, string][] = [
  ['whitespace only', bytes('   '), 'EOF while parsing a value at line 1 column 3'],
  ['a newline only', bytes('\n'), 'EOF while parsing a value at line 2 column 0'],
  ['open object', bytes('{'), 'EOF while parsing an object at line 1 column 1'],
  ['key without colon at the end', bytes('{"q"'), 'EOF while parsing an object at line 1 column 4'],
  ['key and colon', bytes('{"q":'), 'EOF while parsing a value at line 1 column 5'],
  ['trailing comma in an object', bytes('{"q":1,}'), 'trailing comma at line 1 column 8'],
  ['trailing comma in an array', bytes('[1,]'), 'trailing comma at line 1 column 4'],
  ['missing colon', bytes('{"q" 1}'), 'expected `:` at line 1 column 6'],
  ['number key', bytes('{1:2}'), 'key must be a string at line 1 column 2'],
  ['single-quoted key', bytes("{'q':1}"), 'key must be a string at line 1 column 2'],
  ['missing comma in an object', bytes('{"q":1 "a":2}'), 'expected `,` or `}` at line 1 column 8'],
  ['missing comma in an array', bytes('[1 2]'), 'expected `,` or `]` at line 1 column 4'],
  ['object closed by ]', bytes('{"q":[1}'), 'expected `,` or `]` at line 1 column 8'],
  ['array of an object closed by ]', bytes('{"q":{]}'), 'key must be a string at line 1 column 7'],
  ['truncated true', bytes('{"q":tru}'), 'expected ident at line 1 column 9'],
  ['truncated null', bytes('{"q":nul}'), 'expected ident at line 1 column 9'],
  ['bare word', bytes('{"q":x}'), 'expected value at line 1 column 6'],
  ['NaN', bytes('{"q":NaN}'), 'expected value at line 1 column 6'],
  ['Infinity', bytes('{"q":Infinity}'), 'expected value at line 1 column 6'],
  ['-Infinity', bytes('{"q":-Infinity}'), 'invalid number at line 1 column 7'],
  ['leading zero', bytes('{"q":01}'), 'invalid number at line 1 column 7'],
  ['minus alone', bytes('{"q":-}'), 'invalid number at line 1 column 7'],
  ['dot without digits', bytes('{"q":1.}'), 'invalid number at line 1 column 8'],
  ['exponent without digits', bytes('{"q":1e}'), 'invalid number at line 1 column 8'],
  ['1e400', bytes('{"q":1e400}'), 'number out of range at line 1 column 10'],
  ['-1e400', bytes('{"q":-1e400}'), 'number out of range at line 1 column 11'],
  ['offset 1e400', bytes('{"offset":1e400}'), 'number out of range at line 1 column 15'],
  ['invalid escape', bytes('{"q":"\\x"}'), 'invalid escape at line 1 column 8'],
  ['short unicode escape', bytes('{"q":"\\u12"}'), 'invalid escape at line 1 column 12'],
  ['bad hex digit', bytes('{"q":"\\u12G4"}'), 'invalid escape at line 1 column 12'],
  ['control character', bytes('{"q":"a\u0001"}'), 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 8'],
  ['unterminated string', bytes('{"q":"abc'), 'EOF while parsing a string at line 1 column 9'],
  ['trailing characters', bytes('{} x'), 'trailing characters at line 1 column 4'],
  ['trailing characters on line 3', bytes('{}\n\n  x'), 'trailing characters at line 3 column 3'],
  ['extra closing brace', bytes('{"q":1}}'), 'trailing characters at line 1 column 8'],
  ['byte order mark', bytes([0xef, 0xbb, 0xbf], '{}'), 'expected value at line 1 column 1'],
  ['leading surrogate then quote', bytes('{"q":"\\ud800"}'), 'unexpected end of hex escape at line 1 column 13'],
  ['trailing surrogate alone', bytes('{"q":"\\udc00"}'), 'lone leading surrogate in hex escape at line 1 column 12'],
  ['leading surrogate then text', bytes('{"q":"\\ud800x"}'), 'unexpected end of hex escape at line 1 column 13'],
  ['leading surrogate then a BMP escape', bytes('{"q":"\\ud800\\u0041"}'), 'lone leading surrogate in hex escape at line 1 column 18'],
  ['leading surrogate then another escape', bytes('{"q":"\\ud800\\"}'), 'unexpected end of hex escape at line 1 column 14'],
  ['two leading surrogates', bytes('{"q":"\\ud800\\ud800"}'), 'lone leading surrogate in hex escape at line 1 column 18'],
  ['invalid UTF-8 in a string', bytes('{"q":"a', [0xff], 'b"}'), 'invalid unicode code point at line 1 column 10'],
  ['truncated sequence before the quote', bytes('{"q":"a', [0xc3], '"}'), 'invalid unicode code point at line 1 column 9'],
  ['encoded surrogate', bytes('{"q":"', [0xed, 0xa0, 0x80], '"}'), 'invalid unicode code point at line 1 column 10'],
  ['overlong encoding', bytes('{"q":"', [0xc0, 0x80], '"}'), 'invalid unicode code point at line 1 column 9'],
  ['invalid UTF-8, escape after', bytes('{"q":"a', [0xff], '\\n b"}'), 'invalid unicode code point at line 1 column 13'],
  ['invalid UTF-8, escape before', bytes('{"q":"\\n a', [0xff], 'b"}'), 'invalid unicode code point at line 1 column 13'],
  ['invalid UTF-8 in a key', bytes('{"', [0xff], '":1}'), 'invalid unicode code point at line 1 column 4'],
  ['invalid UTF-8 outside strings', bytes('{"q":', [0xff], '}'), 'expected value at line 1 column 6'],
  ['invalid UTF-8 after the body', bytes('{"q":"x"}', [0xff]), 'trailing characters at line 1 column 10'],
  ['invalid UTF-8 in a nested string', bytes('{"filter":["a', [0xff], '"]}'), 'invalid unicode code point at line 1 column 15'],
  ['invalid UTF-8 wins over a later syntax error', bytes('{"q":"', [0xff], '", }'), 'invalid unicode code point at line 1 column 8'],
  ['truncated 4-byte sequence', bytes('{"q":"', [0xf0, 0x9f, 0x98], '"}'), 'invalid unicode code point at line 1 column 10'],
  ['lead byte above U+10FFFF', bytes('{"q":"', [0xf5, 0x80, 0x80, 0x80], '"}'), 'invalid unicode code point at line 1 column 11'],
  ['columns count bytes', bytes('{"q":"ééé", x}'), 'key must be a string at line 1 column 16'],
  ['128 nested arrays', bytes(nest(128)), 'recursion limit exceeded at line 1 column 128'],
  ['100000 nested arrays', bytes(nest(100_000)), 'recursion limit exceeded at line 1 column 128'],
  ['128 levels under a key', bytes(`{"q":${nest(127)}}`), 'recursion limit exceeded at line 1 column 132'],
  ['128 nested objects', bytes('{"a":'.repeat(128) + '1' + '}'.repeat(128)), 'recursion limit exceeded at line 1 column 636'],
  ['an exponent overflowing i32 (at its 10th digit)', bytes('{"q":[1e99999999999]}'), 'number out of range at line 1 column 18'],
  ['310 digits', bytes(`{"q":[1${'0'.repeat(309)}]}`), 'number out of range at line 1 column 316'],
  ['just above f64::MAX', bytes('{"q":[1.7976931348623159e308]}'), 'number out of range at line 1 column 28'],
  ['minus at the end', bytes('{"q":-'), 'EOF while parsing a value at line 1 column 6'],
  ['dot at the end', bytes('{"q":-0.'), 'EOF while parsing a value at line 1 column 8'],
  ['exponent sign at the end', bytes('{"q":1e+'), 'EOF while parsing a value at line 1 column 8'],
  ['unicode escape at the end', bytes('{"q":"\\u12'), 'EOF while parsing a string at line 1 column 10'],
  ['leading surrogate at the end', bytes('{"q":"\\ud800'), 'EOF while parsing a string at line 1 column 12'],
  ['leading surrogate and backslash at the end', bytes('{"q":"\\ud800\\'), 'EOF while parsing a string at line 1 column 13'],
  ['leading surrogate then a newline', bytes('{"q":"\\ud800\n"}'), 'unexpected end of hex escape at line 2 column 0'],
  ['backslash at the end', bytes('{"q":"\\'), 'EOF while parsing a string at line 1 column 7'],
  ['literal at the end', bytes('{"q":t'), 'EOF while parsing a value at line 1 column 6'],
  ['open array', bytes('['), 'EOF while parsing a list at line 1 column 1'],
  ['unclosed array', bytes('[1'), 'EOF while parsing a list at line 1 column 2'],
  ['unclosed object', bytes('{"a":1'), 'EOF while parsing an object at line 1 column 6'],
  ['key then spaces', bytes('{"a"  '), 'EOF while parsing an object at line 1 column 6'],
  ['comma at the end', bytes('{"a":1,'), 'EOF while parsing a value at line 1 column 7'],
  ['second key at the end', bytes('{"a":1,"b"'), 'EOF while parsing an object at line 1 column 10'],
  ['comma first in an array', bytes('[,1]'), 'expected value at line 1 column 2'],
  ['two commas', bytes('[1,,2]'), 'expected value at line 1 column 4'],
  ['128 levels under filter', bytes(`{"filter":${nest(127)}}`), 'recursion limit exceeded at line 1 column 137'],
];

for (const [name, body, message] of ERRORS) {
  test(`parseJson: ${name}`, () => {
    assert.throws(
      () => parseJson(body),
      (err: unknown) => {
        assert.ok(err instanceof JsonSyntaxError, String(err));
        assert.equal(err.message, message);
        return true;
      },
    );
  });
}

const VALID: [string, Buffer, unknown][] = [
  ['127 nested arrays', bytes(nest(127)), JSON.parse(nest(127))],
  ['surrounding whitespace', bytes(' \t\r\n{}\n'), {}],
  ['a surrogate pair', bytes('{"q":"\\ud83d\\ude00"}'), { q: '😀' }],
  ['duplicate keys: the last wins', bytes('{"q":"a","q":"b"}'), { q: 'b' }],
  ['1e-400 is zero', bytes('[1e-400]'), [0]],
  ['1.5e308 is in range', bytes('[1.5e308]'), [1.5e308]],
  ['an exponent overflowing i32 with a zero significand', bytes('[0e99999999999]'), [0]],
  ['raw UTF-8 and U+2028', bytes('{"q":"é\u2028😀"}'), { q: 'é\u2028😀' }],
  ['scalars', bytes('[null,true,false,-0,2,"x"]'), [null, true, false, -0, 2, 'x']],
];

for (const [name, body, value] of VALID) {
  test(`parseJson: ${name}`, () => {
    assert.deepEqual(parseJson(body).value, value);
  });
}

test('parseJson: `__proto__` is plain data', () => {
  const { value } = parseJson(bytes('{"__proto__":{"polluted":true},"a":1}'));
  const obj = value as Record<string, unknown>;
  assert.deepEqual(Object.keys(obj), ['__proto__', 'a']);
  assert.equal(Object.getPrototypeOf(obj), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('parseJson: the span of the value, and positions', () => {
  const body = bytes('\n  {"a":1}  ');
  const parsed = parseJson(body);
  assert.deepEqual([parsed.start, parsed.end], [3, 10]);
  assert.deepEqual(jsonPosition(body, parsed.start), { line: 2, column: 2 });
});

