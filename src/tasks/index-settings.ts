// The settings of an index as the API shapes them, kept in the index's main table, and what
// the engine needs of them to index documents for search and facets.
import { ascDescFields, settingsOf, type Settings } from '../api/settings/index.ts';
import type { Index } from '../engine/index/index.ts';
import type { SearchConfig } from '../engine/indexing/search-config.ts';
import { facetSignature as configSignature, type FacetConfig } from '../engine/facet/index.ts';

/** The settings of an index (defaults until a settings task has run). */
export const storedSettings: (index: Index) => Settings = settingsOf;

/**
 * What search indexing needs from the settings: searchable and exact fields (legacy matching:
 * `doggo` covers `doggo.*`), proximity precision, the tokenizer's settings.
 */
export function searchConfig(s: Settings): SearchConfig {
  const t = s.typoTolerance;
  return {
    // order does not change what is indexed (field ids follow the documents), only ranking
    searchable: s.searchableAttributes === null ? null : [...s.searchableAttributes].sort(),
    exact: t.disableOnAttributes,
    numbersExact: t.disableOnNumbers,
    proximity: s.proximityPrecision,
    stopWords: s.stopWords,
    separatorTokens: s.separatorTokens,
    nonSeparatorTokens: s.nonSeparatorTokens,
    dictionary: s.dictionary,
  };
}

/** Settings whose change means the search tables must be rebuilt (settings.md §8). */
export function searchSignature(s: Settings): string {
  return JSON.stringify(searchConfig(s));
}

/**
 * What facet indexing needs from the settings: the filterable rules (a rule facets its fields when
 * it enables filtering or facet search), sortable attributes, `field:asc|desc` ranking rules, the
 * distinct attribute, whether `_geo` points are indexed (`"_geo"` filterable or sortable) and
 * whether `_geojson` shapes are (`"_geojson"` filterable).
 */
export function facetConfig(s: Settings): FacetConfig {
  return {
    filterable: s.filterableAttributes.map((r) =>
      typeof r === 'string'
        ? { field: r }
        : { patterns: r.attributePatterns, faceted: r.features.facetSearch || r.features.filter.equality || r.features.filter.comparison },
    ),
    sortable: s.sortableAttributes,
    ascDesc: ascDescFields(s.rankingRules),
    distinct: s.distinctAttribute,
    geo: s.filterableAttributes.some((r) => r === '_geo') || s.sortableAttributes.includes('_geo'),
    // only when on: the signature of configurations without shapes stays as it was
    ...(s.filterableAttributes.some((r) => r === '_geojson') ? { geojson: true } : {}),
  };
}

/** Settings whose change means the facet tables must be rebuilt (settings.md §8). */
export function facetSignature(s: Settings): string {
  return configSignature(facetConfig(s));
}
