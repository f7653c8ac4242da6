// Document operations on one index (additions, updates, deletions by id, clear, settings) and
// index deletions. A document batch is applied in steps (document-steps.ts), each task atomic.
import type { Index } from '../../engine/index/index.ts';
import type { Task } from '../types.ts';
import { applyInSteps } from './document-steps.ts';
import { planEmbeddings } from './embedding.ts';
import { failed, indexNotFound, succeeded, type BatchResult, type ProcessContext } from './context.ts';

/**
 * Processes a batch of document operations on `indexUid` (tasks in uid order). The result holds
 * every task, or, when a cancelation interrupted the batch after a committed step, the tasks
 * applied before it (the others stay enqueued).
 */
export async function processIndexOperation(indexUid: string, tasks: Task[], mayCreate: boolean, ctx: ProcessContext): Promise<BatchResult> {
  let index = ctx.registry.get(indexUid);
  let createdUuid: string | null = null;
  if (!index) {
    if (!mayCreate) {
      const err = indexNotFound(indexUid);
      return { tasks: tasks.map((t) => failed(t, err)), indexUids: [] };
    }
    const created = ctx.trace.time('creating the index', () => ctx.registry.create(null, ctx.startedAt));
    index = created.index;
    createdUuid = created.uuid;
  }

  try {
    return await applyBatch(index, indexUid, tasks, createdUuid, ctx);
  } catch (err) {
    // an interrupted batch must not leave the directory of an index it was creating
    if (createdUuid !== null) await ctx.registry.destroy(createdUuid);
    throw err;
  }
}

async function applyBatch(target: Index, indexUid: string, tasks: Task[], createdUuid: string | null, ctx: ProcessContext): Promise<BatchResult> {
  const plan = await ctx.trace.timeAsync('embedding documents', () => planEmbeddings(target, tasks, ctx));
  let outcomes;
  try {
    outcomes = await applyInSteps(target, tasks, plan === null ? ctx : { ...ctx, embedded: plan });
  } finally {
    plan?.cleanup();
  }
  const results = tasks.flatMap((task): Task[] => {
    const o = outcomes[task.uid];
    if (o === undefined) return [];
    return [{ ...task, status: o.ok ? 'succeeded' : 'failed', details: o.details, error: o.ok ? null : (o.error as Task['error']) }];
  });
  const uuid = createdUuid;
  return {
    tasks: results,
    indexUids: [indexUid],
    ...(plan !== null && plan.requests.total > 0 ? { embedderRequests: plan.requests } : {}),
    ...(uuid !== null ? { commit: () => ctx.queue.setIndex(indexUid, uuid) } : {}),
  };
}

/** Deletes an index with the tasks batched before its deletion (they succeed without being applied). */
export async function processIndexDeletion(indexUid: string, tasks: Task[], ctx: ProcessContext): Promise<BatchResult> {
  const uuid = ctx.queue.indexUuid(indexUid);
  if (uuid === undefined) {
    const err = indexNotFound(indexUid);
    return { tasks: tasks.map((t) => failed(t, err)), indexUids: [] };
  }
  // the index's directory is removed once the task queue commit is durable (`after`, not traced)
  const count = ctx.trace.time('counting documents', () => ctx.registry.byUuid(uuid).numberOfDocuments());
  const results = tasks.map((t) => (t.kind.kind === 'indexDeletion' ? succeeded(t, { deletedDocuments: count }) : succeeded(t)));
  return {
    tasks: results,
    indexUids: [indexUid],
    commit: () => ctx.queue.removeIndex(indexUid),
    after: () => ctx.registry.destroy(uuid),
  };
}
