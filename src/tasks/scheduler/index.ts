// The HTTP thread's handle on the scheduler worker: starts it, wakes it when a task is
// registered, interrupts the batch in progress for a cancelation, and mirrors what is
// processing (that state lives in memory only, tasks.md §2 "Processing view").
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
  log?: (level: 'error' | 'info', message: string) => void;
}

/** Emits 'finished' (batchUid, indexUids) after each committed batch. */
export class Scheduler extends EventEmitter {
  readonly #opts: SchedulerOptions;
  readonly #control = new Int32Array(new SharedArrayBuffer(4 * 4));
  #worker: Worker | null = null;
  #processing: Processing | null = null;
  #lastUpdate = 0;

  constructor(opts: SchedulerOptions) {
    super();
    this.#opts = opts;
  }

  /** Starts the worker and resolves once it is ready. */
  async start(): Promise<void> {
    if (!this.#opts.enabled) return;
    const entry = siblingModule('worker', import.meta.url);
    const { enabled: _enabled, log: _log, ...config } = this.#opts;
    const worker = new Worker(WORKER_BOOT, {
      workerData: { entry, config: config satisfies SchedulerConfig, control: this.#control.buffer },
    });
    this.#worker = worker;
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') resolve();
        this.#onMessage(m);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (this.#worker === worker) {
          this.#worker = null;
          this.#opts.log?.('error', `scheduler worker exited with code ${code}`);
          reject(new Error(`scheduler worker exited with code ${code}`));
        }
      });
    });
  }

  /** Tells the worker new tasks are waiting. */
  wake(): void {
    this.#post({ type: 'wake' });
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

  async stop(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = null;
    const stopped = new Promise<void>((resolve) => {
      worker.on('message', (m: FromWorker) => m.type === 'stopped' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'stop' } satisfies ToWorker);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
    await Promise.race([stopped, timeout]);
    await worker.terminate();
  }

  #post(m: ToWorker): void {
    this.#worker?.postMessage(m);
  }

  #onMessage(m: FromWorker): void {
    switch (m.type) {
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
      default:
        break;
    }
  }
}
