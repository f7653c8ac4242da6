// Federated search (multi-search.md §3, §4): every query's results merged into one ranked list.
//
//   queries ─► restrictions of §3.2 (request order) ─► grouped by index (uid order), per index:
//     facet order check (mergeFacets) ─► rank each query (offset 0, limit = offset+limit capped
//     by maxTotalHits: only the hits are capped, never the counts; complete rule ranks, `federation.distinct` as the query's distinct)
//     ─► merge the index's lists: a document kept once (best query), a document sharing a
//     distinct value with a kept one rejected ─► count (union of the queries' candidates) and
//     `facetsByIndex` facets over that union
//   ─► indexes named only in `facetsByIndex`: exist, facet order, facets filterable
//   ─► merge the indexes' lists (distinct across indexes: rejected hits leave the count and the
//     facet counts) ─► offset/limit or page window ─► hits formatted by the query that produced
//     them, `_federation` added ─► facets per index or merged ─► response in the key order of §3
import type { Bitmap } from '../../engine/bitmap/index.ts';
import { Bitmap as Bitmaps } from '../../engine/bitmap/index.ts';
import { normalizeFacetString } from '../../engine/facet/index.ts';
import { formatRustFloat } from '../../engine/filter/parser/index.ts';
import type { Index } from '../../engine/index/index.ts';
import { ApiError } from '../errors/index.ts';
import type { FilterFeatures } from '../filter/index.ts';
import { checkFacetOrder, mergeFacets, type FacetOrders } from './facets-merge.ts';
import { checkFacets, searchFacets, type ComputedFacets } from './facets.ts';
import { compareBytes, setKey, type FacetValues } from './facets-values.ts';
import { buildHits, type SearchHit } from './hits.ts';
import { hitContext, rankSearch, type RankedHit, type RankedSearch } from './execute.ts';
import { indexNotFoundInBody, insideQuery, prefixed } from './multi-errors.ts';
import { kMerge, mergeKey, type MergeKey } from './multi-merge.ts';
import type { Federation, MultiQuery } from './multi-query.ts';
import { canonicalRules, checkCompatible, type RulesReference } from './multi-rules.ts';
import { DEFAULT_SEARCH_LIMIT } from './query-types.ts';
import { uuidV7 } from './response.ts';
import { indexSearchState, type IndexSearchState } from './state.ts';
import { notSupported, rejectUnsupported } from './unsupported.ts';
import { noteDegraded } from './degraded.ts';

export interface FederatedContext {
  index(uid: string): Index | undefined;
  /** `Meili-Include-Metadata`: add one `metadata` entry per query */
  metadata?: boolean;
  requestUid: string;
  /** `performance.now()` at the start of the request */
  started: number;
  /** the instance's experimental features (filters gate `CONTAINS` and others on them) */
  features?: FilterFeatures;
}

/** A ranked document of one query, as the merge sees it. */
interface Candidate {
  key: MergeKey;
  hit: RankedHit;
  indexUid: string;
  /** its values of `federation.distinct` (null: no federation distinct) */
  distinct: string[] | null;
}

/** What formatting a query's hits needs once the merge has picked them. */
interface QueryRun {
  query: MultiQuery;
  ranked: RankedSearch;
  state: IndexSearchState;
}

/** One queried index's part of the search. */
interface IndexPart {
  uid: string;
  state: IndexSearchState;
  /** the index's queries merged, each document once, best first */
  hits: Candidate[];
  /** matching documents (§3.5), before the rejections of the merge across indexes */
  total: number;
  /** `facetsByIndex` facets of the index (null: none asked) */
  facets: ComputedFacets | null;
}

/** Runs a federated search; the queries' search rules are already applied. */
export function federatedSearch(queries: readonly MultiQuery[], federation: Federation, ctx: FederatedContext): Record<string, unknown> {
  queries.forEach((q, i) => insideQuery(i, () => checkFederatedQuery(q, federation)));
  const window = federationWindow(federation);
  const runs = new Map<number, QueryRun>();
  /** facets of indexes no query has used yet */
  const unused = new Map(federation.facetsByIndex);
  const orders: FacetOrders | null = federation.mergeFacets !== null ? new Map() : null;
  const parts: IndexPart[] = [];
  let reference: RulesReference | null = null;
  for (const [uid, group] of groupByIndex(queries)) {
    const first = group[0]!;
    const index = ctx.index(uid);
    if (index === undefined) throw prefixed(`Inside \`.queries[${first}]\`: `, indexNotFoundInBody(uid));
    const state = indexSearchState(index);
    const requested = unused.get(uid) ?? null;
    unused.delete(uid);
    // Meilisearch 1.50 names the first query using the index, without a note
    const where = { inside: `Inside \`.queries[${first}]\`: `, note: '' };
    if (orders !== null && requested !== null) insideFacetsOf(uid, where, () => checkFacetOrder(orders, uid, requested, state.settings));
    const maxTotalHits = state.settings.pagination.maxTotalHits;
    const limit = Math.min(window.required, maxTotalHits);
    const distinctOf = federation.distinct === null ? null : distinctValues(state.facets, federation.distinct);
    const perQuery: Candidate[][] = [];
    const ranked: RankedSearch[] = [];
    for (const i of group) {
      const mq = queries[i]!;
      insideQuery(i, () => {
        rejectUnsupported(mq.query);
        const rules = canonicalRules(state.settings.rankingRules, {
          keyword: mq.query.q !== null && mq.query.q !== '',
          sort: mq.query.sort,
          strategy: mq.query.matchingStrategy,
        });
        reference = checkCompatible(reference, { rules, queryIndex: i, indexUid: uid });
        // `federation.distinct` is every query's distinct attribute (checked filterable in each index)
        const q = federation.distinct === null ? mq.query : { ...mq.query, distinct: federation.distinct };
        const run = rankSearch(index, uid, q, { state, offset: 0, limit, scores: true, started: ctx.started, features: ctx.features });
        if (run.degraded) noteDegraded();
        const weight = mq.federationOptions?.weight ?? 1;
        runs.set(i, { query: mq, ranked: run, state });
        ranked.push(run);
        perQuery.push(run.hits.map((hit) => ({ key: mergeKey(hit.ranks, weight, i), hit, indexUid: uid, distinct: null })));
      });
    }
    const { hits, rejected } = keepOnce(perQuery, limit, distinctOf);
    const part: IndexPart = { uid, state, hits, total: indexTotal(ranked, rejected), facets: null };
    if (requested !== null) {
      part.facets = insideFacetsOf(uid, where, () => indexFacets(state, requested, candidatesOf(ranked, rejected)));
    }
    parts.push(part);
  }
  checkUnusedFacetIndexes(unused, orders, ctx);

  const merged = mergeIndexes(parts, window, federation.distinct !== null);
  const res: Record<string, unknown> = { hits: formatHits(merged.picked, runs) };
  res.processingTimeMs = Math.max(0, Math.floor(performance.now() - ctx.started));
  Object.assign(res, paginationBlock(federation, merged.total));
  Object.assign(res, facetsBlock(parts, merged.rejected, federation, orders));
  res.requestUid = ctx.requestUid;
  if (ctx.metadata) res.metadata = queries.map((q) => queryMetadata(q.indexUid, ctx));
  // a query ran a semantic or hybrid search: how many returned hits scored by a vector
  if ([...runs.values()].some((r) => r.ranked.semanticHitCount !== undefined)) {
    res.semanticHitCount = merged.picked.filter((c) => c.hit.semantic === true).length;
  }
  if (federation.showPerformanceDetails) res.performanceDetails = {};
  return res;
}

/** Runs `fn`; what it throws names the `facetsByIndex` entry of `uid`, after `inside` and before `note`. */
function insideFacetsOf<T>(uid: string, where: { inside: string; note: string }, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw prefixed(`${where.inside}Inside \`.federation.facetsByIndex.${uid}\`: `, err, where.note);
  }
}

/** The distinct values of a document, as comparable keys (normalized strings, numbers). */
type DistinctOf = (docid: number) => string[];

function distinctValues(values: FacetValues, field: string): DistinctOf {
  const fid = values.fieldId(field);
  if (fid === undefined) return () => [];
  return (docid) => {
    const out: string[] = [];
    for (const n of values.docNumbers(fid, docid)) out.push(`n${n}`);
    for (const s of values.docStrings(fid, docid)) out.push(`s${s}`);
    return out;
  };
}

/** Whether `c` shares a distinct value with an already kept hit; otherwise its values become kept ones. */
function isDuplicate(c: Candidate, seen: Set<string>): boolean {
  const values = c.distinct!;
  if (values.some((v) => seen.has(v))) return true;
  for (const v of values) seen.add(v);
  return false;
}

/**
 * The index's queries merged, each document once (with its best query), at most `limit`; with a
 * federation distinct, documents sharing a value with a kept one are rejected (and returned).
 */
function keepOnce(perQuery: Candidate[][], limit: number, distinctOf: DistinctOf | null): { hits: Candidate[]; rejected: number[] } {
  const rejected: number[] = [];
  if (perQuery.length === 1 && distinctOf === null) return { hits: perQuery[0]!.slice(0, limit), rejected };
  const seen = new Set<number>();
  const values = new Set<string>();
  const hits: Candidate[] = [];
  for (const c of kMerge(perQuery)) {
    if (hits.length >= limit) break;
    if (seen.has(c.hit.id)) continue;
    seen.add(c.hit.id);
    if (distinctOf !== null) {
      c.distinct = distinctOf(c.hit.id);
      if (isDuplicate(c, values)) {
        rejected.push(c.hit.id);
        continue;
      }
    }
    hits.push(c);
  }
  return { hits, rejected };
}

/**
 * Matching documents of an index (§3.5): the union of its queries' candidates (not capped by
 * `maxTotalHits`, as in Meilisearch 1.50), less the documents the merge rejected.
 */
function indexTotal(ranked: readonly RankedSearch[], rejected: readonly number[]): number {
  if (ranked.length === 1) return ranked[0]!.totalHits - rejected.length;
  return candidatesOf(ranked, rejected).size;
}

/** What the index's facets count: the union of its queries' candidates less the rejected documents. */
function candidatesOf(ranked: readonly RankedSearch[], rejected: readonly number[]): Bitmap {
  if (ranked.length === 1 && rejected.length === 0) return ranked[0]!.candidateIds();
  const union = Bitmaps.orMany(ranked.map((r) => r.candidateIds()));
  union.removeMany(rejected);
  return union;
}

/** `facets` of one index over `candidates`; facet errors carry the multi-search code. */
function indexFacets(state: IndexSearchState, requested: readonly string[], candidates: Bitmap): ComputedFacets {
  return multiSearchFacetCode(() => searchFacets(state, requested, () => candidates));
}

function multiSearchFacetCode<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'invalid_search_facets') throw new ApiError('invalid_multi_search_facets', err.message);
    throw err;
  }
}

/**
 * Indexes named in `facetsByIndex` but used by no query, in uid order: each must exist, order its
 * facets as the others do (mergeFacets), and have them filterable (§4.1).
 */
function checkUnusedFacetIndexes(unused: ReadonlyMap<string, string[] | null>, orders: FacetOrders | null, ctx: FederatedContext): void {
  for (const uid of [...unused.keys()].sort(compareBytes)) {
    const note = `\n - Note: index \`${uid}\` is not used in queries`;
    const index = ctx.index(uid);
    if (index === undefined) throw prefixed(`Inside \`.federation.facetsByIndex.${uid}\`: `, indexNotFoundInBody(uid), note);
    const requested = unused.get(uid)!;
    if (requested === null) continue;
    const settings = indexSearchState(index).settings;
    insideFacetsOf(uid, { inside: '', note }, () => {
      if (orders !== null) checkFacetOrder(orders, uid, requested, settings);
      multiSearchFacetCode(() => checkFacets(requested, settings.filterableAttributes));
    });
  }
}

/**
 * The indexes' lists merged, best first: the page of the window, the count, and the hits a
 * federation distinct rejected (the whole list is walked then, so that every rejection is known).
 */
function mergeIndexes(parts: readonly IndexPart[], window: Window, distinct: boolean): { picked: Candidate[]; total: number; rejected: Candidate[] } {
  let total = 0;
  for (const p of parts) total += p.total;
  const picked: Candidate[] = [];
  const rejected: Candidate[] = [];
  const seen = new Set<string>();
  let accepted = 0;
  for (const c of kMerge(parts.map((p) => p.hits))) {
    if (!distinct && picked.length >= window.take) break;
    // every hit's distinct values were read by keepOnce
    if (distinct) {
      if (isDuplicate(c, seen)) {
        total--;
        rejected.push(c);
        continue;
      }
    }
    if (accepted++ >= window.skip && picked.length < window.take) picked.push(c);
  }
  return { picked, total, rejected };
}

/** `facetsByIndex`, or with `mergeFacets` the merged `facetDistribution` / `facetStats` (§4). */
function facetsBlock(parts: readonly IndexPart[], rejected: readonly Candidate[], federation: Federation, orders: FacetOrders | null): Record<string, unknown> {
  const byIndex = new Map<string, ComputedFacets>();
  for (const p of parts) if (p.facets !== null) byIndex.set(p.uid, p.facets);
  if (byIndex.size === 0) return {};
  const rejectedOf = (uid: string | null) => {
    const out: { values: FacetValues; ids: number[] }[] = [];
    for (const p of parts) {
      if (uid !== null && p.uid !== uid) continue;
      const ids = rejected.filter((c) => c.indexUid === p.uid).map((c) => c.hit.id);
      if (ids.length > 0) out.push({ values: p.state.facets, ids });
    }
    return out;
  };
  if (federation.mergeFacets !== null) {
    const merged = mergeFacets(byIndex, orders ?? new Map(), federation.mergeFacets.maxValuesPerFacet);
    if (merged === null) return {};
    if (rejected.length > 0) removeHits(merged, rejectedOf(null));
    return { facetDistribution: merged.facetDistribution, facetStats: merged.facetStats };
  }
  const facetsByIndex: Record<string, { distribution: ComputedFacets['facetDistribution']; stats: ComputedFacets['facetStats'] }> = {};
  for (const uid of [...byIndex.keys()].sort(compareBytes)) {
    const facets = byIndex.get(uid)!;
    if (rejected.length > 0) removeHits(facets, rejectedOf(uid));
    setKey(facetsByIndex, uid, { distribution: facets.facetDistribution, stats: facets.facetStats });
  }
  return { facetsByIndex };
}

/**
 * Takes the documents a federation distinct rejected out of facet counts (Meilisearch's
 * `ComputedFacets::remove_hits`): each of their values of a counted field loses one, values
 * left at 0 disappear. Stats are kept as they are.
 */
function removeHits(facets: ComputedFacets, rejected: readonly { values: FacetValues; ids: readonly number[] }[]): void {
  for (const field of Object.keys(facets.facetDistribution)) {
    const counts = facets.facetDistribution[field]!;
    // keys are shown in an original spelling: find them from the normalized values
    const byNormalized = new Map<string, string>();
    for (const key of Object.keys(counts)) {
      const normalized = normalizeFacetString(key);
      if (normalized !== key) byNormalized.set(normalized, key);
    }
    let emptied = false;
    const decrement = (key: string) => {
      if (!Object.prototype.hasOwnProperty.call(counts, key)) return;
      const left = Math.max(0, counts[key]! - 1);
      setKey(counts, key, left);
      if (left === 0) emptied = true;
    };
    for (const { values, ids } of rejected) {
      const fid = values.fieldId(field);
      if (fid === undefined) continue;
      for (const id of ids) {
        for (const s of values.docStrings(fid, id)) decrement(byNormalized.get(s) ?? s);
        for (const n of values.docNumbers(fid, id)) decrement(formatRustFloat(n));
      }
    }
    if (!emptied) continue;
    const kept: Record<string, number> = {};
    for (const [key, count] of Object.entries(counts)) if (count !== 0) setKey(kept, key, count);
    setKey(facets.facetDistribution, field, kept);
  }
}

/** The restrictions of §3.2 on one query of a federated search. */
function checkFederatedQuery(mq: MultiQuery, federation: Federation): void {
  const field = ['offset', 'limit', 'page', 'hitsPerPage'].find((f) => mq.given.has(f));
  if (field !== undefined) {
    throw new ApiError(
      'invalid_multi_search_query_pagination',
      'Using pagination options is not allowed in federated queries.\n' +
        ` - Hint: remove \`${field}\` from the query or remove \`federation\` from the request\n` +
        ' - Hint: pass `federation.limit` and `federation.offset` for pagination in federated search',
    );
  }
  const facets = mq.query.facets;
  if (facets !== null && facets.length > 0) {
    throw new ApiError(
      'invalid_multi_search_query_facets',
      'Using facet options is not allowed in federated queries.\n' +
        ' - Hint: remove `facets` from the query or remove `federation` from the request\n' +
        ` - Hint: pass \`federation.facetsByIndex.${mq.indexUid}: [${facets.map((f) => JSON.stringify(f)).join(', ')}]\` for facets in federated search`,
    );
  }
  if (mq.given.has('personalize')) {
    throw new ApiError(
      'invalid_multi_search_query_personalization',
      'Using `personalize` is not allowed in federated queries.\n' +
        ' - Hint: remove `personalize` from the query or remove `federation` from the request\n' +
        ' - Hint: pass `federation.personalize` for personalization in federated search',
    );
  }
  if (mq.given.has('showPerformanceDetails')) {
    throw new ApiError(
      'invalid_multi_search_query_show_performance_details',
      'Using `.showPerformanceDetails` is not allowed in federated queries.\n' +
        ' - Hint: remove `showPerformanceDetails` from the query or remove `federation` from the request',
    );
  }
  if (mq.given.has('distinct') && federation.distinct !== null) {
    throw new ApiError(
      'invalid_multi_search_distinct',
      'Using `distinct` options is not allowed in federated queries when it also appears in `.federation.distinct`.\n' +
        ' - Hint: remove `distinct` from the query or remove `federation` from the request\n' +
        '  - Note: `distinct` at the query level is discouraged in federated search.',
    );
  }
  // the experimental network (remote instances) does not exist here
  if (mq.federationOptions?.remote != null) throw notSupported('`federationOptions.remote`', 'invalid_multi_search_remote');
  if (mq.federationOptions?.queryPosition != null) {
    throw notSupported('`federationOptions.queryPosition`', 'invalid_multi_search_query_position');
  }
}

/** How many hits each index must rank, and which slice of the merged list to return. */
interface Window {
  required: number;
  skip: number;
  take: number;
}

function federationWindow(f: Federation): Window {
  if (f.page === null && f.hitsPerPage === null) return { required: f.offset + f.limit, skip: f.offset, take: f.limit };
  if (f.page === 0) return { required: 0, skip: 0, take: 0 };
  const page = f.page ?? 1;
  const hitsPerPage = f.hitsPerPage ?? DEFAULT_SEARCH_LIMIT;
  return { required: page * hitsPerPage, skip: (page - 1) * hitsPerPage, take: hitsPerPage };
}

function paginationBlock(f: Federation, total: number): Record<string, number> {
  if (f.page === null && f.hitsPerPage === null) return { limit: f.limit, offset: f.offset, estimatedTotalHits: total };
  const hitsPerPage = f.hitsPerPage ?? DEFAULT_SEARCH_LIMIT;
  const totalPages = hitsPerPage === 0 ? 0 : Math.ceil(total / hitsPerPage);
  return { hitsPerPage, page: f.page ?? 1, totalPages, totalHits: total };
}

/** Query positions grouped by index, indexes in uid (byte) order as Meilisearch runs them. */
function groupByIndex(queries: readonly MultiQuery[]): [string, number[]][] {
  const groups = new Map<string, number[]>();
  queries.forEach((q, i) => {
    const group = groups.get(q.indexUid);
    if (group === undefined) groups.set(q.indexUid, [i]);
    else group.push(i);
  });
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Hits of the merged page, each formatted by its query, with `_federation` after the document fields. */
function formatHits(picked: readonly Candidate[], runs: ReadonlyMap<number, QueryRun>): SearchHit[] {
  const byQuery = new Map<number, number[]>();
  picked.forEach((c, at) => {
    const list = byQuery.get(c.key.queryIndex);
    if (list === undefined) byQuery.set(c.key.queryIndex, [at]);
    else list.push(at);
  });
  const out: SearchHit[] = new Array(picked.length);
  for (const [queryIndex, positions] of byQuery) {
    const run = runs.get(queryIndex)!;
    const engine = { hits: positions.map((at) => picked[at]!.hit), matchingWords: run.ranked.matchingWords };
    const hits = buildHits(run.query.query, engine, hitContext(run.state));
    positions.forEach((at, k) => {
      const c = picked[at]!;
      out[at] = withFederation(hits[k]!, { indexUid: c.indexUid, queriesPosition: queryIndex, weightedRankingScore: c.key.weighted });
    });
  }
  return out;
}

const DECORATIONS = new Set(['_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails']);

/** Inserts `_federation` before the trailing decoration keys (§3.1). */
function withFederation(hit: SearchHit, federation: Record<string, unknown>): SearchHit {
  const keys = Object.keys(hit);
  let at = keys.length;
  while (at > 0 && DECORATIONS.has(keys[at - 1]!)) at--;
  const out: SearchHit = {};
  keys.forEach((k, i) => {
    if (i === at) out._federation = federation;
    setKey(out, k, hit[k]);
  });
  if (at === keys.length) out._federation = federation;
  return out;
}

function queryMetadata(uid: string, ctx: FederatedContext): Record<string, string> {
  const m: Record<string, string> = { queryUid: uuidV7(), indexUid: uid };
  const primaryKey = ctx.index(uid)?.meta().primaryKey ?? null;
  if (primaryKey !== null) m.primaryKey = primaryKey;
  return m;
}
