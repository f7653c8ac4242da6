// Which search a query runs (vectors-embedders.md §5, `search_kind`), the query vector, and the
// merge of a hybrid search's keyword and semantic lists.
//
//   hybrid ratio 0, or no q/vector/media ─► keyword      ratio 1, or no q ─► semantic
//   q + hybrid ─► keyword list; good enough (every score × (1 − ratio) ≥ 0.45)? keyword
//                 else semantic list ─► two-way merge by weighted score (tie: semantic first)
import { ApiError } from '../errors/index.ts';
import { embedderConfigs, type Settings } from '../settings/index.ts';
import type { EmbedderConfig } from '../../engine/vector/index.ts';
import type { SearchQuery } from './query-types.ts';

export type SearchPlan =
  | { kind: 'keyword'; hybrid: boolean }
  | {
      kind: 'semantic' | 'hybrid';
      embedder: EmbedderConfig;
      /** share of the semantic side (hybrid) */
      ratio: number;
      /** the `vector` parameter; null: `q` must be embedded */
      vector: number[] | null;
      /** the embedder's `distribution` setting */
      distribution: Distribution | null;
    };

export interface Distribution {
  mean: number;
  sigma: number;
}

/** The search a query runs; throws the reference's errors for a missing embedder or a wrong vector length. */
export function searchPlan(q: SearchQuery, settings: Settings): SearchPlan {
  const h = q.hybrid;
  if (h === null) return { kind: 'keyword', hybrid: false };
  if (h.semanticRatio === 0) return { kind: 'keyword', hybrid: false };
  const hasText = q.q !== null && q.q.trim() !== '';
  if (!hasText && q.vector === null && q.media === null) return { kind: 'keyword', hybrid: false };
  const embedder = embedderConfigs(settings.embedders).find((c) => c.name === h.embedder);
  if (embedder === undefined) throw new ApiError('invalid_search_embedder', `Cannot find embedder with name \`${h.embedder}\`.`);
  if (q.vector !== null && embedder.dimensions !== null && q.vector.length !== embedder.dimensions) {
    throw new ApiError('invalid_vector_dimensions', `Invalid vector dimensions: expected: \`${embedder.dimensions}\`, found: \`${q.vector.length}\`.`);
  }
  const kind = h.semanticRatio === 1 || !hasText ? 'semantic' : 'hybrid';
  return { kind, embedder, ratio: h.semanticRatio, vector: q.vector, distribution: distributionOf(settings.embedders[h.embedder]) };
}

/** An embedder's `distribution` setting, if any. */
export function distributionOf(e: Record<string, unknown> | undefined): Distribution | null {
  const d = e?.distribution as { mean?: unknown; sigma?: unknown } | undefined;
  return d && typeof d.mean === 'number' && typeof d.sigma === 'number' ? { mean: d.mean, sigma: d.sigma } : null;
}

/**
 * The vector of a search: `vector` when given, else `q` embedded. Embedding a text needs an
 * embedder that computes vectors; a `userProvided` one answers Meilisearch's error.
 */
export function queryVector(plan: Extract<SearchPlan, { vector: unknown }>, text: string): number[] {
  if (plan.vector !== null) return plan.vector;
  if (plan.embedder.userProvided) {
    throw new ApiError(
      'vector_embedding_error',
      `Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${text}\``,
    );
  }
  throw new ApiError(
    'vector_embedding_error',
    `Error while generating embeddings: runtime error: embedding a query with embedder \`${plan.embedder.name}\` is not supported by this version of Muninn yet: send \`vector\`.`,
  );
}

const F32_EPSILON = 1.1920929e-7;

/** The `distribution` shift of a similarity (§6): mean → 0.5, sigma → 0.4, clamped to (0, 1]. */
export function shiftSimilarity(s: number, d: Distribution | null): number {
  if (d === null) return s;
  const k = 0.4 / d.sigma;
  const shifted = k * s + (0.5 - k * d.mean);
  return shifted <= 0 ? F32_EPSILON : Math.min(1, shifted);
}

/** A hit of either list, as far as the merge needs it. */
export interface MergeItem {
  id: number;
  score: number;
}

/**
 * The two-way merge of a hybrid search (§5 step 5–6): the larger weighted score first (keyword ×
 * (1 − ratio), semantic × ratio; semantic first on a tie), each document once. Returns the
 * merged items with the side they came from.
 */
export function mergeHybrid<K extends MergeItem, S extends MergeItem>(keyword: readonly K[], semantic: readonly S[], ratio: number): Array<{ item: K | S; semantic: boolean }> {
  const out: Array<{ item: K | S; semantic: boolean }> = [];
  const seen = new Set<number>();
  let i = 0;
  let j = 0;
  while (i < keyword.length || j < semantic.length) {
    const k = keyword[i];
    const s = semantic[j];
    const takeSemantic = k === undefined || (s !== undefined && s.score * ratio >= k.score * (1 - ratio) - Number.EPSILON);
    const item = takeSemantic ? s! : k!;
    if (takeSemantic) j++;
    else i++;
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    out.push({ item, semantic: takeSemantic });
  }
  return out;
}

/** Step 2: the keyword list is good enough alone (full, and every weighted score at least 0.45). */
export function keywordSuffices(scores: readonly number[], wanted: number, ratio: number): boolean {
  return scores.length >= wanted && scores.every((s) => s * (1 - ratio) >= 0.45);
}
