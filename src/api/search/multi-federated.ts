// Federated search (multi-search.md §3): every query's results merged into one ranked list.
//
//   queries ─► restrictions of §3.2 (request order) ─► grouped by index (uid order):
//     per index: rank each query (offset 0, limit = offset+limit capped by maxTotalHits,
//     complete rule ranks) ─► merge the index's lists, a document kept once (best query)
//   ─► merge the indexes' lists ─► offset/limit or page window ─► hits formatted by the
//   query that produced them, `_federation` added ─► response in the key order of §3
import type { Index } from '../../engine/index/index.ts';
import { ApiError } from '../errors/index.ts';
import { buildHits, type SearchHit } from './hits.ts';
import { candidateIds, hitContext, rankSearch, type RankedHit, type RankedSearch } from './execute.ts';
import { indexNotFoundInBody, insideQuery, prefixed } from './multi-errors.ts';
import { kMerge, mergeKey, type MergeKey } from './multi-merge.ts';
import type { Federation, MultiQuery } from './multi-query.ts';
import { canonicalRules, checkCompatible, type RulesReference } from './multi-rules.ts';
import { DEFAULT_SEARCH_LIMIT } from './query-types.ts';
import { uuidV7 } from './response.ts';
import { indexSearchState, type IndexSearchState } from './state.ts';
import { notSupported, rejectUnsupported } from './unsupported.ts';

export interface FederatedContext {
  index(uid: string): Index | undefined;
  /** `Meili-Include-Metadata`: add one `metadata` entry per query */
  metadata?: boolean;
  requestUid: string;
  /** `performance.now()` at the start of the request */
  started: number;
}

/** A ranked document of one query, as the merge sees it. */
interface Candidate {
  key: MergeKey;
  hit: RankedHit;
  indexUid: string;
}

/** What formatting a query's hits needs once the merge has picked them. */
interface QueryRun {
  query: MultiQuery;
  ranked: RankedSearch;
  state: IndexSearchState;
}

/** Runs a federated search; the queries' search rules are already applied. */
export function federatedSearch(queries: readonly MultiQuery[], federation: Federation, ctx: FederatedContext): Record<string, unknown> {
  queries.forEach((q, i) => insideQuery(i, () => checkFederatedQuery(q, federation)));
  refuseUnsupported(federation);
  const window = federationWindow(federation);
  const runs = new Map<number, QueryRun>();
  const lists: Candidate[][] = [];
  let total = 0;
  let reference: RulesReference | null = null;
  for (const [uid, group] of groupByIndex(queries)) {
    const index = ctx.index(uid);
    if (index === undefined) throw prefixed(`Inside \`.queries[${group[0]}]\`: `, indexNotFoundInBody(uid));
    const state = indexSearchState(index);
    const maxTotalHits = state.settings.pagination.maxTotalHits;
    const limit = Math.min(window.required, maxTotalHits);
    const perQuery: Candidate[][] = [];
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
        const ranked = rankSearch(index, uid, mq.query, { state, offset: 0, limit, scores: true, started: ctx.started });
        const weight = mq.federationOptions?.weight ?? 1;
        runs.set(i, { query: mq, ranked, state });
        perQuery.push(ranked.hits.map((hit) => ({ key: mergeKey(hit.ranks, weight, i), hit, indexUid: uid })));
      });
    }
    lists.push(keepOnce(perQuery, limit));
    total += indexTotal(index, uid, group.map((i) => runs.get(i)!), maxTotalHits);
  }
  checkFacetIndexes(federation, queries, ctx);
  const picked: Candidate[] = [];
  let skipped = 0;
  for (const c of kMerge(lists)) {
    if (picked.length >= window.take) break;
    if (skipped < window.skip) skipped++;
    else picked.push(c);
  }
  const res: Record<string, unknown> = { hits: formatHits(picked, runs) };
  res.processingTimeMs = Math.max(0, Math.floor(performance.now() - ctx.started));
  Object.assign(res, paginationBlock(federation, total));
  res.requestUid = ctx.requestUid;
  if (ctx.metadata) res.metadata = queries.map((q) => queryMetadata(q.indexUid, ctx));
  if (federation.showPerformanceDetails) res.performanceDetails = {};
  return res;
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

/** Federation features that need facets and filters (issue 4): refused, never ignored. */
function refuseUnsupported(federation: Federation): void {
  if ([...federation.facetsByIndex.values()].some((facets) => facets !== null)) {
    throw notSupported('`federation.facetsByIndex`', 'invalid_multi_search_facets_by_index');
  }
  if (federation.mergeFacets !== null) throw notSupported('`federation.mergeFacets`', 'invalid_multi_search_merge_facets');
  if (federation.distinct !== null) throw notSupported('`federation.distinct`', 'invalid_search_distinct');
}

/** How many hits each index must rank, and which slice of the merged list to return. */
function federationWindow(f: Federation): { required: number; skip: number; take: number } {
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

/** The index's queries merged, each document once (with its best query), at most `limit`. */
function keepOnce(perQuery: Candidate[][], limit: number): Candidate[] {
  const seen = new Set<number>();
  const out: Candidate[] = [];
  for (const c of kMerge(perQuery)) {
    if (out.length >= limit) break;
    if (seen.has(c.hit.id)) continue;
    seen.add(c.hit.id);
    out.push(c);
  }
  return out;
}

/**
 * Matching documents of an index: the union of its queries' candidates, each query's set capped
 * to `maxTotalHits` documents (§3.5). A query whose page held all its candidates gives them
 * directly; otherwise its first candidates in id order are read again, unranked.
 */
function indexTotal(index: Index, uid: string, runs: readonly QueryRun[], maxTotalHits: number): number {
  if (runs.length === 1) return Math.min(runs[0]!.ranked.totalHits, maxTotalHits);
  const union = new Set<number>();
  for (const { query, ranked, state } of runs) {
    if (ranked.hits.length >= ranked.totalHits) for (const h of ranked.hits) union.add(h.id);
    else for (const id of candidateIds(index, uid, query.query, { state, cap: maxTotalHits })) union.add(id);
  }
  return union.size;
}

/**
 * `facetsByIndex` may only name indexes without facets (`null`) here; the ones no query uses
 * must still exist (§4.1).
 */
function checkFacetIndexes(federation: Federation, queries: readonly MultiQuery[], ctx: FederatedContext): void {
  const queried = new Set(queries.map((q) => q.indexUid));
  for (const uid of [...federation.facetsByIndex.keys()].sort()) {
    if (queried.has(uid) || ctx.index(uid) !== undefined) continue;
    const err = indexNotFoundInBody(uid, `\n - Note: index \`${uid}\` is not used in queries`);
    throw prefixed(`Inside \`.federation.facetsByIndex.${uid}\`: `, err);
  }
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
    out[k] = hit[k];
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
