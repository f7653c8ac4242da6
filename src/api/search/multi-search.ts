// POST /multi-search without transport (multi-search.md): the queries are authorized one by
// one, then run independently (`results`, request order) or federated (multi-federated.ts).
//
//   body ─► parseMultiSearchBody ─► per query: the caller's search rule for its index
//   (key / tenant token: allowed? extra filter?) ─► federation ? merged list : results[]
import type { Index } from '../../engine/index/index.ts';
import { ApiError } from '../errors/index.ts';
import type { FilterFeatures } from '../filter/index.ts';
import type { Json } from '../validate/index.ts';
import { executeSearch } from './execute.ts';
import { indexNotFoundInBody, insideQuery } from './multi-errors.ts';
import { federatedSearch } from './multi-federated.ts';
import type { MultiQuery, MultiSearchRequest } from './multi-query.ts';
import { uuidV7, type SearchResponse } from './response.ts';

/** What the caller may do on one index: search it or not, and the filter its rules force. */
export type SearchRule = { allowed: false } | { allowed: true; filter?: Json | null };

/**
 * The caller's search rule for an index: the API key's `indexes` and, for a tenant token, its
 * `searchRules`, whose filter is ANDed with the query's.
 */
export type SearchAuthorizer = (indexUid: string) => SearchRule;

export interface MultiSearchContext {
  index(uid: string): Index | undefined;
  /** absent: every index is allowed without extra filter (master key, no key, the library) */
  authorize?: SearchAuthorizer;
  /** `Meili-Include-Metadata` */
  metadata?: boolean;
  /** the instance's experimental features (query filters gate `CONTAINS` and others on them); all off when absent */
  features?: FilterFeatures;
}

/** Runs a parsed multi-search request; throws the first failing query's error. */
export function executeMultiSearch(req: MultiSearchRequest, ctx: MultiSearchContext): Record<string, unknown> {
  return runMultiSearch(authorizeQueries(req, ctx.authorize), ctx);
}

/** The request's queries as the key's search rules allow them (403 at the first index not allowed). */
export function authorizeQueries(req: MultiSearchRequest, authorize: SearchAuthorizer | undefined): MultiSearchRequest {
  return { ...req, queries: req.queries.map((q, i) => insideQuery(i, () => applySearchRule(q, authorize))) };
}

/** Runs authorized queries (`authorizeQueries`): the part of a multi-search that reads the indexes. */
export function runMultiSearch(req: MultiSearchRequest, ctx: Omit<MultiSearchContext, 'authorize'>): Record<string, unknown> {
  const started = performance.now();
  const requestUid = uuidV7();
  const queries = req.queries;
  if (req.federation !== null) {
    return federatedSearch(queries, req.federation, {
      index: (uid) => ctx.index(uid),
      metadata: ctx.metadata ?? false,
      requestUid,
      started,
      ...(ctx.features ? { features: ctx.features } : {}),
    });
  }
  const results = queries.map((mq, i) =>
    insideQuery(i, (): SearchResponse => {
      if (mq.federationOptions !== null) {
        throw new ApiError(
          'invalid_multi_search_federation_options',
          'Using `federationOptions` is not allowed in a non-federated search.\n' +
            ' - Hint: remove `federationOptions` from the query or add `federation` to the request.',
        );
      }
      const index = ctx.index(mq.indexUid);
      if (index === undefined) throw indexNotFoundInBody(mq.indexUid);
      const res = executeSearch(index, mq.indexUid, mq.query, {
        metadata: ctx.metadata ?? false,
        requestUid,
        ...(ctx.features ? { features: ctx.features } : {}),
      });
      return { indexUid: mq.indexUid, ...res };
    }),
  );
  return { results };
}

/** The query as its index's rule allows it: 403 when the index is not allowed, the rule's filter added. */
function applySearchRule(mq: MultiQuery, authorize: SearchAuthorizer | undefined): MultiQuery {
  if (authorize === undefined) return mq;
  const rule = authorize(mq.indexUid);
  if (!rule.allowed) throw new ApiError('invalid_api_key', 'The provided API key is invalid.');
  if (rule.filter === undefined || rule.filter === null) return mq;
  return { ...mq, query: { ...mq.query, filter: fuseFilters(mq.query.filter, rule.filter) } };
}

/** `final = asList(user) ++ asList(rule)` (auth-keys.md §7, filter merging); a missing user filter is the rule's. */
export function fuseFilters(user: Json | null, rule: Json): Json {
  if (user === null) return rule;
  const asList = (f: Json): Json[] => (Array.isArray(f) ? f : [f]);
  return [...asList(user), ...asList(rule)];
}
