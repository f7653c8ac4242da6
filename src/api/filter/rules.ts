// What `filterableAttributes` says about a field (settings.md §6.3, filters.md §5; milli
// `filterable_attributes_rules.rs`): the first rule matching the field decides. String rules
// match with legacy semantics (`genre` covers `genre.x`) and enable everything; object rules
// match their patterns (`genre` covers only `genre`) and carry their features.

import type { FieldAccess } from '../../engine/filter/eval/index.ts';
import { matchFieldLegacy, matchPatterns, type FilterableRule } from '../settings/index.ts';

/** The filter features of the first rule matching `field` and its index, or null (milli `matching_features`). */
export function fieldAccess(rules: readonly FilterableRule[], field: string): FieldAccess | null {
  for (let rule = 0; rule < rules.length; rule++) {
    const r = rules[rule]!;
    if (typeof r === 'string') {
      if (matchFieldLegacy(r, field) === 'match') return { equality: true, comparison: true, rule };
    } else if (matchPatterns(r.attributePatterns, field) === 'match') {
      return { ...r.features.filter, rule };
    }
  }
  return null;
}

/** Whether the first rule matching `field` enables filtering (equality or comparison). */
export function isFilterable(rules: readonly FilterableRule[], field: string): boolean {
  const access = fieldAccess(rules, field);
  return access !== null && (access.equality || access.comparison);
}

/** The patterns of the rules that enable filtering, sorted and deduplicated (milli `filtered_matching_patterns`). */
export function filterablePatterns(rules: readonly FilterableRule[]): string[] {
  const patterns = new Set<string>();
  for (const r of rules) {
    if (typeof r === 'string') patterns.add(r);
    else if (r.features.filter.equality || r.features.filter.comparison) for (const p of r.attributePatterns) patterns.add(p);
  }
  return [...patterns].sort(byBytes);
}

/** `_geo` / `_geojson` filtering is on when the string rule itself is listed (milli `has_geo`). */
export function geoFiltering(rules: readonly FilterableRule[]): { points: boolean; shapes: boolean } {
  return { points: rules.includes('_geo'), shapes: rules.includes('_geojson') };
}

/** Rust's `str` order (bytes of UTF-8 = code points). */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
