// Applies a document batch to one index in steps, each one write transaction of bounded size:
//
//   step: begin ─► first task, in the step's own transaction
//              ─► next tasks, each in a nested transaction, while the step's estimated pages
//                 and pending search/facet changes stay under the budget (engine/indexing/budget.ts)
//              ─► pending changes written, word sets, counters, outcomes ('applied') ─► commit
//   next step … until every task has an outcome ─► flushed to disk (the task queue commits after)
//
// Why: LMDB's room for dirty pages per transaction is fixed, and a nested transaction can spill
// only its own pages to the file, so the pages its parent holds count against its room
// (engine/store/index.ts). One transaction for a whole batch once failed a 950k-document batch
// with MDB_TXN_FULL. Under a step's budget a nested task always has most of the room; a first task
// is not nested at all, so LMDB spills as it needs and a task of any size fits its step.
//
// Atomicity: every task is all or nothing. A failing nested task is rolled back alone; a failing
// first task aborts its step, which holds nothing else, and the next step starts after it. Each
// step commits its outcomes with its data: after a crash the batch runs again and replays them.
// A cancelation aborts the step in progress; the tasks of committed steps end the batch.
// Readers see each committed step (whole tasks only) before the batch ends.
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import { indexingBudget, type IndexingBudget } from '../../engine/indexing/budget.ts';
import type { Index } from '../../engine/index/index.ts';
import type { AppliedTask } from '../../engine/index/layout.ts';
import { WriteRefused } from '../../engine/store/index.ts';
import type { Task } from '../types.ts';
import { facetConfig, searchConfig, storedSettings } from '../index-settings.ts';
import { embedderConfigs } from '../../api/settings/index.ts';
import { applyDocumentTask } from './document-tasks.ts';
import { Aborted, failed, type ProcessContext } from './context.ts';

/**
 * Applies `tasks` (uid order) to `target`; returns the outcome of each task by uid. After a
 * cancelation it returns the outcomes of a prefix of the tasks (those committed), or throws
 * `Aborted` when no task has a final outcome yet.
 */
export async function applyInSteps(target: Index, tasks: Task[], ctx: ProcessContext): Promise<Record<string, AppliedTask>> {
  const run = new StepRun(target, tasks, ctx);
  try {
    while (run.pending()) run.step();
  } catch (err) {
    if (!(err instanceof Aborted) || !run.anyFinal()) throw err;
  }
  await ctx.trace.timeAsync('waiting for the disk', () => target.env.flushed());
  return run.outcomes;
}

class StepRun {
  readonly #target: Index;
  readonly #tasks: Task[];
  readonly #ctx: ProcessContext;
  readonly #budget: IndexingBudget;
  /** outcomes a previous run of this batch committed (replayed, never applied twice) */
  readonly #previous: Record<string, AppliedTask>;
  /** outcomes of later tasks a longer previous run committed: kept for the batch that replays them */
  readonly #kept: Record<string, AppliedTask> = {};
  /** final outcomes, a prefix of the tasks */
  readonly outcomes: Record<string, AppliedTask> = {};
  /** index of the first task without an outcome */
  #next = 0;
  /** an outcome is final but not stored in `applied` yet (a failed first task) */
  #unsaved = false;
  /** at most this many tasks in the next step (lowered after LMDB refused a step) */
  #cap = Infinity;

  constructor(target: Index, tasks: Task[], ctx: ProcessContext) {
    this.#target = target;
    this.#tasks = tasks;
    this.#ctx = ctx;
    this.#budget = ctx.indexing ?? indexingBudget();
    this.#previous = target.getMain('applied') ?? {};
    const last = tasks[tasks.length - 1]?.uid ?? -1;
    for (const [uid, o] of Object.entries(this.#previous)) if (Number(uid) > last) this.#kept[uid] = o;
  }

  pending(): boolean {
    return this.#next < this.#tasks.length || this.#unsaved;
  }

  anyFinal(): boolean {
    return this.#next > 0;
  }

  /** Runs one step: one write transaction, committed unless its first task fails. */
  step(): void {
    const target = this.#target;
    const { trace } = this.#ctx;
    const outcomes: Record<string, AppliedTask> = {};
    let next = this.#next;
    let applied = 0;
    let firstFailure: { task: Task; err: unknown } | null = null;
    const start = target.env.writeCounters().pages;
    let commitStart = 0;
    try {
      target.env.write(() => {
        const writer = trace.time('retrieving config', () => this.#writer());
        trace.time('checking the search and facet tables', () => {
          writer.indexSearchIfMissing();
          writer.indexFacetsIfStale();
          writer.indexVectorsIfMissing();
        });
        trace.time('indexing', () => {
          for (; next < this.#tasks.length; next++) {
            const task = this.#tasks[next]!;
            const replay = this.#previous[task.uid];
            if (replay) {
              outcomes[task.uid] = replay;
              continue;
            }
            if (applied > 0 && this.#full(writer, start, applied)) break;
            if (applied === 0) {
              // not nested: if it fails, the step is dropped with it
              writer.checkpoint();
              try {
                outcomes[task.uid] = { ok: true, details: applyDocumentTask(writer, task, this.#ctx) };
              } catch (err) {
                if (!(err instanceof Aborted)) firstFailure = { task, err };
                throw err;
              }
            } else {
              const checkpoint = writer.checkpoint();
              try {
                outcomes[task.uid] = { ok: true, details: target.env.write(() => applyDocumentTask(writer, task, this.#ctx)) };
              } catch (err) {
                if (err instanceof Aborted) throw err;
                writer.rollback(checkpoint);
                // too big to nest in this step after all: it starts the next one
                if (err instanceof WriteRefused) break;
                outcomes[task.uid] = failure(task, err);
              }
            }
            applied++;
          }
        });
        trace.time('writing the search and facet tables', () => writer.save(this.#ctx.startedAt));
        target.setMain('applied', { ...this.#kept, ...this.outcomes, ...outcomes });
        commitStart = performance.now();
      });
      trace.add('committing', performance.now() - commitStart);
    } catch (err) {
      if (firstFailure !== null && err === (firstFailure as { err: unknown }).err) {
        const { task } = firstFailure as { task: Task };
        Object.assign(this.outcomes, outcomes, { [task.uid]: failure(task, err) });
        this.#next = next + 1;
        this.#unsaved = true;
        return;
      }
      // LMDB refused the step (the estimate of its size fell short): again with fewer tasks, so
      // that the task that failed to nest starts the next step
      const cap = Math.min(applied, this.#cap - 1);
      if (!(err instanceof WriteRefused) || cap < 1) throw err;
      this.#cap = cap;
      return;
    }
    Object.assign(this.outcomes, outcomes);
    this.#next = next;
    this.#unsaved = false;
    this.#cap = Infinity;
  }

  /** The step holds enough: its writes, its pending changes or its number of tasks. */
  #full(writer: DocumentsWriter, start: number, applied: number): boolean {
    return applied >= this.#cap || this.#target.env.writeCounters().pages - start >= this.#budget.stepPages || writer.flushDue();
  }

  #writer(): DocumentsWriter {
    const target = this.#target;
    const settings = storedSettings(target);
    const budget = this.#budget;
    const extractor = this.#ctx.extractor;
    // the extractor thread is idle between document jobs: it prepares the search writes then
    const writer = new DocumentsWriter(target, searchConfig(settings), {
      prepare: (request) => extractor.prepare(request),
      facets: facetConfig(settings),
      vectors: embedderConfigs(settings.embedders),
      maxDeltaBytes: budget.searchDeltaBytes,
      facetWriter: { maxDeltaBytes: budget.facetDeltaBytes },
    });
    // writing a step's postings takes seconds on a big index: the batch's progress shows it advance
    writer.reportFlushProgress((written, total) => this.#ctx.progress('writing the search tables', written, total));
    return writer;
  }
}

function failure(task: Task, err: unknown): AppliedTask {
  const f = failed(task, err);
  return { ok: false, details: f.details ?? {}, error: f.error };
}
