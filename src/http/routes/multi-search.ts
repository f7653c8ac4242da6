// POST /multi-search (multi-search.md): the body parsed and run in api/search; this route only
// turns the request's authorization into the per-query search rule.
import type { FastifyInstance } from 'fastify';
import { executeMultiSearch, parseMultiSearchBody, wantsMetadata } from '../../api/search/index.ts';
import { authorizeSearch } from '../../auth/index.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';

export function registerMultiSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  // action `search` for any index; each query's index is checked by `searchRules` (auth-keys.md §6)
  app.post('/multi-search', { config: { auth: { action: 'search' } } }, async (req) => {
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    return executeMultiSearch(parseMultiSearchBody(body), {
      index: (uid) => ctx.instance.indexes.get(uid),
      authorize: (uid) => authorizeSearch(req.auth, uid),
      metadata: wantsMetadata(req.headers['meili-include-metadata'] as string | undefined),
      features: ctx.instance.features.get(),
    });
  });
}
