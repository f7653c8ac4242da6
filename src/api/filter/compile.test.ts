// The filter API (filters.md §1, §5, §8; search.md §10, §13; documents.md §4.2, §5.3):
// 1. parse errors: the route's code, the original text, never prefixed;
// 2. feature gates (CONTAINS, _foreign, _shard, _vectors): feature_not_enabled with the span;
// 3. not filterable: checked for every field, even in branches never taken, first rule decides;
//    search quotes the re-serialized filter with the index prefix, documents the original text;
// 4. operator not allowed by the rule's features (no column line);
// 5. geo: `_geo`/`_geojson` filterability, coordinate errors;
// 6. re-serialization text and spans; results through compiled filters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryFacetReader } from '../../engine/facet/memory-reader.ts';
import { filterFields, parseFilter } from '../../engine/filter/parser/index.ts';
import { ApiError } from '../errors/index.ts';
import type { FilterableRule } from '../settings/index.ts';
import { compileFilter, reserializeFilter, type FilterFeatures, type FilterRoute } from './index.ts';

const OFF: FilterFeatures = { containsFilter: false, foreignKeys: false, network: false, multimodal: false };
const ON: FilterFeatures = { containsFilter: true, foreignKeys: true, network: true, multimodal: true };

const docs = [
  { id: 0, title: 'Glass', doggos: { age: 2, name: 'kefir' }, color: 'red', _geo: { lat: 45.76, lng: 4.83 } },
  { id: 1, title: 'Kefir', doggos: [{ age: 5 }], color: 'blue' },
  { id: 2, many: 'Glass', color: 'blue', _geojson: { type: 'Point', coordinates: [4.8301, 45.7601] } },
];
const reader = new MemoryFacetReader(docs.map((d, i) => [i, d as never] as const));

function run(filter: unknown, rules: FilterableRule[], route: FilterRoute = 'search', features = OFF): number[] {
  const compiled = compileFilter(filter, route, features);
  if (compiled === null) return [-1];
  return compiled.evaluate({ filterableAttributes: rules, reader, documents: reader.documents }, 'movies').toArray();
}

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return { code: e.code, message: e.message };
  }
  assert.fail('no error');
}

const fail = (filter: unknown, rules: FilterableRule[], route: FilterRoute = 'search', features = OFF) =>
  failure(() => run(filter, rules, route, features));

test('1. parse errors', () => {
  const expected =
    'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon` at `title & Glass`.\n1:14 title & Glass';
  assert.deepEqual(fail('title & Glass', ['title']), { code: 'invalid_search_filter', message: expected });
  assert.deepEqual(fail('title & Glass', ['title'], 'documents'), { code: 'invalid_document_filter', message: expected });
  assert.deepEqual(fail('title & Glass', ['title'], 'similar'), { code: 'invalid_similar_filter', message: expected });
  assert.deepEqual(fail(true, []), {
    code: 'invalid_search_filter',
    message: 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.',
  });
  assert.deepEqual(fail([['a = 1', 2]], [], 'documentsDelete'), {
    code: 'invalid_document_filter',
    message: 'Invalid syntax for the filter parameter: `expected String, found: 2`.',
  });
  assert.match(fail('_geo = Glass', []).message, /^`_geo` is a reserved keyword .*\n1:13 _geo = Glass$/);
  for (const none of [null, undefined, '', '  ', [], [[]], ['', ['']]]) assert.equal(compileFilter(none, 'search', OFF), null);
});

test('2. feature gates', () => {
  assert.deepEqual(fail('doggo CONTAINS kefir', ['doggo']), {
    code: 'feature_not_enabled',
    message:
      'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n7:15 doggo CONTAINS kefir',
  });
  // gates come before filterability, and STARTS WITH is not gated
  assert.equal(fail('title = x OR nope CONTAINS kefir', ['title'], 'documents').code, 'feature_not_enabled');
  assert.deepEqual(run('title STARTS WITH gl', ['title']), [0]);
  assert.deepEqual(run('title CONTAINS EFI', ['title'], 'search', ON), [1]);
  assert.deepEqual(fail('_foreign(author, id = a1)', []), {
    code: 'feature_not_enabled',
    message:
      'using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n10:16 _foreign(author, id = a1)',
  });
  assert.deepEqual(fail('_foreign(author, id = a1)', [], 'documentsDelete', ON), {
    code: 'invalid_document_filter',
    message: 'Filter condition `_foreign` is not supported for this endpoint.\n10:16 _foreign(author, id = a1)',
  });
  assert.deepEqual(fail('_shard = s1', []), {
    code: 'feature_not_enabled',
    message:
      'using a shard filter requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805\n1:7 _shard = s1',
  });
  assert.deepEqual(fail('a = 1 OR _vectors.e EXISTS', []), {
    code: 'feature_not_enabled',
    message:
      'using a vector filter requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846\n10:18 a = 1 OR _vectors.e EXISTS',
  });
  // evaluated against a target that has no vector store (the search routes give theirs: test/http/vectors.test.ts)
  assert.equal(fail('_vectors EXISTS', [], 'search', ON).message, 'Using a `_vectors` filter is not supported by this version of Muninn yet.');
});

test('3. not filterable', () => {
  assert.deepEqual(fail('many = Glass', ['title']), {
    code: 'invalid_search_filter',
    message: 'Index `movies`: Attribute `many` is not filterable. Available filterable attribute patterns are: `title`.\n2:6 "many" = "Glass"',
  });
  assert.deepEqual(fail('many = Glass', ['title'], 'documents'), {
    code: 'invalid_document_filter',
    message: 'Attribute `many` is not filterable. Available filterable attribute patterns are: `title`.\n1:5 many = Glass',
  });
  assert.deepEqual(fail('many = Glass', ['title'], 'similar').message.split('\n')[1], '1:5 many = Glass');
  assert.deepEqual(fail('doggo = bernese', [], 'documentsDelete'), {
    code: 'invalid_document_filter',
    message: 'Index `movies`: Attribute `doggo` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo = bernese',
  });
  const rules: FilterableRule[] = [
    'father',
    { attributePatterns: ['doggos', 'cattos'], features: { facetSearch: false, filter: { equality: true, comparison: false } } },
    { attributePatterns: ['hidden'], features: { facetSearch: true, filter: { equality: false, comparison: false } } },
  ];
  assert.equal(
    fail('dog = 1', rules, 'documents').message,
    'Attribute `dog` is not filterable. Available filterable attribute patterns are: `cattos`, `doggos`, `father`.\n1:4 dog = 1',
  );
  // a rule without filter features makes its fields unfilterable
  assert.match(fail('hidden = 1', rules, 'documents').message, /^Attribute `hidden` is not filterable/);
  // every field, even in a branch never evaluated; the last operand is checked first (milli's stack)
  assert.match(fail('title = Glass OR many = 1', ['title'], 'documents').message, /^Attribute `many` .*\n18:22 /);
  assert.match(fail('nope = 1 AND title = "test" AND name = 12', [], 'documents').message, /^Attribute `name` /);
  assert.equal(
    fail('(title = "x" AND many = 1) OR NOT color IN [a]', ['title', 'color']).message,
    'Index `movies`: Attribute `many` is not filterable. Available filterable attribute patterns are: `color`, `title`.\n24:28 (("title" = "x") AND ("many" = "1")) OR (NOT ("color" IN ["a"]))',
  );
  // the first matching rule decides: `doggos.*` comes before `doggos` and disables filtering
  const ordered: FilterableRule[] = [
    { attributePatterns: ['doggos.*'], features: { facetSearch: true, filter: { equality: false, comparison: false } } },
    'doggos',
  ];
  assert.match(fail('doggos.age = 2', ordered, 'documents').message, /^Attribute `doggos.age` is not filterable. Available filterable attribute patterns are: `doggos`\./);
  assert.deepEqual(run('doggos.age = 2', ['doggos']), [0]);
  // exact object patterns do not cover nested fields
  const exact: FilterableRule[] = [{ attributePatterns: ['doggos'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }];
  assert.match(fail('doggos.age = 2', exact, 'documents').message, /^Attribute `doggos.age` is not filterable/);
});

test('4. operator not allowed', () => {
  const rules: FilterableRule[] = [{ attributePatterns: ['doggos.*'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }];
  const expected = [
    'Filter operator `>` is not allowed for the attribute `doggos.age`.',
    '  - Note: allowed operators: OR, AND, NOT, =, !=, IN, IS EMPTY, IS NULL, EXISTS.',
    '  - Note: field `doggos.age` matched rule #0 in `filterableAttributes`',
    '  - Hint: enable comparison in rule #0 by modifying the features.filter object',
    '  - Hint: prepend another rule matching `doggos.age` with appropriate filter features before rule #0',
  ].join('\n');
  assert.deepEqual(fail('doggos.age > 2', rules, 'documents'), { code: 'invalid_document_filter', message: expected });
  assert.equal(fail('doggos.age > 2', rules).message, `Index \`movies\`: ${expected}`);
  const comparisonOnly: FilterableRule[] = [
    'title',
    { attributePatterns: ['doggos.age'], features: { facetSearch: false, filter: { equality: false, comparison: true } } },
  ];
  assert.equal(
    fail('doggos.age IN [2]', comparisonOnly, 'documents').message,
    [
      'Filter operator `=` is not allowed for the attribute `doggos.age`.',
      '  - Note: allowed operators: OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS.',
      '  - Note: field `doggos.age` matched rule #1 in `filterableAttributes`',
      '  - Hint: enable equality in rule #1 by modifying the features.filter object',
      '  - Hint: prepend another rule matching `doggos.age` with appropriate filter features before rule #1',
    ].join('\n'),
  );
  assert.deepEqual(run('doggos.age 1 TO 3 AND doggos.age EXISTS', comparisonOnly), [0]);
  // not evaluated (the AND is already empty) or an unknown field: no error
  assert.deepEqual(run('title = nope AND doggos.age > 2', [...rules, 'title']), []);
  assert.deepEqual(run('doggos.size > 2', rules), []);
});

test('5. geo', () => {
  assert.deepEqual(fail('_geoRadius(42, 150, 10)', [], 'documents'), {
    code: 'invalid_document_filter',
    message: 'Attribute `_geo/_geojson` is not filterable. This index does not have configured filterable attributes.\n12:14 _geoRadius(42, 150, 10)',
  });
  assert.equal(
    fail('_geoRadius(42,150,10)', ['title']).message,
    'Index `movies`: Attribute `_geo/_geojson` is not filterable. Available filterable attribute patterns are: `title`.\n12:14 _geoRadius(42, 150, 10)',
  );
  assert.equal(
    fail('_geoPolygon([1, 2], [3, 4], [5, 6])', ['_geo'], 'documents').message,
    'Attribute `_geojson` is not filterable. Available filterable attribute patterns are: `_geo`.\n14:15 _geoPolygon([1, 2], [3, 4], [5, 6])',
  );
  assert.equal(
    fail('_geoBoundingBox([1, 2], [-100, 4])', ['_geo'], 'documents').message,
    'Bad latitude `-100`. Latitude must be contained between -90 and 90 degrees.\n26:30 _geoBoundingBox([1, 2], [-100, 4])',
  );
  assert.equal(
    fail('_geoRadius(45, 250, 10)', ['_geo']).message,
    'Index `movies`: Bad longitude `250`. Longitude must be contained between -180 and 180 degrees. Hint: try using `-110` instead.\n16:19 _geoRadius(45, 250, 10)',
  );
  assert.deepEqual(run('_geoRadius(45.76, 4.83, 100)', ['_geo']), [0]);
  assert.deepEqual(run(['_geoBoundingBox([46, 5], [45, 4])', 'NOT title = kefir'], ['_geo', 'title']), [0]);
  // `_geo` must be listed as a string rule; a pattern matching `_geo` is not enough
  const pattern: FilterableRule[] = [{ attributePatterns: ['_geo'], features: { facetSearch: false, filter: { equality: true, comparison: true } } }];
  assert.match(fail('_geoRadius(45.76, 4.83, 100)', pattern, 'documents').message, /^Attribute `_geo\/_geojson` is not filterable/);
  // `_geojson` shapes: radius and box search them with `_geo` points, the polygon only them
  assert.deepEqual(run('_geoRadius(45.76, 4.83, 100)', ['_geojson']), [2]);
  assert.deepEqual(run('_geoRadius(45.76, 4.83, 100)', ['_geo', '_geojson']), [0, 2]);
  assert.deepEqual(run('_geoPolygon([45, 4], [46, 4], [46, 5], [45, 5])', ['_geo', '_geojson']), [2]);
  assert.deepEqual(run('_geoBoundingBox([46, 5], [45, 4])', ['_geojson'], 'documents'), [2]);
});

test('6. re-serialization and results', () => {
  /** The re-serialized text, read from the spans of the new AST. */
  const source = (filter: string) => filterFields(reserializeFilter(parseFilter(filter)!))[0]!.span.source.text;
  assert.equal(source('title = "a \\"b\\""'), '"title" = "a \\"b\\""');
  assert.equal(source('a 1 TO 2 AND b NOT EXISTS'), '("a" "1" TO "2") AND (NOT ("b" EXISTS))');
  assert.equal(
    source('a IS NOT NULL OR b IS EMPTY OR c CONTAINS x OR d NOT STARTS WITH y'),
    '(NOT ("a" IS NULL)) OR ("b" IS EMPTY) OR ("c" CONTAINS "x") OR (NOT ("d" STARTS WITH "y"))',
  );
  assert.equal(
    source('a IN [] AND _geoRadius(1, 2.50, 3, 10) AND _geoBoundingBox([1,2],[3,4])'),
    '("a" IN []) AND (_geoRadius(1, 2.50, 3, 10)) AND (_geoBoundingBox([1, 2], [3, 4]))',
  );
  // the re-serialized text parses back to the same filter
  const withoutSpans = (filter: string) => JSON.stringify(parseFilter(filter), (k, v) => (k === 'span' || k === 'keyword' ? undefined : v));
  for (const filter of ['title = "a \\"b\\"" OR NOT (color IN [red, "x y"] AND doggos.age >= 2)', "color != 'it\\'s' AND x 1 TO 2"]) {
    assert.equal(withoutSpans(source(filter)), withoutSpans(filter), filter);
  }
  assert.deepEqual(run('color = blue', ['color']), [1, 2]);
  assert.deepEqual(run([['color = red', 'title = kefir'], 'color != blue OR title EXISTS'], ['color', 'title'], 'documents'), [0, 1]);
  assert.deepEqual(run('doggos.name = KEFIR', ['doggos']), [0]);
});
