// Search parameters (search.md §2): the normalised `SearchQuery` and the POST body parser with
// deserr's messages (errors.md §3). The GET encoding (§3) is in query-get.ts. Fields are read in
// the body's order and the first problem found is reported, as deserr does.
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { LOCALES } from '../settings/index.ts';
import {
  asArray, asBoolean, asPositiveInteger, asString, asStringArray, expectObject, missingField,
  typeError, unknownField, unknownValue, valueError, type Json, type JsonObject,
} from '../validate/index.ts';
import {
  defaultSearchQuery, DEFAULT_SEMANTIC_RATIO, MATCHING_STRATEGIES, RANKING_SCORE_THRESHOLD_REASON,
  SEMANTIC_RATIO_REASON, type HybridQuery, type MatchingStrategy, type SearchQuery,
} from './query-types.ts';

export * from './query-types.ts';
export { parseSearchParams, SEARCH_PARAMS } from './query-get.ts';

/** The body fields in the declaration order of Meilisearch's `SearchQuery` ("expected one of"). */
export const SEARCH_BODY_FIELDS = [
  'q', 'offset', 'limit', 'page', 'hitsPerPage', 'attributesToRetrieve', 'attributesToCrop', 'cropLength',
  'cropMarker', 'attributesToHighlight', 'highlightPreTag', 'highlightPostTag', 'showMatchesPosition',
  'filter', 'sort', 'distinct', 'facets', 'matchingStrategy', 'attributesToSearchOn',
  'rankingScoreThreshold', 'locales', 'hybrid', 'vector', 'retrieveVectors', 'media', 'personalize',
  'useNetwork', 'showRankingScore', 'showRankingScoreDetails', 'showPerformanceDetails',
] as const;

type Field = (typeof SEARCH_BODY_FIELDS)[number];
type Parser = (q: SearchQuery, value: Json, path: string) => void;


const optString = (v: Json, path: string, code: ErrorCode): string | null => (v === null ? null : asString(v, path, code));
const optStrings = (v: Json, path: string, code: ErrorCode): string[] | null => (v === null ? null : asStringArray(v, path, code));
const optUint = (v: Json, path: string, code: ErrorCode): number | null => (v === null ? null : asPositiveInteger(v, path, code));

function asNumber(v: Json, path: string, code: ErrorCode): number {
  if (typeof v !== 'number') throw typeError(path, 'a number', v, code);
  return v;
}

const PARSERS: Record<Field, Parser> = {
  q: (q, v, p) => (q.q = optString(v, p, 'invalid_search_q')),
  offset: (q, v, p) => (q.offset = asPositiveInteger(v, p, 'invalid_search_offset')),
  limit: (q, v, p) => (q.limit = asPositiveInteger(v, p, 'invalid_search_limit')),
  page: (q, v, p) => (q.page = optUint(v, p, 'invalid_search_page')),
  hitsPerPage: (q, v, p) => (q.hitsPerPage = optUint(v, p, 'invalid_search_hits_per_page')),
  attributesToRetrieve: (q, v, p) => (q.attributesToRetrieve = optStrings(v, p, 'invalid_search_attributes_to_retrieve')),
  attributesToCrop: (q, v, p) => (q.attributesToCrop = optStrings(v, p, 'invalid_search_attributes_to_crop')),
  cropLength: (q, v, p) => (q.cropLength = asPositiveInteger(v, p, 'invalid_search_crop_length')),
  cropMarker: (q, v, p) => (q.cropMarker = asString(v, p, 'invalid_search_crop_marker')),
  attributesToHighlight: (q, v, p) => (q.attributesToHighlight = optStrings(v, p, 'invalid_search_attributes_to_highlight')),
  highlightPreTag: (q, v, p) => (q.highlightPreTag = asString(v, p, 'invalid_search_highlight_pre_tag')),
  highlightPostTag: (q, v, p) => (q.highlightPostTag = asString(v, p, 'invalid_search_highlight_post_tag')),
  showMatchesPosition: (q, v, p) => (q.showMatchesPosition = asBoolean(v, p, 'invalid_search_show_matches_position')),
  filter: (q, v) => (q.filter = v),
  sort: (q, v, p) => (q.sort = optStrings(v, p, 'invalid_search_sort')),
  distinct: (q, v, p) => (q.distinct = optString(v, p, 'invalid_search_distinct')),
  facets: (q, v, p) => (q.facets = optStrings(v, p, 'invalid_search_facets')),
  matchingStrategy: (q, v, p) => {
    const code = 'invalid_search_matching_strategy';
    const s = asString(v, p, code);
    if (!(MATCHING_STRATEGIES as readonly string[]).includes(s)) throw unknownValue(p, s, MATCHING_STRATEGIES, code);
    q.matchingStrategy = s as MatchingStrategy;
  },
  attributesToSearchOn: (q, v, p) => (q.attributesToSearchOn = optStrings(v, p, 'invalid_search_attributes_to_search_on')),
  rankingScoreThreshold: (q, v, p) => {
    const code = 'invalid_search_ranking_score_threshold';
    if (v === null) return void (q.rankingScoreThreshold = null);
    const n = asNumber(v, p, code);
    if (!(n >= 0 && n <= 1)) throw valueError(p, RANKING_SCORE_THRESHOLD_REASON, code);
    q.rankingScoreThreshold = n;
  },
  locales: (q, v, p) => {
    const code = 'invalid_search_locales';
    if (v === null) return void (q.locales = null);
    q.locales = asArray(v, p, code).map((l, i) => {
      const s = asString(l, `${p}[${i}]`, code);
      if (!LOCALES.includes(s)) throw unknownValue(`${p}[${i}]`, s, LOCALES, code);
      return s;
    });
  },
  hybrid: (q, v, p) => (q.hybrid = v === null ? null : parseHybrid(v, p)),
  vector: (q, v, p) => {
    if (v === null) return void (q.vector = null);
    q.vector = asArray(v, p, 'invalid_search_vector').map((n, i) => asNumber(n, `${p}[${i}]`, 'invalid_search_vector'));
  },
  retrieveVectors: (q, v, p) => (q.retrieveVectors = asBoolean(v, p, 'invalid_search_retrieve_vectors')),
  media: (q, v) => (q.media = v),
  personalize: (q, v, p) => (q.personalize = v === null ? null : parsePersonalize(v, p)),
  useNetwork: (q, v, p) => (q.useNetwork = v === null ? null : asBoolean(v, p, 'invalid_search_use_network')),
  showRankingScore: (q, v, p) => (q.showRankingScore = asBoolean(v, p, 'invalid_search_show_ranking_score')),
  showRankingScoreDetails: (q, v, p) =>
    (q.showRankingScoreDetails = asBoolean(v, p, 'invalid_search_show_ranking_score_details')),
  showPerformanceDetails: (q, v, p) =>
    (q.showPerformanceDetails = asBoolean(v, p, 'invalid_search_show_performance_details')),
};

/** Reads a nested object field by field (deserr: unknown keys rejected, first error wins). */
function nested(v: Json, path: string, code: ErrorCode, known: readonly string[], read: (key: string, value: Json) => void): JsonObject {
  const obj = expectObject(v, path, code);
  for (const key of Object.keys(obj)) {
    if (!known.includes(key)) throw unknownField(key, known, code, path);
    read(key, obj[key]!);
  }
  return obj;
}

function parseHybrid(v: Json, path: string): HybridQuery {
  const code = 'invalid_search_hybrid_query';
  let semanticRatio = DEFAULT_SEMANTIC_RATIO;
  let embedder: string | undefined;
  nested(v, path, code, ['semanticRatio', 'embedder'], (key, value) => {
    const p = `${path}.${key}`;
    if (key === 'embedder') return void (embedder = asString(value, p, 'invalid_search_embedder'));
    const n = asNumber(value, p, 'invalid_search_semantic_ratio');
    // an f32 in Meilisearch: 1.00000001 rounds to 1.0 and passes
    const f = Math.fround(n);
    if (!(f >= 0 && f <= 1)) throw valueError(p, SEMANTIC_RATIO_REASON, 'invalid_search_semantic_ratio');
    semanticRatio = n;
  });
  if (embedder === undefined) throw missingField('embedder', code, path);
  return { embedder, semanticRatio };
}

function parsePersonalize(v: Json, path: string): { userContext: string } {
  const code = 'invalid_search_personalize';
  let userContext: string | undefined;
  nested(v, path, code, ['userContext'], (key, value) => {
    userContext = asString(value, `${path}.${key}`, 'invalid_search_personalize_user_context');
  });
  if (userContext === undefined) throw missingField('userContext', code, path);
  return { userContext };
}

/** Parses a POST /indexes/{uid}/search body (already JSON-decoded). */
export function parseSearchBody(body: unknown): SearchQuery {
  const obj = expectObject(body === undefined ? null : body);
  const q = defaultSearchQuery();
  for (const key of Object.keys(obj)) {
    const parse = (PARSERS as Record<string, Parser | undefined>)[key];
    if (parse === undefined || !Object.prototype.hasOwnProperty.call(PARSERS, key)) {
      throw unknownField(key, SEARCH_BODY_FIELDS, 'bad_request');
    }
    parse(q, obj[key]!, `.${key}`);
  }
  return q;
}
