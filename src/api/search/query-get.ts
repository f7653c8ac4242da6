// GET /indexes/{uid}/search: the query-string encoding of the search parameters (search.md §3),
// with the messages of Meilisearch's query-parameter deserializer (errors.md §3).
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { LOCALES, type MatchingStrategy } from '../settings/index.ts';
import { didYouMean, quoteList, type Json } from '../validate/index.ts';
import { paramError, queryBoolean, queryPositiveInteger } from '../validate/query.ts';
import {
  defaultSearchQuery, DEFAULT_SEMANTIC_RATIO, MATCHING_STRATEGIES, RANKING_SCORE_THRESHOLD_REASON,
  SEMANTIC_RATIO_REASON, type SearchQuery,
} from './query-types.ts';

/** The query parameters, in the order Meilisearch 1.50 lists them (its unknown-parameter message). */
export const SEARCH_PARAMS = [
  'q', 'offset', 'limit', 'page', 'hitsPerPage', 'attributesToRetrieve', 'attributesToCrop', 'cropLength',
  'cropMarker', 'attributesToHighlight', 'highlightPreTag', 'highlightPostTag', 'showMatchesPosition', 'filter',
  'sort', 'distinct', 'facets', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'locales',
  'hybridEmbedder', 'hybridSemanticRatio', 'vector', 'retrieveVectors', 'personalizeUserContext', 'useNetwork',
  'showRankingScore', 'showRankingScoreDetails', 'showPerformanceDetails',
] as const;

type Param = (typeof SEARCH_PARAMS)[number];

/** What the parameters give before the cross-parameter rules (`hybrid*`, `vector`). */
interface GetState {
  q: SearchQuery;
  hybridEmbedder: string | null;
  hybridSemanticRatio: number | null;
}

type Reader = (s: GetState, raw: string, name: string) => void;

/** A comma-separated list (serde_cs): split on `,`, empty pieces dropped, nothing trimmed. */
export function commaList(raw: string): string[] {
  return raw.split(',').filter((s) => s !== '');
}

// Rust's `f32`/`f64` `FromStr` grammar
const FLOAT = /^[+-]?(?:inf|infinity|nan|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)$/i;

/** Parses a float like Rust's `str::parse::<f64>`, or null. */
export function parseRustFloat(raw: string): number | null {
  if (!FLOAT.test(raw)) return null;
  const body = raw.replace(/^[+-]/, '').toLowerCase();
  const sign = raw.startsWith('-') ? -1 : 1;
  if (body === 'nan') return NaN;
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  return Number(raw);
}

/** `rankingScoreThreshold`, `hybridSemanticRatio`: a float in [0, 1] (NaN passes, as in Meilisearch). */
function unitFloat(raw: string, name: string, reason: string, code: ErrorCode, f32: boolean): number {
  const n = parseRustFloat(raw);
  const v = n === null ? null : f32 ? Math.fround(n) : n;
  if (v === null || v > 1 || v < 0) throw paramError(name, reason, code);
  return n as number;
}

const strs = (raw: string) => commaList(raw);
const uint = (raw: string, name: string, code: ErrorCode) => queryPositiveInteger(name, raw, code);
const bool = (raw: string, name: string, code: ErrorCode) => queryBoolean(name, raw, code);

const SORTED_LOCALES = [...LOCALES].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));

const READERS: Record<Param, Reader> = {
  q: (s, r) => (s.q.q = r),
  vector: (s, r, n) => {
    s.q.vector = commaList(r).map((x) => {
      const f = parseRustFloat(x);
      if (f === null) throw paramError(n, 'invalid float literal', 'invalid_search_vector');
      return f;
    });
  },
  offset: (s, r, n) => (s.q.offset = uint(r, n, 'invalid_search_offset')),
  limit: (s, r, n) => (s.q.limit = uint(r, n, 'invalid_search_limit')),
  page: (s, r, n) => (s.q.page = uint(r, n, 'invalid_search_page')),
  hitsPerPage: (s, r, n) => (s.q.hitsPerPage = uint(r, n, 'invalid_search_hits_per_page')),
  attributesToRetrieve: (s, r) => (s.q.attributesToRetrieve = strs(r)),
  retrieveVectors: (s, r, n) => (s.q.retrieveVectors = bool(r, n, 'invalid_search_retrieve_vectors')),
  attributesToCrop: (s, r) => (s.q.attributesToCrop = strs(r)),
  cropLength: (s, r, n) => (s.q.cropLength = uint(r, n, 'invalid_search_crop_length')),
  attributesToHighlight: (s, r) => (s.q.attributesToHighlight = strs(r)),
  filter: (s, r) => (s.q.filter = jsonOrString(r)),
  sort: (s, r) => (s.q.sort = fixSortParameter(r)),
  distinct: (s, r) => (s.q.distinct = r),
  showMatchesPosition: (s, r, n) => (s.q.showMatchesPosition = bool(r, n, 'invalid_search_show_matches_position')),
  showRankingScore: (s, r, n) => (s.q.showRankingScore = bool(r, n, 'invalid_search_show_ranking_score')),
  showRankingScoreDetails: (s, r, n) =>
    (s.q.showRankingScoreDetails = bool(r, n, 'invalid_search_show_ranking_score_details')),
  showPerformanceDetails: (s, r, n) =>
    (s.q.showPerformanceDetails = bool(r, n, 'invalid_search_show_performance_details')),
  facets: (s, r) => (s.q.facets = strs(r)),
  highlightPreTag: (s, r) => (s.q.highlightPreTag = r),
  highlightPostTag: (s, r) => (s.q.highlightPostTag = r),
  cropMarker: (s, r) => (s.q.cropMarker = r),
  matchingStrategy: (s, r, n) => {
    if (!(MATCHING_STRATEGIES as readonly string[]).includes(r)) {
      throw new ApiError(
        'invalid_search_matching_strategy',
        `Unknown value \`${r}\` for parameter \`${n}\`: expected one of ${quoteList(MATCHING_STRATEGIES)}`,
      );
    }
    s.q.matchingStrategy = r as MatchingStrategy;
  },
  attributesToSearchOn: (s, r) => (s.q.attributesToSearchOn = strs(r)),
  hybridEmbedder: (s, r) => (s.hybridEmbedder = r),
  hybridSemanticRatio: (s, r, n) =>
    (s.hybridSemanticRatio = unitFloat(r, n, SEMANTIC_RATIO_REASON, 'invalid_search_semantic_ratio', true)),
  rankingScoreThreshold: (s, r, n) =>
    (s.q.rankingScoreThreshold = unitFloat(r, n, RANKING_SCORE_THRESHOLD_REASON, 'invalid_search_ranking_score_threshold', false)),
  locales: (s, r, n) => {
    s.q.locales = commaList(r).map((code) => {
      if (!LOCALES.includes(code)) {
        const list = SORTED_LOCALES.join(', ');
        throw paramError(n, `Unsupported locale \`${code}\`, expected one of ${list}`, 'invalid_search_locales');
      }
      return code;
    });
  },
  personalizeUserContext: (s, r) => (s.q.personalize = { userContext: r }),
  useNetwork: (s, r, n) => (s.q.useNetwork = bool(r, n, 'invalid_search_use_network')),
};

/** `filter=`: the parsed JSON when the text is JSON, else the text itself. */
export function jsonOrString(raw: string): Json {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return raw;
  }
}

/**
 * `sort=`: split on `,`, each piece trimmed, outer `"` stripped; pieces of a
 * `_geoPoint(lat, lng):asc` are joined back (Meilisearch `fix_sort_query_parameters`).
 */
export function fixSortParameter(raw: string): string[] {
  const out: string[] = [];
  let merge = false;
  for (const piece of trimQuotes(raw).split(',').map((s) => s.trim())) {
    if (piece.startsWith('_geoPoint(')) {
      out.push(piece);
      merge = true;
    } else if (merge && out.length > 0) {
      out[out.length - 1] += `,${piece}`;
      if (piece.endsWith('):desc') || piece.endsWith('):asc')) merge = false;
    } else {
      out.push(piece);
      merge = false;
    }
  }
  return out;
}

function trimQuotes(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s[a] === '"') a++;
  while (b > a && s[b - 1] === '"') b--;
  return s.slice(a, b);
}

/** Parses the query string of GET /indexes/{uid}/search (one value per name). */
export function parseSearchParams(query: Readonly<Record<string, string>>): SearchQuery {
  const s: GetState = { q: defaultSearchQuery(), hybridEmbedder: null, hybridSemanticRatio: null };
  for (const name of Object.keys(query)) {
    if (!Object.prototype.hasOwnProperty.call(READERS, name)) {
      const guess = didYouMean(name, SEARCH_PARAMS);
      const hint = guess ? `did you mean \`${guess}\`? ` : '';
      throw new ApiError('bad_request', `Unknown parameter \`${name}\`: ${hint}expected one of ${quoteList(SEARCH_PARAMS)}`);
    }
    READERS[name as Param](s, query[name]!, name);
  }
  if (s.hybridEmbedder === null && s.hybridSemanticRatio !== null) {
    throw new ApiError('invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present');
  }
  if (s.hybridEmbedder !== null) {
    s.q.hybrid = { embedder: s.hybridEmbedder, semanticRatio: s.hybridSemanticRatio ?? DEFAULT_SEMANTIC_RATIO };
  }
  if (s.q.vector !== null && s.q.hybrid === null) {
    throw new ApiError('missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present');
  }
  return s.q;
}
