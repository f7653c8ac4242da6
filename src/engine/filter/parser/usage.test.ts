// What the layers above ask a parsed filter (filter-parser `lib.rs` tests `fids`, `depth`;
// tests/search/errors.rs for the CONTAINS gate):
// 1. `filterFields` lists field tokens in milli's stack order, limited by depth.
// 2. `containsKeyword` finds the CONTAINS token (its span is what the gate error quotes);
//    STARTS WITH is not gated.
// 3. `vectorFilterField`, `foreignField` and `fieldUse` find the experimental constructs.
// 4. `tokenAtDepth` walks `and`/`or` levels only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  containsKeyword,
  fieldUse,
  filterFields,
  foreignField,
  parseFilter,
  spanError,
  tokenAtDepth,
  vectorFilterField,
  type FilterNode,
} from './index.ts';

const parse = (text: string): FilterNode => parseFilter(text)!;
const names = (node: FilterNode, depth?: number): string[] => filterFields(node, depth).map((t) => t.text);

test('1. filterFields (upstream fids)', () => {
  assert.deepEqual(names(parse('field = value')), ['field']);
  assert.deepEqual(names(parse('field IN [1, 2, 3]')), ['field']);
  assert.deepEqual(names(parse('field1 = value1 AND field2 = value2')), ['field2', 'field1']);
  assert.deepEqual(names(parse('field1 = value1 OR field2 = value2')), ['field2', 'field1']);
  assert.deepEqual(names(parse('field1 = value1 AND (field2 = value2 OR field3 = value3)'), 1), ['field1']);
  assert.deepEqual(
    names(parse('a EXISTS AND NOT b IS NULL AND _geoRadius(1, 2, 3) AND _vectors EXISTS AND _foreign(c, d = 1)')),
    ['c', 'b', 'a'],
  );
  // the not-filterable error points at the token (milli tests.rs `not_filterable`)
  const [name] = filterFields(parse('title = "test" AND name = 12'));
  assert.equal(
    spanError('Attribute `name` is not filterable. Available filterable attribute patterns are: `title`.', name!.span)
      .message,
    'Attribute `name` is not filterable. Available filterable attribute patterns are: `title`.\n20:24 title = "test" AND name = 12',
  );
});

test('2. containsKeyword', () => {
  const keyword = containsKeyword(parse('doggo CONTAINS kefir'));
  assert.ok(keyword !== null);
  assert.equal(
    spanError('Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature.', keyword)
      .message,
    'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature.\n7:15 doggo CONTAINS kefir',
  );
  assert.equal(containsKeyword(parse('a STARTS WITH b')), null);
  assert.equal(containsKeyword(parse('a = 1 OR NOT (b NOT CONTAINS x AND c CONTAINS y)'))?.start, 20);
  assert.equal(containsKeyword(parse('_foreign(a, b CONTAINS c)'))?.start, 14);
});

test('3. experimental constructs', () => {
  assert.equal(vectorFilterField(parse('a = 1 OR NOT _vectors.e NOT EXISTS'))?.span.start, 13);
  assert.equal(vectorFilterField(parse('_vectors = 1')), null);
  assert.equal(foreignField(parse('_foreign(a, x = 1) AND _foreign(b, y = 1)'))?.text, 'b');
  assert.equal(foreignField(parse('a = 1')), null);
  assert.equal(fieldUse(parse('a = 1 AND _shard IN [s1]'), '_shard')?.span.start, 10);
  assert.equal(fieldUse(parse('_foreign(_shard, a = 1)'), '_shard')?.span.start, 9);
  assert.equal(fieldUse(parse('_geoRadius(1, 2, 3)'), '_shard'), null);
});

test('4. tokenAtDepth (upstream depth)', () => {
  const flat = parse('account_ids=1 OR account_ids=2 OR account_ids=3 OR account_ids=4 OR account_ids=5 OR account_ids=6');
  assert.ok(tokenAtDepth(flat, 1) !== null);
  assert.equal(tokenAtDepth(flat, 2), null);
  const nested = parse(
    '(account_ids=1 OR (account_ids=2 AND account_ids=3) OR (account_ids=4 AND account_ids=5) OR account_ids=6)',
  );
  assert.ok(tokenAtDepth(nested, 2) !== null);
  assert.equal(tokenAtDepth(nested, 3), null);
  const mixed = parse('account_ids=1 OR account_ids=2 AND account_ids=3 OR account_ids=4 AND account_ids=5 OR account_ids=6');
  assert.ok(tokenAtDepth(mixed, 2) !== null);
  assert.equal(tokenAtDepth(mixed, 3), null);
  assert.equal(tokenAtDepth(parse('NOT a = 1'), 0), null);
  assert.equal(tokenAtDepth(parse('_geoRadius(1, 2, 3)'), 0)?.text, '1');
});
