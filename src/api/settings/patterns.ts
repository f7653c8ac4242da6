// The two attribute matchers of settings.md §7 (milli's `attribute_patterns.rs`).
import { matchPattern as engineMatchPattern } from '../../engine/facet/config.ts';

/** `match`: the rule covers the field; `parent`: the field is an ancestor of a covered field (traverse it). */
export type PatternMatch = 'match' | 'parent' | 'noMatch';

/** True when `field` is `facet` itself or nested below it (`facet.x`). */
export function isFacetedBy(field: string, facet: string): boolean {
  return field === facet || (field.startsWith(facet) && field.charCodeAt(facet.length) === 0x2e /* . */);
}

/**
 * Legacy matching (searchable, displayed, sortable, typo `disableOnAttributes`, string filterable
 * rules): `doggo` covers `doggo` and `doggo.*`.
 */
export function matchFieldLegacy(rule: string, field: string): PatternMatch {
  if (isFacetedBy(field, rule)) return 'match';
  if (isFacetedBy(rule, field)) return 'parent';
  return 'noMatch';
}

/**
 * Pattern matching (object filterable rules, localizedAttributes): `*`, `*infix*`, `*suffix`,
 * `prefix*`, else exact equality (`a*c` is literal; `genre` does not cover `genre.x`). The
 * facet index decides what it indexes with the same function.
 */
export const matchPattern: (pattern: string, field: string) => PatternMatch = engineMatchPattern;

/** Several patterns: `match` as soon as one matches, else `parent` if one is below the field. */
export function matchPatterns(patterns: readonly string[], field: string): PatternMatch {
  let result: PatternMatch = 'noMatch';
  for (const p of patterns) {
    const m = matchPattern(p, field);
    if (m === 'match') return 'match';
    if (m === 'parent') result = 'parent';
  }
  return result;
}

/**
 * `field.is_searchable` of document templates: the top-level field is covered by a searchable
 * attribute, or holds one (legacy matching).
 */
export function templateSearchable(searchable: readonly string[] | null): (field: string) => boolean {
  if (searchable === null || searchable.includes('*')) return () => true;
  return (field) => searchable.some((rule) => matchFieldLegacy(rule, field) !== 'noMatch');
}

/** `distinctAttribute`: exact name only; its ancestors are parents. */
export function matchDistinctField(distinct: string | null, field: string): PatternMatch {
  if (distinct === null) return 'noMatch';
  if (field === distinct) return 'match';
  return isFacetedBy(distinct, field) ? 'parent' : 'noMatch';
}
