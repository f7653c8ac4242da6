// The `upgradeDatabase` batch (upgrade.md §3, decision 0011): every index in an older storage format
// is copied into a new directory and the copy is migrated (search tables rebuilt when their layout is
// older, vectors moved from the documents into the vector store, the format recorded); the task-queue
// commit then maps every index to its copy and records the queue's new format at once. Until that
// commit the database is untouched: an interrupted, failed or canceled upgrade leaves every index as
// the previous release wrote it (canceling then rolls the instance's format back, task-management.ts).
import fs from 'node:fs';
import { ApiError } from '../../api/errors/index.ts';
import { embedderConfigs } from '../../api/settings/index.ts';
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import type { Index } from '../../engine/index/index.ts';
import { STORAGE_VERSION, UNVERSIONED } from '../../engine/version.ts';
import type { TaskQueue } from '../queue.ts';
import { searchConfig, storedSettings } from '../index-settings.ts';
import type { Task } from '../types.ts';
import { Aborted, failed, succeeded, type BatchResult, type ProcessContext } from './context.ts';

/** The storage format the task queue records (`0.1.0` when none). */
export function storageVersionOf(queue: TaskQueue): string {
  const v = queue.meta.get('storageVersion');
  return typeof v === 'string' ? v : UNVERSIONED;
}

/**
 * Brings one index to this release's format, in place: search tables in an older layout are rebuilt
 * from the documents (decisions 0006, 0007), `_vectors` of configured embedders move into the vector
 * store (0010). Returns whether anything but the format record changed.
 */
export function migrateIndex(index: Index): boolean {
  const settings = storedSettings(index);
  const vectors = embedderConfigs(settings.embedders);
  const rebuild = !index.searchLayoutCurrent() || (index.getMain('embedderIds') === undefined && vectors.length > 0);
  index.env.write(() => {
    if (rebuild) {
      // search and vectors only: the facet tables are left to the next batch's own check
      const writer = new DocumentsWriter(index, searchConfig(settings), { vectors });
      writer.indexSearchIfMissing();
      writer.indexVectorsIfMissing();
      writer.save(index.meta().updatedAt);
    }
    index.setMain('storageVersion', STORAGE_VERSION);
  });
  return rebuild;
}

/** A fault to inject in tests (`MUNINN_FAILPOINT=upgrade-index:<uid>`): the upgrade of that index throws. */
function failpoint(uid: string): void {
  if (process.env.MUNINN_FAILPOINT === `upgrade-index:${uid}`) throw new Error(`failpoint upgrade-index:${uid}`);
}

export async function processUpgrade(tasks: Task[], ctx: ProcessContext): Promise<BatchResult> {
  const copies: { uid: string; oldUuid: string; uuid: string; dir: string }[] = [];
  const drop = () => {
    for (const c of copies) {
      void ctx.registry.forget(c.uuid);
      fs.rmSync(c.dir, { recursive: true, force: true });
    }
  };
  const uids = ctx.queue.indexUids();
  let current = '';
  try {
    for (const [i, uid] of uids.entries()) {
      current = uid;
      ctx.progress(`Upgrading index \`${uid}\``, i, uids.length);
      const oldUuid = ctx.queue.indexUuid(uid);
      if (oldUuid === undefined) continue;
      const index = ctx.registry.byUuid(oldUuid);
      if (index.storageVersion() === STORAGE_VERSION) continue;
      const target = ctx.registry.reserve();
      copies.push({ uid, oldUuid, ...target });
      await ctx.trace.timeAsync(`Upgrading index \`${uid}\``, async () => {
        await index.env.copyTo(target.dir, true);
        const copy = ctx.registry.byUuid(target.uuid);
        failpoint(uid);
        migrateIndex(copy);
        await copy.env.flushed();
      });
      if (ctx.shouldAbort()) throw new Aborted();
    }
  } catch (err) {
    drop();
    if (err instanceof Aborted) throw err;
    const error = new ApiError('internal', `Failed to upgrade index \`${current}\`: ${(err as Error)?.message ?? String(err)}`);
    return { tasks: tasks.map((t) => failed(t, error)), indexUids: [], halt: true };
  }
  return {
    // a retried upgrade that succeeds has its earlier error cleared
    tasks: tasks.map((t) => succeeded(t)),
    indexUids: copies.map((c) => c.uid),
    commit: () => {
      for (const c of copies) ctx.queue.setIndex(c.uid, c.uuid);
      ctx.queue.meta.put('storageVersion', STORAGE_VERSION);
    },
    after: async () => {
      for (const c of copies) await ctx.registry.destroy(c.oldUuid);
    },
  };
}
