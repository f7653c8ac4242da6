// Search threads beside the HTTP thread (DESIGN §2: "search can run in a pool of worker threads
// reading the same environments"). A search goes to a thread that is free; when none is (or none
// has started yet), the caller runs it itself, so the HTTP thread is one more searcher and a single
// client never waits for a thread to boot. Threads start on the first search and stop when the
// server goes quiet (`stop`), taking their heaps and read handles with them.
//
//   route ─► pool.search(job) ─► free thread? ─► postMessage ─► search-worker.ts: executeSearch
//            │                                                   └─► JSON text ─► the reply
//            └─► null: run it on this thread
import { Worker } from 'node:worker_threads';
import { siblingModule, WORKER_BOOT } from '../../engine/threads/entry.ts';
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { StatusError } from './multi-errors.ts';
import { noteDegraded } from './degraded.ts';
import type { FilterFeatures } from '../filter/index.ts';
import type { ExecuteOptions } from './execute.ts';
import type { MultiSearchRequest } from './multi-query.ts';
import type { SearchQuery } from './query-types.ts';

export interface SearchWorkerData {
  entry: string;
  indexesDir: string;
}

export type ToSearchWorker =
  | { type: 'run'; id: number; job: SearchJob }
  /** close every index whose uuid is not in `keep`; `thenStop`: and end the thread */
  | { type: 'forget'; keep: string[]; thenStop: boolean };

export type FromSearchWorker =
  | { type: 'ready' }
  /** `degraded`: searches of the job that hit their cutoff */
  | { type: 'done'; id: number; body: string; degraded: number }
  | { type: 'error'; id: number; code: ErrorCode; message: string; status: number; stack?: string };

/** What a thread runs: the same calls the HTTP thread would make, with index uids resolved to directories. */
export type SearchJob =
  /** `executeSearch`; `uuid`: the index directory's name */
  | { kind: 'search'; uuid: string; uid: string; query: SearchQuery; options: ExecuteOptions }
  /** `runMultiSearch` of authorized queries; `uuids`: the directory of each existing index they name */
  | { kind: 'multi'; uuids: Record<string, string>; request: MultiSearchRequest; metadata: boolean; features: FilterFeatures };

interface Pending {
  resolve(body: string): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** resolves when the thread is ready or has exited */
  booted: Promise<void>;
  pending: Map<number, Pending>;
}

export class SearchPool {
  readonly #size: number;
  readonly #indexesDir: string;
  readonly #log: (message: string) => void;
  #threads: Thread[] = [];
  #nextId = 0;

  /** `size`: search threads (0: every search runs on the caller's thread). */
  constructor(opts: { size: number; indexesDir: string; log?: (message: string) => void }) {
    this.#size = Math.max(0, Math.floor(opts.size));
    this.#indexesDir = opts.indexesDir;
    this.#log = opts.log ?? (() => {});
  }

  /** Threads running now (they start on demand). */
  get running(): number {
    return this.#threads.length;
  }

  /** Sends `job` to a free thread and resolves with the response body (JSON); null when none is free. */
  search(job: SearchJob): Promise<string> | null {
    if (this.#size === 0) return null;
    if (this.#threads.length < this.#size) this.#start();
    const thread = this.#threads.find((t) => t.ready && t.pending.size === 0);
    if (thread === undefined) return null;
    const id = this.#nextId++;
    return new Promise<string>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ type: 'run', id, job } satisfies ToSearchWorker);
    });
  }

  /** Starts the threads now and resolves once each can take a search. */
  async warm(): Promise<void> {
    while (this.#threads.length < this.#size) this.#start();
    await Promise.all(this.#threads.map((t) => t.booted));
  }

  /** Lets the threads close the indexes not in `uuids` (deleted or swapped away). */
  keepOnly(uuids: readonly string[]): void {
    for (const t of this.#threads) t.worker.postMessage({ type: 'forget', keep: [...uuids], thenStop: false } satisfies ToSearchWorker);
  }

  /** Ends every thread once its search in progress is answered (the next search starts them again). */
  async stop(): Promise<void> {
    const threads = this.#threads;
    this.#threads = [];
    await Promise.all(threads.map((t) => this.#retire(t)));
  }

  #start(): void {
    const worker = new Worker(WORKER_BOOT, {
      workerData: { entry: siblingModule('search-worker', import.meta.url), indexesDir: this.#indexesDir } satisfies SearchWorkerData,
    });
    let booted!: () => void;
    const thread: Thread = { worker, ready: false, booted: new Promise<void>((resolve) => (booted = resolve)), pending: new Map() };
    this.#threads.push(thread);
    worker.unref();
    worker.on('message', (m: FromSearchWorker) => {
      if (m.type === 'ready') {
        thread.ready = true;
        booted();
        return;
      }
      const pending = thread.pending.get(m.id);
      if (pending === undefined) return;
      thread.pending.delete(m.id);
      if (m.type === 'done') {
        if (m.degraded > 0) noteDegraded(m.degraded);
        pending.resolve(m.body);
      }
      else pending.reject(errorOf(m));
    });
    worker.on('error', (err) => this.#log(`search thread: ${err?.stack ?? String(err)}`));
    worker.once('exit', (code) => {
      booted();
      this.#threads = this.#threads.filter((t) => t !== thread);
      for (const p of thread.pending.values()) p.reject(new Error(`search thread exited with code ${code}`));
      thread.pending.clear();
    });
  }

  #retire(thread: Thread): Promise<void> {
    const exited = new Promise<void>((resolve) => thread.worker.once('exit', () => resolve()));
    // a thread that does not end within 10 s (a search stuck in native code) is terminated
    const timeout = setTimeout(() => void thread.worker.terminate(), 10_000);
    timeout.unref();
    thread.worker.postMessage({ type: 'forget', keep: [], thenStop: true } satisfies ToSearchWorker);
    return exited.then(() => clearTimeout(timeout));
  }
}

/** The error a thread reported, as the HTTP thread would have thrown it. */
function errorOf(m: Extract<FromSearchWorker, { type: 'error' }>): Error {
  if (m.code !== 'internal') {
    const err = new ApiError(m.code, m.message);
    // multi-search answers some codes with another status than the table's (multi-errors.ts)
    return err.status === m.status ? err : new StatusError(m.code, m.message, m.status);
  }
  const err = new Error(m.message);
  if (m.stack !== undefined) err.stack = m.stack;
  return err;
}
