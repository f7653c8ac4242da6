// The search API contract without transport (search.md): parameters, refusals of what is not
// implemented yet, hit formatting (highlight, crop, match positions) and the response.
export * from './query.ts';
export { commaList, fixSortParameter } from './query-get.ts';
export { filterIsUsed, notSupported, rejectUnsupported } from './unsupported.ts';
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
export { executeSearch, DEFAULT_CUTOFF_MS, type ExecuteOptions } from './execute.ts';
export { indexSearchState, type IndexSearchState } from './state.ts';
export { fieldWeights, keywordSetup, scoreDetails, searchOnFids } from './keyword.ts';
