// Content-Type parsing as the `mime` crate (0.3) does it. Which headers are valid was asked of
// the Meilisearch 1.50 binary (415 `invalid_content_type` or not) on the search route.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isJsonMediaType, lossyHeader, parseMediaType } from './media-type.ts';

const PARSED: [string, string, string, string | null][] = [
  ['application/json', 'application', 'json', null],
  ['APPLICATION/JSON', 'application', 'json', null],
  ['application/json;', 'application', 'json', null],
  ['application/json; charset=utf-8', 'application', 'json', null],
  ['application/json; x=', 'application', 'json', null],
  ['application/json; x="y"', 'application', 'json', null],
  ['application/json;x=y;', 'application', 'json', null],
  ['application/json; a=b; a=c', 'application', 'json', null],
  ['application/json;  a=b', 'application', 'json', null],
  ['application/json; a="b" ; c=d', 'application', 'json', null],
  ['application/json; a="\\"', 'application', 'json', null],
  ['application/json;charset=x;', 'application', 'json', null],
  ['application/vnd.api+json', 'application', 'vnd.api', 'json'],
  ['application/json+x', 'application', 'json', 'x'],
  ['a+b/c+d+e', 'a+b', 'c+d', 'e'],
  ['application/+json', 'application', '+json', null],
  ['+/json', '+', 'json', null],
  ['application/', 'application', '', null],
  ['*/*', '*', '*', null],
  ['Application/JSON+X', 'application', 'json', 'x'],
];

for (const [header, type, subtype, suffix] of PARSED) {
  test(`parseMediaType(${JSON.stringify(header)})`, () => {
    assert.deepEqual(parseMediaType(header), { type, subtype, suffix });
  });
}

const INVALID = [
  ';;;', '/json', 'application', '', 'application/json ; x=y', 'application/json;;', 'application/json; x',
  'application/json; x="y', 'application/json, text/plain', 'app lication/json', 'application/js on',
  'application/json; a="b"c', 'application/json; a=""', 'application/json;a=b c', 'application/json; =b',
  'application/json;a="x\ty"', 'application/json\t;a=b', 'é/json', 'application/jsoné', 'text/csv;delimiter=;',
];

for (const header of INVALID) {
  test(`parseMediaType(${JSON.stringify(header)}) is invalid`, () => {
    assert.equal(parseMediaType(header), null);
  });
}

test('JSON media types: subtype or suffix `json`, any type', () => {
  const json = (h: string) => isJsonMediaType(parseMediaType(h)!);
  assert.equal(json('text/json'), true);
  assert.equal(json('application/vnd.api+json'), true);
  assert.equal(json('application/json+x'), true);
  assert.equal(json('application/x-json'), false);
  assert.equal(json('application/jso+n'), false);
  assert.equal(json('application/a+json+x'), false);
});

test('lossyHeader: bytes that are not UTF-8 become U+FFFD', () => {
  assert.equal(lossyHeader('\u00e9/json'), '\ufffd/json');
  assert.equal(lossyHeader('text/plain'), 'text/plain');
});
