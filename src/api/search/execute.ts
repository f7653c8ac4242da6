// One search on one index, from parsed parameters to the response body (search.md): what the
// HTTP route and the embedded library both run.
//
//   parameters ─► refuse what is not supported yet ─► placeholder: documents in internal id
//   order │ keyword: engine/search/rank ─► hits (fields, _formatted, scores) ─► response
import type { Index } from '../../engine/index/index.ts';
import { globalScore, keywordSearch } from '../../engine/search/rank/index.ts';
import { buildHits, type EngineHit, type EngineResult } from './hits.ts';
import { scoreDetails, searchOnFids } from './keyword.ts';
import { MatchingWords } from './matching-words.ts';
import { isPlaceholder, type SearchQuery } from './query-types.ts';
import { searchResponse, searchWindow, type SearchResponse } from './response.ts';
import { indexSearchState } from './state.ts';
import { rejectUnsupported } from './unsupported.ts';

/** `searchCutoffMs: null`: Meilisearch's default budget (search.md §11). */
export const DEFAULT_CUTOFF_MS = 1500;

export interface ExecuteOptions {
  /** `Meili-Include-Metadata`: add the index uid and primary key to the response */
  metadata?: boolean;
}

export function executeSearch(index: Index, uid: string, q: SearchQuery, opts: ExecuteOptions = {}): SearchResponse {
  const started = performance.now();
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
    const result = keywordSearch(
      index,
      state.wordSets,
      {
        q: q.q!,
        offset: window.offset,
        limit: window.limit,
        strategy: q.matchingStrategy,
        fids: searchOnFids(q.attributesToSearchOn, settings, state.fields, uid),
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
  const metadata = opts.metadata ? { indexUid: uid, primaryKey: index.meta().primaryKey } : null;
  return searchResponse(q, { hits, totalHits, processingTimeMs: performance.now() - started }, { maxTotalHits, metadata });
}
