// `searchRules` of tenant tokens (search-rules.ts). Checks:
// 1. the list form opens its patterns without filter
// 2. the object form: the rule of the most specific pattern (exact, then longest prefix) decides
// 3. what fits neither form (serde's untagged enum) is refused
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SearchRules } from './search-rules.ts';
import { JsonReader } from './serde-json.ts';

const rules = (json: string) => SearchRules.fromContent(new JsonReader(Buffer.from(json)).any());

test('list form', () => {
  const r = rules('["sales", "prod*", "sales"]')!;
  assert.deepEqual(r.patterns, ['sales', 'prod*']);
  assert.equal(r.allIndexes, false);
  assert.ok(r.allows('sales'));
  assert.ok(r.allows('products'));
  assert.ok(r.allows('prod'));
  assert.ok(!r.allows('sale'));
  assert.equal(r.filterFor('sales'), null);
  const all = rules('["*"]')!;
  assert.ok(all.allIndexes && all.allows('anything'));
  const none = rules('[]')!;
  assert.ok(!none.allows('x'));
  assert.deepEqual(none.patterns, []);
  // patterns are not validated: an invalid uid never matches exactly, a prefix still does
  assert.ok(rules('["a b", "**"]')!.allows('a b'));
  assert.ok(!rules('["**"]')!.allows('x'));
});

test('object form: the most specific pattern gives the filter', () => {
  const r = rules('{"*": {"filter": "a = 1"}, "sal*": {"filter": ["b = 2"]}, "sales": {"filter": "c = 3"}, "salt*": null}')!;
  assert.equal(r.allIndexes, true);
  assert.equal(r.filterFor('sales'), 'c = 3');
  assert.deepEqual(r.filterFor('salad'), ['b = 2']);
  assert.equal(r.filterFor('salty'), null, 'a null rule is no filter, even under a filtering `*`');
  assert.equal(r.filterFor('movies'), 'a = 1');
  const s = rules('{"sales": {}, "movies": {"filter": null, "other": 1}, "p*": {"filter": [["x = 1", "y = 2"], "z = 3"]}}')!;
  assert.equal(s.allIndexes, false);
  assert.equal(s.filterFor('sales'), null);
  assert.equal(s.filterFor('movies'), null);
  assert.deepEqual(s.filterFor('products'), [['x = 1', 'y = 2'], 'z = 3']);
  assert.equal(s.filterFor('nope'), null);
  assert.ok(!s.allows('nope'));
  assert.deepEqual([...s.patterns], ['sales', 'movies', 'p*']);
  // a rule may be given as a one-element sequence (serde struct from sequence); filters are any JSON
  assert.equal(rules('{"sales": ["k = v"]}')!.filterFor('sales'), 'k = v');
  assert.equal(rules('{"sales": {"filter": 5}}')!.filterFor('sales'), 5);
  // the last of duplicate keys wins
  assert.equal(rules('{"sales": {"filter": "a"}, "sales": {"filter": "b"}}')!.filterFor('sales'), 'b');
});

test('what fits neither form', () => {
  for (const json of ['"kefir"', '5', 'null', 'true', '["a", 1]', '[["a"]]', '{"a": "x"}', '{"a": 1}', '{"a": []}', '{"a": ["x", "y"]}', '{"a": {"filter": 1, "filter": 2}}']) {
    assert.equal(rules(json), null, json);
  }
});
