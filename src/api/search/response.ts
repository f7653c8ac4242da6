// The search response (search.md §4, §5): which ranked documents to fetch, both pagination
// modes and the exact key order. `maxTotalHits` caps only the hits that can be reached (the
// window), never `estimatedTotalHits`, `totalHits` or `totalPages` (Meilisearch 1.50).
import { randomUUID } from 'node:crypto';
import { DEFAULT_SEARCH_LIMIT, isPageMode, type SearchQuery } from './query-types.ts';
import type { SearchHit } from './hits.ts';

/** Which ranked documents to return, and whether the total must be exhaustive. */
export interface SearchWindow {
  offset: number;
  limit: number;
  /** Page mode: `totalHits` is exact (distinct and threshold applied to every candidate). */
  exhaustive: boolean;
}

/** The ranked slice to compute: page mode or offset/limit, clamped by `maxTotalHits` (§5). */
export function searchWindow(q: SearchQuery, maxTotalHits: number): SearchWindow {
  let offset = q.offset;
  let limit = q.limit;
  const exhaustive = isPageMode(q);
  if (exhaustive) {
    const hitsPerPage = q.hitsPerPage ?? DEFAULT_SEARCH_LIMIT;
    const page = q.page ?? 1;
    // page 0 asks for no document at all
    [offset, limit] = page === 0 ? [0, 0] : [(page - 1) * hitsPerPage, hitsPerPage];
  }
  offset = Math.min(offset, maxTotalHits);
  limit = Math.min(limit, Math.max(0, maxTotalHits - offset));
  return { offset, limit, exhaustive };
}

/** What the search produced, besides the hits. */
export interface SearchOutcome {
  hits: SearchHit[];
  /** Matching documents (exact in page mode, an estimate otherwise); `maxTotalHits` does not cap it. */
  totalHits: number;
  processingTimeMs: number;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
  /** The query embedding, shown with `retrieveVectors` (semantic / hybrid searches). */
  queryVector?: number[];
  /** Hits that came from the vector side (semantic / hybrid searches). */
  semanticHitCount?: number;
  /** Step → duration text, shown with `showPerformanceDetails`. */
  performanceDetails?: Record<string, string>;
}

/** Index facts for the `Meili-Include-Metadata` header (§4.4). */
export interface ResponseMetadata {
  indexUid: string;
  primaryKey: string | null;
}

export interface ResponseOptions {
  /** Defaults to a new UUID v7. */
  requestUid?: string;
  /** Present only when the request had `Meili-Include-Metadata: true|1`. */
  metadata?: ResponseMetadata | null;
}

export type SearchResponse = Record<string, unknown>;

/**
 * The response body in the key order of §4.3: hits, query, queryVector?, processingTimeMs,
 * pagination, facets?, requestUid, metadata?, performanceDetails?, semanticHitCount?.
 */
export function searchResponse(q: SearchQuery, outcome: SearchOutcome, options: ResponseOptions = {}): SearchResponse {
  const res: SearchResponse = { hits: outcome.hits, query: q.q ?? '' };
  if (q.retrieveVectors && outcome.queryVector !== undefined) res.queryVector = outcome.queryVector;
  res.processingTimeMs = Math.max(0, Math.floor(outcome.processingTimeMs));
  const total = outcome.totalHits;
  if (isPageMode(q)) {
    const hitsPerPage = q.hitsPerPage ?? DEFAULT_SEARCH_LIMIT;
    res.hitsPerPage = hitsPerPage;
    res.page = q.page ?? 1;
    res.totalPages = hitsPerPage === 0 ? 0 : Math.ceil(total / hitsPerPage);
    res.totalHits = total;
  } else {
    res.limit = q.limit;
    res.offset = q.offset;
    res.estimatedTotalHits = total;
  }
  if (q.facets !== null && q.facets.length > 0) {
    if (outcome.facetDistribution !== undefined) res.facetDistribution = outcome.facetDistribution;
    if (outcome.facetStats !== undefined) res.facetStats = outcome.facetStats;
  }
  res.requestUid = options.requestUid ?? uuidV7();
  if (options.metadata) {
    const m: Record<string, string> = { queryUid: uuidV7(), indexUid: options.metadata.indexUid };
    if (options.metadata.primaryKey !== null) m.primaryKey = options.metadata.primaryKey;
    res.metadata = m;
  }
  if (q.showPerformanceDetails) res.performanceDetails = outcome.performanceDetails ?? {};
  if (outcome.semanticHitCount !== undefined) res.semanticHitCount = outcome.semanticHitCount;
  return res;
}

/** A UUID v7 (RFC 9562): 48-bit Unix milliseconds, version 7, variant 10, random bits. */
export function uuidV7(now: number = Date.now()): string {
  // the random bits of a v4 UUID (drawn from node's pooled entropy: randomBytes(16) cost ~16 µs a
  // search) keep their RFC 4122 variant; the first 48 bits become the time, the version 7
  const random = randomUUID();
  const ms = Math.floor(now).toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${random.slice(15)}`;
}

/** True when the `Meili-Include-Metadata` header asks for `metadata` (`true` or `1`, any case). */
export function wantsMetadata(header: string | undefined): boolean {
  const v = header?.trim().toLowerCase();
  return v === 'true' || v === '1';
}
