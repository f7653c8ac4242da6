// POST /multi-search (multi-search.md): the body parsed and run in api/search; this route only
// turns the request's authorization into the per-query search rule.
import type { FastifyInstance } from 'fastify';
import { authorizeQueries, insideQuery, parseMultiSearchBody, rejectUseNetwork, runMultiSearch, wantsMetadata, type MultiSearchRequest } from '../../api/search/index.ts';
import { authorizeSearch } from '../../auth/index.ts';
import { searchTurn, sendJsonText, type HttpContext } from '../context.ts';
import { readJson } from '../body.ts';

export function registerMultiSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  // action `search` for any index; each query's index is checked by `searchRules` (auth-keys.md §6)
  app.post('/multi-search', { config: { auth: { action: 'search' }, searchQueue: true } }, async (req, reply) => {
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    // the key's rules apply here; the searches run on a free search thread (api/search/pool.ts) or here
    const request = authorizeQueries(parseMultiSearchBody(body), (uid) => authorizeSearch(req.auth, uid));
    const metadata = wantsMetadata(req.headers['meili-include-metadata'] as string | undefined);
    const features = ctx.instance.features.get();
    request.queries.forEach((q, i) => insideQuery(i, () => rejectUseNetwork(q.query.useNetwork, features)));
    await searchTurn(ctx, req);
    // texts that an embedder's server turns into vectors, before the searches run
    for (const q of request.queries) {
      const index = ctx.instance.indexes.get(q.indexUid);
      if (index !== undefined) q.query = await ctx.queryEmbeddings.prepare(index, q.query, features);
    }
    const elsewhere = ctx.searchPool?.search({ kind: 'multi', uuids: indexUuids(ctx, request), request, metadata, features }) ?? null;
    if (elsewhere === null) return runMultiSearch(request, { index: (uid) => ctx.instance.indexes.get(uid), metadata, features });
    return elsewhere.then((json) => sendJsonText(reply, json));
  });
}

/** The directory of each existing index the queries name. */
function indexUuids(ctx: HttpContext, request: MultiSearchRequest): Record<string, string> {
  const uuids: Record<string, string> = Object.create(null);
  for (const q of request.queries) {
    const uuid = ctx.instance.queue.indexUuid(q.indexUid);
    if (uuid !== undefined) uuids[q.indexUid] = uuid;
  }
  return uuids;
}
