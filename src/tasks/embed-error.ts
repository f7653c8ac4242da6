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
  /** the embeddings of `texts`, in order; requests of `batchSize` texts, a few at a time; `onRequest` counts them */
  embed(texts: readonly string[], signal?: AbortSignal, onRequest?: () => void): Promise<number[][]>;
}
