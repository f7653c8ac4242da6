// The normalised search query (search.md §2): its type, defaults and derived flags, shared by the
// POST (query.ts) and GET (query-get.ts) parsers.
import type { MatchingStrategy } from '../settings/index.ts';
import type { Json } from '../validate/index.ts';

export type { MatchingStrategy } from '../settings/index.ts';

/** `hybrid`: the embedder to use and the share of semantic results. */
export interface HybridQuery {
  embedder: string;
  semanticRatio: number;
}

/** Every search parameter, defaults applied; lists are kept as sent (`null` = not given). */
export interface SearchQuery {
  /** As sent (`null` when absent); see `isPlaceholder`. */
  q: string | null;
  offset: number;
  limit: number;
  page: number | null;
  hitsPerPage: number | null;
  attributesToRetrieve: string[] | null;
  attributesToCrop: string[] | null;
  cropLength: number;
  cropMarker: string;
  attributesToHighlight: string[] | null;
  highlightPreTag: string;
  highlightPostTag: string;
  showMatchesPosition: boolean;
  /** Any JSON (GET: the parsed JSON when the string is JSON); checked when used. */
  filter: Json | null;
  sort: string[] | null;
  distinct: string | null;
  facets: string[] | null;
  matchingStrategy: MatchingStrategy;
  attributesToSearchOn: string[] | null;
  rankingScoreThreshold: number | null;
  /** Codes as sent (two- or three-letter, or `cmn`). */
  locales: string[] | null;
  hybrid: HybridQuery | null;
  vector: number[] | null;
  retrieveVectors: boolean;
  media: Json | null;
  personalize: { userContext: string } | null;
  useNetwork: boolean | null;
  showRankingScore: boolean;
  showRankingScoreDetails: boolean;
  showPerformanceDetails: boolean;
}

export const DEFAULT_SEARCH_LIMIT = 20;
export const DEFAULT_CROP_LENGTH = 10;
export const DEFAULT_CROP_MARKER = '…';
export const DEFAULT_HIGHLIGHT_PRE_TAG = '<em>';
export const DEFAULT_HIGHLIGHT_POST_TAG = '</em>';
export const DEFAULT_SEMANTIC_RATIO = 0.5;
export const MATCHING_STRATEGIES: readonly MatchingStrategy[] = ['last', 'all', 'frequency'];

/** A query with every default (an empty POST body). */
export function defaultSearchQuery(): SearchQuery {
  return {
    q: null, offset: 0, limit: DEFAULT_SEARCH_LIMIT, page: null, hitsPerPage: null,
    attributesToRetrieve: null, attributesToCrop: null, cropLength: DEFAULT_CROP_LENGTH,
    cropMarker: DEFAULT_CROP_MARKER, attributesToHighlight: null,
    highlightPreTag: DEFAULT_HIGHLIGHT_PRE_TAG, highlightPostTag: DEFAULT_HIGHLIGHT_POST_TAG,
    showMatchesPosition: false, filter: null, sort: null, distinct: null, facets: null,
    matchingStrategy: 'last', attributesToSearchOn: null, rankingScoreThreshold: null, locales: null,
    hybrid: null, vector: null, retrieveVectors: false, media: null, personalize: null, useNetwork: null,
    showRankingScore: false, showRankingScoreDetails: false, showPerformanceDetails: false,
  };
}

/** True when `q` is absent, empty or only whitespace (placeholder search). */
export function isPlaceholder(q: SearchQuery): boolean {
  return q.q === null || q.q.trim() === '';
}

/** True in page mode (`page` or `hitsPerPage` given): exhaustive `totalHits`/`totalPages`. */
export function isPageMode(q: SearchQuery): boolean {
  return q.page !== null || q.hitsPerPage !== null;
}

/** Message of an out-of-range `rankingScoreThreshold` (after `Invalid value at ...: `). */
export const RANKING_SCORE_THRESHOLD_REASON =
  'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.';
/** Message of an out-of-range `hybrid.semanticRatio`. */
export const SEMANTIC_RATIO_REASON = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.';
