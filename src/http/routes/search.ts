// GET / POST /indexes/:indexUid/search (search.md): parameters parsed here, the search itself
// in api/search/execute.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { executeSearch, fuseFilters, parseSearchBody, parseSearchParams, wantsMetadata, type SearchQuery } from '../../api/search/index.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { indexParam, query, requireIndex } from './indexes.ts';

export function registerSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const auth = { config: { auth: { action: 'search', indexParam: 'indexUid' } } };

  const search = (req: FastifyRequest, q: SearchQuery) => {
    const uid = indexParam(req);
    const index = requireIndex(ctx, uid);
    // a tenant token's filter for this index is ANDed with the query's (auth-keys.md §7), never dropped
    const ruleFilter = req.auth.searchRuleFilter(uid);
    if (ruleFilter !== null) q = { ...q, filter: fuseFilters(q.filter, ruleFilter) };
    return executeSearch(index, uid, q, {
      metadata: wantsMetadata(req.headers['meili-include-metadata'] as string | undefined),
      features: ctx.instance.features.get(),
    });
  };

  app.get('/indexes/:indexUid/search', auth, async (req) => search(req, parseSearchParams(query(req))));
  // the body is checked before the index uid, as Meilisearch's extractors do
  app.post('/indexes/:indexUid/search', auth, async (req) => {
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    return search(req, parseSearchBody(body));
  });
}
