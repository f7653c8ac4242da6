// GET / POST /indexes/{uid}/similar (similar.md): the documents nearest to a document's own
// embeddings for one embedder, filtered, as search hits (no `q`, no highlighting, no facets).
//
//   parameters ─► embedder exists ─► filter parsed ─► id checked ─► the document (400 when
//   unknown) ─► filter evaluated ─► nearest of each of its vectors in its store (itself left out) ─► threshold
//   walk ─► hits
import { canonicalId, compactJson } from '../../engine/index/primary-key.ts';
import type { Index } from '../../engine/index/index.ts';
import { embedderSpecs, VectorReader } from '../../engine/vector/index.ts';
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { compileFilter, type FilterFeatures } from '../filter/index.ts';
import { embedderConfigs } from '../settings/index.ts';
import { asBoolean, asPositiveInteger, asString, asStringArray, didYouMean, expectObject, quoteList, typeError, unknownField, valueError, type Json } from '../validate/index.ts';
import { paramError, queryBoolean, queryPositiveInteger } from '../validate/query.ts';
import { hitContext } from './execute.ts';
import { buildHits, type EngineHit } from './hits.ts';
import { MatchingWords } from './matching-words.ts';
import { commaList, jsonOrString, parseRustFloat } from './query-get.ts';
import { defaultSearchQuery, RANKING_SCORE_THRESHOLD_REASON, type SearchQuery } from './query-types.ts';
import { distributionOf, shiftSimilarity } from './semantic.ts';
import { vectorFilterSource, vectorsOf } from '../vectors/retrieve.ts';
import { linearScan, prefetchBudget } from '../vectors/options.ts';
import { indexSearchState } from './state.ts';

export interface SimilarQuery {
  id: Json;
  embedder: string;
  offset: number;
  limit: number;
  filter: Json | null;
  attributesToRetrieve: string[] | null;
  retrieveVectors: boolean;
  showRankingScore: boolean;
  showRankingScoreDetails: boolean;
  showPerformanceDetails: boolean;
  rankingScoreThreshold: number | null;
}

/** Body fields in the order of Meilisearch's `SimilarQuery` ("expected one of"). */
export const SIMILAR_BODY_FIELDS = [
  'id', 'offset', 'limit', 'filter', 'embedder', 'attributesToRetrieve', 'retrieveVectors', 'showRankingScore',
  'showRankingScoreDetails', 'showPerformanceDetails', 'rankingScoreThreshold',
] as const;

/** Query parameters in the order of `SimilarQueryGet`. */
export const SIMILAR_PARAMS = [
  'id', 'embedder', 'offset', 'limit', 'attributesToRetrieve', 'retrieveVectors', 'filter', 'showRankingScore',
  'showRankingScoreDetails', 'showPerformanceDetails', 'rankingScoreThreshold',
] as const;

const DEFAULT_LIMIT = 20;

function empty(): Omit<SimilarQuery, 'id' | 'embedder'> {
  return {
    offset: 0, limit: DEFAULT_LIMIT, filter: null, attributesToRetrieve: null, retrieveVectors: false, showRankingScore: false,
    showRankingScoreDetails: false, showPerformanceDetails: false, rankingScoreThreshold: null,
  };
}

/** POST body (deserr: unknown fields refused, fields read in order, missing ones reported last). */
export function parseSimilarBody(body: unknown): SimilarQuery {
  const obj = expectObject(body === undefined ? null : body);
  const q: Partial<SimilarQuery> & ReturnType<typeof empty> = empty();
  for (const key of Object.keys(obj)) {
    const v = obj[key]!;
    const p = `.${key}`;
    switch (key) {
      case 'id':
        q.id = v;
        break;
      case 'embedder':
        q.embedder = asString(v, p, 'invalid_similar_embedder');
        break;
      case 'offset':
        q.offset = asPositiveInteger(v, p, 'invalid_similar_offset');
        break;
      case 'limit':
        q.limit = asPositiveInteger(v, p, 'invalid_similar_limit');
        break;
      case 'filter':
        q.filter = v;
        break;
      case 'attributesToRetrieve':
        q.attributesToRetrieve = v === null ? null : asStringArray(v, p, 'invalid_similar_attributes_to_retrieve');
        break;
      case 'retrieveVectors':
        q.retrieveVectors = asBoolean(v, p, 'invalid_similar_retrieve_vectors');
        break;
      case 'showRankingScore':
        q.showRankingScore = asBoolean(v, p, 'invalid_similar_show_ranking_score');
        break;
      case 'showRankingScoreDetails':
        q.showRankingScoreDetails = asBoolean(v, p, 'invalid_similar_show_ranking_score_details');
        break;
      case 'showPerformanceDetails':
        q.showPerformanceDetails = asBoolean(v, p, 'invalid_similar_show_performance_details');
        break;
      case 'rankingScoreThreshold':
        q.rankingScoreThreshold = v === null ? null : threshold(v, p);
        break;
      default:
        throw unknownField(key, SIMILAR_BODY_FIELDS, 'bad_request');
    }
  }
  if (q.embedder === undefined) throw new ApiError('bad_request', 'Missing field `embedder`');
  if (q.id === undefined) throw new ApiError('bad_request', 'Missing field `id`');
  return q as SimilarQuery;
}

function threshold(v: Json, path: string): number {
  const code: ErrorCode = 'invalid_similar_ranking_score_threshold';
  if (typeof v !== 'number') throw typeError(path, 'a number', v, code);
  if (!(v >= 0 && v <= 1)) throw valueError(path, RANKING_SCORE_THRESHOLD_REASON, code);
  return v;
}

/** GET query string. */
export function parseSimilarParams(query: Readonly<Record<string, string>>): SimilarQuery {
  const q: Partial<SimilarQuery> & ReturnType<typeof empty> = empty();
  for (const name of Object.keys(query)) {
    const raw = query[name]!;
    switch (name) {
      case 'id':
        q.id = raw;
        break;
      case 'embedder':
        q.embedder = raw;
        break;
      case 'offset':
        q.offset = queryPositiveInteger(name, raw, 'invalid_similar_offset');
        break;
      case 'limit':
        q.limit = queryPositiveInteger(name, raw, 'invalid_similar_limit');
        break;
      case 'attributesToRetrieve':
        q.attributesToRetrieve = commaList(raw);
        break;
      case 'retrieveVectors':
        q.retrieveVectors = queryBoolean(name, raw, 'invalid_similar_retrieve_vectors');
        break;
      case 'filter':
        q.filter = jsonOrString(raw);
        break;
      case 'showRankingScore':
        q.showRankingScore = queryBoolean(name, raw, 'invalid_similar_show_ranking_score');
        break;
      case 'showRankingScoreDetails':
        q.showRankingScoreDetails = queryBoolean(name, raw, 'invalid_similar_show_ranking_score_details');
        break;
      case 'showPerformanceDetails':
        q.showPerformanceDetails = queryBoolean(name, raw, 'invalid_similar_show_performance_details');
        break;
      case 'rankingScoreThreshold': {
        const n = parseRustFloat(raw);
        if (n === null || n > 1 || n < 0) throw paramError(name, RANKING_SCORE_THRESHOLD_REASON, 'invalid_similar_ranking_score_threshold');
        q.rankingScoreThreshold = n;
        break;
      }
      default: {
        const guess = didYouMean(name, SIMILAR_PARAMS);
        const hint = guess ? `did you mean \`${guess}\`? ` : '';
        throw new ApiError('bad_request', `Unknown parameter \`${name}\`: ${hint}expected one of ${quoteList(SIMILAR_PARAMS)}`);
      }
    }
  }
  if (q.id === undefined) throw new ApiError('bad_request', 'Missing parameter `id`');
  if (q.embedder === undefined) throw new ApiError('bad_request', 'Missing parameter `embedder`');
  return q as SimilarQuery;
}

export interface SimilarOptions {
  features?: FilterFeatures;
  /** a tenant token's filter for this index (ANDed; a document it excludes is "not found") */
  ruleFilter?: Json | null;
}

const NO_FEATURES: FilterFeatures = { containsFilter: false, foreignKeys: false, network: false, multimodal: false };

export function executeSimilar(index: Index, uid: string, sq: SimilarQuery, opts: SimilarOptions = {}): Record<string, unknown> {
  const started = performance.now();
  const state = indexSearchState(index);
  const settings = state.settings;
  const config = embedderConfigs(settings.embedders).find((c) => c.name === sq.embedder);
  if (config === undefined) throw new ApiError('invalid_similar_embedder', `Cannot find embedder with name \`${sq.embedder}\`.`);
  const features = opts.features ?? NO_FEATURES;
  const rule = opts.ruleFilter === undefined || opts.ruleFilter === null ? null : compileFilter(opts.ruleFilter, 'similar', features);
  const filter = compileFilter(sq.filter, 'similar', features);
  const extId = canonicalId(sq.id);
  if (extId === null) {
    throw new ApiError(
      'invalid_similar_id',
      `Invalid value at \`.id\`: Document identifier \`${compactJson(sq.id)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
    );
  }
  const documents = state.wordSets.documents ?? index.usedIds();
  const target = { filterableAttributes: settings.filterableAttributes, reader: state.facets, documents, vectors: vectorFilterSource(index, settings) };
  const id = index.internalId(extId);
  const allowed = rule === null ? null : rule.evaluate(target, uid);
  if (id === undefined || (allowed !== null && !allowed.has(id))) throw new ApiError('not_found_similar_id', `Document \`${extId}\` not found.`);
  let universe = filter === null ? documents.clone() : filter.evaluate(target, uid);
  if (allowed !== null) universe.andInPlace(allowed);
  universe.remove(id);

  const spec = embedderSpecs(index, [config], false)[0];
  const reader = new VectorReader(index);
  if (spec !== undefined) reader.prefetch(spec, prefetchBudget());
  const own = spec === undefined ? undefined : reader.embeddings(spec.id, id);
  const best = new Map<number, number>();
  if (spec !== undefined && own !== undefined) {
    // each of its vectors is compared with the graph of its own store (the k-th vectors of the
    // others), as Meilisearch asks each store for the neighbours of the document's item there
    for (let k = 0; k < own.count; k++) {
      const found = reader.nearest(spec, { vector: own.vector(k), limit: sq.offset + sq.limit + 1, candidates: universe, exclude: id, linear: linearScan(), store: k });
      found.ids.forEach((doc, i) => best.set(doc, Math.max(best.get(doc) ?? -Infinity, found.similarities[i]!)));
    }
  }
  const distribution = distributionOf(settings.embedders[sq.embedder]);
  const ranked = [...best].map(([doc, s]) => [doc, shiftSimilarity(s, distribution)] as const).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const maxTotalHits = settings.pagination.maxTotalHits;
  let total = Math.min(universe.size, maxTotalHits);
  let accepted = ranked;
  if (sq.rankingScoreThreshold !== null) {
    const cut = ranked.findIndex(([, s]) => s < sq.rankingScoreThreshold!);
    if (cut >= 0) {
      accepted = ranked.slice(0, cut);
      total = cut;
    }
  }
  const page = accepted.slice(sq.offset, sq.offset + sq.limit);
  const engineHits: EngineHit[] = [];
  const vectors = sq.retrieveVectors ? vectorsOf(index, settings) : null;
  for (const [doc, similarity] of page) {
    const document = index.documentById(doc);
    if (document === undefined) continue;
    const hit: EngineHit = { document, score: similarity, scoreDetails: { vectorSort: { order: 0, similarity } } };
    if (vectors !== null) hit.vectors = vectors(doc);
    engineHits.push(hit);
  }
  const hits = buildHits(asSearchQuery(sq), { hits: engineHits, matchingWords: MatchingWords.none() }, hitContext(state));
  const res: Record<string, unknown> = {
    hits,
    id: extId,
    processingTimeMs: Math.max(0, Math.floor(performance.now() - started)),
    limit: sq.limit,
    offset: sq.offset,
    estimatedTotalHits: total,
  };
  if (sq.showPerformanceDetails) res.performanceDetails = {};
  return res;
}

/** The search parameters the hits builder reads. */
function asSearchQuery(sq: SimilarQuery): SearchQuery {
  return {
    ...defaultSearchQuery(),
    attributesToRetrieve: sq.attributesToRetrieve,
    retrieveVectors: sq.retrieveVectors,
    showRankingScore: sq.showRankingScore,
    showRankingScoreDetails: sq.showRankingScoreDetails,
  };
}
