// The HTTP thread's handle on the scheduler worker: starts it when there is work, wakes it
// when a task is registered, retires it once it has been idle a while (its heap, and the
// extractor thread it owns, go with it), interrupts the batch in progress for a cancelation,
// and mirrors what is processing (that state lives in memory only, tasks.md §2 "Processing view").
//
//   no worker ──wake()──► running ──'idle' (every wake seen) + idleMs quiet──► retiring ──exit──► gone
//                            ▲  │ wake() clears the idle timer                │
//                            └──┘                                              │ a wake() meanwhile starts
//                                                                               ▼ a new worker at once
// The retirement is decided here, never by the worker: a worker is asked to stop only when it
// has reported idle after receiving every wake this thread posted, so no wake is ever lost in a
// worker that is going away. A retiring worker is idle (no batch): it only closes its handles.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { siblingModule, WORKER_BOOT } from '../../engine/threads/entry.ts';
import type { ProcessingView } from '../queue.ts';
import type { BatchProgress } from '../types.ts';
import { CONTROL_ABORT, type FromWorker, type SchedulerConfig, type ToWorker } from './messages.ts';

export interface Processing extends ProcessingView {
  indexUids: Set<string>;
  batchStrategy: string;
  progress: BatchProgress | null;
  /** the steps finished so far (`progressTrace`), as of the last progress report */
  trace: Record<string, string>;
}

export interface SchedulerOptions extends SchedulerConfig {
  /** false: tasks are registered but never processed (--experimental-max-number-of-batched-tasks 0) */
  enabled: boolean;
  /** ms an idle worker lives before it is retired (default 5 s) */
  idleMs?: number;
  log?: (level: 'error' | 'info', message: string) => void;
}

/** One worker and the wakes posted to it (each worker counts the wakes it received). */
interface Running {
  worker: Worker;
  wakesPosted: number;
  /** settles once the worker has done its start-up steps (search layout upgrades) or has exited */
  ready: Promise<void>;
}

const DEFAULT_IDLE_MS = 5_000;

/** Emits 'finished' (batchUid, indexUids) after each committed batch, 'retired' when an idle worker has exited. */
export class Scheduler extends EventEmitter {
  readonly #opts: SchedulerOptions;
  readonly #control = new Int32Array(new SharedArrayBuffer(4 * 4));
  #running: Running | null = null;
  /** workers asked to stop, until they exit */
  readonly #retiring = new Set<Promise<void>>();
  #idleTimer: NodeJS.Timeout | null = null;
  #processing: Processing | null = null;
  #lastUpdate = 0;
  #started = 0;
  #halted = false;

  constructor(opts: SchedulerOptions) {
    super();
    this.#opts = opts;
  }

  /** Tells the worker new tasks are waiting, starting one if none is running. */
  wake(): void {
    if (!this.#opts.enabled) return;
    this.#clearIdleTimer();
    const running = this.#running ?? this.#spawn();
    running.wakesPosted++;
    running.worker.postMessage({ type: 'wake' } satisfies ToWorker);
  }

  /**
   * Wakes the scheduler and resolves once its worker has done its start-up steps (indexes in an
   * older search layout are re-indexed before any search may read them).
   */
  async wakeAndWait(): Promise<void> {
    if (!this.#opts.enabled) return;
    this.wake();
    await this.#running?.ready;
  }

  /** Whether a worker is running (not retired or retiring). */
  get workerRunning(): boolean {
    return this.#running !== null;
  }

  /** How many workers were started so far. */
  get workersStarted(): number {
    return this.#started;
  }

  /** What is processing now, or null. */
  processing(): Processing | null {
    return this.#processing;
  }

  /** True while the batch in progress touches this index. */
  isIndexing(indexUid: string): boolean {
    return this.#processing?.indexUids.has(indexUid) ?? false;
  }

  /** Time of the last committed batch (µs), for caches. */
  get lastUpdate(): number {
    return this.#lastUpdate;
  }

  /** Interrupts the batch in progress if it holds any of these task uids. */
  interruptIfProcessing(taskUids: Bitmap): void {
    const p = this.#processing;
    if (p && p.taskUids.intersects(taskUids)) Atomics.store(this.#control, CONTROL_ABORT, p.batchUid + 1);
  }

  /** Stops the running worker (after its batch in progress) and waits for retiring ones. */
  async stop(): Promise<void> {
    this.#clearIdleTimer();
    const running = this.#running;
    this.#running = null;
    if (running) void this.#retire(running.worker);
    await Promise.all([...this.#retiring]);
  }

  #spawn(): Running {
    const entry = siblingModule('worker', import.meta.url);
    const { enabled: _enabled, log: _log, idleMs: _idleMs, ...rest } = this.#opts;
    const config: SchedulerConfig = { ...rest, ...(this.#halted ? { halted: true } : {}) };
    const worker = new Worker(WORKER_BOOT, {
      workerData: { entry, config, control: this.#control.buffer },
    });
    const ready = new Promise<void>((resolve) => {
      worker.on('message', (m: FromWorker) => m.type === 'ready' && resolve());
      worker.once('exit', () => resolve());
    });
    const running: Running = { worker, wakesPosted: 0, ready };
    this.#running = running;
    this.#started++;
    worker.on('message', (m: FromWorker) => this.#onMessage(running, m));
    worker.on('error', (err) => this.#opts.log?.('error', `scheduler worker: ${err?.stack ?? String(err)}`));
    worker.once('exit', (code) => {
      if (this.#running !== running) return;
      // an unexpected exit: the next wake starts a new worker, which resumes the enqueued tasks
      this.#running = null;
      this.#processing = null;
      this.#clearIdleTimer();
      this.#opts.log?.('error', `scheduler worker exited with code ${code}`);
    });
    return running;
  }

  /** Asks a worker to stop; it exits after its batch in progress, if any. Resolves at its exit. */
  #retire(worker: Worker): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.on('message', (m: FromWorker) => m.type === 'stopped' && void worker.terminate());
    });
    // a worker that does not answer within 10 s is terminated
    const timeout = setTimeout(() => void worker.terminate(), 10_000);
    timeout.unref();
    const done = exited.then(() => {
      clearTimeout(timeout);
      this.#retiring.delete(done);
    });
    this.#retiring.add(done);
    worker.postMessage({ type: 'stop' } satisfies ToWorker);
    return done;
  }

  #onIdle(running: Running, wakesSeen: number): void {
    // a wake posted after the worker looked at the queue is still on its way: it is not idle
    if (this.#running !== running || wakesSeen !== running.wakesPosted) return;
    this.#clearIdleTimer();
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = null;
      if (this.#running !== running) return;
      this.#running = null;
      void this.#retire(running.worker).then(() => this.emit('retired'));
    }, this.#opts.idleMs ?? DEFAULT_IDLE_MS);
    this.#idleTimer.unref();
  }

  #clearIdleTimer(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
  }

  #onMessage(running: Running, m: FromWorker): void {
    switch (m.type) {
      case 'idle':
        this.#onIdle(running, m.wakes);
        break;
      case 'started':
        this.#processing = {
          batchUid: m.batchUid,
          taskUids: new Bitmap(m.taskUids),
          startedAt: m.startedAt,
          indexUids: new Set(m.indexUids),
          batchStrategy: m.batchStrategy,
          progress: null,
          trace: {},
        };
        this.emit('started', m.batchUid);
        break;
      case 'progress':
        if (this.#processing?.batchUid === m.batchUid) {
          this.#processing.progress = m.progress;
          this.#processing.trace = m.trace;
        }
        break;
      case 'finished':
        this.#processing = null;
        this.#lastUpdate = Date.now();
        this.emit('finished', m.batchUid, m.indexUids);
        break;
      case 'aborted':
        this.#processing = null;
        this.emit('aborted', m.batchUid);
        break;
      case 'error':
        this.#processing = null;
        this.#opts.log?.('error', `scheduler: ${m.message}`);
        break;
      case 'notice':
        this.#opts.log?.('info', `scheduler: ${m.message}`);
        break;
      case 'halted':
        this.#halted = true;
        break;
      default:
        break;
    }
  }
}
