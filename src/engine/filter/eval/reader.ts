// What the evaluator reads: the part of the facet index's reader (`engine/facet`) that filters
// use (filters.md §3, §10). Every bitmap a reader returns may be shared with its cache:
// callers clone before mutating.

import type { Bound, FacetReader as FacetIndexReader, ShapeQuery } from '../../facet/index.ts';

export type { Bound, ShapeQuery };
export { compareUtf8 } from '../../words/index.ts';

/** The facet values of an index, per field id: normalized strings, numbers, exists/null/empty, geo points and shapes. */
export type FacetReader = Pick<
  FacetIndexReader,
  | 'fieldId'
  | 'stringEquals'
  | 'stringRange'
  | 'stringStartsWith'
  | 'stringContains'
  | 'numberEquals'
  | 'numberRange'
  | 'exists'
  | 'isNull'
  | 'isEmpty'
  | 'geoRadius'
  | 'geoBox'
  | 'geoShapes'
>;

const EDGE_WHITE_SPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;

/**
 * milli's `normalize_facet` for a filter value: Rust `trim` (Unicode White_Space), NFKD,
 * lowercase. Filter values are not truncated (stored values are, so an over-long value
 * simply matches nothing, as in Meilisearch).
 */
export function normalizeFilterValue(text: string): string {
  return text.replace(EDGE_WHITE_SPACE, '').normalize('NFKD').toLowerCase();
}
