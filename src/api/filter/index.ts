// The `filter` parameter of the search, documents and delete routes (filters.md): parsing with
// the route's error code, feature gates, filterable-attribute checks and evaluation over an
// index's facets, with Meilisearch's messages.
export { compileFilter, CompiledFilter, type FilterFeatures, type FilterRoute, type FilterTarget } from './compile.ts';
export { fieldAccess, filterablePatterns, geoFiltering, isFilterable } from './rules.ts';
export { allowedOperators, featureGate, notFilterable, operatorNotAllowed } from './messages.ts';
export { reserializeFilter } from './reserialize.ts';
