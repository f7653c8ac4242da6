// One running Muninn instance: the data directory, the task queue, the indexes, the
// scheduler worker, API keys and features. The HTTP server and the library both use it.
import fs from 'node:fs';
import path from 'node:path';
import { Authorizer, KeyStore } from '../auth/index.ts';
import { ApiError } from '../api/errors/index.ts';
import { Bitmap, bitmapFrom } from '../engine/bitmap/index.ts';
import { STORAGE_VERSION, versionTriple } from '../engine/version.ts';
import { fsyncPath } from '../engine/files.ts';
import { enqueuedDetails } from '../api/tasks/details.ts';
import { IndexRegistry } from '../tasks/index-registry.ts';
import { TaskQueue, type NewTask } from '../tasks/queue.ts';
import { Scheduler } from '../tasks/scheduler/index.ts';
import type { Task } from '../tasks/types.ts';
import { UpdateFiles } from '../tasks/update-files.ts';
import { openDataDir, STORAGE_FILE, writeAtomically, type DataDir } from './data-dir.ts';
import { FeatureStore, type Features } from '../tasks/features.ts';
import type { AllowedNetworks } from '../tasks/outgoing.ts';
import { WebhookStore, type LaunchWebhook } from '../tasks/webhooks.ts';
import { WebhookSender } from '../tasks/webhook-sender.ts';
import { importDump, importSnapshot, shouldImport, type ImportDumpOptions } from './import-dump.ts';

export { StartupError, API_VERSION } from './data-dir.ts';

export interface InstanceOptions {
  dbPath: string;
  masterKey: string | null;
  /** tasks per batch (Infinity = unlimited; 0 = never process) */
  maxBatchedTasks: number;
  maxBatchedBytes: number;
  /** `--max-indexing-memory` in bytes (bounds the steps of document batches) */
  maxIndexingMemory?: number;
  payloadSizeLimit: number;
  upgradeDb?: boolean;
  /** `--dump-dir` (default `dumps/`) */
  dumpDir?: string;
  /** `--import-dump` and its two flags */
  importDump?: ImportDumpOptions;
  /** `--snapshot-dir` (default `snapshots/`) */
  snapshotDir?: string;
  /** `--import-snapshot` and its two flags */
  importSnapshot?: ImportDumpOptions;
  /** `--schedule-snapshot`: seconds between two scheduled snapshots (null: none) */
  scheduleSnapshot?: number | null;
  /** `--experimental-allowed-ip-networks`: what outgoing requests may reach beside global addresses */
  allowedNetworks?: AllowedNetworks;
  forcedFeatures?: Partial<Features>;
  /** `--task-webhook-url` and its authorization header */
  taskWebhook?: LaunchWebhook | null;
  /** delivery timings (tests shorten them) */
  webhookDelivery?: { timeoutMs?: number; attempts?: number; backoffMs?: number };
  /** queue limits of tasks.md §10 (defaults: 1,000,000 tasks, delete 100,000; 20 GiB task database) */
  taskQueue?: { maxTasks?: number; deleteCount?: number; maxDbBytes?: number };
  defaultFeatures?: Partial<Features>;
  /** ms the scheduler worker stays alive without work (default 5 s) */
  schedulerIdleMs?: number;
  log?: (level: 'error' | 'warn' | 'info', message: string) => void;
}

export class Instance {
  readonly options: InstanceOptions;
  readonly dataDir: DataDir;
  readonly queue: TaskQueue;
  readonly indexes: IndexRegistry;
  readonly files: UpdateFiles;
  readonly scheduler: Scheduler;
  readonly keys: KeyStore;
  readonly auth: Authorizer;
  readonly features: FeatureStore;
  readonly webhooks: WebhookStore;
  readonly #webhookSender: WebhookSender;
  readonly startedAt = Date.now();

  private constructor(options: InstanceOptions, dataDir: DataDir) {
    this.options = options;
    this.dataDir = dataDir;
    this.queue = TaskQueue.open(dataDir.tasks);
    this.indexes = new IndexRegistry(dataDir.indexes, this.queue);
    this.files = new UpdateFiles(dataDir.updateFiles);
    this.keys = KeyStore.open(dataDir.root, options.masterKey);
    this.auth = new Authorizer({ masterKey: options.masterKey, keys: this.keys });
    this.features = new FeatureStore(this.queue, options.forcedFeatures ?? {}, options.defaultFeatures ?? {});
    this.webhooks = new WebhookStore(this.queue, options.taskWebhook ?? null);
    this.#webhookSender = new WebhookSender(this.queue, this.webhooks, {
      allowed: options.allowedNetworks ?? [],
      ...options.webhookDelivery,
      log: (level, message) => options.log?.(level, message),
    });
    this.scheduler = new Scheduler({
      dataDir: dataDir.root,
      maxBatchedTasks: options.maxBatchedTasks === 0 ? 1 : options.maxBatchedTasks,
      maxBatchedBytes: options.maxBatchedBytes,
      dumpDir: path.resolve(options.dumpDir ?? 'dumps'),
      snapshotDir: path.resolve(options.snapshotDir ?? 'snapshots'),
      ...(options.allowedNetworks !== undefined ? { allowedNetworks: options.allowedNetworks } : {}),
      ...(options.maxIndexingMemory !== undefined ? { maxIndexingMemory: options.maxIndexingMemory } : {}),
      enabled: options.maxBatchedTasks !== 0,
      ...(options.schedulerIdleMs !== undefined ? { idleMs: options.schedulerIdleMs } : {}),
      cleanup: { maxTasks: options.taskQueue?.maxTasks ?? 1_000_000, deleteCount: options.taskQueue?.deleteCount ?? 100_000 },
      log: (level, message) => options.log?.(level, message),
    });
    this.scheduler.on('retired', () => {
      void this.indexes.closeAll();
    });
    this.scheduler.on('finished', () => {
      this.queue.env.refresh();
      this.#webhookSender.notify();
      // the writer deletes index directories: let go of ours so their files are really freed
      this.indexes.closeUnmapped().catch((err) => options.log?.('error', `closing deleted indexes: ${String(err)}`));
    });
  }

  /**
   * Opens the data directory, repairs what a crash may have left, and starts the scheduler
   * worker if tasks are waiting or an index needs its search layout upgraded (otherwise the
   * first registered task starts it).
   */
  static async open(options: InstanceOptions): Promise<Instance> {
    if (options.importSnapshot !== undefined && shouldImport(options.dbPath, options.importSnapshot, 'snapshot')) {
      await importSnapshot(options.dbPath, options.importSnapshot.path);
    }
    const importing = options.importDump !== undefined && shouldImport(options.dbPath, options.importDump, 'dump');
    const dataDir = openDataDir(options.dbPath, { upgradeDb: options.upgradeDb ?? false });
    const instance = new Instance(options, dataDir);
    if (importing) {
      try {
        await importDump(instance, options.importDump!.path);
      } catch (err) {
        // a failed import leaves nothing behind (dumps-snapshots.md §3)
        await instance.close().catch(() => undefined);
        fs.rmSync(options.dbPath, { recursive: true, force: true });
        throw err;
      }
    }
    if (dataDir.created) instance.queue.env.write(() => instance.queue.meta.put('storageVersion', STORAGE_VERSION));
    instance.#repair();
    if (dataDir.upgradeFrom !== null) {
      const upgrade = await instance.#startUpgrade(dataDir.upgradeFrom);
      // search tables in a layout this release cannot read (decisions 0006, 0007) are rebuilt by the
      // upgrade, which must end before the first search reads them
      const unreadable = instance.queue.indexUids().some((uid) => instance.indexes.get(uid)?.searchLayoutCurrent() === false);
      if (unreadable) await instance.#waitForTask(upgrade);
    } else if (instance.queue.bitmap('status:enqueued').size > 0 || instance.queue.meta.get('storageVersion') !== STORAGE_VERSION) {
      // a task queue still in an older format has a failed upgrade to retry
      instance.scheduler.wake();
    }
    instance.#scheduleSnapshots(options.scheduleSnapshot ?? null);
    // what the last run finished and did not send
    instance.#webhookSender.notify();
    return instance;
  }

  /**
   * `--upgrade-db` on a database in an older storage format (decision 0011): an `upgradeDatabase`
   * task is registered (unless one is enqueued or failed already: it is retried), then the instance
   * records the new format. The task queue and the indexes keep theirs until the task succeeds.
   */
  async #startUpgrade(from: string): Promise<number> {
    const q = this.queue;
    const pending = Bitmap.and(q.bitmap('type:upgradeDatabase'), Bitmap.orMany([q.bitmap('status:enqueued'), q.bitmap('status:failed')]));
    let uid = pending.size > 0 ? pending.maximum() : null;
    if (uid === null) {
      const kind = { kind: 'upgradeDatabase' as const, from: versionTriple(from) };
      const task = await this.register({ indexUid: null, kind, details: enqueuedDetails(kind, { targetVersion: versionTriple(STORAGE_VERSION) }) });
      uid = task.uid;
    } else this.scheduler.wake();
    writeAtomically(path.join(this.dataDir.root, STORAGE_FILE), STORAGE_VERSION);
    return uid;
  }

  /** Resolves once a task is no longer enqueued or processing. */
  async #waitForTask(uid: number): Promise<void> {
    for (;;) {
      this.queue.env.refresh();
      const status = this.queue.get(uid)?.status;
      if (status !== 'enqueued' && status !== 'processing') return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.scheduler.off('finished', done);
          resolve();
        };
        const timer = setTimeout(done, 50);
        this.scheduler.once('finished', done);
      });
    }
  }

  #snapshotTimer: NodeJS.Timeout | null = null;

  /** `--schedule-snapshot`: a `snapshotCreation` task every `seconds`, the first one interval after start. */
  #scheduleSnapshots(seconds: number | null): void {
    if (seconds === null || !(seconds > 0)) return;
    // setInterval takes at most 2^31-1 ms; longer intervals are chained
    const ms = seconds * 1000;
    const arm = (left: number) => {
      const step = Math.min(left, 2 ** 31 - 1);
      this.#snapshotTimer = setTimeout(() => {
        if (left > step) return arm(left - step);
        this.register({ indexUid: null, kind: { kind: 'snapshotCreation' }, details: null }).catch((err) =>
          this.options.log?.('error', `scheduling a snapshot: ${String(err)}`),
        );
        arm(ms);
      }, step);
      this.#snapshotTimer.unref();
    };
    arm(ms);
  }

  /** Crash leftovers: index directories no mapping names, payload files no task needs. */
  #repair(): void {
    const removed = this.indexes.removeOrphans();
    if (removed.length > 0) this.options.log?.('warn', `removed ${removed.length} index director${removed.length === 1 ? 'y' : 'ies'} left by an interrupted batch`);
    const needed = new Set<string>();
    for (const t of this.queue.enqueued()) if (t.kind.kind === 'documentAddition') needed.add(t.kind.contentFile);
    this.files.removeOrphans(needed);
  }

  /** True once `POST /tasks/compact` replaced the task queue's file: the process must be restarted. */
  get mustRestart(): boolean {
    return this.#mustRestart;
  }

  #mustRestart = false;

  /** Refuses writes to the task queue once it was compacted (this process still maps the old file). */
  assertWritable(): void {
    if (this.#mustRestart) {
      throw new ApiError('internal', 'The task queue was compacted by `POST /tasks/compact`: restart Muninn before writing again.');
    }
  }

  /**
   * `POST /tasks/compact` (tasks.md §14): stops the scheduler, writes a compacted copy of the task
   * queue and renames it over the live file. This process keeps reading the old file and refuses
   * every write from then on; the next start opens the compacted one.
   */
  async compactTaskQueue(): Promise<{ preBytes: number; postBytes: number }> {
    this.assertWritable();
    this.#mustRestart = true;
    await this.scheduler.stop();
    const live = path.join(this.dataDir.tasks, 'data.mdb');
    const preBytes = fs.statSync(live).size;
    const staging = path.join(this.dataDir.root, '.tasks-compacted');
    fs.rmSync(staging, { recursive: true, force: true });
    await this.queue.env.copyTo(staging, true);
    const copy = path.join(staging, 'data.mdb');
    fsyncPath(copy);
    fs.renameSync(copy, live);
    fsyncPath(this.dataDir.tasks, { directory: true });
    fs.rmSync(staging, { recursive: true, force: true });
    return { preBytes, postBytes: fs.statSync(live).size };
  }

  /** Registers a task durably (on disk before this resolves) and wakes the scheduler. */
  async register(input: NewTask): Promise<Task> {
    this.assertWritable();
    this.#checkQueueSpace(input);
    const task = this.queue.register(input);
    await this.queue.durable();
    if (task.kind.kind === 'taskCancelation') this.scheduler.interruptIfProcessing(bitmapFrom(task.kind.matched));
    this.scheduler.wake();
    return task;
  }

  /** Past 40 % of the task database, only cancelations and deletions that free space get in. */
  #checkQueueSpace(input: NewTask): void {
    const limit = 0.4 * (this.options.taskQueue?.maxDbBytes ?? 20 * 1024 ** 3);
    if (this.queue.env.sizes().usedBytes <= limit) return;
    const k = input.kind;
    if ((k.kind === 'taskCancelation' || k.kind === 'taskDeletion') && bitmapFrom(k.matched).size > 0) return;
    throw new ApiError(
      'no_space_left_on_device',
      'Meilisearch cannot receive write operations because the limit of the task database has been reached. Please delete tasks to continue performing write operations.',
    );
  }

  /**
   * True while the batch in progress touches this index and still has a task to finish: the
   * tasks of a document batch's committed steps are finished before the batch ends (decision 0006).
   */
  isIndexing(indexUid: string): boolean {
    const p = this.scheduler.processing();
    if (p === null || !p.indexUids.has(indexUid)) return false;
    return p.taskUids.toArray().some((uid) => {
      const status = this.queue.get(uid)?.status;
      return status === undefined || status === 'enqueued' || status === 'processing';
    });
  }

  async close(): Promise<void> {
    if (this.#snapshotTimer) clearTimeout(this.#snapshotTimer);
    await this.scheduler.stop();
    this.queue.env.refresh();
    this.#webhookSender.notify();
    await this.#webhookSender.close();
    await this.indexes.closeAll();
    await this.keys.close();
    await this.queue.close();
  }
}
