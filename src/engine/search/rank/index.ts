// Keyword ranking (relevancy.md §3–8): term resolution, the query graph as rules walk it, the
// ranking rules and bucket sort. Entry point: `keywordSearch`.
export { keywordSearch, placeholderSearch, semanticSearch, ruleChain, globalScore } from './search.ts';
export { ReadCache } from './read-cache.ts';
export { distinctSharers } from './distinct.ts';
export type { SharedReads, DistinctValues, SortCriterion, SortValues, ChainEntry, KeywordRequest, KeywordResult, KeywordSetup, MatchingStrategy, NearestFn, RuleName, RuleScore } from './search.ts';
