// `GET /metrics` (stats-health.md §6): Meilisearch's metric families in the Prometheus text format,
// through prom-client. Requests are counted by route pattern (`/indexes/{index_uid}/search`) from
// the first request on, whether the feature is on or not, as Meilisearch counts them; the gauges
// are read from the instance at each scrape. Families Muninn has nothing to measure for yet (the
// search queue, degraded searches, personalization, chats) are left out (docs/compat.md).
import client from 'prom-client';
import type { SearchQueue } from '../api/search/queue.ts';
import { degradedSearches } from '../api/search/degraded.ts';
import type { Instance } from '../instance/index.ts';
import { TASK_STATUSES, TASK_TYPES, type Batch } from '../api/tasks/model.ts';

const RESPONSE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Meilisearch's names of the route parameters. */
const PARAMS: Record<string, string> = { indexUid: 'index_uid', documentId: 'document_id', taskUid: 'task_id', batchUid: 'batch_id', key: 'key' };

/** A fastify route url as Meilisearch names its pattern: `/indexes/:indexUid` → `/indexes/{index_uid}`. */
export function routePattern(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_m, name: string) => `{${PARAMS[name] ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`);
}

/** "12.31ms", "1.30s", "201.94µs" (a progress trace duration) in milliseconds. */
function traceMs(text: string): number {
  const m = /^([\d.]+)\s*(ns|µs|us|ms|s)$/.exec(text.trim());
  if (!m) return 0;
  const v = Number(m[1]);
  return m[2] === 's' ? v * 1000 : m[2] === 'ms' ? v : m[2] === 'ns' ? v / 1e6 : v / 1000;
}

const DOCUMENT_TYPES = new Set(['documentAdditionOrUpdate', 'documentDeletion', 'documentEdition']);

export class Metrics {
  readonly registry = new client.Registry();
  readonly #requests: client.Counter<'method' | 'path' | 'status'>;
  readonly #responseTime: client.Histogram<'method' | 'path'>;

  constructor(instance: Instance, sizes: () => { databaseSize: number; usedDatabaseSize: number }, searches: () => SearchQueue) {
    const registers = [this.registry];
    this.#requests = new client.Counter({ name: 'meilisearch_http_requests_total', help: 'Meilisearch HTTP requests total', labelNames: ['method', 'path', 'status'], registers });
    this.#responseTime = new client.Histogram({ name: 'meilisearch_http_response_time_seconds', help: 'Meilisearch HTTP response times', labelNames: ['method', 'path'], buckets: RESPONSE_BUCKETS, registers });
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[], collect: (g: client.Gauge<L>) => void) =>
      new client.Gauge<L>({ name, help, labelNames, registers, collect(this: client.Gauge<L>) { this.reset(); collect(this); } });
    const q = instance.queue;
    gauge('meilisearch_db_size_bytes', 'Meilisearch DB Size In Bytes', [], (g) => g.set(sizes().databaseSize));
    gauge('meilisearch_used_db_size_bytes', 'Meilisearch Used DB Size In Bytes', [], (g) => g.set(sizes().usedDatabaseSize));
    gauge('meilisearch_index_count', 'Meilisearch Index Count', [], (g) => g.set(q.indexUids().length));
    gauge('meilisearch_index_docs_count', 'Meilisearch Index Docs Count', ['index'], (g) => {
      for (const uid of q.indexUids()) {
        const index = instance.indexes.get(uid);
        if (index) g.set({ index: uid }, index.numberOfDocuments());
      }
    });
    gauge('meilisearch_nb_tasks', 'Meilisearch Number of tasks', ['kind', 'value'], (g) => {
      const processing = instance.scheduler.processing()?.taskUids;
      for (const status of TASK_STATUSES) {
        let n = q.bitmap(`status:${status}`).size;
        // the batch in progress: its tasks are processing, not enqueued (tasks.md §2)
        if (processing && status === 'enqueued') n -= processing.size;
        if (processing && status === 'processing') n = processing.size;
        g.set({ kind: 'statuses', value: status }, Math.max(0, n));
      }
      for (const type of TASK_TYPES) g.set({ kind: 'types', value: type }, q.bitmap(`type:${type}`).size);
      for (const uid of new Set(q.indexUids().concat(indexesOfTasks(instance)))) g.set({ kind: 'indexes', value: uid }, q.bitmap(`index:${uid}`).size);
    });
    gauge('meilisearch_last_update', 'Meilisearch Last Update', [], (g) => {
      let last = 0;
      for (const uid of q.indexUids()) last = Math.max(last, instance.indexes.get(uid)?.meta().updatedAt ?? 0);
      g.set(Math.floor(last / 1e6));
    });
    gauge('meilisearch_is_indexing', 'Meilisearch Is Indexing', [], (g) => g.set(instance.scheduler.processing() === null ? 0 : 1));
    gauge('meilisearch_degraded_search_requests', 'Meilisearch number of degraded search requests', [], (g) => g.set(degradedSearches()));
    gauge('meilisearch_search_queue_size', 'Meilisearch Search Queue Size', [], (g) => g.set(searches().capacity));
    gauge('meilisearch_searches_running', 'Meilisearch Searches Running', [], (g) => g.set(searches().running));
    gauge('meilisearch_searches_waiting_to_be_processed', 'Meilisearch Searches Being Processed', [], (g) => g.set(searches().waiting));
    gauge('meilisearch_task_queue_latency_seconds', 'Meilisearch Task Queue Latency in Seconds', [], (g) => {
      const oldest = q.bitmap('status:enqueued').minimum();
      const task = oldest === undefined ? undefined : q.get(oldest);
      g.set(task === undefined ? 0 : Math.max(0, (Date.now() * 1000 - task.enqueuedAt) / 1e6));
    });
    const maxBytes = () => instance.options.taskQueue?.maxDbBytes ?? 20 * 1024 ** 3;
    gauge('meilisearch_task_queue_max_size', 'Meilisearch Task Queue Max Size', [], (g) => g.set(maxBytes()));
    gauge('meilisearch_task_queue_used_size', 'Meilisearch Task Queue Used Size', [], (g) => g.set(q.env.sizes().usedBytes));
    gauge('meilisearch_task_queue_size_until_stop_registering', 'Meilisearch Task Queue Size Until Stop Registering', [], (g) =>
      g.set(Math.max(0, Math.floor(0.4 * maxBytes()) - q.env.sizes().usedBytes)),
    );
    gauge('meilisearch_batch_running_progress_trace', 'The currently running progress trace', ['batch_uid', 'step_name'], (g) => {
      const p = instance.scheduler.processing();
      for (const step of p?.progress?.steps ?? []) g.set({ batch_uid: String(p!.batchUid), step_name: step.currentStep }, step.total > 0 ? step.finished / step.total : 0);
    });
    gauge('meilisearch_last_finished_batches_progress_trace_ms', 'The last few batches progress trace in milliseconds', ['batch_uid', 'step_name'], (g) => {
      const uid = q.nextUid('nextBatchUid') - 1;
      const batch = uid >= 0 ? q.batch(uid) : undefined;
      for (const [step, duration] of Object.entries(batch?.stats.progressTrace ?? {})) g.set({ batch_uid: String(uid), step_name: step }, Math.round(traceMs(duration)));
    });
    // the last batch that indexed or deleted documents, shown for its duration plus 5 minutes
    const lastIndexed = (set: (index: string, batchUid: number, batch: Batch) => void) => {
      const last = q.nextUid('nextBatchUid') - 1;
      for (let uid = last; uid >= 0 && uid > last - 100; uid--) {
        const batch = q.batch(uid);
        if (batch === undefined || !Object.keys(batch.stats.types).some((t) => DOCUMENT_TYPES.has(t))) continue;
        const finished = batch.finishedAt ?? 0;
        if (Date.now() * 1000 > finished + (finished - batch.startedAt) + 5 * 60e6) return;
        for (const index of Object.keys(batch.stats.indexUids)) set(index, uid, batch);
        return;
      }
    };
    gauge('meilisearch_last_indexed_documents_count', 'The last number of indexed documents in a batch', ['batch_uid', 'index'], (g) =>
      lastIndexed((index, uid, batch) => {
        const d = batch.details as { indexedDocuments?: number; deletedDocuments?: number };
        g.set({ batch_uid: String(uid), index }, (d.indexedDocuments ?? 0) + (d.deletedDocuments ?? 0));
      }),
    );
    gauge('meilisearch_last_indexed_documents_duration_ms', 'The duration in ms of the last batch that indexed documents', ['batch_uid', 'index'], (g) =>
      lastIndexed((index, uid, batch) => g.set({ batch_uid: String(uid), index }, Math.round(((batch.finishedAt ?? batch.startedAt) - batch.startedAt) / 1000))),
    );
    client.collectDefaultMetrics({ register: this.registry });
  }

  /** Counts one answered request; `pattern` is null when no route matched (the raw path is the label). */
  observe(method: string, pattern: string | null, rawPath: string, status: number, seconds: number): void {
    const path = pattern === null ? rawPath : routePattern(pattern);
    this.#requests.inc({ method, path, status: String(status) });
    if (pattern !== null) this.#responseTime.observe({ method, path }, seconds);
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Index uids tasks name, including indexes that no longer exist (their counts still show). */
function indexesOfTasks(instance: Instance): string[] {
  // the `index:` bitmaps only (`;` sorts right after `:`), not every batch's bitmap
  return [...instance.queue.bitmaps.keys({ start: 'index:', end: 'index;' })].map((name) => name.slice('index:'.length));
}
