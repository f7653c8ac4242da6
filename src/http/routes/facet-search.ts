// POST /indexes/:indexUid/facet-search (facets.md §4): the body parsed and run in
// api/search/facets-search.ts; a tenant token's filter is ANDed with the request's.
import type { FastifyInstance } from 'fastify';
import { executeFacetSearch, fuseFilters, parseFacetSearchBody, rejectUseNetwork } from '../../api/search/index.ts';
import { searchTurn, type HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { indexParam, requireIndex } from './indexes.ts';

export function registerFacetSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const auth = { config: { auth: { action: 'search', indexParam: 'indexUid' }, searchQueue: true } };
  app.post('/indexes/:indexUid/facet-search', auth, async (req) => {
    // as on the search route, the body is read before the index uid is checked
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    const fq = parseFacetSearchBody(body);
    rejectUseNetwork(fq.search.useNetwork, ctx.instance.features.get());
    const uid = indexParam(req);
    const index = requireIndex(ctx, uid);
    const ruleFilter = req.auth.searchRuleFilter(uid);
    if (ruleFilter !== null) fq.search = { ...fq.search, filter: fuseFilters(fq.search.filter, ruleFilter) };
    await searchTurn(ctx, req);
    return executeFacetSearch(index, uid, fq, ctx.instance.features.get());
  });
}
