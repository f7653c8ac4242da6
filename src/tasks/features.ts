// Runtime experimental features (stats-health.md §5), stored in the task queue's meta table.
import type { TaskQueue } from './queue.ts';

export const FEATURE_KEYS = [
  'metrics',
  'logsRoute',
  'editDocumentsByFunction',
  'containsFilter',
  'dynamicSearchRules',
  'network',
  'getTaskDocumentsRoute',
  'taskQueueCompactionRoute',
  'compositeEmbedders',
  'chatCompletions',
  'multimodal',
  'foreignKeys',
  'disableDocumentsFetchQueue',
  'legacySearch',
  'renderRoute',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
export type Features = Record<FeatureKey, boolean>;

export class FeatureStore {
  readonly #queue: TaskQueue;
  readonly #forced: Partial<Features>;
  readonly #defaults: Partial<Features>;

  /** `forced`: features switched on at launch; `defaults`: values used when never set. */
  constructor(queue: TaskQueue, forced: Partial<Features>, defaults: Partial<Features> = {}) {
    this.#queue = queue;
    this.#forced = forced;
    this.#defaults = defaults;
  }

  get(): Features {
    const stored = (this.#queue.meta.get('features') ?? {}) as Partial<Features>;
    const out = {} as Features;
    for (const k of FEATURE_KEYS) out[k] = Boolean(this.#forced[k]) || (stored[k] ?? this.#defaults[k] ?? false);
    return out;
  }

  /** Applies a patch (null = unchanged) durably and returns the whole set. */
  async update(patch: Partial<Record<FeatureKey, boolean | null>>): Promise<Features> {
    this.#queue.env.write(() => {
      const stored = { ...((this.#queue.meta.get('features') ?? {}) as Partial<Features>) };
      for (const k of FEATURE_KEYS) {
        const v = patch[k];
        if (v !== undefined && v !== null) stored[k] = v;
      }
      this.#queue.meta.put('features', stored);
    });
    await this.#queue.durable();
    return this.get();
  }
}
