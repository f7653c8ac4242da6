// Query pipeline: parse (parse.ts) → derive terms and n-grams (derive.ts) → query graph
// (graph.ts); located terms for highlighting (located.ts). Pure functions over a WordSource.

export { parseQuery, MAX_QUERY_TERMS, MAX_QUERY_TOKENS } from './parse.ts';
export { deriveTerms, allowedTypos, bestSplit, LIMITS } from './derive.ts';
export { locatedTerms } from './located.ts';
export { buildQueryGraph } from './graph.ts';
export type {
  LocatedTerm,
  ParsedQuery,
  ParsedTerm,
  PhraseDerivation,
  PhraseWords,
  Positions,
  QueryConfig,
  QueryGraph,
  QueryGraphNode,
  QueryTerm,
  QueryTerms,
  TermSpan,
  TypoGroup,
  WordDerivation,
  WordSets,
  WordSource,
} from './types.ts';
