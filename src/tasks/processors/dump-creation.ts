// The `dumpCreation` batch (dumps-snapshots.md §1, §2): the keys captured at enqueue time, the
// experimental features, the task queue with the payloads of enqueued tasks, the batches, and each
// index's metadata, settings (secrets in clear) and documents with their embeddings. A cancelation
// interrupts it between two documents; nothing is left in the dump directory then.
import fs from 'node:fs';
import { DumpWriter, batchToDump, dumpUid, formatDate, taskToDump } from '../../dump/index.ts';
import { transferDocument } from '../../api/documents/browse.ts';
import { settingsView } from '../../api/settings/index.ts';
import { vectorsOf } from '../../api/vectors/retrieve.ts';
import { API_VERSION } from '../../api/version.ts';
import { nowMicros } from '../../engine/time.ts';
import { FeatureStore } from '../features.ts';
import { storedWebhooks } from '../webhooks.ts';
import { storedSettings } from '../index-settings.ts';
import type { Task } from '../types.ts';
import { Aborted, succeeded, type BatchResult, type ProcessContext } from './context.ts';

/** Meilisearch 1.50's `/network` when it was never configured. */
const DEFAULT_NETWORK = { self: null, remotes: {}, shards: {}, leader: null, version: '00000000-0000-0000-0000-000000000000' };
const CHECK_EVERY = 1024;

export async function processDumpCreation(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  const kind = task.kind;
  if (kind.kind !== 'dumpCreation') throw new Error('not a dump creation');
  const uid = dumpUid(ctx.startedAt);
  const writer = DumpWriter.create(ctx.dumpDir ?? 'dumps', uid);
  let n = 0;
  const checkAbort = () => {
    if (++n % CHECK_EVERY === 0 && ctx.shouldAbort()) throw new Aborted();
  };
  try {
    ctx.trace.time('writing metadata', () => {
      writer.writeMetadata({ dbVersion: API_VERSION, dumpDate: formatDate(nowMicros()) });
      writer.writeInstanceUid(kind.instanceUid ?? null);
      writer.writeKeys(kind.keys ?? []);
      writer.writeFeatures(new FeatureStore(ctx.queue, {}).get());
      writer.writeNetwork(DEFAULT_NETWORK);
      writer.writeWebhooks(storedWebhooks(ctx.queue));
    });

    ctx.trace.time('dumping the tasks', () => {
      const tasks = writer.tasks();
      const all = ctx.queue.bitmap('all').toArray();
      for (const [i, taskUid] of all.entries()) {
        checkAbort();
        ctx.progress('dumping the tasks', i, all.length);
        let t = ctx.queue.get(taskUid);
        if (t === undefined) continue;
        // the dump's own task is written as succeeded, so that it does not run again after an import
        if (t.uid === task.uid) t = { ...t, status: 'succeeded', startedAt: ctx.startedAt, finishedAt: nowMicros() };
        tasks.write(taskToDump(t));
        if (t.status === 'enqueued' && t.kind.kind === 'documentAddition') {
          const source = ctx.files.path(t.kind.contentFile);
          if (fs.existsSync(source)) writer.copyUpdateFile(t.uid, source);
        }
      }
      tasks.close();
      const batches = writer.batches();
      for (const [, batch] of ctx.queue.batches.entries()) {
        checkAbort();
        batches.write(batchToDump(batch));
      }
      batches.close();
    });

    const indexUids = ctx.queue.indexUids().sort();
    for (const indexUid of indexUids) {
      await ctx.trace.timeAsync(`dumping index \`${indexUid}\``, async () => {
        const index = ctx.registry.get(indexUid);
        if (index === undefined) return;
        const meta = index.meta();
        const settings = storedSettings(index);
        const docs = writer.index(
          { uid: indexUid, primaryKey: meta.primaryKey, createdAt: formatDate(meta.createdAt), updatedAt: formatDate(meta.updatedAt) },
          settingsView(settings, { revealSecrets: true, features: { foreignKeys: true, chatCompletions: true } }),
        );
        const vectors = vectorsOf(index, settings);
        const ids = index.usedIds().toArray();
        for (const [i, id] of ids.entries()) {
          checkAbort();
          if (i % CHECK_EVERY === 0) ctx.progress(`dumping index \`${indexUid}\``, i, ids.length);
          const doc = index.documentById(id);
          if (doc === undefined) continue;
          docs.write(transferDocument(doc, vectors(id)));
        }
        docs.close();
      });
    }
    await ctx.trace.timeAsync('writing the archive', () => writer.finish());
  } catch (err) {
    writer.abort();
    throw err;
  }
  return { tasks: [succeeded(task, { dumpUid: uid })], indexUids: [] };
}
