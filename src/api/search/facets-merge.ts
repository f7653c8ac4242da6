// Facets of a federated search (multi-search.md §4): `facetsByIndex` holds each index's own
// `facets` result (facets.ts over the union of that index's queries' candidates); with
// `mergeFacets` they become one `facetDistribution` / `facetStats`, which needs every index to
// order a requested facet the same way.
import { ApiError } from '../errors/index.ts';
import type { FacetValuesSort, Settings } from '../settings/index.ts';
import type { FacetStats } from './facets-distribution.ts';
import type { ComputedFacets } from './facets.ts';
import { compareBytes, setKey } from './facets-values.ts';

/** The first index (in check order) that requested each facet name, and the order it gives it. */
export type FacetOrders = Map<string, { uid: string; order: FacetValuesSort }>;

const ORDER_TEXT: Record<FacetValuesSort, string> = { alpha: 'alphabetically', count: 'by count' };

/** Records the order each requested facet name has in index `uid`; throws when an earlier index orders it otherwise. */
export function checkFacetOrder(orders: FacetOrders, uid: string, requested: readonly string[], settings: Settings): void {
  const by = settings.faceting.sortFacetValuesBy;
  for (const facet of requested) {
    const order = by[facet] ?? by['*'] ?? 'alpha';
    const first = orders.get(facet);
    if (first === undefined) orders.set(facet, { uid, order });
    else if (first.order !== order) {
      throw new ApiError(
        'invalid_multi_search_facet_order',
        `Inconsistent order for values in facet \`${facet}\`: index \`${first.uid}\` orders ${ORDER_TEXT[first.order]}, ` +
          `but index \`${uid}\` orders ${ORDER_TEXT[order]}.\n` +
          ' - Hint: Remove `federation.mergeFacets` or change `faceting.sortFacetValuesBy` to be consistent in settings.',
      );
    }
  }
}

/**
 * `mergeFacets`: counts of a facet value summed over the indexes (visited in uid order), stats
 * widened, each facet's values sorted again (`alpha`: by displayed key; `count`: decreasing,
 * equal counts in merge order; facets not requested by name: `alpha`), then cut to `max`.
 * Null when no index computed facets.
 */
export function mergeFacets(byIndex: ReadonlyMap<string, ComputedFacets>, orders: FacetOrders, max: number | null): ComputedFacets | null {
  if (byIndex.size === 0) return null;
  const counts = new Map<string, Map<string, number>>();
  const stats = new Map<string, FacetStats>();
  for (const uid of [...byIndex.keys()].sort(compareBytes)) {
    const facets = byIndex.get(uid)!;
    for (const [facet, values] of Object.entries(facets.facetDistribution)) {
      let merged = counts.get(facet);
      if (merged === undefined) counts.set(facet, (merged = new Map()));
      for (const [value, count] of Object.entries(values)) merged.set(value, (merged.get(value) ?? 0) + count);
    }
    for (const [facet, s] of Object.entries(facets.facetStats)) {
      const seen = stats.get(facet);
      stats.set(facet, seen === undefined ? { ...s } : { min: Math.min(seen.min, s.min), max: Math.max(seen.max, s.max) });
    }
  }
  const facetDistribution: ComputedFacets['facetDistribution'] = {};
  for (const facet of [...counts.keys()].sort(compareBytes)) {
    const entries = [...counts.get(facet)!];
    if (orders.get(facet)?.order === 'count') entries.sort((a, b) => b[1] - a[1]);
    else entries.sort((a, b) => compareBytes(a[0], b[0]));
    const out: Record<string, number> = {};
    for (const [value, count] of max === null ? entries : entries.slice(0, max)) setKey(out, value, count);
    setKey(facetDistribution, facet, out);
  }
  const facetStats: ComputedFacets['facetStats'] = {};
  for (const facet of [...stats.keys()].sort(compareBytes)) setKey(facetStats, facet, stats.get(facet)!);
  return { facetDistribution, facetStats };
}
