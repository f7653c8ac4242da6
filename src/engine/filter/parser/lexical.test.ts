// The lexical pieces borrowed from Rust (unescaper crate tests, Rust std behaviour):
// 1. `unescape`: every escape family, and which mistakes are incomplete / bad number / bad char.
// 2. `parseRustFloat` / `parseFiniteFloat`: Rust's f64 grammar, not JS `Number`.
// 3. `formatRustFloat`: Rust's `{}` for f64 (no exponent).
// 4. `escapeDebug` and the span line: Rust's `str::escape_debug`, columns per line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeDebug, spanLine } from './errors.ts';
import { formatRustFloat, parseFiniteFloat, parseRustFloat, toUsize } from './numbers.ts';
import { unescape } from './unescape.ts';

const text = (raw: string): string => {
  const result = unescape(raw);
  assert.ok(result.ok, raw);
  return result.text;
};
const error = (raw: string): string => {
  const result = unescape(raw);
  assert.ok(!result.ok, raw);
  return result.error;
};

test('1. unescape (unescaper tests)', () => {
  assert.equal(text('plain'), 'plain');
  assert.equal(text('\\u0000\\u0009\\u000a\\uffff'), '\0\t\n\uffff');
  assert.equal(text('\\u{0}\\u{9}\\u{a}\\u{1F600}X'), '\0\t\n😀X');
  assert.equal(text('\\x00\\x09\\x0a\\x7f\\xff'), '\x00\t\n\x7f\xff');
  assert.equal(text('\\0\\11\\12\\377\\0XavierJane'), '\0\t\n\u00ff\0XavierJane');
  assert.equal(text('\\477'), "'7");
  assert.equal(text('\\b\\f\\n\\r\\t\\v\\\'\\"\\\\\\/'), '\b\f\n\r\t\v\'"\\/');
  assert.equal(text('\\x+f'), '\x0f');
  assert.equal(text('\\u{41'), 'A');
  assert.equal(error('\\'), 'incomplete');
  assert.equal(error('\\0\\'), 'incomplete');
  assert.equal(error('\\x4'), 'incomplete');
  assert.equal(error('\\u12'), 'incomplete');
  assert.equal(error('\\u'), 'incomplete');
  assert.equal(error('\\{}'), 'invalidChar');
  assert.equal(error('\\8'), 'invalidChar');
  assert.equal(error('\\é'), 'invalidChar');
  assert.equal(error('\\u{110000}'), 'invalidChar');
  assert.equal(error('\\uDFFF'), 'invalidChar');
  assert.equal(error('\\u{g}'), 'badNumber');
  assert.equal(error('\\u{}'), 'badNumber');
  assert.equal(error('\\u{100000000}'), 'badNumber');
  assert.equal(error('\\x-1'), 'badNumber');
  assert.equal(error('\\x+'), 'incomplete');
  assert.equal(error('\\x+ '), 'badNumber');
});

test('2. Rust f64 parsing', () => {
  const cases: [string, number | null][] = [
    ['10', 10],
    ['10.0', 10],
    ['-1.5e3', -1500],
    ['+7', 7],
    ['.5', 0.5],
    ['5.', 5],
    ['1.e2', 100],
    ['1E2', 100],
    ['-0', -0],
    ['', null],
    ['.', null],
    ['e5', null],
    ['1e', null],
    [' 1', null],
    ['1 ', null],
    ['1_000', null],
    ['0x10', null],
    ['1,5', null],
    ['--1', null],
  ];
  for (const [input, expected] of cases) assert.equal(parseRustFloat(input), expected, input);
  assert.equal(parseRustFloat('inf'), Infinity);
  assert.equal(parseRustFloat('-Infinity'), -Infinity);
  assert.ok(Number.isNaN(parseRustFloat('NaN')));
  for (const notFinite of ['inf', 'infinity', 'NaN', '1e999', '-1e999']) assert.equal(parseFiniteFloat(notFinite), null);
  assert.equal(parseFiniteFloat('1e308'), 1e308);
});

test('3. Rust f64 display', () => {
  const cases: [number, string][] = [
    [-100, '-100'],
    [250, '250'],
    [-90.0000001, '-90.0000001'],
    [-179.999999, '-179.999999'],
    [0.1, '0.1'],
    [1e-7, '0.0000001'],
    [1.5e-10, '0.00000000015'],
    [1e21, '1000000000000000000000'],
    [1.234e25, '12340000000000000000000000'],
    [-0, '-0'],
    [0, '0'],
  ];
  for (const [value, expected] of cases) assert.equal(formatRustFloat(value), expected, String(value));
  assert.equal(toUsize(999.9), 999n);
  assert.equal(toUsize(-3), 0n);
  assert.equal(toUsize(2 ** 70), 2n ** 64n - 1n);
});

test('4. escape_debug and the span line', () => {
  assert.equal(escapeDebug(`a'b"c\\d\ne\tf\rg\0`), "a\\'b\\\"c\\\\d\\ne\\tf\\rg\\0");
  assert.equal(escapeDebug('x\u00a0y\u200bz\u2028é😀 '), 'x\\u{a0}y\\u{200b}z\\u{2028}é😀 ');
  // a combining mark is escaped only at the start
  assert.equal(escapeDebug('\u0301e\u0301'), '\\u{301}e\u0301');
  const source = { text: 'a = 1\nAND 😀b = 2', shown: 'a = 1\nAND 😀b = 2' };
  assert.equal(spanLine({ start: 11, end: 12, source }), '6:7 a = 1\nAND 😀b = 2');
  assert.equal(spanLine({ start: 0, end: 5, source }), '1:6 a = 1\nAND 😀b = 2');
});
