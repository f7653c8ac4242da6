// What every embedder client shares (embedders.ts for servers, local-model.ts for models run
// here): the settings it reads, its interface, and its error with Meilisearch's wording.

export type EmbedderSettingsJson = Record<string, unknown>;

export class EmbedError extends Error {
  override name = 'EmbedError';
  /** `user error` (the configuration or the request is wrong) or `runtime error` */
  constructor(
    message: string,
    readonly kind: 'user' | 'runtime',
  ) {
    super(message);
  }

  /** Meilisearch's text: `Error while generating embeddings: user error: …` */
  get full(): string {
    return `Error while generating embeddings: ${this.kind} error: ${this.message}`;
  }
}

export interface EmbedderClient {
  /**
   * The embeddings of `texts`, in order: strings, or the JSON values of rendered fragments for a REST
   * embedder that has fragments. Requests of `batchSize` texts, a few at a time; `onRequest` counts them.
   */
  embed(texts: readonly unknown[], signal?: AbortSignal, onRequest?: () => void): Promise<number[][]>;
}
