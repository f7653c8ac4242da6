// The `indexCompaction` batch (tasks.md §3, dumps-snapshots.md §6): the index's environment is
// copied with its free pages dropped into a new directory, which the task-queue commit maps the
// uid to; the old directory goes once that commit is durable. Readers on other threads finish on
// the old file and let it go at the batch's end, as after a swap. A crash before the commit leaves
// an unmapped copy that the next start removes; after it, the old directory is removed instead.
import fs from 'node:fs';
import path from 'node:path';
import { formatByteSize } from '../../api/format/time.ts';
import type { Task } from '../types.ts';
import { Aborted, failed, indexNotFound, succeeded, type BatchResult, type ProcessContext } from './context.ts';

export async function processIndexCompaction(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  const uid = task.indexUid!;
  const oldUuid = ctx.queue.indexUuid(uid);
  if (oldUuid === undefined) return { tasks: [failed(task, indexNotFound(uid))], indexUids: [] };
  const index = ctx.registry.byUuid(oldUuid);
  const pre = ctx.trace.time('retrieve the index', () => index.diskSizes().fileBytes);
  const target = ctx.registry.reserve();
  try {
    await ctx.trace.timeAsync('copy and compact the index', () => index.env.copyTo(target.dir, true));
    if (ctx.shouldAbort()) throw new Aborted();
  } catch (err) {
    fs.rmSync(target.dir, { recursive: true, force: true });
    throw err;
  }
  const post = fs.statSync(path.join(target.dir, 'data.mdb')).size;
  return {
    tasks: [succeeded(task, { preCompactionSize: formatByteSize(pre), postCompactionSize: formatByteSize(post) })],
    indexUids: [uid],
    commit: () => ctx.queue.setIndex(uid, target.uuid),
    after: () => ctx.registry.destroy(oldUuid),
  };
}
