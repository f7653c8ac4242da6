// One search on one index, from parsed parameters to the response body (search.md): what the
// HTTP route and the embedded library both run. Multi-search (multi-search.ts) uses the ranking
// step on its own (`rankSearch`) and formats the merged hits itself.
//
//   parameters ─► refuse what is not supported yet ─► placeholder: documents in internal id
//   order │ keyword: engine/search/rank ─► facets of the candidates ─► hits (fields, _formatted,
//   scores) ─► response
import { Bitmap } from '../../engine/bitmap/index.ts';
import { ApiError } from '../errors/index.ts';
import type { Index } from '../../engine/index/index.ts';
import {
  distinctSharers, globalScore, keywordSearch, placeholderSearch, semanticSearch, type KeywordRequest, type NearestFn, type RuleScore,
} from '../../engine/search/rank/index.ts';
import { embedderSpecs, VectorReader } from '../../engine/vector/index.ts';
import { vectorFilterSource, vectorsOf, type VectorsOf } from '../vectors/retrieve.ts';
import { linearScan, prefetchBudget } from '../vectors/options.ts';
import { keywordSuffices, mergeHybrid, queryVector, searchPlan, shiftSimilarity, type SearchPlan } from './semantic.ts';
import { isFacetedBy } from '../settings/index.ts';
import { searchFacets } from './facets.ts';
import { readOnce } from './facets-distribution.ts';
import { checkSort, parseSort, type SortCriterion } from './sort.ts';
import { distinctField } from './distinct.ts';
import { compileFilter, type FilterFeatures, type FilterRoute } from '../filter/index.ts';
import { buildHits, type EngineHit, type EngineResult, type HitContext } from './hits.ts';
import { scoreDetails, searchOnFids } from './keyword.ts';
import { MatchingWords } from './matching-words.ts';
import { isPageMode, isPlaceholder, type SearchQuery } from './query-types.ts';
import { searchResponse, searchWindow, type SearchResponse } from './response.ts';
import { indexSearchState, type IndexSearchState } from './state.ts';
import { rejectUnsupported } from './unsupported.ts';
import { NO_TIMINGS, Timings, type StepRecorder } from './timings.ts';
import { noteDegraded } from './degraded.ts';

/** `searchCutoffMs: null`: Meilisearch's default budget (search.md §11). */
export const DEFAULT_CUTOFF_MS = 1500;

export interface ExecuteOptions {
  /** `Meili-Include-Metadata`: add the index uid and primary key to the response */
  metadata?: boolean;
  /** shared by the results of one multi-search request; a new UUID v7 otherwise */
  requestUid?: string;
  /** the instance's experimental features (filters gate `CONTAINS` and others on them) */
  features?: FilterFeatures;
  /** ms the search waited in the search queue (`performanceDetails`) */
  queueWaitMs?: number;
}

export function executeSearch(index: Index, uid: string, q: SearchQuery, opts: ExecuteOptions = {}): SearchResponse {
  const started = performance.now();
  const timings = q.showPerformanceDetails ? new Timings(started) : NO_TIMINGS;
  rejectUnsupported(q);
  const state = indexSearchState(index);
  timings.step('search > load settings');
  const maxTotalHits = state.settings.pagination.maxTotalHits;
  const window = searchWindow(q, maxTotalHits);
  const scores = q.showRankingScore || q.showRankingScoreDetails || q.rankingScoreThreshold !== null;
  const ranked = rankSearch(index, uid, q, { state, offset: window.offset, limit: window.limit, scores, started, features: opts.features, timings });
  if (ranked.degraded) noteDegraded();
  const facets = q.facets !== null && q.facets.length > 0 ? searchFacets(facetState(state), q.facets, ranked.candidateIds) : {};
  if (q.facets !== null && q.facets.length > 0) timings.step('search > facet distribution');
  const hits = buildHits(q, ranked, hitContext(state));
  timings.step('search > format');
  const metadata = opts.metadata ? { indexUid: uid, primaryKey: index.meta().primaryKey } : null;
  const outcome = {
    hits,
    totalHits: ranked.totalHits,
    processingTimeMs: performance.now() - started,
    ...facets,
    ...(ranked.semanticHitCount !== undefined ? { semanticHitCount: ranked.semanticHitCount } : {}),
    ...(ranked.queryVector !== undefined ? { queryVector: ranked.queryVector } : {}),
    ...(timings instanceof Timings ? { performanceDetails: timings.view('search', opts.queueWaitMs) } : {}),
  };
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
  /** its score came from a vector (semantic search, or the semantic side of a hybrid one) */
  semantic?: boolean;
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
  /** a semantic or hybrid search ran: how many hits came from the vector side */
  semanticHitCount?: number;
  /** the vector the semantic side searched with */
  queryVector?: number[];
  /** the cutoff stopped the ranking: the page holds what was ranked by then */
  degraded?: boolean;
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
  /** where the steps' times go (`showPerformanceDetails`) */
  timings?: StepRecorder;
  /** how filter errors are worded (the search route's, unless said) */
  filterRoute?: FilterRoute;
}

const NO_FEATURES: FilterFeatures = { containsFilter: false, foreignKeys: false, network: false, multimodal: false };

/** Ranks the documents of `q` (already checked by `rejectUnsupported`) and returns a page of them. */
export function rankSearch(index: Index, uid: string, q: SearchQuery, opts: RankOptions): RankedSearch {
  const { state } = opts;
  const timings = opts.timings ?? NO_TIMINGS;
  // Meilisearch's order: search kind (embedder, vector length), filter syntax, sort syntax,
  // filter evaluation (filterable checks), sort checks
  const plan = searchPlan(q, state.settings);
  if (q.media !== null && !(opts.features ?? NO_FEATURES).multimodal) {
    throw new ApiError('feature_not_enabled', 'passing `media` in a search query requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846');
  }
  const filter = compileFilter(q.filter, opts.filterRoute ?? 'search', opts.features ?? NO_FEATURES);
  const sort = parseSort(q.sort);
  const documents = state.wordSets.documents ?? index.usedIds();
  const universe =
    filter === null
      ? null
      : filter.evaluate({ filterableAttributes: state.settings.filterableAttributes, reader: state.facets, documents, vectors: vectorFilterSource(index, state.settings) }, uid);
  if (filter !== null) timings.step('search > evaluate filter');
  checkSort(sort, state.settings, uid);
  const distinct = distinctField(q.distinct, state.settings, uid);
  const request = { ...keywordRequest(uid, q, opts, sort), universe, distinct };
  const ranker = new Ranker(index, uid, state, q);
  const keywordStep = isPlaceholder(q) ? 'search > placeholder ranking' : 'search > keyword ranking';
  if (plan.kind === 'keyword') {
    const ranked = ranker.keyword(request);
    timings.step(keywordStep);
    return plan.hybrid ? { ...ranked, semanticHitCount: 0 } : ranked;
  }
  const all = universe ?? documents;
  if (plan.kind === 'semantic') {
    const vector = queryVector(plan, q.q ?? '');
    const ranked = ranker.semantic(request, all, plan, vector);
    timings.step('search > vector ranking');
    return { ...ranked, semanticHitCount: ranked.hits.length, queryVector: vector };
  }
  // hybrid: both lists from the start, merged, then the page
  const wanted = opts.offset + opts.limit;
  const deep = { ...request, offset: 0, limit: wanted, scores: true };
  const keyword = ranker.keyword(deep);
  timings.step(keywordStep);
  const page = (hits: RankedHit[]) => hits.slice(opts.offset, opts.offset + opts.limit);
  if (keywordSuffices(keyword.hits.map((h) => h.score ?? 0), wanted, plan.ratio)) {
    return { ...keyword, hits: page(keyword.hits), semanticHitCount: 0 };
  }
  let vector: number[];
  try {
    vector = queryVector(plan, q.q ?? '');
  } catch {
    // an embedder failure falls back to the keyword results, silently
    return { ...keyword, hits: page(keyword.hits), semanticHitCount: 0 };
  }
  const semantic = ranker.semantic(deep, all, plan, vector);
  timings.step('search > vector ranking');
  const scored = (hit: RankedHit) => ({ id: hit.id, ranks: hit.ranks, hit });
  let merged = mergeHybrid(keyword.hits.map(scored), semantic.hits.map(scored), plan.ratio);
  // distinct again over the merged list (each list was distinct alone): what a kept hit shares
  // its value with leaves the hits and the count, before the page is cut (as Meilisearch merges)
  const sharers = distinct === null ? null : distinctSharers(distinct, state.facets);
  const excluded = new Bitmap();
  if (sharers !== null) {
    merged = merged.filter((m) => {
      if (excluded.has(m.item.id)) return false;
      const same = sharers(m.item.id);
      if (same !== null) {
        excluded.orInPlace(same);
        excluded.remove(m.item.id);
      }
      return true;
    });
  }
  merged = merged.slice(opts.offset, opts.offset + opts.limit);
  const hits = merged.map((m) => (m.semantic ? { ...m.item.hit, semantic: true } : m.item.hit));
  const semanticHitCount = merged.filter((m) => m.semantic).length;
  const candidates = Bitmap.or(keyword.candidateIds(), semantic.candidateIds());
  candidates.andNotInPlace(excluded);
  return {
    hits, totalHits: candidates.size, candidateIds: () => candidates, matchingWords: keyword.matchingWords, semanticHitCount, queryVector: vector,
    degraded: keyword.degraded === true || semantic.degraded === true,
  };
}

/** The keyword and semantic rankings of one query on one index generation, as ranked hits. */
class Ranker {
  readonly #index: Index;
  readonly #state: IndexSearchState;
  readonly #q: SearchQuery;
  readonly #isDisplayed: (field: string) => boolean;
  readonly #vectors: VectorsOf | null;
  readonly #uid: string;

  constructor(index: Index, uid: string, state: IndexSearchState, q: SearchQuery) {
    this.#index = index;
    this.#uid = uid;
    this.#state = state;
    this.#q = q;
    const displayed = state.settings.displayedAttributes;
    this.#isDisplayed = (field: string) => displayed === null || displayed.includes('*') || displayed.some((d) => isFacetedBy(field, d));
    this.#vectors = q.retrieveVectors ? vectorsOf(index, state.settings) : null;
  }

  keyword(request: KeywordRequest & { universe: Bitmap | null }): RankedSearch {
    const state = this.#state;
    const documents = state.wordSets.documents ?? this.#index.usedIds();
    const result = isPlaceholder(this.#q)
      ? { ...placeholderSearch(request.universe ?? documents, state.wordSets, request, state.keyword), located: [], legacyAttribute: false }
      : keywordSearch(this.#index, state.wordSets, request, state.keyword);
    const hits = this.#hits(result.ids, result.scores, result.legacyAttribute);
    const matchingWords = result.located.length === 0 ? MatchingWords.none() : MatchingWords.fromTerms(result.located);
    return { hits, totalHits: result.candidates, candidateIds: result.candidateIds, matchingWords, degraded: result.degraded };
  }

  semantic(request: KeywordRequest, universe: Bitmap, plan: Extract<SearchPlan, { vector: unknown }>, vector: number[]): RankedSearch {
    const spec = embedderSpecs(this.#index, [plan.embedder], false)[0];
    const reader = new VectorReader(this.#index);
    // vectors stored before a change of `dimensions` keep their length: the query must match it
    const stored = spec === undefined ? undefined : reader.dimensions(spec.id);
    if (stored !== undefined && stored !== vector.length) {
      throw new ApiError('invalid_vector_dimensions', `Index \`${this.#uid}\`: Invalid vector dimensions: expected: \`${stored}\`, found: \`${vector.length}\`.`);
    }
    if (spec !== undefined) reader.prefetch(spec, prefetchBudget());
    const nearest: NearestFn = (candidates, limit) => {
      if (spec === undefined) return { ids: [], similarities: [] };
      const found = reader.nearest(spec, { vector, limit, candidates, linear: linearScan() });
      return { ids: found.ids, similarities: found.similarities.map((s) => shiftSimilarity(s, plan.distribution)) };
    };
    const result = semanticSearch(universe, this.#state.wordSets, request, this.#state.keyword, nearest);
    const hits = this.#hits(result.ids, result.scores, false);
    for (const hit of hits) hit.semantic = true;
    return { hits, totalHits: result.candidates, candidateIds: result.candidateIds, matchingWords: MatchingWords.none(), degraded: result.degraded };
  }

  #hits(ids: readonly number[], scores: readonly RuleScore[][], legacyAttribute: boolean): RankedHit[] {
    const hits: RankedHit[] = [];
    ids.forEach((id, i) => {
      const document = this.#index.documentById(id);
      if (document === undefined) return;
      const ranks = scores[i]!;
      const hit: RankedHit = { id, document, score: globalScore(ranks), scoreDetails: scoreDetails(ranks, legacyAttribute, this.#isDisplayed), ranks };
      if (this.#vectors !== null) hit.vectors = this.#vectors(id);
      hits.push(hit);
    });
    return hits;
  }
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
