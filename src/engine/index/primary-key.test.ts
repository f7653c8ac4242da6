import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../errors.ts';
import { canonicalId, compactJson, documentId, inferPrimaryKey } from './primary-key.ts';

const INVALID_SUFFIX =
  'is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.';

function throwsEngine(fn: () => unknown, kind: string, message: string): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof EngineError, String(error));
    assert.equal(error.kind, kind);
    assert.equal(error.message, message);
    assert.equal(error.prefixed, false);
    return true;
  });
}

test('inferPrimaryKey: one candidate ending with id, case-insensitive', () => {
  for (const [doc, pk] of [
    [{ id: 1, title: 'x' }, 'id'],
    [{ title: 'x', movie_id: 1 }, 'movie_id'],
    [{ productId: 1 }, 'productId'],
    [{ '#id': 0, name: 'jean' }, '#id'],
    [{ squid: 1, name: 'x' }, 'squid'],
    [{ ID: 1 }, 'ID'],
    [{ uuid: 'x', identity: 1 }, 'uuid'],
  ] as const) {
    assert.equal(inferPrimaryKey(doc), pk);
  }
});

test('inferPrimaryKey: no candidate', () => {
  for (const doc of [{}, { title: 'x', identity: 1 }]) {
    throwsEngine(
      () => inferPrimaryKey(doc),
      'index_primary_key_no_candidate_found',
      'The primary key inference failed as the engine did not find any field ending with `id` in its name. Please specify the primary key manually using the `primaryKey` query parameter.',
    );
  }
});

test('inferPrimaryKey: several candidates, sorted, count is the real count', () => {
  throwsEngine(
    () => inferPrimaryKey({ object_id: 1, uid: 2, id: 3, name: 'x' }),
    'index_primary_key_multiple_candidates_found',
    "The primary key inference failed as the engine found 3 fields ending with `id` in their names: 'id' and 'object_id'. Please specify the primary key manually using the `primaryKey` query parameter.",
  );
  throwsEngine(
    () => inferPrimaryKey({ bId: 1, aId: 2 }),
    'index_primary_key_multiple_candidates_found',
    "The primary key inference failed as the engine found 2 fields ending with `id` in their names: 'aId' and 'bId'. Please specify the primary key manually using the `primaryKey` query parameter.",
  );
  // byte order, like Rust's sort of &str: uppercase before lowercase
  throwsEngine(
    () => inferPrimaryKey({ id: 1, Id: 2 }),
    'index_primary_key_multiple_candidates_found',
    "The primary key inference failed as the engine found 2 fields ending with `id` in their names: 'Id' and 'id'. Please specify the primary key manually using the `primaryKey` query parameter.",
  );
});

test('canonicalId: accepted values', () => {
  const cases: [unknown, string][] = [
    [1, '1'],
    [-5, '-5'],
    [0, '0'],
    ['1', '1'],
    ['abc-DEF_012', 'abc-DEF_012'],
    ['a'.repeat(511), 'a'.repeat(511)],
    [14630868576586246730n, '14630868576586246730'],
    [-9223372036854775808n, '-9223372036854775808'],
    [18446744073709551615n, '18446744073709551615'],
    [Number.MAX_SAFE_INTEGER, '9007199254740991'],
  ];
  for (const [value, id] of cases) assert.equal(canonicalId(value), id, String(value));
});

test('canonicalId: rejected values', () => {
  for (const value of [
    1.5, -0, NaN, Infinity, true, null, undefined, [1], { a: 1 }, '', 'a'.repeat(512), 'foo & bar', 'illegal/docid', 'é', ' 1',
    18446744073709551616n, -9223372036854775809n, 1e30,
  ]) {
    assert.equal(canonicalId(value), null, String(value));
  }
});

test('documentId: flat primary key', () => {
  assert.equal(documentId({ id: 1, title: 'x' }, 'id'), '1');
  assert.equal(documentId({ id: '1' }, 'id'), '1');
  assert.equal(documentId({ docid: 'abc' }, 'docid'), 'abc');
  // a dotted literal key is not a flat key
  throwsEngine(() => documentId({ 'a.b': 1 }, 'a'), 'missing_document_id', 'Document doesn\'t have a `a` attribute: `{"a.b":1}`.');
});

test('documentId: missing (reference message)', () => {
  throwsEngine(
    () => documentId({ id: '11', content: 'foobar' }, 'docid'),
    'missing_document_id',
    'Document doesn\'t have a `docid` attribute: `{"id":"11","content":"foobar"}`.',
  );
});

test('documentId: invalid ids are rendered as compact JSON', () => {
  const cases: [unknown, string][] = [
    ['foo & bar', '"foo & bar"'],
    [1.5, '1.5'],
    [true, 'true'],
    [null, 'null'],
    [[1, 'a'], '[1,"a"]'],
    [{ a: { b: 'c"d' } }, '{"a":{"b":"c\\"d"}}'],
    ['', '""'],
  ];
  for (const [value, json] of cases) {
    throwsEngine(() => documentId({ id: value }, 'id'), 'invalid_document_id', `Document identifier \`${json}\` ${INVALID_SUFFIX}`);
  }
});

test('documentId: nested primary keys', () => {
  assert.equal(documentId({ product: { sku: 'a1', name: 'x' } }, 'product.sku'), 'a1');
  assert.equal(documentId({ 'product.sku': 7 }, 'product.sku'), '7');
  assert.equal(documentId({ a: { 'b.c': 'x' } }, 'a.b.c'), 'x');
  assert.equal(documentId({ 'a.b': { c: 'x' } }, 'a.b.c'), 'x');
  throwsEngine(
    () => documentId({ product: { name: 'x' } }, 'product.sku'),
    'missing_document_id',
    'Document doesn\'t have a `product.sku` attribute: `{"product":{"name":"x"}}`.',
  );
  // arrays are not walked into
  throwsEngine(
    () => documentId({ product: [{ sku: 'a' }] }, 'product.sku'),
    'missing_document_id',
    'Document doesn\'t have a `product.sku` attribute: `{"product":[{"sku":"a"}]}`.',
  );
  throwsEngine(
    () => documentId({ product: { sku: 'a' }, 'product.sku': 'b' }, 'product.sku'),
    'invalid_document_id',
    'Document have too many matching `product.sku` attribute: `{"product":{"sku":"a"},"product.sku":"b"}`.',
  );
  throwsEngine(
    () => documentId({ product: { sku: 1.5 } }, 'product.sku'),
    'invalid_document_id',
    `Document identifier \`1.5\` ${INVALID_SUFFIX}`,
  );
});

test('compactJson renders bigints as numbers', () => {
  assert.equal(compactJson({ id: 14630868576586246730n, a: [1, 'x', null], u: undefined }), '{"id":14630868576586246730,"a":[1,"x",null]}');
});
