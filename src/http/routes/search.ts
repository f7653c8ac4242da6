// GET / POST /indexes/:indexUid/search (search.md): parameters parsed here, the search itself
// in api/search/execute.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  executeSearch, executeSimilar, fuseFilters, parseSearchBody, parseSearchParams, parseSimilarBody, parseSimilarParams, rejectUseNetwork, wantsMetadata,
  type SearchQuery, type SimilarQuery,
} from '../../api/search/index.ts';
import { searchTurn, sendJsonText, type HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { indexNotFound, indexParam, query } from './indexes.ts';

export function registerSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const auth = { config: { auth: { action: 'search', indexParam: 'indexUid' }, searchQueue: true } };

  const search = async (req: FastifyRequest, reply: FastifyReply, q: SearchQuery) => {
    rejectUseNetwork(q.useNetwork, ctx.instance.features.get());
    const uid = indexParam(req);
    const uuid = ctx.instance.queue.indexUuid(uid);
    if (uuid === undefined) throw indexNotFound(uid);
    // a tenant token's filter for this index is ANDed with the query's (auth-keys.md §7), never dropped
    const ruleFilter = req.auth.searchRuleFilter(uid);
    if (ruleFilter !== null) q = { ...q, filter: fuseFilters(q.filter, ruleFilter) };
    const queueWaitMs = await searchTurn(ctx, req);
    const features = ctx.instance.features.get();
    q = await ctx.queryEmbeddings.prepare(ctx.instance.indexes.byUuid(uuid), q, features);
    const options = {
      metadata: wantsMetadata(req.headers['meili-include-metadata'] as string | undefined),
      features,
      queueWaitMs,
    };
    // on a free search thread when there is one (api/search/pool.ts), here otherwise
    const elsewhere = ctx.searchPool?.search({ kind: 'search', uuid, uid, query: q, options }) ?? null;
    if (elsewhere === null) return executeSearch(ctx.instance.indexes.byUuid(uuid), uid, q, options);
    return elsewhere.then((body) => sendJsonText(reply, body));
  };

  // similar documents (similar.md): the index is looked up after the parameters, as for search
  const similar = async (req: FastifyRequest, sq: SimilarQuery) => {
    const uid = indexParam(req);
    const uuid = ctx.instance.queue.indexUuid(uid);
    if (uuid === undefined) throw indexNotFound(uid);
    await searchTurn(ctx, req);
    const options = { features: ctx.instance.features.get(), ruleFilter: req.auth.searchRuleFilter(uid) };
    return executeSimilar(ctx.instance.indexes.byUuid(uuid), uid, sq, options);
  };
  app.get('/indexes/:indexUid/similar', auth, async (req) => similar(req, parseSimilarParams(query(req))));
  app.post('/indexes/:indexUid/similar', auth, async (req) => {
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    return similar(req, parseSimilarBody(body));
  });

  app.get('/indexes/:indexUid/search', auth, async (req, reply) => search(req, reply, parseSearchParams(query(req))));
  // the body is checked before the index uid, as Meilisearch's extractors do
  app.post('/indexes/:indexUid/search', auth, async (req, reply) => {
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    return search(req, reply, parseSearchBody(body));
  });
}
