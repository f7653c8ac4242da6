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
import type { RuleScore } from '../../engine/search/rank/index.ts';
import { compareValue, mergeKey, type ScoreValue } from './multi-merge.ts';

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

/** A hit of either list, as far as the merge needs it: its rule ranks (`vectorSort` for a semantic hit). */
export interface MergeItem {
  id: number;
  ranks: readonly RuleScore[];
}

/**
 * The two-way merge of a hybrid search (§5 step 5–6), each document once. Hits compare by their
 * score values, as Meilisearch's merge does: consecutive relevancy rules give one score (keyword
 * × (1 − ratio)), a similarity another (semantic × ratio), a sort rule its value. Two scores: the
 * larger wins (equal within f64 epsilon: the next values decide); two sort values: by the sort's
 * order; a score against a sort value: a score of 0 loses, any other wins. Semantic first on a
 * tie. Returns the merged items with the side they came from.
 */
export function mergeHybrid<K extends MergeItem, S extends MergeItem>(keyword: readonly K[], semantic: readonly S[], ratio: number): Array<{ item: K | S; semantic: boolean }> {
  const out: Array<{ item: K | S; semantic: boolean }> = [];
  const seen = new Set<number>();
  const kv = keyword.map((k) => mergeKey(k.ranks, 1 - ratio, 0).values);
  const sv = semantic.map((h) => mergeKey(h.ranks, ratio, 1).values);
  let i = 0;
  let j = 0;
  while (i < keyword.length || j < semantic.length) {
    const takeSemantic = i >= keyword.length || (j < semantic.length && !keywordFirst(kv[i]!, sv[j]!));
    const item = takeSemantic ? semantic[j++]! : keyword[i++]!;
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    out.push({ item, semantic: takeSemantic });
  }
  return out;
}

/** Whether a keyword hit's score values rank it before a semantic hit's. */
function keywordFirst(k: readonly ScoreValue[], s: readonly ScoreValue[]): boolean {
  for (let i = 0; i < k.length && i < s.length; i++) {
    const x = k[i]!;
    const y = s[i]!;
    if (typeof x === 'number' && typeof y === 'number') {
      if (Math.abs(x - y) <= Number.EPSILON) continue;
      return x > y;
    }
    if (typeof x === 'number') return x !== 0;
    if (typeof y === 'number') return y === 0;
    const c = compareValue(x, y);
    if (c !== null && c !== 0) return c > 0;
  }
  return false;
}

/** Step 2: the keyword list is good enough alone (full, and every weighted score at least 0.45). */
export function keywordSuffices(scores: readonly number[], wanted: number, ratio: number): boolean {
  return scores.length >= wanted && scores.every((s) => s * (1 - ratio) >= 0.45);
}
