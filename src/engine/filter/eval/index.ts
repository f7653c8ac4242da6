// Filter evaluation (filters.md §4): a parsed filter → the bitmap of matching documents, read
// from the facet index through `FacetReader`. The API layer checks filterability and feature
// gates first and words the errors (src/api/filter).

export { evaluateFilter, operatorAllowed, type FilterScope, type VectorFilterSource } from './evaluate.ts';
export {
  GeoNotFilterableError,
  OperatorNotAllowedError,
  UnsupportedFilterError,
  type FieldAccess,
  type FilterOperator,
} from './errors.ts';
export { compareUtf8, normalizeFilterValue, type Bound, type FacetReader } from './reader.ts';
