// Federated facets (multi-search.md §4). Properties checked:
// 1. the order of a requested facet must be the same in every index (first index named in the error)
// 2. merge: counts summed, stats widened, facets and values sorted, `count` order, the cut
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { defaultSettings, type Settings } from '../settings/index.ts';
import { checkFacetOrder, mergeFacets, type FacetOrders } from './facets-merge.ts';
import type { ComputedFacets } from './facets.ts';

const sorted = (by: Record<string, 'alpha' | 'count'>): Settings => ({
  ...defaultSettings(),
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha', ...by } },
});

test('facet orders must agree', () => {
  const orders: FacetOrders = new Map();
  checkFacetOrder(orders, 'batman', ['title', 'genres'], sorted({}));
  checkFacetOrder(orders, 'comics', ['genres'], sorted({ title: 'count' }));
  assert.throws(
    () => checkFacetOrder(orders, 'movies', ['genres', 'title'], sorted({ title: 'count' })),
    (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 'invalid_multi_search_facet_order');
      assert.equal(
        err.message,
        'Inconsistent order for values in facet `title`: index `batman` orders alphabetically, but index `movies` orders by count.\n' +
          ' - Hint: Remove `federation.mergeFacets` or change `faceting.sortFacetValuesBy` to be consistent in settings.',
      );
      return true;
    },
  );
});

test('merge', () => {
  const byIndex = new Map<string, ComputedFacets>([
    ['movies', { facetDistribution: { genres: { Drama: 2, Action: 1 }, color: { red: 3 } }, facetStats: { year: { min: 1990, max: 2001 } } }],
    ['comics', { facetDistribution: { genres: { Action: 3, Comedy: 1 } }, facetStats: { year: { min: 1960, max: 1999 } } }],
  ]);
  const orders: FacetOrders = new Map([['genres', { uid: 'comics', order: 'count' }]]);
  const merged = mergeFacets(byIndex, orders, null)!;
  assert.deepEqual(Object.keys(merged.facetDistribution), ['color', 'genres']);
  assert.deepEqual(Object.entries(merged.facetDistribution.genres!), [['Action', 4], ['Drama', 2], ['Comedy', 1]]);
  assert.deepEqual(merged.facetStats, { year: { min: 1960, max: 2001 } });
  const alpha = mergeFacets(byIndex, new Map(), 2)!;
  assert.deepEqual(Object.entries(alpha.facetDistribution.genres!), [['Action', 4], ['Comedy', 1]]);
  assert.equal(mergeFacets(new Map(), new Map(), null), null);
});
