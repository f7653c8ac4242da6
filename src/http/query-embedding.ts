// Embedding the `q` (or the search fragment `q` and `media` render) of a semantic or hybrid search
// (vectors-embedders.md §5) before the search runs: with the embedder's server (rest, openAi,
// ollama) or its model (huggingFace; tasks/embedders.ts), remembered in a least-recently-used cache
// of `--experimental-embedding-cache-entries` inputs per embedder configuration. A failure fails a semantic search with Meilisearch's `vector_embedding_error`;
// a hybrid search then runs on keywords alone, as in Meilisearch.
import { ApiError } from '../api/errors/index.ts';
import type { SearchQuery } from '../api/search/index.ts';
import { settingsOf } from '../api/settings/stored.ts';
import { fragmentCount } from '../api/settings/index.ts';
import type { Index } from '../engine/index/index.ts';
import { FragmentTemplates } from '../engine/vector/fragments.ts';
import { templateValue } from '../engine/vector/template.ts';
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

  /**
   * `q` with its `vector` when the search needs one that an embedder computes: from `q`, or from
   * the one search fragment that `q` and `media` render (vectors-embedders.md §2.4). `media` is
   * left to the search's feature check while `multimodal` is off.
   */
  async prepare(index: Index, q: SearchQuery, features: { multimodal: boolean }): Promise<SearchQuery> {
    const h = q.hybrid;
    if (h === null || h.semanticRatio === 0 || q.vector !== null) return q;
    const hasText = q.q !== null && q.q.trim() !== '';
    if (!hasText && q.media === null) return q;
    if (q.media !== null && !features.multimodal) return q;
    const configured = settingsOf(index).embedders[h.embedder] as Record<string, unknown> | undefined;
    const settings = configured === undefined ? null : sideOf(configured, 'search');
    if (settings === null) return q;
    try {
      const input = searchInput(settings, q);
      if (!computesVectors(settings)) return q;
      const key = `${JSON.stringify(settings)}\u0000${JSON.stringify(input)}`;
      const cached = this.#cache.get(key);
      if (cached !== undefined) {
        this.#cache.delete(key);
        this.#cache.set(key, cached);
        return embedded(q, cached);
      }
      const [vector] = await embedderClient(settings, { allowed: this.#allowed }).embed([input]);
      if (this.#entries > 0) {
        this.#cache.set(key, vector!);
        if (this.#cache.size > this.#entries) this.#cache.delete(this.#cache.keys().next().value!);
      }
      return embedded(q, vector!);
    } catch (err) {
      // hybrid: the keyword side answers alone (the search finds no vector and falls back)
      if (h.semanticRatio < 1) return q;
      if (err instanceof EmbedError) throw new ApiError('vector_embedding_error', err.full);
      throw err;
    }
  }
}

/** Search fragments parsed once per configuration (a search would parse them again at every query). */
const parsedFragments = new Map<string, FragmentTemplates>();

function searchFragments(fragments: Record<string, { value: unknown } | null>): FragmentTemplates {
  const key = JSON.stringify(fragments);
  let parsed = parsedFragments.get(key);
  if (parsed === undefined) {
    if (parsedFragments.size >= 64) parsedFragments.clear();
    parsed = new FragmentTemplates(fragments);
    parsedFragments.set(key, parsed);
  }
  return parsed;
}

/** `q` with its computed vector; `media` is spent (the search would take it for a second vector). */
function embedded(q: SearchQuery, vector: number[]): SearchQuery {
  return { ...q, vector, media: null };
}

/** What the search embeds: `q`, or the one search fragment that renders with `q` and `media`. */
function searchInput(settings: Record<string, unknown>, q: SearchQuery): unknown {
  if (fragmentCount(settings, 'searchFragments') === 0) {
    if (q.media === null) return q.q;
    throw new EmbedError(`\`media\` requested, and the configuration has source \`${String(settings.source ?? 'openAi')}\`, but the configuration doesn't have \`searchFragments\`.`, 'user');
  }
  const scope: Record<string, unknown> = {};
  if (q.q !== null) scope.q = q.q;
  if (q.media !== null) scope.media = templateValue(q.media);
  const rendered = searchFragments(settings.searchFragments as Record<string, { value: unknown } | null>).renderAll(scope);
  const note = `\n  - Note: ${JSON.stringify({ q: q.q, media: q.media })}`;
  if (rendered.length === 0) throw new EmbedError(`Query matches no search fragment.${note}`, 'user');
  if (rendered.length > 1) {
    throw new EmbedError(`Query matches multiple search fragments.\n  - Note: First matched fragment \`${rendered[0]!.name}\`.\n  - Note: Second matched fragment \`${rendered[1]!.name}\`.${note}`, 'user');
  }
  return rendered[0]!.value;
}
