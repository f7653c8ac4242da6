// Facet search without an index (facets.md §4). Properties checked:
// 1. the body: required `facetName`, each field's code, search fields with the search route's
//    codes, unknown fields ignored, first error in body order
// 2. `facetName` checks: the three messages, hidden patterns, legacy rules and facetSearch features
// 3. the matcher: prefix of the whole lossy value, typo budget with transpositions (compared with
//    a brute-force prefix distance on random strings), exact mode, accents and case
// 4. hits: only strings, counts among the candidates, `alpha` (lossy order, stop at the limit)
//    and `count` (best counts, ties greater value first, milli's heap replacement), no query
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { ApiError } from '../errors/index.ts';
import { defaultSettings, type FilterableRule, type Settings } from '../settings/index.ts';
import { MemoryFacetReader } from '../../engine/facet/memory-reader.ts';
import { facetHits, facetQueryMatcher, lossyFacetString, type FacetHitsRequest } from './facets-match.ts';
import { checkFacetSearchable, parseFacetSearchBody } from './facets-search.ts';

function fails(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError);
    return err;
  }
  assert.fail('no error');
}

test('the body', () => {
  const fq = parseFacetSearchBody({ facetName: 'genres', facetQuery: 'a', q: 'batman', matchingStrategy: 'all', unknown: 1, limit: 'x' });
  assert.equal(fq.facetName, 'genres');
  assert.equal(fq.facetQuery, 'a');
  assert.equal(fq.exhaustiveFacetCount, false);
  assert.equal(fq.search.q, 'batman');
  assert.equal(fq.search.matchingStrategy, 'all');
  assert.equal(fq.search.limit, 20);
  const nulls = parseFacetSearchBody({ facetName: 'g', facetQuery: null, exhaustiveFacetCount: null, q: null });
  assert.equal(nulls.facetQuery, null);
  assert.equal(parseFacetSearchBody({ facetName: 'g', exhaustiveFacetCount: true }).exhaustiveFacetCount, true);

  const cases: [unknown, string, string][] = [
    [{}, 'missing_facet_search_facet_name', 'Missing field `facetName`'],
    [{ facetQuery: 'a' }, 'missing_facet_search_facet_name', 'Missing field `facetName`'],
    [{ facetName: 5 }, 'invalid_facet_search_facet_name', 'Invalid value type at `.facetName`: expected a string, but found a positive integer: `5`'],
    [{ facetName: 'g', facetQuery: ['a'] }, 'invalid_facet_search_query', 'Invalid value type at `.facetQuery`: expected a string, but found an array: `["a"]`'],
    [{ facetName: 'g', exhaustiveFacetCount: 'yes' }, 'invalid_facet_search_exhaustive_facet_count', 'Invalid value type at `.exhaustiveFacetCount`: expected a boolean, but found a string: `"yes"`'],
    [{ facetName: 'g', q: 1 }, 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found a positive integer: `1`'],
    [{ facetName: 'g', matchingStrategy: 'x' }, 'invalid_search_matching_strategy', 'Unknown value `x` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    [{ facetName: 'g', rankingScoreThreshold: 2 }, 'invalid_search_ranking_score_threshold', 'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'],
    [{ facetName: 'g', attributesToSearchOn: 'title' }, 'invalid_search_attributes_to_search_on', 'Invalid value type at `.attributesToSearchOn`: expected an array, but found a string: `"title"`'],
    // body order: the first bad field is reported, even before the missing name
    [{ q: 1, facetQuery: 2 }, 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found a positive integer: `1`'],
    [[], 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`'],
  ];
  for (const [body, code, message] of cases) {
    const err = fails(() => parseFacetSearchBody(body));
    assert.equal(err.code, code, JSON.stringify(body));
    assert.equal(err.message, message);
  }
});

const settings = (over: Partial<Settings>): Settings => ({ ...defaultSettings(), ...over });
const rule = (patterns: string[], facetSearch: boolean): FilterableRule => ({
  attributePatterns: patterns,
  features: { facetSearch, filter: { equality: true, comparison: false } },
});

test('facetName must be facet-searchable', () => {
  const message = (name: string, s: Settings) => {
    const err = fails(() => checkFacetSearchable(name, s));
    assert.equal(err.code, 'invalid_facet_search_facet_name');
    return err.message;
  };
  const add = ' To make it facet-searchable add it to the `filterableAttributes` index settings.';
  assert.equal(
    message('invalid', settings({ filterableAttributes: ['genres', rule(['title'], false), rule(['a*', 'genres'], true)] })),
    'Attribute `invalid` is not facet-searchable. Available facet-searchable attributes patterns are: `a*, genres`.' + add,
  );
  assert.equal(
    message('invalid.name', settings({})),
    'Attribute `invalid.name` is not facet-searchable. This index does not have configured facet-searchable attributes.' + add,
  );
  assert.equal(
    message('genres', settings({ filterableAttributes: [rule(['genres'], false)] })),
    'Attribute `genres` is not facet-searchable. Note: this attribute matches rule #0 in filterableAttributes, but this rule does not enable facetSearch.\n' +
      'Hint: enable facetSearch in rule #0 by adding `"facetSearch": true` to the rule.\n' +
      'Hint: prepend another rule matching genres with facetSearch: true before rule #0',
  );
  assert.equal(
    message('x', settings({ filterableAttributes: ['genres', 'secret'], displayedAttributes: ['genres'] })),
    'Attribute `x` is not facet-searchable. Available facet-searchable attributes patterns are: `genres, <..hidden-attributes>`.' + add,
  );
  // the first matching rule decides; legacy rules cover nested fields
  assert.doesNotThrow(() => checkFacetSearchable('genres', settings({ filterableAttributes: [rule(['genres'], true), rule(['genres'], false)] })));
  assert.doesNotThrow(() => checkFacetSearchable('doggo.name', settings({ filterableAttributes: ['doggo'] })));
  assert.match(message('genres', settings({ filterableAttributes: [rule(['gen*'], false), 'genres'] })), /matches rule #0/);
});

/** Smallest optimal-string-alignment distance between `q` and a prefix of `v` (brute force). */
function prefixDistance(q: string[], v: string[]): number {
  let best = Infinity;
  for (let len = 0; len <= v.length; len++) {
    const p = v.slice(0, len);
    const d: number[][] = Array.from({ length: q.length + 1 }, (_, i) => Array.from({ length: p.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= q.length; i++) {
      for (let j = 1; j <= p.length; j++) {
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (q[i - 1] === p[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && q[i - 1] === p[j - 2] && q[i - 2] === p[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
    best = Math.min(best, d[q.length]![p.length]!);
  }
  return best;
}

test('the matcher', () => {
  const m = (query: string, typos: number) => facetQueryMatcher(query, { kind: 'prefix', typos });
  assert.equal(m('jane', 0)('jane austen'), true);
  assert.equal(m('austen', 0)('jane austen'), false);
  assert.equal(m('words', 1)('multiple words'), false);
  assert.equal(m('acton', 1)('action'), true);
  assert.equal(m('atcion', 1)('action'), true); // a transposition is one typo
  assert.equal(m('atcoin', 1)('action'), false);
  assert.equal(m('atcoin', 2)('action'), true);
  assert.equal(m('xction', 1)('action'), true); // the first letter may be wrong
  assert.equal(m('ab', 2)('zzz'), true); // the empty prefix is within two typos of `ab`
  assert.equal(m('naïve', 0)('naïve'), true);
  assert.equal(facetQueryMatcher('action', { kind: 'exact' })('action'), true);
  assert.equal(facetQueryMatcher('action', { kind: 'exact' })('actions'), false);

  let seed = 11;
  const rand = (k: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % k;
  };
  const word = (n: number) => Array.from({ length: n }, () => 'abcé'[rand(4)]!);
  for (let t = 0; t < 3000; t++) {
    const q = word(1 + rand(6));
    const v = word(rand(9));
    for (const typos of [1, 2]) {
      const expected = prefixDistance(q, v) <= typos;
      assert.equal(m(q.join(''), typos)(v.join('')), expected, `${q.join('')} ~ ${v.join('')} (${typos})`);
    }
  }
});

test('lossy forms', () => {
  assert.equal(lossyFacetString('Café Crème'), 'cafe creme');
  assert.equal(lossyFacetString('ÆSIR'), 'aesir');
});

const movies = [
  { genres: ['Action', 'Adventure'], year: 2001 },
  { genres: ['action', 'Horror'], year: 2002 },
  { genres: ['Action', 'Thriller'] },
  { genres: ['Adventure', 'Thriller', 'Multiple Words'] },
  { genres: ['Comedy', 'Café'] },
];

function hits(over: Partial<FacetHitsRequest> & { candidates?: Bitmap }): [string, number][] {
  const values = MemoryFacetReader.of(movies);
  const req: FacetHitsRequest = {
    values,
    cacheOwner: {},
    fid: values.fieldId('genres')!,
    candidates: Bitmap.fromRange(0, movies.length),
    query: null,
    order: 'alpha',
    max: 100,
    ...over,
  };
  return facetHits(req).map((h) => [h.value, h.count]);
}

const prefix = (text: string, typos = 0) => ({ text, match: { kind: 'prefix' as const, typos } });

test('facet hits', () => {
  assert.deepEqual(hits({ query: prefix('a') }), [['Action', 3], ['Adventure', 2]]);
  assert.deepEqual(hits({}), [
    ['Action', 3], ['Adventure', 2], ['Café', 1], ['Comedy', 1], ['Horror', 1], ['Multiple Words', 1], ['Thriller', 2],
  ]);
  assert.deepEqual(hits({ query: prefix('cafe') }), [['Café', 1]]);
  assert.deepEqual(hits({ query: prefix('words') }), []);
  // the spelling is the value's, whichever candidates hold it (milli: the first document of the value)
  assert.deepEqual(hits({ query: prefix('a'), candidates: Bitmap.of(1, 4) }), [['Action', 1]]);
  assert.deepEqual(hits({ query: prefix('thriler', 1) }), [['Thriller', 2]]);
  // the limit: `alpha` stops in value order
  assert.deepEqual(hits({ max: 2 }), [['Action', 3], ['Adventure', 2]]);
  assert.deepEqual(hits({ max: 0 }), []);
  // `count`: best counts, ties greater value first
  assert.deepEqual(hits({ order: 'count' }), [
    ['Action', 3], ['Thriller', 2], ['Adventure', 2], ['Multiple Words', 1], ['Horror', 1], ['Comedy', 1], ['Café', 1],
  ]);
  // a full collection takes a later value of the same count as the worst one (milli's heap)
  assert.deepEqual(hits({ order: 'count', max: 3 }), [['Action', 3], ['Thriller', 2], ['Adventure', 2]]);
  assert.deepEqual(hits({ order: 'count', max: 4 }), [['Action', 3], ['Thriller', 2], ['Adventure', 2], ['Multiple Words', 1]]);
  assert.deepEqual(hits({ order: 'count', max: 0 }), []);
  // numbers are never facet hits
  const values = MemoryFacetReader.of(movies);
  assert.deepEqual(facetHits({ values, cacheOwner: {}, fid: values.fieldId('year')!, candidates: Bitmap.fromRange(0, 5), query: null, order: 'alpha', max: 10 }), []);
});
