// Meilisearch filter expressions → AST (filters.md §1–2, §6–7), without dependencies:
// `parseFilter` for a string, `parseFilterJson` for the `filter` parameter's JSON forms; both
// return null for "no filter" and throw `FilterSyntaxError` with Meilisearch's exact message.
// `geo-check.ts` and `usage.ts` hold what evaluation and the feature gates need from the AST.

export { parseFilter, MAX_PARSE_DEPTH } from './grammar.ts';
export { parseFilterJson } from './json.ts';
export { FilterSyntaxError, spanError } from './errors.ts';
export { parseFiniteFloat, parseRustFloat, formatRustFloat } from './numbers.ts';
export {
  geoRadiusArgs,
  geoBoundingBoxArgs,
  geoPolygonPoints,
  DEFAULT_GEO_RESOLUTION,
  type GeoRadius,
  type GeoBoundingBox,
} from './geo-check.ts';
export {
  containsKeyword,
  vectorFilterField,
  foreignField,
  fieldUse,
  filterFields,
  tokenAtDepth,
  MAX_CONDITION_DEPTH,
} from './usage.ts';
export type {
  AndNode,
  CompareNode,
  CompareOp,
  ContainsNode,
  ExistsNode,
  FilterNode,
  FilterSource,
  ForeignNode,
  GeoBoundingBoxNode,
  GeoNumber,
  GeoPoint,
  GeoPolygonNode,
  GeoRadiusNode,
  InNode,
  IsEmptyNode,
  IsNullNode,
  NotNode,
  OrNode,
  RangeNode,
  Span,
  StartsWithNode,
  Token,
  Value,
  VectorExistsNode,
  VectorSubset,
} from './ast.ts';
