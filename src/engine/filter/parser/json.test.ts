// The JSON forms of `filter` (filters.md §1; milli facet/filter/tests.rs `from_array`,
// tests/search/errors.rs, tests/documents/delete_documents.rs):
// 1. null, [], [[]], blank strings: no filter.
// 2. ["a", "b"] is a AND b, [["a", "b"], "c"] is (a OR b) AND c; one-string groups collapse;
//    the result equals the same filter written as one expression.
// 3. Shape errors quote the compact JSON of the offending value, without a span, and come
//    before any parse error of the array's strings.
// 4. A parse error quotes the string it comes from, not the array.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter, parseFilterJson, type FilterNode } from './index.ts';

/** The AST without spans (strings parsed apart point into different sources). */
function plain(node: FilterNode | null): unknown {
  return JSON.parse(JSON.stringify(node, (key, value) => (key === 'span' || key === 'keyword' ? undefined : value)));
}

function messageOf(value: unknown): string {
  try {
    parseFilterJson(value);
  } catch (e) {
    return (e as Error).message;
  }
  return '<no error>';
}

test('1. no filter', () => {
  for (const empty of [null, undefined, '', '   ', [], [[]], ['', ['  ']], [[], []]]) {
    assert.equal(parseFilterJson(empty), null, JSON.stringify(empty));
  }
});

test('2. arrays are ANDs of ORs (upstream from_array)', () => {
  const same = (json: unknown, expression: string): void =>
    assert.deepEqual(plain(parseFilterJson(json)), plain(parseFilter(expression)), JSON.stringify(json));
  same([['channel = mv']], 'channel = mv');
  same(['channel = mv'], 'channel = mv');
  same([['channel = "Mister Mv"']], 'channel = "Mister Mv"');
  same(["channel = 'Mister Mv'"], "channel = 'Mister Mv'");
  same([['(channel = mv)']], '(channel = mv)');
  same(
    ['channel = gotaga', ['timestamp = 44', 'channel != ponce']],
    'channel = gotaga AND (timestamp = 44 OR channel != ponce)',
  );
  same(['a = 1', '', ['b = 2', ' '], 'c = 3'], 'a = 1 AND b = 2 AND c = 3');
  same('x = 1 OR y = 2', 'x = 1 OR y = 2');
  // strings are not flattened into the outer AND
  same(['a = 1 AND b = 2', 'c = 3'], '(a = 1 AND b = 2) AND c = 3');
  const node = parseFilterJson([['a = 1', 'b = 2'], 'c = 3']);
  assert.ok(node?.kind === 'and' && node.children[0]!.kind === 'or' && node.children.length === 2);
});

test('3. shape errors', () => {
  const shape = (expected: string, found: string): string =>
    `Invalid syntax for the filter parameter: \`expected ${expected}, found: ${found}\`.`;
  assert.equal(messageOf(true), shape('String, Array', 'true'));
  assert.equal(messageOf(12), shape('String, Array', '12'));
  assert.equal(messageOf({ a: [1, 'b'] }), shape('String, Array', '{"a":[1,"b"]}'));
  assert.equal(messageOf(['a = 1', 12]), shape('String, [String]', '12'));
  assert.equal(messageOf([null]), shape('String, [String]', 'null'));
  assert.equal(messageOf([{ x: 1.5 }]), shape('String, [String]', '{"x":1.5}'));
  assert.equal(messageOf([['a = 1', 2]]), shape('String', '2'));
  assert.equal(messageOf([['a = 1', ['b = 2']]]), shape('String', '["b = 2"]'));
  assert.equal(messageOf([[false]]), shape('String', 'false'));
  // the shape of the whole array is checked before parsing
  assert.equal(messageOf(['a =', [1e21]]), shape('String', '1e21'));
});

test('4. parse errors quote their own string', () => {
  assert.equal(
    messageOf(['a = 1', 'title & Glass']),
    'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon` at `title & Glass`.\n1:14 title & Glass',
  );
  assert.equal(
    messageOf([['a = 1', '_geo = Glass']]),
    "`_geo` is a reserved keyword and thus can't be used as a filter expression. Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.\n1:13 _geo = Glass",
  );
  // the first failing string, in order
  assert.match(messageOf(['a =', 'b =']), /\n4:4 a =$/);
  const node = parseFilterJson(['a = 1', ['b = 2']]);
  assert.ok(node?.kind === 'and' && node.children[1]!.kind === 'compare');
  assert.equal(node.children[1].field.span.source.text, 'b = 2');
});
