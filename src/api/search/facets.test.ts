// The `facets` parameter over an in-memory facet reader (facets.md §1–3). Properties checked:
// 1. validation: each pattern in order; the three messages (not filterable with the sorted,
//    deduplicated filter-enabled patterns; no filterable attributes; matched rule without filter)
// 2. field selection: exact names with nested fields, wildcard patterns, parents, the first
//    matching rule decides, names sorted; value order from the exact requested name, else `*`
// 3. distribution: normalized values collapse under one original spelling, numbers first with
//    Rust keys, `maxValuesPerFacet` (numbers take the first slots), `alpha` and `count` orders
//    with ties, the ≤ 3000-candidates quirk (numbers ordered as text), empty fields → {}
// 4. both algorithms (per document / per value) give the oracle's counts; which one runs
// 5. stats: numeric min/max among candidates, strings ignored, fields without numbers omitted
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { ApiError } from '../errors/index.ts';
import { defaultSettings, type FilterableRule, type Settings } from '../settings/index.ts';
import { checkFacets, computeFacets, facetFields } from './facets.ts';
import { fieldDistribution, fieldStats, LINEAR_SCAN_MAX } from './facets-distribution.ts';
import { MemoryFacetReader } from '../../engine/facet/memory-reader.ts';

const noFilter = (patterns: string[]): FilterableRule => ({
  attributePatterns: patterns,
  features: { facetSearch: true, filter: { equality: false, comparison: false } },
});
const equality = (patterns: string[]): FilterableRule => ({
  attributePatterns: patterns,
  features: { facetSearch: false, filter: { equality: true, comparison: false } },
});

function facetsMessage(requested: string[], rules: FilterableRule[]): string | null {
  try {
    checkFacets(requested, rules);
    return null;
  } catch (err) {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 'invalid_search_facets');
    return err.message;
  }
}

test('validation messages', () => {
  assert.equal(
    facetsMessage(['doggo'], ['title', 'genres', noFilter(['secret']), equality(['genres', 'a*'])]),
    'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `a*, genres, title`.',
  );
  assert.equal(
    facetsMessage(['doggo'], []),
    'Invalid facet distribution: Pattern `doggo` is not filterable. This index does not have configured filterable attributes.',
  );
  assert.equal(
    facetsMessage(['*'], []),
    'Invalid facet distribution: Pattern `*` is not filterable. This index does not have configured filterable attributes.',
  );
  assert.equal(
    facetsMessage(['genres'], [equality(['title']), noFilter(['genres'])]),
    'Invalid facet distribution: Attribute `genres` matched rule #1 in filterableAttributes, but this rule does not enable filtering.\n' +
      'Hint: enable filtering in rule #1 by modifying the features.filter object\n' +
      'Hint: prepend another rule matching `genres` with appropriate filter features before rule #1',
  );
  // the first failing pattern is reported
  assert.match(facetsMessage(['title', 'b', 'c'], ['title'])!, /Pattern `b`/);
  // facets: [] checks nothing
  assert.equal(facetsMessage([], []), null);
});

test('patterns that meet a filter-enabled rule', () => {
  const ok = (requested: string[], rules: FilterableRule[]) => assert.equal(facetsMessage(requested, rules), null, JSON.stringify(requested));
  ok(['doggos'], ['doggos.name']); // the rule is below the pattern
  ok(['doggos.name'], ['doggos']); // legacy rule covers nested fields
  ok(['*'], ['genres']);
  ok(['gen*'], ['genres']);
  ok(['*res'], [equality(['genres'])]);
  ok(['user_id'], [equality(['*_id'])]);
  ok(['doggos'], [equality(['doggos.*'])]);
  // a rule without filter before one with it: another filter-enabled rule meets the pattern
  ok(['*'], [noFilter(['secret']), 'genres']);
  assert.notEqual(facetsMessage(['doggos.name'], [equality(['doggos'])]), null); // pattern rules match exactly
});

function settings(over: Partial<Settings>): Settings {
  return { ...defaultSettings(), ...over };
}

test('field selection and value order', () => {
  const fields = ['id', 'title', 'genres', 'doggos', 'doggos.name', 'doggos.age', 'secret', 'price'];
  const s = settings({
    filterableAttributes: [noFilter(['secret']), 'doggos', 'genres', equality(['pri*']), 'title'],
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha', genres: 'count', 'doggos.age': 'count' } },
  });
  const names = (requested: string[]) => facetFields(requested, fields, s).map((f) => `${f.name}:${f.order}`);
  assert.deepEqual(names(['genres']), ['genres:count']);
  // nested fields follow their parent; the order of a field selected through another name is `*`'s
  assert.deepEqual(names(['doggos']), ['doggos:alpha', 'doggos.age:alpha', 'doggos.name:alpha']);
  assert.deepEqual(names(['doggos.age']), ['doggos.age:count']);
  // `*` selects every field whose first matching rule filters (not `secret`, not `id`) and uses `*`'s order
  assert.deepEqual(names(['*']), ['doggos:alpha', 'doggos.age:alpha', 'doggos.name:alpha', 'genres:alpha', 'price:alpha', 'title:alpha']);
  assert.deepEqual(names(['*e*', 'genres']), ['doggos.age:alpha', 'doggos.name:alpha', 'genres:count', 'price:alpha', 'title:alpha']);
  assert.deepEqual(names(['sec*']), []);
  const counted = settings({ ...s, faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'count' } } });
  assert.deepEqual(facetFields(['title'], fields, counted), [{ name: 'title', order: 'count' }]);
});

const ALL = (n: number) => Bitmap.fromRange(0, n);

test('strings collapse under one original spelling; numbers first, as Rust prints them', () => {
  const values = MemoryFacetReader.of([
    { colour: 'Blue', price: 15 },
    { colour: '  blue', price: 9.99 },
    { colour: 'RED', price: 15.0 },
    { colour: ['RED', 'green', 1e21, true] },
  ]);
  const fid = values.fieldId('colour')!;
  const dist = fieldDistribution(values, fid, ALL(4), { order: 'alpha', max: 100 });
  assert.deepEqual(Object.entries(dist), [['1000000000000000000000', 1], ['Blue', 2], ['green', 1], ['RED', 2], ['true', 1]]);
  const price = fieldDistribution(values, values.fieldId('price')!, ALL(4), { order: 'alpha', max: 100 });
  assert.deepEqual(price, { '15': 2, '9.99': 1 });
  // counts only the candidates; the spelling is the first candidate's (milli's own snapshot)
  assert.deepEqual(fieldDistribution(values, fid, Bitmap.of(1, 2), { order: 'alpha', max: 100 }), { '  blue': 1, RED: 1 });
  // a reader without per-document spellings: the reader's spelling of the value
  for (const opts of [{ withOriginals: false }, { withOriginals: false, withPrefix: false }]) {
    const plain = MemoryFacetReader.of([{ c: 'Blue' }, { c: '  blue' }, { c: 'RED' }], opts);
    assert.deepEqual(fieldDistribution(plain, plain.fieldId('c')!, Bitmap.of(1, 2), { order: 'alpha', max: 100 }), { Blue: 1, RED: 1 });
  }
});

test('cap and orders (per-document path)', () => {
  // texts of the numbers sort differently from their values: the small-set quirk
  const docs = [{ v: 9.5 }, { v: 10.5 }, { v: 100.5 }, { v: 10.5 }, { v: 'b' }, { v: 'a' }, { v: 'a' }, { v: 'c' }];
  const values = MemoryFacetReader.of(docs);
  const fid = values.fieldId('v')!;
  const all = ALL(docs.length);
  const keys = (order: 'alpha' | 'count', max: number) => Object.entries(fieldDistribution(values, fid, all, { order, max }));
  assert.deepEqual(keys('alpha', 100), [['10.5', 2], ['100.5', 1], ['9.5', 1], ['a', 2], ['b', 1], ['c', 1]]);
  assert.deepEqual(keys('alpha', 2), [['10.5', 2], ['100.5', 1]]);
  assert.deepEqual(keys('alpha', 4), [['10.5', 2], ['100.5', 1], ['9.5', 1], ['a', 2]]);
  // count: numbers by decreasing count (ties: greater value first), then strings likewise
  assert.deepEqual(keys('count', 100), [['10.5', 2], ['100.5', 1], ['9.5', 1], ['a', 2], ['c', 1], ['b', 1]]);
  assert.deepEqual(keys('count', 5), [['10.5', 2], ['100.5', 1], ['9.5', 1], ['a', 2], ['c', 1]]);
  assert.deepEqual(keys('alpha', 0), []);
  assert.deepEqual(keys('count', 0), []);
});

test('cap and orders (per-value path, more than 3000 candidates)', () => {
  const n = LINEAR_SCAN_MAX + 500;
  const pick = ['b', 'a', 'a', 'c'];
  const docs = Array.from({ length: n }, (_, i) => (i < 4 ? { v: [9.5, 10.5, 100.5, 10.5][i]!, w: pick[i]! } : { w: pick[i % 4]! }));
  const values = MemoryFacetReader.of(docs);
  const all = ALL(n);
  const entries = (field: string, order: 'alpha' | 'count', max: number) =>
    Object.entries(fieldDistribution(values, values.fieldId(field)!, all, { order, max }));
  // numbers in numeric order above 3000 candidates
  assert.deepEqual(entries('v', 'alpha', 100), [['9.5', 1], ['10.5', 2], ['100.5', 1]]);
  assert.deepEqual(entries('v', 'alpha', 2), [['9.5', 1], ['10.5', 2]]);
  assert.deepEqual(entries('v', 'count', 100), [['10.5', 2], ['100.5', 1], ['9.5', 1]]);
  const quarter = n / 4;
  assert.deepEqual(entries('w', 'alpha', 2), [['a', 2 * quarter], ['b', quarter]]);
  assert.deepEqual(entries('w', 'count', 100), [['a', 2 * quarter], ['c', quarter], ['b', quarter]]);
  assert.deepEqual(entries('w', 'count', 0), []);
  // the spelling of the first candidate holding the value, whichever the algorithm
  const spelled = MemoryFacetReader.of(Array.from({ length: n }, (_, i) => ({ c: i === 0 ? 'BLUE' : i === 1 ? 'Blue' : 'blue' })));
  const but0 = ALL(n);
  but0.remove(0);
  for (const order of ['alpha', 'count'] as const) {
    assert.deepEqual(fieldDistribution(spelled, spelled.fieldId('c')!, but0, { order, max: 10 }), { Blue: n - 1 });
    assert.deepEqual(fieldDistribution(spelled, spelled.fieldId('c')!, ALL(n), { order, max: 10 }), { BLUE: n });
    const plain = MemoryFacetReader.of([{ c: 'BLUE' }, ...Array.from({ length: n - 1 }, () => ({ c: 'blue' }))], { withOriginals: false });
    assert.deepEqual(fieldDistribution(plain, plain.fieldId('c')!, but0, { order, max: 10 }), { BLUE: n - 1 });
  }
});

test('the algorithm follows the number of candidates', () => {
  const n = LINEAR_SCAN_MAX + 1;
  const values = MemoryFacetReader.of(Array.from({ length: n }, (_, i) => ({ v: `x${i % 7}`, n: i })));
  const fid = values.fieldId('v')!;
  fieldDistribution(values, fid, ALL(LINEAR_SCAN_MAX), { order: 'alpha', max: 100 });
  assert.equal(values.reads.walks, 0);
  // numbers, strings and spellings of each candidate
  assert.equal(values.reads.documents, 3 * LINEAR_SCAN_MAX);
  fieldDistribution(values, fid, ALL(n), { order: 'count', max: 100 });
  // only the spelling of each of the 7 values shown is read per document
  assert.equal(values.reads.documents, 3 * LINEAR_SCAN_MAX + 2 * 7);
  assert.equal(values.reads.walks, 2);
});

/** Counts by brute force: normalized value → count, numbers as text. */
function oracle(docs: { v: (number | string)[] }[], candidates: Bitmap): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of candidates) {
    const seen = new Set(docs[id]!.v.map((x) => (typeof x === 'number' ? `n${x}` : `s${x.toLowerCase()}`)));
    for (const k of seen) out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

test('both algorithms count like the oracle', () => {
  let seed = 7;
  const rand = (k: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % k;
  };
  const docs = Array.from({ length: 5000 }, () => ({
    v: Array.from({ length: rand(4) }, () => (rand(2) === 0 ? rand(40) : ['Ab', 'ab', 'cd', 'Ef', 'gh'][rand(5)]!)),
  }));
  const values = MemoryFacetReader.of(docs);
  // a reader that ignores `within` hands back whole value bitmaps
  const unrestricted = MemoryFacetReader.of(docs, { withWithin: false });
  const fid = values.fieldId('v')!;
  for (const size of [50, 2999, 4000]) {
    const candidates = new Bitmap();
    while (candidates.size < size) candidates.add(rand(5000));
    const expected = oracle(docs, candidates);
    for (const order of ['alpha', 'count'] as const) {
      for (const reader of [values, unrestricted]) {
        const dist = fieldDistribution(reader, fid, candidates, { order, max: 1000 });
        const got = new Map(Object.entries(dist).map(([k, c]) => [/^\d+$/.test(k) ? `n${k}` : `s${k.toLowerCase()}`, c]));
        assert.deepEqual(got, expected, `${size} ${order}`);
      }
      const stats = fieldStats(unrestricted, fid, candidates);
      assert.deepEqual(stats, fieldStats(values, fid, candidates));
    }
  }
});

test('stats', () => {
  const docs = [{ p: 2 }, { p: [-1.5, 'x'] }, { p: 'only text' }, { p: 40 }, { q: 'text' }];
  const values = MemoryFacetReader.of(docs);
  const p = values.fieldId('p')!;
  assert.deepEqual(fieldStats(values, p, ALL(5)), { min: -1.5, max: 40 });
  assert.deepEqual(fieldStats(values, p, Bitmap.of(0)), { min: 2, max: 2 });
  assert.equal(fieldStats(values, p, Bitmap.of(2, 4)), null);
  assert.equal(fieldStats(values, values.fieldId('q')!, ALL(5)), null);
  const many = MemoryFacetReader.of(Array.from({ length: LINEAR_SCAN_MAX + 10 }, (_, i) => ({ p: i % 2 === 0 ? i / 2 : 'odd' })));
  const all = ALL(LINEAR_SCAN_MAX + 10);
  all.remove(0);
  assert.deepEqual(fieldStats(many, many.fieldId('p')!, all), { min: 1, max: (LINEAR_SCAN_MAX + 8) / 2 });
});

test('distribution and stats of the selected fields', () => {
  const docs = [
    { id: 1, genres: ['Action', 'Drama'], price: 9.99, doggos: [{ name: 'Bobby', age: 2 }] },
    { id: 2, genres: ['action'], price: 15, doggos: [] },
    { id: 3, genres: [], title: 'Nothing' },
  ];
  const values = MemoryFacetReader.of(docs);
  const fields = ['id', 'genres', 'price', 'doggos', 'doggos.name', 'doggos.age', 'title', 'empty'];
  const s = settings({ filterableAttributes: ['genres', 'price', 'doggos', 'empty'] });
  const selected = facetFields(['*'], fields, s);
  const res = computeFacets(values, selected, ALL(3), 100);
  assert.deepEqual(Object.keys(res.facetDistribution), ['doggos', 'doggos.age', 'doggos.name', 'empty', 'genres', 'price']);
  assert.deepEqual(res.facetDistribution, {
    doggos: {},
    'doggos.age': { '2': 1 },
    'doggos.name': { Bobby: 1 },
    empty: {},
    genres: { Action: 2, Drama: 1 },
    price: { '15': 1, '9.99': 1 },
  });
  assert.deepEqual(res.facetStats, { 'doggos.age': { min: 2, max: 2 }, price: { min: 9.99, max: 15 } });
  const third = computeFacets(values, selected, Bitmap.of(2), 100);
  assert.deepEqual(third.facetDistribution.genres, {});
  assert.deepEqual(third.facetStats, {});
});

test('user data as keys', () => {
  const values = MemoryFacetReader.of([{ v: '__proto__' }, { v: 'constructor' }]);
  const dist = fieldDistribution(values, values.fieldId('v')!, ALL(2), { order: 'alpha', max: 10 });
  assert.deepEqual(JSON.parse(JSON.stringify(dist)), JSON.parse('{"__proto__":1,"constructor":1}'));
});
