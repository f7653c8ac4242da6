// Delivery of finished tasks to webhooks (tasks.md §13): after each batch, every webhook is sent
// the batch's tasks (the task objects of `GET /tasks`, one JSON per line, gzip, `Content-Type:
// application/x-ndjson`) with its headers, by a sender on the HTTP thread that the task queue never
// waits for. Each webhook has its own cursor (the last batch it was sent, stored with the task
// queue), advanced after each delivery: a restart sends what the last run had not, and nothing
// twice unless the process died during a request. A delivery that still fails after its retries
// is logged and skipped, as Meilisearch only logs failures.
import zlib from 'node:zlib';
import { taskView } from '../api/tasks/views.ts';
import { send, type AllowedNetworks } from './outgoing.ts';
import type { TaskQueue } from './queue.ts';
import type { WebhookStore } from './webhooks.ts';
import type { Webhook } from '../api/webhooks/index.ts';

export interface WebhookSenderOptions {
  allowed: AllowedNetworks;
  /** ms one attempt may take (default 30 s, Meilisearch's) */
  timeoutMs?: number;
  /** attempts per delivery (default 3) */
  attempts?: number;
  backoffMs?: number;
  log?: (level: 'error' | 'warn' | 'info', message: string) => void;
}

export class WebhookSender {
  readonly #queue: TaskQueue;
  readonly #store: WebhookStore;
  readonly #opts: WebhookSenderOptions;
  /** the delivery loop of each webhook now running */
  readonly #running = new Map<string, Promise<void>>();
  /** webhooks told of a batch while their loop ran: it looks again before it ends */
  readonly #again = new Set<string>();
  readonly #abort = new AbortController();
  readonly #payloads = new Map<number, Buffer | null>();
  #closed = false;

  constructor(queue: TaskQueue, store: WebhookStore, opts: WebhookSenderOptions) {
    this.#queue = queue;
    this.#store = store;
    this.#opts = opts;
  }

  /** Batches finished (or the process started): every webhook sends what it has not yet. */
  notify(): void {
    if (this.#closed) return;
    for (const w of this.#store.list()) this.#start(w.uuid);
  }

  #start(uuid: string): void {
    if (this.#running.has(uuid)) {
      this.#again.add(uuid);
      return;
    }
    const loop = (async () => {
      do {
        this.#again.delete(uuid);
        await this.#catchUp(uuid);
      } while (this.#again.has(uuid) && !this.#closed);
    })()
      .catch((err) => this.#opts.log?.('error', `webhook ${uuid}: ${(err as Error).message}`))
      .finally(() => this.#running.delete(uuid));
    this.#running.set(uuid, loop);
  }

  async #catchUp(uuid: string): Promise<void> {
    while (!this.#closed) {
      let webhook: Webhook;
      try {
        webhook = this.#store.get(uuid);
      } catch {
        return; // deleted meanwhile
      }
      const from = this.#store.delivered(webhook) + 1;
      if (from > this.#store.lastBatch()) return;
      const body = this.#payload(from);
      if (body !== null) await this.#deliver(webhook, from, body);
      if (this.#closed && this.#abort.signal.aborted) return;
      this.#store.markDelivered(webhook, from);
    }
  }

  /** The gzip NDJSON of a batch's finished tasks (null: none), built once for every webhook. */
  #payload(batch: number): Buffer | null {
    const known = this.#payloads.get(batch);
    if (known !== undefined) return known;
    let body: Buffer | null = null;
    if (this.#queue.batch(batch) !== undefined) {
      const lines = this.#queue
        .bitmap(`batch:${batch}`)
        .toArray()
        .map((uid) => this.#queue.get(uid))
        .flatMap((t) => (t !== undefined && t.finishedAt !== null ? [JSON.stringify(taskView(t))] : []));
      if (lines.length > 0) body = zlib.gzipSync(lines.join('\n') + '\n', { level: 1 });
    }
    this.#payloads.set(batch, body);
    // webhooks catch up in step: the last few batches are all they ask for again
    if (this.#payloads.size > 8) this.#payloads.delete(this.#payloads.keys().next().value!);
    return body;
  }

  async #deliver(webhook: Webhook, batch: number, body: Buffer): Promise<void> {
    let url: URL;
    try {
      url = new URL(webhook.url);
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      this.#opts.log?.('warn', `webhook ${webhook.uuid}: cannot send batch ${batch} to \`${webhook.url}\`: only http and https URLs can be called`);
      return;
    }
    try {
      const res = await send(
        url,
        {
          method: 'POST',
          headers: { ...webhook.headers, 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip' },
          body,
        },
        {
          allowed: this.#opts.allowed,
          timeoutMs: this.#opts.timeoutMs ?? 30_000,
          attempts: this.#opts.attempts ?? 3,
          backoffMs: this.#opts.backoffMs ?? 500,
          signal: this.#abort.signal,
        },
      );
      if (res.status >= 400) this.#opts.log?.('warn', `webhook ${webhook.uuid}: batch ${batch} answered ${res.status}: ${res.text.slice(0, 200)}`);
    } catch (err) {
      if (this.#abort.signal.aborted) return;
      this.#opts.log?.('warn', `webhook ${webhook.uuid}: batch ${batch} not delivered: ${(err as Error).message}`);
    }
  }

  /** Lets deliveries in flight end (up to `graceMs`), then aborts the rest; nothing is sent afterwards. */
  async close(graceMs = 2000): Promise<void> {
    this.#closed = true;
    const all = Promise.all(this.#running.values());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([all, late]);
    clearTimeout(timer);
    this.#abort.abort(new Error('closing'));
    await all;
  }
}
