// The search API contract without transport (search.md): parameters, refusals of what is not
// implemented yet, hit formatting (highlight, crop, match positions), the response, and
// multi-search (multi-search.md: independent or federated queries).
export * from './query.ts';
export { commaList, fixSortParameter } from './query-get.ts';
export { filterIsUsed, notSupported, rejectUnsupported, rejectUseNetwork } from './unsupported.ts';
export { insideQuery } from './multi-errors.ts';
export { MatchingWords, type LocatedTerm, type MatchingPhrase, type TermIds, type TokenToMatch, type WordMatch } from './matching-words.ts';
export {
  cropBounds, findMatches, formatText, matchBounds, type FormatOptions, type MatchBounds, type Markers, type TextMatch,
  type TextMatches,
} from './format.ts';
export { buildHits, haversine, numberText, planHits, type EngineHit, type EngineResult, type HitContext, type HitPlan, type SearchHit } from './hits.ts';
export {
  searchResponse, searchWindow, uuidV7, wantsMetadata, type ResponseMetadata, type ResponseOptions, type SearchOutcome,
  type SearchResponse, type SearchWindow,
} from './response.ts';
export {
  executeSearch, rankSearch, DEFAULT_CUTOFF_MS, type ExecuteOptions, type RankedHit, type RankedSearch, type RankOptions,
} from './execute.ts';
export {
  parseMultiSearchBody, MULTI_QUERY_FIELDS, type Federation, type FederationOptions, type MultiQuery, type MultiSearchRequest,
} from './multi-query.ts';
export { authorizeQueries, executeMultiSearch, fuseFilters, runMultiSearch, type MultiSearchContext, type SearchAuthorizer, type SearchRule } from './multi-search.ts';
export { indexSearchState, type IndexSearchState } from './state.ts';
export { checkFacets, computeFacets, facetFields, searchFacets, type ComputedFacets, type FacetField } from './facets.ts';
export type { FacetValues } from './facets-values.ts';
export {
  checkFacetSearchable, executeFacetSearch, parseFacetSearchBody, type FacetSearchQuery, type FacetSearchResponse,
} from './facets-search.ts';
export { fieldWeights, keywordSetup, scoreDetails, searchOnFids } from './keyword.ts';
export { executeSimilar, parseSimilarBody, parseSimilarParams, type SimilarQuery } from './similar.ts';
