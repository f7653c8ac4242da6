// The evaluator against the in-memory reader (filters.md §3–§4, milli `index_filter.rs`):
// 1. the examples of filters.md §4, and `=` on numbers and numeric strings;
// 2. comparisons are a numeric range ∪ a byte-wise string range; TO's number/string rules;
// 3. IN / NOT IN, EXISTS, IS NULL, IS EMPTY with the extraction rules of §3;
// 4. CONTAINS, STARTS WITH (empty prefix = EXISTS), normalization of values;
// 5. NOT is relative to its universe; AND stops at an empty result, so later conditions raise
//    nothing; a field never seen or matched by no rule gives ∅ without checking operators;
// 6. operator permissions (IN checked as `=`, each element), geo checks and geo filters (`_geo`
//    points, `_geojson` shapes, both);
// 7. the reader's bitmaps are never changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter, FilterSyntaxError } from '../parser/index.ts';
import { documentFacets, MemoryFacetReader } from '../../facet/memory-reader.ts';
import {
  evaluateFilter,
  GeoNotFilterableError,
  OperatorNotAllowedError,
  type FieldAccess,
  type FilterScope,
} from './index.ts';

type Doc = Record<string, unknown>;
const ALL: FieldAccess = { equality: true, comparison: true, rule: 0 };

function scopeOf(docs: Doc[], opts: Partial<Omit<FilterScope, 'reader' | 'documents'>> = {}): FilterScope {
  // ids 10, 20, 30… so that nothing relies on dense ids
  const reader = new MemoryFacetReader(docs.map((d, i) => [(i + 1) * 10, d as never] as const));
  return { reader, documents: reader.documents, access: () => ALL, geo: { points: true, shapes: false }, ...opts };
}

/** Positions (in `docs`) of the documents matching `filter`. */
function matching(docs: Doc[], filter: string, opts: Partial<Omit<FilterScope, 'reader' | 'documents'>> = {}): number[] {
  return evaluateFilter(parseFilter(filter)!, scopeOf(docs, opts)).toArray().map((id) => id / 10 - 1);
}

const colors: Doc[] = [{ id: 0, color: 'red' }, { id: 1, color: 'blue' }, { id: 2, color: 'blue' }, { id: 3 }];

test('1. filters.md §4 examples; `=` on numbers and strings', () => {
  assert.deepEqual(matching(colors, 'color = blue'), [1, 2]);
  assert.deepEqual(matching(colors, 'color != blue'), [0, 3]);
  assert.deepEqual(matching(colors, '(color != blue) AND color EXISTS'), [0]);
  assert.deepEqual(matching(colors, 'color NOT EXISTS'), [3]);
  assert.deepEqual(matching(colors, 'color = BLUE'), [1, 2]);
  const prices: Doc[] = [{ price: 10 }, { price: 10.0 }, { price: '10' }, { price: '10.0' }, { price: 11 }, { price: ' 10 ' }];
  assert.deepEqual(matching(prices, 'price = 10'), [0, 1, 2, 5]);
  assert.deepEqual(matching(prices, 'price = 10.0'), [0, 1, 3]);
  assert.deepEqual(matching(prices, 'price = "1e1"'), [0, 1]);
  assert.deepEqual(matching(prices, 'price != 10'), [3, 4]);
  // booleans are the strings "true"/"false"
  assert.deepEqual(matching([{ b: true }, { b: false }, { b: 'TRUE' }], 'b = true'), [0, 2]);
  // multi-valued: any value matches; != excludes a document having the value among others
  const tags: Doc[] = [{ tags: ['a', 'b'] }, { tags: ['b'] }, { tags: [['a']] }];
  assert.deepEqual(matching(tags, 'tags = a'), [0, 2]);
  assert.deepEqual(matching(tags, 'tags != a'), [1]);
  assert.deepEqual(matching(tags, 'tags = a AND tags = b'), [0]);
});

test('2. comparisons: numeric range ∪ byte-wise string range; TO', () => {
  const docs: Doc[] = [{ v: 9 }, { v: 10 }, { v: 11 }, { v: '9' }, { v: '10' }, { v: 'b' }, { v: 'B' }, { v: 'a' }, { v: 'é' }];
  assert.deepEqual(matching(docs, 'v > 10'), [2, 3, 5, 6, 7, 8]); // "9" > "10" as bytes
  assert.deepEqual(matching(docs, 'v >= 10'), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(matching(docs, 'v < 10'), [0]);
  assert.deepEqual(matching(docs, 'v <= 10'), [0, 1, 4]);
  assert.deepEqual(matching(docs, 'v > a'), [5, 6, 8]); // strings only: "a" is not a number
  assert.deepEqual(matching(docs, 'v 9 TO 10'), [0, 1]); // numbers 9..10; strings: "9" > "10" → none
  assert.deepEqual(matching(docs, 'v 10 TO 9'), [3, 4]); // numbers empty (10 > 9); strings "10" ≤ s ≤ "9"
  assert.deepEqual(matching(docs, 'v 9 TO b'), [3, 5, 6, 7]); // strings only: "b" is not a number
  assert.deepEqual(matching(docs, 'v b TO a'), []);
  assert.deepEqual(matching(docs, 'v a TO z'), [5, 6, 7, 8]); // "é" is stored as "e\u0301"
  assert.deepEqual(matching(docs, 'v é TO é'), [8]);
  assert.deepEqual(matching([{ n: -1.5 }, { n: 0 }, { n: 1e300 }], 'n -2 TO 1e301'), [0, 1, 2]);
});

test('3. IN, NOT IN, EXISTS, IS NULL, IS EMPTY (extraction of §3)', () => {
  assert.deepEqual(matching(colors, 'color IN [red, BLUE]'), [0, 1, 2]);
  assert.deepEqual(matching(colors, 'color IN []'), []);
  assert.deepEqual(matching(colors, 'color NOT IN [red]'), [1, 2, 3]);
  assert.deepEqual(matching(colors, 'color NOT IN []'), [0, 1, 2, 3]);
  const docs: Doc[] = [
    { f: null }, //  0 null
    { f: [] }, //    1 empty
    { f: {} }, //    2 empty
    { f: '' }, //    3 empty
    { f: '  ' }, //  4 the string value "" — neither empty nor null
    { f: [null] }, // 5 exists only
    { f: [''] }, //  6 exists only
    { f: [[]] }, //  7 exists only
    { g: 1 }, //     8 no f
    { f: { x: null } }, // 9 f exists (parent), f.x null
    { f: [{ x: null }, { x: [] }] }, // 10 f.x null (directly a key's value) and empty
  ];
  assert.deepEqual(matching(docs, 'f EXISTS'), [0, 1, 2, 3, 4, 5, 6, 7, 9, 10]);
  assert.deepEqual(matching(docs, 'f IS NULL'), [0]);
  assert.deepEqual(matching(docs, 'f IS NOT NULL'), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(matching(docs, 'f IS EMPTY'), [1, 2, 3]);
  assert.deepEqual(matching(docs, 'f.x IS NULL'), [9, 10]);
  assert.deepEqual(matching(docs, 'f.x IS EMPTY'), [10]);
  assert.deepEqual(matching(docs, "f = ''"), [4]);
  assert.deepEqual(matching(docs, 'f.x EXISTS'), [9, 10]);
  const facets = documentFacets({ a: { b: [1, 'X', true] } });
  assert.deepEqual([...facets.keys()], ['a', 'a.b']);
  assert.deepEqual([...facets.get('a.b')!.strings], ['x', 'true']);
  assert.deepEqual([...facets.get('a.b')!.numbers], [1]);
});

test('4. CONTAINS, STARTS WITH, normalization', () => {
  const docs: Doc[] = [{ t: 'Kefir the dog' }, { t: ['chat', 'Chien'] }, { t: 'Été' }, { t: 12 }, { t: '' }, { u: 1 }];
  assert.deepEqual(matching(docs, 't CONTAINS "the"'), [0]);
  assert.deepEqual(matching(docs, 't CONTAINS HI'), [1]);
  assert.deepEqual(matching(docs, 't NOT CONTAINS hi'), [0, 2, 3, 4, 5]);
  assert.deepEqual(matching(docs, 't STARTS WITH ch'), [1]);
  assert.deepEqual(matching(docs, 't STARTS WITH "  KEF"'), [0]);
  assert.deepEqual(matching(docs, 't STARTS WITH été'), [2]); // NFKD on both sides
  assert.deepEqual(matching(docs, 't STARTS WITH e'), [2]); // é decomposes to e + U+0301
  assert.deepEqual(matching(docs, 't = ete'), []); // no accent folding
  assert.deepEqual(matching(docs, "t STARTS WITH ''"), [0, 1, 2, 3, 4]); // = EXISTS
  assert.deepEqual(matching(docs, 't STARTS WITH 1'), []); // numbers are not strings
  assert.deepEqual(matching([{ t: 'ﬁne' }], 't = fine'), [0]); // compatibility decomposition
});

test('5. NOT and universes, AND short-circuit, unknown fields', () => {
  assert.deepEqual(matching(colors, 'NOT color = red'), [1, 2, 3]);
  assert.deepEqual(matching(colors, 'NOT NOT color = red'), [0]);
  assert.deepEqual(matching(colors, 'id >= 1 AND (NOT color = blue OR id = 1)'), [1, 3]);
  assert.deepEqual(matching(colors, 'nope = 1 OR NOT nope EXISTS'), [0, 1, 2, 3]);
  const equalityOnly = (field: string): FieldAccess | null => (field === 'color' ? { equality: true, comparison: false, rule: 2 } : ALL);
  // `color > a` is never evaluated: the AND is already empty
  assert.deepEqual(matching(colors, 'id = 9 AND color > a', { access: equalityOnly }), []);
  assert.deepEqual(matching(colors, 'id = 9 AND (color > a OR id = 1)', { access: equalityOnly }), []);
  // a field the index never saw matches nothing, whatever the operator
  assert.deepEqual(matching(colors, 'size > 3', { access: () => ({ equality: false, comparison: false, rule: 0 }) }), []);
  // a field no rule matches matches nothing (the caller already refused non-filterable fields)
  assert.deepEqual(matching(colors, 'color = red', { access: () => null }), []);
});

test('6. operator permissions and geo', () => {
  const equalityOnly = () => ({ equality: true, comparison: false, rule: 1 });
  const refused = (filter: string, access: () => FieldAccess) => {
    try {
      matching(colors, filter, { access });
    } catch (e) {
      assert.ok(e instanceof OperatorNotAllowedError);
      return [e.field, e.operator, e.access.rule];
    }
    return null;
  };
  assert.deepEqual(refused('color > a', equalityOnly), ['color', '>', 1]);
  assert.deepEqual(refused('color 1 TO 2', equalityOnly), ['color', 'TO', 1]);
  const comparisonOnly = () => ({ equality: false, comparison: true, rule: 0 });
  assert.deepEqual(refused('color IN [a]', comparisonOnly), ['color', '=', 0]);
  assert.deepEqual(refused('color NOT IN [a]', comparisonOnly), ['color', '=', 0]);
  assert.deepEqual(refused('color != a', comparisonOnly), ['color', '!=', 0]);
  assert.equal(refused('color IN []', comparisonOnly), null);
  assert.equal(refused('color EXISTS OR color IS NULL OR color IS EMPTY OR color CONTAINS x OR color STARTS WITH x', comparisonOnly), null);

  const places: Doc[] = [
    { _geo: { lat: 48.8566, lng: 2.3522 } }, // Paris
    { _geo: { lat: '45.764', lng: '4.8357' } }, // Lyon, as strings
    { _geo: { lat: -17.7, lng: 178.0 } }, // Fiji
    { _geo: { lat: -17.7, lng: -179.5 } }, // across the antimeridian
    { name: 'nowhere' },
  ];
  assert.deepEqual(matching(places, '_geoRadius(48.8566, 2.3522, 10)'), [0]);
  assert.deepEqual(matching(places, '_geoRadius(48.8566, 2.3522, 400000)'), [0, 1]);
  assert.deepEqual(matching(places, '_geoBoundingBox([50, 5], [45, 2])'), [0, 1]);
  assert.deepEqual(matching(places, '_geoBoundingBox([0, -179], [-20, 177])'), [2, 3]);
  assert.deepEqual(matching(places, 'NOT _geoRadius(48.8566, 2.3522, 400000)'), [2, 3, 4]);
  const errorOf = (filter: string, geo = { points: true, shapes: false }) => {
    try {
      matching(places, filter, { geo });
      return null;
    } catch (e) {
      return e;
    }
  };
  const noGeo = errorOf('_geoRadius(1, 2, 3)', { points: false, shapes: false });
  assert.ok(noGeo instanceof GeoNotFilterableError);
  assert.equal(noGeo.attribute, '_geo/_geojson');
  assert.equal(noGeo.token.text, '1');
  const polygon = errorOf('_geoPolygon([1, 2], [3, 4], [5, 6])');
  assert.ok(polygon instanceof GeoNotFilterableError && polygon.attribute === '_geojson');
  // `_geojson` shapes: the polygon only sees shapes, radius and box see points and shapes
  const shapes: Doc[] = [
    { _geojson: { type: 'Point', coordinates: [1, 1] } },
    { _geojson: { type: 'Polygon', coordinates: [[[0, 0], [3, 0], [3, 3], [0, 0]]] }, _geo: { lat: 40, lng: 40 } },
    { _geo: { lat: 1, lng: 1 } },
    { _geojson: { type: 'LineString', coordinates: [[170, -5], [-170, 5]] } },
  ];
  const both = { geo: { points: true, shapes: true } };
  assert.deepEqual(matching(shapes, '_geoPolygon([0.5, 0.5], [0.5, 1.5], [1.5, 1.5], [1.5, 0.5])', both), [0, 1]);
  assert.deepEqual(matching(shapes, '_geoRadius(1, 1, 1000)', both), [0, 1, 2]);
  assert.deepEqual(matching(shapes, '_geoRadius(1, 1, 1000)', { geo: { points: false, shapes: true } }), [0, 1]);
  assert.deepEqual(matching(shapes, '_geoRadius(1, 1, 1000)'), [2]);
  assert.deepEqual(matching(shapes, '_geoBoundingBox([41, 41], [39, 39])', both), [1]);
  assert.deepEqual(matching(shapes, '_geoBoundingBox([1, -175], [-1, 175])', both), [3]);
  assert.deepEqual(matching(shapes, 'NOT _geoPolygon([0.5, 0.5], [0.5, 1.5], [1.5, 1.5])', both), [2, 3]);
  // without `_geo` filterable, a box only sees shapes: `_geo.lat` / `_geo.lng` rules do not matter
  assert.deepEqual(matching(shapes, '_geoBoundingBox([2, 2], [0, 0])', { geo: { points: false, shapes: true }, access: () => null }), [0, 1]);
  const latitude = errorOf('_geoRadius(100, 2, 3)');
  assert.ok(latitude instanceof FilterSyntaxError);
  assert.equal(latitude.message, 'Bad latitude `100`. Latitude must be contained between -90 and 90 degrees.\n12:15 _geoRadius(100, 2, 3)');
  // coordinates are checked before filterability, as in milli
  assert.ok(errorOf('_geoRadius(100, 2, 3)', { points: false, shapes: false }) instanceof FilterSyntaxError);
  // the bounding box runs as TO ranges on `_geo.lat` / `_geo.lng`: their rule must allow comparison
  const box = (() => {
    try {
      matching(places, '_geoBoundingBox([50, 5], [45, 2])', { access: (f) => (f.startsWith('_geo.') ? { equality: true, comparison: false, rule: 0 } : ALL) });
      return null;
    } catch (e) {
      return e;
    }
  })();
  assert.ok(box instanceof OperatorNotAllowedError && box.field === '_geo.lat' && box.operator === 'TO');
});

test('7. the reader’s bitmaps are left as they were', () => {
  const scope = scopeOf(colors);
  const before = scope.reader.exists(scope.reader.fieldId('color')!).toArray();
  const all = scope.documents.toArray();
  for (const filter of ['color EXISTS', 'color EXISTS AND id = 1', 'NOT color EXISTS', 'color EXISTS OR id = 3', 'color STARTS WITH ""']) {
    const result = evaluateFilter(parseFilter(filter)!, scope);
    result.add(999);
    result.remove(10);
  }
  assert.deepEqual(scope.reader.exists(scope.reader.fieldId('color')!).toArray(), before);
  assert.deepEqual(scope.documents.toArray(), all);
});
