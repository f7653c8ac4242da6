// Embedding the `q` of a semantic or hybrid search (vectors-embedders.md §5) before the search runs:
// with the embedder's server (rest, openAi, ollama; tasks/embedders.ts), remembered in a
// least-recently-used cache of `--experimental-embedding-cache-entries` texts per embedder
// configuration. A failure fails a semantic search with Meilisearch's `vector_embedding_error`;
// a hybrid search then runs on keywords alone, as in Meilisearch.
import { ApiError } from '../api/errors/index.ts';
import type { SearchQuery } from '../api/search/index.ts';
import { settingsOf } from '../api/settings/stored.ts';
import type { Index } from '../engine/index/index.ts';
import { computesVectors, EmbedError, embedderClient, sideOf } from '../tasks/embedders.ts';
import type { AllowedNetworks } from '../tasks/outgoing.ts';

export class QueryEmbeddings {
  readonly #allowed: AllowedNetworks;
  readonly #entries: number;
  readonly #cache = new Map<string, number[]>();

  constructor(opts: { allowed: AllowedNetworks; cacheEntries: number }) {
    this.#allowed = opts.allowed;
    this.#entries = opts.cacheEntries;
  }

  /** `q` with its `vector` when the search needs one that an embedder's server computes. */
  async prepare(index: Index, q: SearchQuery): Promise<SearchQuery> {
    const h = q.hybrid;
    if (h === null || h.semanticRatio === 0 || q.vector !== null || q.q === null || q.q.trim() === '') return q;
    const configured = settingsOf(index).embedders[h.embedder] as Record<string, unknown> | undefined;
    const settings = configured === undefined ? null : sideOf(configured, 'search');
    if (settings === null || !computesVectors(settings)) return q;
    const key = `${JSON.stringify(settings)}\u0000${q.q}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return { ...q, vector: cached };
    }
    try {
      const [vector] = await embedderClient(settings, { allowed: this.#allowed }).embed([q.q]);
      if (this.#entries > 0) {
        this.#cache.set(key, vector!);
        if (this.#cache.size > this.#entries) this.#cache.delete(this.#cache.keys().next().value!);
      }
      return { ...q, vector: vector! };
    } catch (err) {
      // hybrid: the keyword side answers alone (the search finds no vector and falls back)
      if (h.semanticRatio < 1) return q;
      if (err instanceof EmbedError) throw new ApiError('vector_embedding_error', err.full);
      throw err;
    }
  }
}
