// One search on one index, from parsed parameters to the response body (search.md): what the
// HTTP route and the embedded library both run. Multi-search (multi-search.ts) uses the ranking
// step on its own (`rankSearch`) and formats the merged hits itself.
//
//   parameters ─► refuse what is not supported yet ─► placeholder: documents in internal id
//   order │ keyword: engine/search/rank ─► facets of the candidates ─► hits (fields, _formatted,
//   scores) ─► response
import type { Bitmap } from '../../engine/bitmap/index.ts';
import type { Index } from '../../engine/index/index.ts';
import { globalScore, keywordSearch, placeholderSearch, type KeywordRequest, type RuleScore } from '../../engine/search/rank/index.ts';
import { isFacetedBy } from '../settings/index.ts';
import { searchFacets } from './facets.ts';
import { readOnce } from './facets-distribution.ts';
import { checkSort, parseSort, type SortCriterion } from './sort.ts';
import { distinctField } from './distinct.ts';
import { compileFilter, type FilterFeatures } from '../filter/index.ts';
import { buildHits, type EngineHit, type EngineResult, type HitContext } from './hits.ts';
import { scoreDetails, searchOnFids } from './keyword.ts';
import { MatchingWords } from './matching-words.ts';
import { isPageMode, isPlaceholder, type SearchQuery } from './query-types.ts';
import { searchResponse, searchWindow, type SearchResponse } from './response.ts';
import { indexSearchState, type IndexSearchState } from './state.ts';
import { rejectUnsupported } from './unsupported.ts';

/** `searchCutoffMs: null`: Meilisearch's default budget (search.md §11). */
export const DEFAULT_CUTOFF_MS = 1500;

export interface ExecuteOptions {
  /** `Meili-Include-Metadata`: add the index uid and primary key to the response */
  metadata?: boolean;
  /** shared by the results of one multi-search request; a new UUID v7 otherwise */
  requestUid?: string;
  /** the instance's experimental features (filters gate `CONTAINS` and others on them) */
  features?: FilterFeatures;
}

export function executeSearch(index: Index, uid: string, q: SearchQuery, opts: ExecuteOptions = {}): SearchResponse {
  const started = performance.now();
  rejectUnsupported(q);
  const state = indexSearchState(index);
  const maxTotalHits = state.settings.pagination.maxTotalHits;
  const window = searchWindow(q, maxTotalHits);
  const scores = q.showRankingScore || q.showRankingScoreDetails || q.rankingScoreThreshold !== null;
  const ranked = rankSearch(index, uid, q, { state, offset: window.offset, limit: window.limit, scores, started, features: opts.features });
  const facets = q.facets !== null && q.facets.length > 0 ? searchFacets(facetState(state), q.facets, ranked.candidateIds) : {};
  const hits = buildHits(q, ranked, hitContext(state));
  const metadata = opts.metadata ? { indexUid: uid, primaryKey: index.meta().primaryKey } : null;
  const outcome = { hits, totalHits: ranked.totalHits, processingTimeMs: performance.now() - started, ...facets };
  return searchResponse(q, outcome, { metadata, ...(opts.requestUid ? { requestUid: opts.requestUid } : {}) });
}

/** The state one facet computation reads: each candidate's facet values read once for all fields. */
function facetState(state: IndexSearchState): IndexSearchState {
  const values = state.wordSets.facets;
  return values === null || values === undefined ? state : { ...state, wordSets: { ...state.wordSets, facets: readOnce(values) } };
}

/** One ranked document: its internal id and the rule ranks its score comes from. */
export interface RankedHit extends EngineHit {
  id: number;
  /** rule ranks in rule order; empty for a placeholder search (score 1) */
  ranks: readonly RuleScore[];
}

/** The ranked page of a query, before formatting. */
export interface RankedSearch extends EngineResult {
  hits: RankedHit[];
  /** matching documents (after negative words and threshold); `maxTotalHits` caps only the page */
  totalHits: number;
  /** those documents (what facet distributions count) */
  candidateIds(): Bitmap;
}

export interface RankOptions {
  state: IndexSearchState;
  offset: number;
  limit: number;
  /** complete rule ranks for every returned document (else singleton buckets stop early) */
  scores: boolean;
  /** `performance.now()` at the start of the request: the cutoff counts from it */
  started: number;
  /** experimental features filters depend on (`containsFilter`, ...); all off when absent */
  features?: FilterFeatures;
}

const NO_FEATURES: FilterFeatures = { containsFilter: false, foreignKeys: false, network: false, multimodal: false };

/** Ranks the documents of `q` (already checked by `rejectUnsupported`) and returns a page of them. */
export function rankSearch(index: Index, uid: string, q: SearchQuery, opts: RankOptions): RankedSearch {
  const { state } = opts;
  // Meilisearch's order: filter syntax, sort syntax, filter evaluation (filterable checks), sort checks
  const filter = compileFilter(q.filter, 'search', opts.features ?? NO_FEATURES);
  const sort = parseSort(q.sort);
  const documents = state.wordSets.documents ?? index.usedIds();
  const universe =
    filter === null
      ? null
      : filter.evaluate({ filterableAttributes: state.settings.filterableAttributes, reader: state.facets, documents }, uid);
  checkSort(sort, state.settings, uid);
  const distinct = distinctField(q.distinct, state.settings, uid);
  const request = { ...keywordRequest(uid, q, opts, sort), universe, distinct };
  const result = isPlaceholder(q)
    ? { ...placeholderSearch(universe ?? documents, state.wordSets, request, state.keyword), located: [], legacyAttribute: false }
    : keywordSearch(index, state.wordSets, request, state.keyword);
  const displayed = state.settings.displayedAttributes;
  const isDisplayed = (field: string) => displayed === null || displayed.includes('*') || displayed.some((d) => isFacetedBy(field, d));
  const hits: RankedHit[] = [];
  result.ids.forEach((id, i) => {
    const document = index.documentById(id);
    if (document === undefined) return;
    const ranks = result.scores[i]!;
    hits.push({ id, document, score: globalScore(ranks), scoreDetails: scoreDetails(ranks, result.legacyAttribute, isDisplayed), ranks });
  });
  const matchingWords = result.located.length === 0 ? MatchingWords.none() : MatchingWords.fromTerms(result.located);
  return { hits, totalHits: result.candidates, candidateIds: result.candidateIds, matchingWords };
}

function keywordRequest(uid: string, q: SearchQuery, opts: RankOptions, sort: readonly SortCriterion[] = []): KeywordRequest {
  const { settings, fields } = opts.state;
  return {
    q: q.q!,
    offset: opts.offset,
    limit: opts.limit,
    strategy: q.matchingStrategy,
    fids: searchOnFids(q.attributesToSearchOn, settings, fields, uid),
    scores: opts.scores,
    threshold: q.rankingScoreThreshold,
    exhaustive: isPageMode(q),
    maxTotalHits: settings.pagination.maxTotalHits,
    sort,
    deadline: opts.started + (settings.searchCutoffMs ?? DEFAULT_CUTOFF_MS),
    locales: q.locales,
  };
}

/** What hits of this index generation are formatted with. */
export function hitContext(state: IndexSearchState): HitContext {
  return {
    fields: state.fields,
    displayedAttributes: state.settings.displayedAttributes,
    localizedAttributes: state.settings.localizedAttributes,
    tokenizer: state.formatTokenizer,
  };
}
