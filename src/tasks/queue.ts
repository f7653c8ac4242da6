// The persistent task queue: task and batch records, their bitmap indexes, and the
// index uid → directory mapping. The HTTP thread registers tasks; the scheduler worker
// updates them. Both write through short LMDB transactions, which LMDB serialises.
import { Env, type Table } from '../engine/store/index.ts';
import { Bitmap, bitmapBytes, bitmapFrom } from '../engine/bitmap/index.ts';
import { nowMicros } from '../engine/time.ts';
import { BATCHES, BITMAPS, INDEX_MAPPING, META, TASKS, type IndexEntry } from './layout.ts';
import { publicType, type Batch, type Page, type Task, type TaskFilter, type TaskKind } from './types.ts';

export interface NewTask {
  indexUid: string | null;
  kind: TaskKind;
  details: Record<string, unknown> | null;
  customMetadata?: string;
}

/** What the reader knows of the batch in progress (it lives in the scheduler's memory). */
export interface ProcessingView {
  batchUid: number;
  taskUids: Bitmap;
  startedAt: number;
}

/** Bitmap names of a task, for the bitmap indexes. */
function bitmapKeys(t: Task): string[] {
  const keys = ['all', `status:${t.status}`, `type:${publicType(t.kind)}`];
  if (t.indexUid !== null) keys.push(`index:${t.indexUid}`);
  if (t.canceledBy !== null) keys.push(`canceledBy:${t.canceledBy}`);
  if (t.batchUid !== null) keys.push(`batch:${t.batchUid}`);
  return keys;
}

export class TaskQueue {
  readonly env: Env;
  readonly tasks: Table<number, Task>;
  readonly batches: Table<number, Batch>;
  readonly bitmaps: Table<string, Uint8Array>;
  readonly indexMapping: Table<string, IndexEntry>;
  readonly meta: Table<string, unknown>;

  private constructor(env: Env) {
    this.env = env;
    this.tasks = env.table(TASKS);
    this.batches = env.table(BATCHES);
    this.bitmaps = env.table(BITMAPS);
    this.indexMapping = env.table(INDEX_MAPPING);
    this.meta = env.table(META);
  }

  static open(dir: string): TaskQueue {
    return new TaskQueue(Env.open(dir));
  }

  // ---- reads ----

  get(uid: number): Task | undefined {
    return this.tasks.get(uid);
  }

  batch(uid: number): Batch | undefined {
    return this.batches.get(uid);
  }

  bitmap(name: string): Bitmap {
    return bitmapFrom(this.bitmaps.get(name));
  }

  /**
   * The next uid of a counter (`nextTaskUid`, `nextBatchUid`). Persistent monotonic counters,
   * which tasks.md §2 allows in place of "highest stored uid + 1". (lmdb-js reverse cursors over
   * uint32 keys skip key 0, so "highest stored" cannot be read with a reverse range.)
   */
  nextUid(counter: 'nextTaskUid' | 'nextBatchUid'): number {
    const stored = this.meta.get(counter);
    if (typeof stored === 'number') return stored;
    let max = -1;
    for (const k of (counter === 'nextTaskUid' ? this.tasks : this.batches).keys()) max = k > max ? k : max;
    return max + 1;
  }

  /** Enqueued tasks in uid order. */
  enqueued(): Task[] {
    const out: Task[] = [];
    for (const uid of this.bitmap('status:enqueued')) {
      const t = this.tasks.get(uid);
      if (t) out.push(t);
    }
    return out;
  }

  count(): number {
    return this.tasks.count();
  }

  /**
   * Task uids matching a filter; the processing batch's tasks count as `processing` while their
   * records still say enqueued (once the batch is committed the records win).
   */
  matchTasks(filter: TaskFilter, processingView: ProcessingView | null): Bitmap {
    const processing = processingView && this.#stillProcessing(processingView);
    let set = this.bitmap('all');
    if (filter.uids) set.andInPlace(new Bitmap(filter.uids));
    if (filter.batchUids) {
      const parts = filter.batchUids.map((b) => (processing && b === processing.batchUid ? processing.taskUids : this.bitmap(`batch:${b}`)));
      set = Bitmap.and(set, Bitmap.orMany(parts));
    }
    if (filter.statuses) {
      const parts = filter.statuses.map((s) => {
        if (s === 'processing') return processing ? processing.taskUids : new Bitmap();
        const b = this.bitmap(`status:${s}`);
        if (s === 'enqueued' && processing) b.andNotInPlace(processing.taskUids);
        return b;
      });
      set = Bitmap.and(set, Bitmap.orMany(parts));
    }
    if (filter.types) set = Bitmap.and(set, Bitmap.orMany(filter.types.map((t) => this.bitmap(`type:${t}`))));
    if (filter.indexUids) set = Bitmap.and(set, Bitmap.orMany(filter.indexUids.map((i) => this.bitmap(`index:${i}`))));
    if (filter.canceledBy) set = Bitmap.and(set, Bitmap.orMany(filter.canceledBy.map((c) => this.bitmap(`canceledBy:${c}`))));
    if (hasDateFilter(filter)) {
      const kept = new Bitmap();
      for (const uid of set) {
        const t = this.tasks.get(uid);
        if (t && dateMatch(t, filter, processing)) kept.add(uid);
      }
      set = kept;
    }
    return set;
  }

  /** The processing view restricted to tasks whose records are still enqueued, or null. */
  #stillProcessing(p: ProcessingView): ProcessingView | null {
    if (this.batches.has(p.batchUid)) return null;
    const taskUids = Bitmap.and(p.taskUids, this.bitmap('status:enqueued'));
    return taskUids.size === 0 ? null : { ...p, taskUids };
  }

  /** Batch uids matching a filter (tasks.md §12 semantics). */
  matchBatches(filter: TaskFilter, processingView: ProcessingView | null): Bitmap {
    const processing = processingView && this.#stillProcessing(processingView);
    const { batchUids, afterStartedAt, beforeStartedAt, afterFinishedAt, beforeFinishedAt, ...taskFilter } = filter;
    const taskLevel = Object.keys(taskFilter).some((k) => (taskFilter as Record<string, unknown>)[k] !== undefined);
    let set = new Bitmap(this.batches.keys());
    if (processing) set.add(processing.batchUid);
    if (taskLevel) {
      const tasks = this.matchTasks(taskFilter, processing);
      const fromTasks = new Bitmap();
      for (const uid of tasks) {
        if (processing && processing.taskUids.has(uid)) fromTasks.add(processing.batchUid);
        else {
          const t = this.tasks.get(uid);
          if (t && t.batchUid !== null) fromTasks.add(t.batchUid);
        }
      }
      set.andInPlace(fromTasks);
    }
    if (batchUids) set.andInPlace(new Bitmap(batchUids));
    if (afterStartedAt !== undefined || beforeStartedAt !== undefined || afterFinishedAt !== undefined || beforeFinishedAt !== undefined) {
      const kept = new Bitmap();
      for (const uid of set) {
        const b = processing && uid === processing.batchUid ? { startedAt: processing.startedAt, finishedAt: null } : this.batches.get(uid);
        if (!b) continue;
        if (!inRange(b.startedAt, afterStartedAt, beforeStartedAt)) continue;
        if ((afterFinishedAt !== undefined || beforeFinishedAt !== undefined) && !inRange(b.finishedAt, afterFinishedAt, beforeFinishedAt)) continue;
        kept.add(uid);
      }
      set = kept;
    }
    return set;
  }

  // ---- writes ----

  /** Registers a task in one transaction and returns it; call `durable()` before acknowledging. */
  register(input: NewTask, now: number = nowMicros()): Task {
    return this.env.write(() => {
      const uid = this.nextUid('nextTaskUid');
      this.meta.put('nextTaskUid', uid + 1);
      const task: Task = {
        uid,
        batchUid: null,
        indexUid: input.indexUid,
        status: 'enqueued',
        kind: input.kind,
        canceledBy: null,
        details: input.details,
        error: null,
        enqueuedAt: now,
        startedAt: null,
        finishedAt: null,
        ...(input.customMetadata !== undefined ? { customMetadata: input.customMetadata } : {}),
      };
      this.putTasks([task]);
      return task;
    });
  }

  /** Resolves once everything committed so far is on disk. */
  async durable(): Promise<void> {
    await this.env.flushed();
  }

  /** Stores task records and keeps the bitmap indexes in step. Must run inside `env.write`. */
  putTasks(tasks: Iterable<Task>): void {
    const add = new Map<string, number[]>();
    const remove = new Map<string, number[]>();
    const push = (m: Map<string, number[]>, k: string, uid: number) => {
      const list = m.get(k);
      if (list) list.push(uid);
      else m.set(k, [uid]);
    };
    for (const t of tasks) {
      const old = this.tasks.get(t.uid);
      const before = old ? new Set(bitmapKeys(old)) : new Set<string>();
      const after = new Set(bitmapKeys(t));
      for (const k of before) if (!after.has(k)) push(remove, k, t.uid);
      for (const k of after) if (!before.has(k)) push(add, k, t.uid);
      this.tasks.put(t.uid, t);
    }
    this.#applyBitmapChanges(add, remove);
  }

  /** Deletes task records (and their bitmap entries). Must run inside `env.write`. */
  deleteTasks(uids: Iterable<number>): void {
    const remove = new Map<string, number[]>();
    for (const uid of uids) {
      const t = this.tasks.get(uid);
      if (!t) continue;
      for (const k of bitmapKeys(t)) {
        const list = remove.get(k);
        if (list) list.push(uid);
        else remove.set(k, [uid]);
      }
      this.tasks.remove(uid);
    }
    this.#applyBitmapChanges(new Map(), remove);
  }

  /** Stores a finished batch and moves the batch counter past it. Must run inside `env.write`. */
  putBatch(batch: Batch): void {
    this.batches.put(batch.uid, batch);
    if (this.nextUid('nextBatchUid') <= batch.uid) this.meta.put('nextBatchUid', batch.uid + 1);
  }

  removeBatch(uid: number): void {
    this.batches.remove(uid);
  }

  #applyBitmapChanges(add: Map<string, number[]>, remove: Map<string, number[]>): void {
    const keys = new Set([...add.keys(), ...remove.keys()]);
    for (const key of keys) {
      const b = this.bitmap(key);
      const r = remove.get(key);
      if (r) b.removeMany(r);
      const a = add.get(key);
      if (a) b.addMany(a);
      if (b.size === 0) this.bitmaps.remove(key);
      else this.bitmaps.put(key, bitmapBytes(b));
    }
  }

  // ---- index mapping ----

  indexUuid(uid: string): string | undefined {
    return this.indexMapping.get(uid)?.uuid;
  }

  /** Index uids in byte order. */
  indexUids(): string[] {
    return [...this.indexMapping.keys()];
  }

  setIndex(uid: string, uuid: string): void {
    this.indexMapping.put(uid, { uuid });
  }

  removeIndex(uid: string): void {
    this.indexMapping.remove(uid);
  }

  async close(): Promise<void> {
    await this.env.close();
  }
}

/** Applies `from` / `limit` / `reverse` to a set of uids (tasks.md §5 pagination). */
export function paginate(set: Bitmap, page: Page): { uids: number[]; next: number | null } {
  const want = page.limit + 1;
  let picked: number[];
  if (!page.reverse) {
    const end = page.from === undefined ? set.size : set.rank(page.from);
    const start = Math.max(0, end - want);
    picked = Array.from(set.rangeUint32Array(start, end - start)).reverse();
  } else {
    const start = page.from === undefined || page.from === 0 ? 0 : set.rank(page.from - 1);
    picked = Array.from(set.rangeUint32Array(start, want));
  }
  let next: number | null = null;
  if (picked.length === want) next = picked.pop()!;
  return { uids: picked, next };
}

function hasDateFilter(f: TaskFilter): boolean {
  return (
    f.afterEnqueuedAt !== undefined ||
    f.beforeEnqueuedAt !== undefined ||
    f.afterStartedAt !== undefined ||
    f.beforeStartedAt !== undefined ||
    f.afterFinishedAt !== undefined ||
    f.beforeFinishedAt !== undefined
  );
}

function inRange(value: number | null, after: number | undefined, before: number | undefined): boolean {
  if (after === undefined && before === undefined) return true;
  if (value === null) return false;
  if (after !== undefined && !(value > after)) return false;
  if (before !== undefined && !(value < before)) return false;
  return true;
}

function dateMatch(t: Task, f: TaskFilter, processing: ProcessingView | null): boolean {
  if (!inRange(t.enqueuedAt, f.afterEnqueuedAt, f.beforeEnqueuedAt)) return false;
  const startedAt = processing && processing.taskUids.has(t.uid) ? processing.startedAt : t.startedAt;
  if (!inRange(startedAt, f.afterStartedAt, f.beforeStartedAt)) return false;
  if (!inRange(t.finishedAt, f.afterFinishedAt, f.beforeFinishedAt)) return false;
  return true;
}
