// Task cancelation and task deletion batches (tasks.md §8, §9).
import { Bitmap, bitmapFrom } from '../../engine/bitmap/index.ts';
import type { Task } from '../types.ts';
import { failedDetails } from '../details.ts';
import { succeeded, type BatchResult, type ProcessContext } from './context.ts';
import path from 'node:path';
import { writeAtomically } from '../../engine/files.ts';
import { STORAGE_VERSION } from '../../engine/version.ts';
import { storageVersionOf } from './upgrade.ts';

/** Cancels the matched tasks that are still enqueued; they join the cancelation's batch. */
export async function processCancelation(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  const kind = task.kind;
  if (kind.kind !== 'taskCancelation') throw new Error('not a task cancelation');
  const q = ctx.queue;
  const targets = ctx.trace.time('retrieving tasks', () => {
    const matched = Bitmap.and(bitmapFrom(kind.matched), q.bitmap('status:enqueued'));
    // canceling an upgrade cancels every enqueued or failed one (upgrade.md §3)
    const upgrades = Bitmap.and(q.bitmap('type:upgradeDatabase'), Bitmap.orMany([q.bitmap('status:enqueued'), q.bitmap('status:failed')]));
    if (Bitmap.and(bitmapFrom(kind.matched), upgrades).size > 0) matched.orInPlace(upgrades);
    matched.remove(task.uid);
    return matched.toArray().flatMap((uid) => q.get(uid) ?? []);
  });
  const canceled: Task[] = [];
  const indexUids = new Set<string>();
  ctx.trace.time('updating tasks', () => {
    for (const t of targets) {
      canceled.push({
        ...t,
        status: 'canceled',
        canceledBy: task.uid,
        details: t.details === null ? null : failedDetails(t.details),
        error: null,
      });
      if (t.indexUid !== null) indexUids.add(t.indexUid);
    }
  });
  const files = canceled.flatMap((t) => (t.kind.kind === 'documentAddition' ? [t.kind.contentFile] : []));
  const done = succeeded(task, { ...task.details, canceledTasks: canceled.length });
  const rollback = rollbackTarget(canceled, ctx);
  return {
    tasks: [done, ...canceled],
    indexUids: [...indexUids],
    // the indexes were never touched (upgrade.ts): the instance's format record goes back before the
    // cancelation is committed (a crash in between leaves the upgrade pending on a 0.1.0 record,
    // which the next start with --upgrade-db resumes)
    ...(rollback !== null && ctx.dataDir !== undefined ? { commit: () => writeAtomically(path.join(ctx.dataDir!, 'muninn-version'), rollback) } : {}),
    after: async () => {
      for (const f of files) ctx.files.remove(f);
    },
  };
}

/**
 * The format to roll the instance back to when this cancelation stops an upgrade that has not
 * committed: the `from` of the latest canceled upgrade, or null.
 */
function rollbackTarget(canceled: Task[], ctx: ProcessContext): string | null {
  if (storageVersionOf(ctx.queue) === STORAGE_VERSION) return null;
  const upgrades = canceled.filter((t) => t.kind.kind === 'upgradeDatabase');
  const latest = upgrades[upgrades.length - 1]?.kind;
  return latest?.kind === 'upgradeDatabase' ? latest.from.join('.') : null;
}

/** Deletes the matched finished tasks; each is counted for the first deletion task that matched it. */
export async function processDeletions(tasks: Task[], ctx: ProcessContext): Promise<BatchResult> {
  const toDelete = new Bitmap();
  const results: Task[] = [];
  ctx.trace.time('matching tasks', () => {
    const finished = Bitmap.orMany([ctx.queue.bitmap('status:succeeded'), ctx.queue.bitmap('status:failed'), ctx.queue.bitmap('status:canceled')]);
    for (const task of tasks) {
      if (task.kind.kind !== 'taskDeletion') throw new Error('not a task deletion');
      const mine = Bitmap.and(bitmapFrom(task.kind.matched), finished);
      mine.andNotInPlace(toDelete);
      toDelete.orInPlace(mine);
      results.push(succeeded(task, { ...task.details, deletedTasks: mine.size }));
    }
  });
  const batchesTouched = new Set<number>();
  const files: string[] = [];
  ctx.trace.time('retrieving tasks', () => {
    for (const uid of toDelete) {
      const t = ctx.queue.get(uid);
      if (t?.batchUid !== null && t?.batchUid !== undefined) batchesTouched.add(t.batchUid);
      if (t?.kind.kind === 'documentAddition') files.push(t.kind.contentFile);
    }
  });
  return {
    tasks: results,
    indexUids: [],
    commit: () => {
      ctx.queue.deleteTasks(toDelete);
      for (const b of batchesTouched) if (ctx.queue.bitmap(`batch:${b}`).size === 0) ctx.queue.removeBatch(b);
    },
    after: async () => {
      for (const f of files) ctx.files.remove(f);
    },
  };
}
