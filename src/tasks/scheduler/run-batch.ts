// Runs one planned batch and writes its outcome to the task queue.
//
//   plan ─► processor (index commit, durable) ─► task-queue commit (statuses, batch,
//   mapping changes) ─► durable ─► clean-up (payload files, dropped directories)
//
// A crash before the task-queue commit leaves the tasks enqueued: the batch runs again,
// and the index remembers the outcomes it already applied (engine/index/layout.ts `applied`).
import type { BatchPlan } from '../autobatcher.ts';
import type { Batch, Task } from '../types.ts';
import { aggregateBatchDetails, batchStats } from '../details.ts';
import { nowMicros } from '../../engine/time.ts';
import { failed, type BatchResult, type ProcessContext } from '../processors/context.ts';
import { processIndexDeletion, processIndexOperation } from '../processors/index-operation.ts';
import { processIndexCreation, processIndexSwap, processIndexUpdate } from '../processors/index-lifecycle.ts';
import { processCancelation, processDeletions } from '../processors/task-management.ts';
import { processDumpCreation } from '../processors/dump-creation.ts';
import { processSnapshotCreation } from '../processors/snapshot-creation.ts';
import { processIndexCompaction } from '../processors/index-compaction.ts';
import { processUpgrade } from '../processors/upgrade.ts';
import { processExport } from '../processors/export.ts';
import { ApiError } from '../../api/errors/index.ts';

async function dispatch(batch: BatchPlan, ctx: ProcessContext): Promise<BatchResult> {
  const plan = batch.plan;
  switch (plan.op) {
    case 'taskCancelation':
      return processCancelation(plan.task, ctx);
    case 'taskDeletions':
      return processDeletions(plan.tasks, ctx);
    case 'indexCreation':
      return processIndexCreation(plan.task, ctx);
    case 'indexUpdate':
      return processIndexUpdate(plan.task, ctx);
    case 'indexSwap':
      return processIndexSwap(plan.task, ctx);
    case 'indexDeletion':
      return processIndexDeletion(plan.indexUid, plan.tasks, ctx);
    case 'indexOperation':
      return processIndexOperation(plan.indexUid, plan.tasks, plan.mayCreateIndex, ctx);
    case 'dump':
      return processDumpCreation(plan.task, ctx);
    case 'snapshots':
      return processSnapshotCreation(plan.tasks, ctx);
    case 'indexCompaction':
      return processIndexCompaction(plan.task, ctx);
    case 'upgradeDatabase':
      return processUpgrade(plan.tasks, ctx);
    case 'export':
      return processExport(plan.task, ctx);
    default: {
      const err = new ApiError('internal', `Tasks of type \`${batch.tasks[0]?.kind.kind}\` are not supported by this version of Muninn yet.`);
      return { tasks: batch.tasks.map((t) => failed(t, err)), indexUids: [] };
    }
  }
}

/** Processes a batch and commits its outcome; rethrows `Aborted` with nothing committed. */
export async function runBatch(batch: BatchPlan, ctx: ProcessContext): Promise<{ result: BatchResult; record: Batch }> {
  let result: BatchResult;
  const { trace } = ctx;
  try {
    result = await trace.timeAsync('processing tasks', () => dispatch(batch, ctx));
  } catch (err) {
    if ((err as Error)?.name === 'Aborted' || (err as Error)?.constructor?.name === 'Aborted') throw err;
    const apiErr = new ApiError('internal', `An unexpected crash occurred when processing the task: ${(err as Error)?.stack ?? String(err)}`);
    result = { tasks: batch.tasks.map((t) => failed(t, apiErr)), indexUids: [] };
  }
  const finishedAt = nowMicros();
  const tasks: Task[] = result.tasks.map((t) => ({ ...t, batchUid: ctx.batchUid, startedAt: ctx.startedAt, finishedAt }));
  const enqueuedAts = tasks.map((t) => t.enqueuedAt);
  let record: Batch = {
    uid: ctx.batchUid,
    details: aggregateBatchDetails(tasks),
    stats: { ...batchStats(tasks), ...(result.embedderRequests ? { embedderRequests: result.embedderRequests } : {}) },
    startedAt: ctx.startedAt,
    finishedAt,
    batchStrategy: batch.batchStrategy,
    enqueuedAtRange: [Math.min(...enqueuedAts), Math.max(...enqueuedAts)],
  };
  const { queue } = ctx;
  queue.env.write(() => {
    trace.time('writing tasks to disk', () => {
      if (result.commit) trace.time('applying the batch changes', result.commit);
      trace.time('tasks', () => queue.putTasks(tasks));
    });
    // the trace ends here: the batch record holding it is the last write of the commit
    record = { ...record, stats: { ...record.stats, progressTrace: trace.view() } };
    queue.putBatch(record);
  });
  await queue.durable();
  for (const t of tasks) if (t.kind.kind === 'documentAddition') ctx.files.remove(t.kind.contentFile);
  await result.after?.();
  return { result, record };
}
