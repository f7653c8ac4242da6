// What a settings change forces the indexer to rebuild (settings.md §8). Comparisons are made on
// the stored settings, so they may ask for more than Meilisearch strictly rebuilds (allowed by §8)
// but never less.
import { deepEqual } from './deserr.ts';
import { embedderAction, sourceOf, type EmbedderAction } from './embedders.ts';
import { SOURCES_FOR_FIELD } from './embedder-fields.ts';
import { ascDescFields } from './ranking-rules.ts';
import type { Settings } from './types.ts';
import { setKey } from '../../engine/json.ts';

export interface ReindexNeeds {
  /** Re-extract every searchable field (words, positions, prefixes, exact words, proximity pairs). */
  searchable: boolean;
  /** Searchable entries newly added while none was removed: extract only the fields they cover. */
  searchableAdditions: string[];
  /** The searchable order changed: recompute field weights (no data rebuild). */
  searchableWeights: boolean;
  /** Rebuild the facet databases (faceted fields, facet-search or comparison capability may have changed). */
  facets: boolean;
  /** `_geo` became or stopped being filterable/sortable. */
  geo: boolean;
  /** `_geojson` filterability toggled. */
  geojson: boolean;
  /** Recompute the normalized synonyms (synonyms or tokenizer settings changed); query-time only. */
  synonyms: boolean;
  /** Per embedder needing vector work (added, changed, removed, quantized, or prompts to re-render). */
  embedders: Record<string, EmbedderAction>;
  /** True when none of the above applies: the change is metadata only. */
  none: boolean;
}

/** Compares two stored settings and says what the indexer must rebuild. */
export function reindexNeeds(before: Settings, after: Settings): ReindexNeeds {
  const tokenizer = !deepEqual(before.stopWords, after.stopWords)
    || !deepEqual(before.separatorTokens, after.separatorTokens)
    || !deepEqual(before.nonSeparatorTokens, after.nonSeparatorTokens)
    || !deepEqual(before.dictionary, after.dictionary);
  let searchable = tokenizer
    || before.proximityPrecision !== after.proximityPrecision
    || before.prefixSearch !== after.prefixSearch
    || !deepEqual(before.localizedAttributes, after.localizedAttributes)
    || before.typoTolerance.disableOnNumbers !== after.typoTolerance.disableOnNumbers
    || !deepEqual(before.typoTolerance.disableOnAttributes, after.typoTolerance.disableOnAttributes);

  const sa = searchableChange(before.searchableAttributes, after.searchableAttributes);
  if (sa === 'full') searchable = true;
  const searchableSetChanged = sa === 'full' || Array.isArray(sa);

  const facets = !deepEqual(before.filterableAttributes, after.filterableAttributes)
    || !deepEqual(before.sortableAttributes, after.sortableAttributes)
    || before.distinctAttribute !== after.distinctAttribute
    || !deepEqual(ascDescFields(before.rankingRules), ascDescFields(after.rankingRules))
    || before.facetSearch !== after.facetSearch
    || !deepEqual(before.localizedAttributes, after.localizedAttributes);

  const embedders: Record<string, EmbedderAction> = {};
  for (const name of new Set([...Object.keys(before.embedders), ...Object.keys(after.embedders)])) {
    const action = embedderAction(before.embedders[name], after.embedders[name]);
    if (action) setKey(embedders, name, action);
    // document templates see `field.is_searchable`: a new searchable set changes the rendered texts
    else if (searchableSetChanged && after.embedders[name] && SOURCES_FOR_FIELD.documentTemplate.includes(sourceOf(after.embedders[name]))) {
      setKey(embedders, name, { reindex: 'prompts', remove: false, quantize: false });
    }
  }

  const needs: ReindexNeeds = {
    searchable,
    searchableAdditions: !searchable && Array.isArray(sa) ? sa : [],
    searchableWeights: sa !== 'none',
    facets,
    geo: geoState(before) !== geoState(after),
    geojson: hasStringRule(before, '_geojson') !== hasStringRule(after, '_geojson'),
    synonyms: tokenizer || !deepEqual(before.synonyms, after.synonyms),
    embedders,
    none: false,
  };
  needs.none = !needs.searchable && needs.searchableAdditions.length === 0 && !needs.searchableWeights && !needs.facets
    && !needs.geo && !needs.geojson && !needs.synonyms && Object.keys(embedders).length === 0;
  return needs;
}

/** `none`, `reorder` (same set), the added entries (additions only), or `full`. */
function searchableChange(before: string[] | null, after: string[] | null): 'none' | 'reorder' | 'full' | string[] {
  if (before === null && after === null) return 'none';
  // `*` covers fields we cannot enumerate here: any switch to or from it re-extracts everything
  if (before === null || after === null) return 'full';
  if (deepEqual(before, after)) return 'none';
  const b = new Set(before);
  const a = new Set(after);
  const removed = [...b].some((x) => !a.has(x));
  const added = [...a].filter((x) => !b.has(x));
  if (removed) return 'full';
  return added.length === 0 ? 'reorder' : added;
}

function hasStringRule(s: Settings, name: string): boolean {
  return s.filterableAttributes.some((r) => r === name);
}

function geoState(s: Settings): string {
  return `${hasStringRule(s, '_geo')}/${s.sortableAttributes.includes('_geo')}`;
}
