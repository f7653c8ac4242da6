// The `facets` search parameter (facets.md §1–3): which requested patterns are valid, which
// index fields they select, and the `facetDistribution` / `facetStats` of the candidates.
//
//   requested patterns ─► checkFacets (each must meet a filter-enabled rule, in order)
//                      ─► facetFields: index fields matched by a pattern (legacy parent
//                         semantics) whose first matching filterable rule enables filtering
//                      ─► per field: distribution + stats (facets-distribution.ts)
import type { Bitmap } from '../../engine/bitmap/index.ts';
import { ApiError } from '../errors/index.ts';
import {
  isFacetedBy, matchFieldLegacy, matchPattern, matchPatterns, type FacetValuesSort, type FilterableRule, type Settings,
} from '../settings/index.ts';
import { fieldDistribution, fieldStats, type FacetStats } from './facets-distribution.ts';
import { compareBytes, setKey, type FacetValues } from './facets-values.ts';
import type { IndexSearchState } from './state.ts';
import { notSupported } from './unsupported.ts';

export type { FacetValues };

export type FacetDistribution = Record<string, Record<string, number>>;

export interface ComputedFacets {
  facetDistribution: FacetDistribution;
  facetStats: Record<string, FacetStats>;
}

/** The features of the first rule matching `field`, or null when no rule matches it. */
export function firstMatchingRule(field: string, rules: readonly FilterableRule[]): { index: number; filter: boolean; facetSearch: boolean } | null {
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    if (typeof rule === 'string') {
      if (matchFieldLegacy(rule, field) === 'match') return { index, filter: true, facetSearch: true };
    } else if (matchPatterns(rule.attributePatterns, field) === 'match') {
      const f = rule.features;
      return { index, filter: f.filter.equality || f.filter.comparison, facetSearch: f.facetSearch };
    }
  }
  return null;
}

/** A requested facet pattern selects `field`: wildcard patterns, or the field itself and what is nested below it. */
export function patternSelects(pattern: string, field: string): boolean {
  return matchPattern(pattern, field) === 'match' || isFacetedBy(field, pattern);
}

/** The patterns of a rule (a string rule is its own pattern). */
const rulePatterns = (rule: FilterableRule): readonly string[] => (typeof rule === 'string' ? [rule] : rule.attributePatterns);

/** A requested pattern and a rule pattern can select a common field (either covers the other, or one is below the other). */
function intersects(requested: string, rule: FilterableRule): boolean {
  return rulePatterns(rule).some((p) => {
    if (patternSelects(requested, p)) return true;
    const asField = typeof rule === 'string' ? matchFieldLegacy(p, requested) : matchPattern(p, requested);
    return asField !== 'noMatch';
  });
}

const filterEnabled = (rule: FilterableRule): boolean =>
  typeof rule === 'string' || rule.features.filter.equality || rule.features.filter.comparison;

/** Validates each requested pattern in order (facets.md §1); throws `invalid_search_facets` for the first one no filter-enabled rule meets. */
export function checkFacets(requested: readonly string[], rules: readonly FilterableRule[]): void {
  for (const pattern of requested) {
    if (rules.some((rule) => filterEnabled(rule) && intersects(pattern, rule))) continue;
    const matched = rules.findIndex((rule) => intersects(pattern, rule));
    if (matched >= 0) {
      throw facetsError(
        `Attribute \`${pattern}\` matched rule #${matched} in filterableAttributes, but this rule does not enable filtering.\n` +
          `Hint: enable filtering in rule #${matched} by modifying the features.filter object\n` +
          `Hint: prepend another rule matching \`${pattern}\` with appropriate filter features before rule #${matched}`,
      );
    }
    const valid = [...new Set(rules.filter(filterEnabled).flatMap(rulePatterns))].sort(compareBytes);
    const tail = valid.length === 0
      ? 'This index does not have configured filterable attributes.'
      : `Available filterable attributes patterns are: \`${valid.join(', ')}\`.`;
    throw facetsError(`Pattern \`${pattern}\` is not filterable. ${tail}`);
  }
}

const facetsError = (detail: string) => new ApiError('invalid_search_facets', `Invalid facet distribution: ${detail}`);

/** One field of the distribution and how its values are ordered. */
export interface FacetField {
  name: string;
  order: FacetValuesSort;
}

/**
 * The index fields the requested patterns select, sorted by name, each with its value order.
 * As milli keys the orders by the requested names, a field uses its own `sortFacetValuesBy`
 * entry only when it was requested by its exact name and `*` was not requested; otherwise `*`.
 */
export function facetFields(requested: readonly string[], fields: readonly string[], settings: Settings): FacetField[] {
  const by = settings.faceting.sortFacetValuesBy;
  const fallback: FacetValuesSort = by['*'] ?? 'alpha';
  const wildcard = requested.includes('*');
  const out: FacetField[] = [];
  for (const name of new Set(fields)) {
    if (!requested.some((p) => patternSelects(p, name))) continue;
    if (firstMatchingRule(name, settings.filterableAttributes)?.filter !== true) continue;
    const own = !wildcard && requested.includes(name) ? by[name] : undefined;
    out.push({ name, order: own ?? fallback });
  }
  return out.sort((a, b) => compareBytes(a.name, b.name));
}

/**
 * The `facets` of a search over its candidates (computed after ranking, as Meilisearch does, so
 * search errors come first). Refused while the index has no facet reader.
 */
export function searchFacets(state: IndexSearchState, requested: readonly string[], candidates: () => Bitmap): ComputedFacets {
  checkFacets(requested, state.settings.filterableAttributes);
  const values: FacetValues | null = state.wordSets.facets ?? null;
  if (values === null) throw notSupported('`facets`', 'invalid_search_facets');
  const fields = facetFields(requested, state.fields, state.settings);
  return computeFacets(values, fields, candidates(), state.settings.faceting.maxValuesPerFacet);
}

/** `facetDistribution` and `facetStats` of the candidates for already checked patterns. */
export function computeFacets(values: FacetValues, fields: readonly FacetField[], candidates: Bitmap, max: number): ComputedFacets {
  const facetDistribution: FacetDistribution = {};
  const facetStats: Record<string, FacetStats> = {};
  for (const field of fields) {
    const fid = values.fieldId(field.name);
    setKey(facetDistribution, field.name, fid === undefined ? {} : fieldDistribution(values, fid, candidates, { order: field.order, max }));
    const stats = fid === undefined ? null : fieldStats(values, fid, candidates);
    if (stats !== null) setKey(facetStats, field.name, stats);
  }
  return { facetDistribution, facetStats };
}
