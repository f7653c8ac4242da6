// GET / POST /indexes/:indexUid/search (search.md): placeholder searches (no query) list the
// documents in internal id order; keyword searches go through the ranking core
// (engine/search/rank); filter, sort, distinct, facets and vectors are refused until they land.
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
import { keywordSearch, globalScore } from '../../engine/search/rank/index.ts';
import { scoreDetails, searchOnFids } from '../../api/search/keyword.ts';
import type { EngineHit, EngineResult } from '../../api/search/hits.ts';
import { indexSearchState } from './search-state.ts';
import type { HttpContext } from '../app.ts';
import { readJson } from '../body.ts';
import { indexParam, query, requireIndex } from './indexes.ts';

/** `searchCutoffMs: null`: Meilisearch's default budget (search.md §11). */
const DEFAULT_CUTOFF_MS = 1500;

export function registerSearchRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const auth = { config: { auth: { action: 'search', indexParam: 'indexUid' } } };

  const search = (req: FastifyRequest, q: SearchQuery) => {
    const started = performance.now();
    const uid = indexParam(req);
    const index = requireIndex(ctx, uid);
    rejectUnsupported(q);
    const state = indexSearchState(index);
    const { settings } = state;
    const maxTotalHits = settings.pagination.maxTotalHits;
    const window = searchWindow(q, maxTotalHits);
    let engine: EngineResult;
    let totalHits: number;
    if (isPlaceholder(q)) {
      // a placeholder search without sort ranks every document equally, in internal id order
      const { results, total } = index.documentsPage({ offset: window.offset, limit: window.limit });
      engine = { hits: results.map((document) => ({ document, score: 1, scoreDetails: {} })), matchingWords: MatchingWords.none() };
      totalHits = total;
    } else {
      const fids = searchOnFids(q.attributesToSearchOn, settings, state.fields, uid);
      const result = keywordSearch(
        index,
        state.wordSets,
        {
          q: q.q!,
          offset: window.offset,
          limit: window.limit,
          strategy: q.matchingStrategy,
          fids,
          scores: q.showRankingScore || q.showRankingScoreDetails || q.rankingScoreThreshold !== null,
          threshold: q.rankingScoreThreshold,
          deadline: started + (settings.searchCutoffMs ?? DEFAULT_CUTOFF_MS),
          locales: q.locales,
        },
        state.keyword,
      );
      const hits: EngineHit[] = [];
      result.ids.forEach((id, i) => {
        const document = index.documentById(id);
        if (document === undefined) return;
        const scores = result.scores[i]!;
        hits.push({ document, score: globalScore(scores), scoreDetails: scoreDetails(scores, result.legacyAttribute) });
      });
      engine = { hits, matchingWords: MatchingWords.fromTerms(result.located) };
      totalHits = result.candidates;
    }
    const hits = buildHits(q, engine, {
      fields: state.fields,
      displayedAttributes: settings.displayedAttributes,
      localizedAttributes: settings.localizedAttributes,
      tokenizer: state.formatTokenizer,
    });
    const metadata = wantsMetadata(req.headers['meili-include-metadata'] as string | undefined) ? { indexUid: uid, primaryKey: index.meta().primaryKey } : null;
    return searchResponse(q, { hits, totalHits, processingTimeMs: performance.now() - started }, { maxTotalHits, metadata });
  };

  app.get('/indexes/:indexUid/search', auth, async (req) => search(req, parseSearchParams(query(req))));
  app.post('/indexes/:indexUid/search', auth, async (req) => {
    indexParam(req);
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText, required: false });
    return search(req, parseSearchBody(body ?? {}));
  });
}
