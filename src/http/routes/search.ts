// GET / POST /indexes/:indexUid/search (search.md). Placeholder searches (no query terms) are
// answered in full; keyword search is refused until the ranking core lands (issue 3).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors/index.ts';
import {
  buildHits,
  isPlaceholder,
  MatchingWords,
  parseSearchBody,
  parseSearchParams,
  rejectUnsupported,
  searchResponse,
  searchWindow,
  wantsMetadata,
  type SearchQuery,
} from '../../api/search/index.ts';
import { Tokenizer } from '../../engine/tokenizer/index.ts';
import { storedSettings } from '../../tasks/index-settings.ts';
import type { HttpContext } from '../app.ts';
import { readJson } from '../body.ts';
import { indexParam, query, requireIndex } from './indexes.ts';

export function registerSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const auth = { config: { auth: { action: 'search', indexParam: 'indexUid' } } };

  const search = (req: FastifyRequest, q: SearchQuery) => {
    const started = performance.now();
    const uid = indexParam(req);
    const index = requireIndex(ctx, uid);
    rejectUnsupported(q);
    if (!isPlaceholder(q)) {
      throw new ApiError('invalid_search_q', 'Searching with query terms is not supported by this version of Muninn yet; only placeholder searches (no `q`) are.');
    }
    const settings = storedSettings(index);
    const maxTotalHits = settings.pagination.maxTotalHits;
    const window = searchWindow(q, maxTotalHits);
    // a placeholder search without sort ranks every document equally, in internal id order
    const { results, total } = index.documentsPage({ offset: window.offset, limit: window.limit });
    const tokenizer = new Tokenizer({
      separatorTokens: settings.separatorTokens,
      nonSeparatorTokens: settings.nonSeparatorTokens,
      dictionary: settings.dictionary,
    });
    const hits = buildHits(
      q,
      { hits: results.map((document) => ({ document, score: 1, scoreDetails: {} })), matchingWords: MatchingWords.none() },
      { fields: index.fieldsOrder(), displayedAttributes: settings.displayedAttributes, localizedAttributes: settings.localizedAttributes, tokenizer },
    );
    const metadata = wantsMetadata(req.headers['meili-include-metadata'] as string | undefined) ? { indexUid: uid, primaryKey: index.meta().primaryKey } : null;
    return searchResponse(q, { hits, totalHits: total, processingTimeMs: performance.now() - started }, { maxTotalHits, metadata });
  };

  app.get('/indexes/:indexUid/search', auth, async (req) => search(req, parseSearchParams(query(req))));
  app.post('/indexes/:indexUid/search', auth, async (req) => {
    indexParam(req);
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText, required: false });
    return search(req, parseSearchBody(body ?? {}));
  });
}
