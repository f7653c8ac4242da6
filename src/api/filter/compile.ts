// The `filter` parameter of a route, from JSON to the matching documents of an index
// (filters.md §1, §5, §8), in Meilisearch's order:
//
//   compileFilter (when the request arrives; no index needed)
//     JSON forms + grammar            → the route's code, message with the original text
//     feature gates: CONTAINS, _foreign, _shard, _vectors (reading order of each search)
//                                     → feature_not_enabled, original text, never prefixed
//     `_foreign` on a documents route → "not supported for this endpoint"
//     what Muninn cannot run yet      → "Using … is not supported by this version of Muninn yet."
//     the search route: re-serialization (reserialize.ts), so later errors quote the new text
//   CompiledFilter.evaluate (on one index generation)
//     every field named (stack order) must be filterable by its first matching rule
//     the evaluator (engine/filter/eval): operator features, geo arguments, geo filterability
//     → the route's code; the search route and tasks prefix ``Index `uid`: `` (the facet search
//       does not: it quotes the filter as sent, unprefixed)
//
// Multi-search adds its own ``Inside `.queries[i]`: `` around whatever this throws.

import type { Bitmap } from '../../engine/bitmap/index.ts';
import {
  evaluateFilter,
  GeoNotFilterableError,
  OperatorNotAllowedError,
  UnsupportedFilterError,
  type FacetReader,
  type VectorFilterSource,
} from '../../engine/filter/eval/index.ts';
import {
  containsKeyword,
  fieldUse,
  filterFields,
  FilterSyntaxError,
  foreignField,
  parseFilterJson,
  spanError,
  vectorFilterField,
  type FilterNode,
  type Span,
  type Token,
} from '../../engine/filter/parser/index.ts';
import { ApiError, type ErrorCode } from '../errors/index.ts';
import type { FilterableRule } from '../settings/index.ts';
import { CONTAINS_GATE, FOREIGN_GATE, notFilterable, operatorNotAllowed, SHARD_GATE, VECTOR_GATE } from './messages.ts';
import { reserializeFilter } from './reserialize.ts';
import { fieldAccess, filterablePatterns, geoFiltering, isFilterable } from './rules.ts';

/** Where a filter comes from; decides its error code, prefix and echoed text. */
export type FilterRoute = 'search' | 'facetSearch' | 'similar' | 'documents' | 'documentsDelete';

interface RouteStyle {
  code: ErrorCode;
  /** evaluation errors start with ``Index `uid`: `` */
  prefixed: boolean;
  /** evaluation errors quote the re-serialized filter (the 1.50 search quirk) */
  reserialized: boolean;
  /** `_foreign` is refused as "not supported for this endpoint" */
  local: boolean;
}

const ROUTES: Record<FilterRoute, RouteStyle> = {
  search: { code: 'invalid_search_filter', prefixed: true, reserialized: true, local: false },
  // the facet search evaluates the filter as sent, without the index prefix (Meilisearch 1.50)
  facetSearch: { code: 'invalid_search_filter', prefixed: false, reserialized: false, local: false },
  similar: { code: 'invalid_similar_filter', prefixed: false, reserialized: false, local: false },
  documents: { code: 'invalid_document_filter', prefixed: false, reserialized: false, local: true },
  // evaluated in the deletion task, whose errors carry the index prefix
  documentsDelete: { code: 'invalid_document_filter', prefixed: true, reserialized: false, local: true },
};

/** The experimental features filters depend on (a subset of the instance's). */
export interface FilterFeatures {
  containsFilter: boolean;
  foreignKeys: boolean;
  network: boolean;
  multimodal: boolean;
}

/** One index generation, as a filter sees it. */
export interface FilterTarget {
  filterableAttributes: readonly FilterableRule[];
  reader: FacetReader;
  /** every document of the index (not mutated) */
  documents: Bitmap;
  /** what `_vectors … EXISTS` selects (api/vectors); without it such filters are refused */
  vectors?: VectorFilterSource;
}

/** Fields that are never checked against `filterableAttributes` (milli: vectors and shards). */
const UNCHECKED_FIELDS = new Set(['_vectors', '_shard']);

/** A filter parsed and checked for its route, ready to run on an index. */
export class CompiledFilter {
  readonly #node: FilterNode;
  readonly #style: RouteStyle;

  constructor(node: FilterNode, style: RouteStyle) {
    this.#node = node;
    this.#style = style;
  }

  /** The documents of `target` matching the filter, as a new bitmap. Throws ApiError. */
  evaluate(target: FilterTarget, indexUid: string): Bitmap {
    const rules = target.filterableAttributes;
    try {
      for (const field of filterFields(this.#node)) {
        if (UNCHECKED_FIELDS.has(field.text) || isFilterable(rules, field.text)) continue;
        throw spanError(notFilterable(field.text, filterablePatterns(rules)), field.span);
      }
      return evaluateFilter(this.#node, {
        reader: target.reader,
        documents: target.documents,
        access: (field) => fieldAccess(rules, field),
        geo: geoFiltering(rules),
        ...(target.vectors ? { vectors: target.vectors } : {}),
      });
    } catch (err) {
      throw this.#evaluationError(err, rules, indexUid);
    }
  }

  #evaluationError(err: unknown, rules: readonly FilterableRule[], indexUid: string): unknown {
    let message: string;
    if (err instanceof FilterSyntaxError) message = err.message;
    else if (err instanceof OperatorNotAllowedError) message = operatorNotAllowed(err.field, err.operator, err.access);
    else if (err instanceof GeoNotFilterableError) {
      message = spanError(notFilterable(err.attribute, filterablePatterns(rules)), err.token.span).message;
    } else if (err instanceof UnsupportedFilterError) return unsupported(err.what, this.#style.code);
    else return err;
    const prefix = this.#style.prefixed ? `Index \`${indexUid}\`: ` : '';
    return new ApiError(this.#style.code, prefix + message);
  }
}

/**
 * Parses the `filter` parameter of `route` (null/undefined, a string, or the array forms) and
 * applies the feature gates; null when it filters nothing. Throws ApiError.
 */
export function compileFilter(raw: unknown, route: FilterRoute, features: FilterFeatures): CompiledFilter | null {
  const style = ROUTES[route];
  let node: FilterNode | null;
  try {
    node = parseFilterJson(raw);
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw new ApiError(style.code, err.message);
    throw err;
  }
  if (node === null) return null;
  checkGates(node, features);
  const foreign = firstForeign(node);
  if (foreign !== null) {
    if (style.local) {
      throw new ApiError(style.code, spanError('Filter condition `_foreign` is not supported for this endpoint.', foreign.span).message);
    }
    throw unsupported('`_foreign` in a filter', style.code);
  }
  if (fieldUse(node, '_shard') !== null) throw unsupported('`_shard` in a filter', style.code);
  return new CompiledFilter(style.reserialized ? reserializeFilter(node) : node, style);
}

/** index-scheduler `check_filter_experimental_features`: the first refused construct, quoted. */
function checkGates(node: FilterNode, features: FilterFeatures): void {
  const gates: [Span | null, boolean, string][] = [
    [containsKeyword(node), features.containsFilter, CONTAINS_GATE],
    [foreignField(node)?.span ?? null, features.foreignKeys, FOREIGN_GATE],
    [fieldUse(node, '_shard')?.span ?? null, features.network, SHARD_GATE],
    [vectorFilterField(node)?.span ?? null, features.multimodal, VECTOR_GATE],
  ];
  for (const [span, enabled, message] of gates) {
    if (span !== null && !enabled) throw new ApiError('feature_not_enabled', spanError(message, span).message);
  }
}

/** The first `_foreign(…)` in reading order (the one milli's conversion meets first). */
function firstForeign(node: FilterNode): Token | null {
  switch (node.kind) {
    case 'foreign':
      return node.field;
    case 'not':
      return firstForeign(node.child);
    case 'and':
    case 'or':
      for (const child of node.children) {
        const found = firstForeign(child);
        if (found !== null) return found;
      }
      return null;
    default:
      return null;
  }
}

function unsupported(what: string, code: ErrorCode): ApiError {
  return new ApiError(code, `Using ${what} is not supported by this version of Muninn yet.`);
}
