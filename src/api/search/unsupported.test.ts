import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { parseSearchBody, parseSearchParams } from './query.ts';
import { filterIsUsed, rejectUnsupported } from './unsupported.ts';

test('used parameters are refused with their own code', () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ vector: [1], media: {} }, 'invalid_search_media_and_vector', 'Invalid request: both `media` and `vector` parameters are present.'],
    [{ vector: [1, 2] }, 'missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.'],
    [{ media: { image: 'x' } }, 'missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.'],
  ];
  for (const [body, code, message] of cases) {
    assert.throws(() => rejectUnsupported(parseSearchBody(body)), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, code, JSON.stringify(body));
      assert.equal(err.message, message);
      return true;
    });
  }
});

test('present but empty parameters are accepted', () => {
  const bodies: Record<string, unknown>[] = [
    {},
    { filter: null, sort: null, distinct: null, facets: null, hybrid: null, vector: null, media: null },
    // the search kind is decided with the index's embedders (semantic.ts)
    { hybrid: { embedder: 'default', semanticRatio: 0 } },
    { hybrid: { embedder: 'default' }, vector: [1] },
    { filter: '' },
    { filter: '   ' },
    { filter: [] },
    { filter: ['', [], ['  ']] },
    { sort: [] },
    { facets: [] },
    { facets: ['genre'] },
    // accepted and ignored (search.md §2)
    { personalize: { userContext: 'x' }, useNetwork: true },
    { retrieveVectors: true, showPerformanceDetails: true, locales: ['fr'], attributesToSearchOn: ['title'] },
  ];
  for (const body of bodies) assert.doesNotThrow(() => rejectUnsupported(parseSearchBody(body)), JSON.stringify(body));
  assert.doesNotThrow(() => rejectUnsupported(parseSearchParams({ filter: '', facets: '' })));
  // `sort=` is `[""]`: a sort syntax error, raised by the sort parser (sort.test.ts), not here
});

test('filterIsUsed', () => {
  assert.equal(filterIsUsed(null), false);
  assert.equal(filterIsUsed('a = 1'), true);
  assert.equal(filterIsUsed([['', 'b = 2']]), true);
  assert.equal(filterIsUsed([[], '']), false);
  assert.throws(() => filterIsUsed(12), /expected String, Array, found: 12/);
});
