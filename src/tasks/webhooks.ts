// Webhooks (tasks.md §13): the ones created through `/webhooks`, stored in the task queue's meta
// table with where each one's deliveries stand, and the one given at launch
// (`--task-webhook-url`), which lives only in the options and has the nil uuid.
import crypto from 'node:crypto';
import {
  LAUNCH_WEBHOOK_UUID, MAX_WEBHOOKS, applyWebhookPatch, immutableWebhook, tooManyWebhooks, webhookNotFound,
  type Webhook, type WebhookPatch,
} from '../api/webhooks/index.ts';
import type { TaskQueue } from './queue.ts';

/** As dumps hold them: uuid → url and headers (dumps-snapshots.md §2, `webhooks.json`). */
export type StoredWebhooks = Record<string, { url: string; headers: Record<string, string> }>;

/** Per webhook: the last batch whose tasks it was sent, and the URL they went to. */
type Cursors = Record<string, { url: string; batch: number }>;

export interface LaunchWebhook {
  url: string;
  /** `--task-webhook-authorization-header` */
  authorization: string | null;
}

/** The webhooks stored in a task queue (readable from any thread that opened it). */
export function storedWebhooks(queue: TaskQueue): StoredWebhooks {
  return (queue.meta.get('webhooks') ?? {}) as StoredWebhooks;
}

export class WebhookStore {
  readonly #queue: TaskQueue;
  readonly #launch: Webhook | null;

  constructor(queue: TaskQueue, launch: LaunchWebhook | null) {
    this.#queue = queue;
    this.#launch =
      launch === null ? null : { uuid: LAUNCH_WEBHOOK_UUID, url: launch.url, headers: launch.authorization === null ? {} : { Authorization: launch.authorization } };
  }

  /** The launch webhook first, then the stored ones by uuid. */
  list(): Webhook[] {
    const stored = storedWebhooks(this.#queue);
    const out = Object.keys(stored)
      .sort()
      .map((uuid) => ({ uuid, url: stored[uuid]!.url, headers: { ...stored[uuid]!.headers } }));
    return this.#launch === null ? out : [this.#launch, ...out];
  }

  get(uuid: string): Webhook {
    if (uuid === LAUNCH_WEBHOOK_UUID && this.#launch !== null) return this.#launch;
    const w = storedWebhooks(this.#queue)[uuid];
    if (w === undefined) throw webhookNotFound(uuid);
    return { uuid, url: w.url, headers: { ...w.headers } };
  }

  async create(patch: WebhookPatch): Promise<Webhook> {
    const uuid = crypto.randomUUID();
    const webhook = applyWebhookPatch(null, uuid, patch);
    this.#queue.env.write(() => {
      const stored = { ...storedWebhooks(this.#queue) };
      if (Object.keys(stored).length >= MAX_WEBHOOKS) throw tooManyWebhooks();
      stored[uuid] = { url: webhook.url, headers: webhook.headers };
      this.#queue.meta.put('webhooks', stored);
      // a new webhook is told of the batches that finish from now on
      this.#putCursor(webhook, this.lastBatch());
    });
    await this.#queue.durable();
    return webhook;
  }

  async update(uuid: string, patch: WebhookPatch): Promise<Webhook> {
    if (uuid === LAUNCH_WEBHOOK_UUID) throw immutableWebhook(uuid);
    const webhook = applyWebhookPatch(this.get(uuid), uuid, patch);
    this.#queue.env.write(() => {
      const stored = { ...storedWebhooks(this.#queue) };
      if (stored[uuid] === undefined) throw webhookNotFound(uuid);
      stored[uuid] = { url: webhook.url, headers: webhook.headers };
      this.#queue.meta.put('webhooks', stored);
    });
    await this.#queue.durable();
    return webhook;
  }

  async delete(uuid: string): Promise<void> {
    if (uuid === LAUNCH_WEBHOOK_UUID) throw immutableWebhook(uuid);
    this.#queue.env.write(() => {
      const stored = { ...storedWebhooks(this.#queue) };
      if (stored[uuid] === undefined) throw webhookNotFound(uuid);
      delete stored[uuid];
      this.#queue.meta.put('webhooks', stored);
      const cursors = { ...this.#cursors() };
      delete cursors[uuid];
      this.#queue.meta.put('webhookCursors', cursors);
    });
    await this.#queue.durable();
  }

  /** Replaces the stored webhooks by a dump's (the launch one is not in dumps). */
  replaceAll(webhooks: StoredWebhooks): void {
    this.#queue.env.write(() => {
      this.#queue.meta.put('webhooks', webhooks);
      this.#queue.meta.put('webhookCursors', {});
      for (const [uuid, w] of Object.entries(webhooks)) this.#putCursor({ uuid, ...w }, this.lastBatch());
    });
  }

  /** The uid of the last finished batch (-1: none yet). */
  lastBatch(): number {
    return this.#queue.nextUid('nextBatchUid') - 1;
  }

  /**
   * The last batch the webhook was sent. One never sent anything (the launch webhook on its first
   * start, or given another URL) starts at the last batch finished now.
   */
  delivered(webhook: Webhook): number {
    const c = this.#cursors()[webhook.uuid];
    if (c !== undefined && c.url === webhook.url) return c.batch;
    const last = this.lastBatch();
    this.#queue.env.write(() => this.#putCursor(webhook, last));
    return last;
  }

  /** Records that the webhook was sent the tasks of batches up to `batch` (made durable with the next commit). */
  markDelivered(webhook: Webhook, batch: number): void {
    this.#queue.env.write(() => {
      if (webhook.uuid !== LAUNCH_WEBHOOK_UUID && storedWebhooks(this.#queue)[webhook.uuid] === undefined) return;
      this.#putCursor(webhook, batch);
    });
  }

  #cursors(): Cursors {
    return (this.#queue.meta.get('webhookCursors') ?? {}) as Cursors;
  }

  #putCursor(webhook: Webhook, batch: number): void {
    this.#queue.meta.put('webhookCursors', { ...this.#cursors(), [webhook.uuid]: { url: webhook.url, batch } });
  }
}
