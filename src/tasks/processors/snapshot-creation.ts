// The `snapshotCreation` batch (dumps-snapshots.md §5): every enqueued snapshot task together makes
// one file, `<snapshot-dir>/<db dir name>.snapshot`, a gzip tar of the database: VERSION,
// muninn-version, instance-uid, compacted copies of the task queue (without the snapshot tasks, so that they do not
// run again after a restore), of the keys and of every index, and the payloads of enqueued tasks.
// LMDB copies are consistent while the HTTP thread keeps registering tasks and keys. The file is
// replaced atomically and made read-only.
import fs from 'node:fs';
import path from 'node:path';
import { packDirectory, removeStaleStaging } from '../../dump/index.ts';
import { Env } from '../../engine/store/index.ts';
import { TaskQueue } from '../queue.ts';
import type { Task } from '../types.ts';
import { Aborted, succeeded, type BatchResult, type ProcessContext } from './context.ts';

/** Options of the auth environment (auth/key-store.ts opens it the same way). */
const AUTH_ENV = { maxTables: 4 };

export async function processSnapshotCreation(tasks: Task[], ctx: ProcessContext): Promise<BatchResult> {
  const dataDir = path.resolve(ctx.dataDir ?? '.');
  const dir = path.resolve(ctx.snapshotDir ?? 'snapshots');
  const name = `${path.basename(dataDir)}.snapshot`;
  fs.mkdirSync(dir, { recursive: true });
  removeStaleStaging(dir);
  const staging = path.join(dir, `.tmp-${name}-files`);
  const check = () => {
    if (ctx.shouldAbort()) throw new Aborted();
  };
  try {
    for (const sub of ['tasks', 'auth', 'indexes', 'update_files']) fs.mkdirSync(path.join(staging, sub), { recursive: true });
    for (const file of ['VERSION', 'muninn-version', 'instance-uid']) {
      const source = path.join(dataDir, file);
      if (fs.existsSync(source)) fs.copyFileSync(source, path.join(staging, file));
    }

    await ctx.trace.timeAsync('copying the task queue', async () => {
      await ctx.queue.env.copyTo(path.join(staging, 'tasks'), true);
      const copy = TaskQueue.open(path.join(staging, 'tasks'));
      copy.env.write(() => copy.deleteTasks(tasks.map((t) => t.uid)));
      await copy.close();
      fs.rmSync(path.join(staging, 'tasks', 'lock.mdb'), { force: true });
    });
    check();

    await ctx.trace.timeAsync('copying the API keys', async () => {
      const auth = Env.open(path.join(dataDir, 'auth'), AUTH_ENV);
      try {
        await auth.copyTo(path.join(staging, 'auth'), true);
      } finally {
        await auth.close();
      }
    });

    const uids = ctx.queue.indexUids();
    for (const [i, uid] of uids.entries()) {
      check();
      ctx.progress('copying the indexes', i, uids.length);
      const uuid = ctx.queue.indexUuid(uid);
      if (uuid === undefined) continue;
      await ctx.trace.timeAsync(`copying index \`${uid}\``, () => ctx.registry.byUuid(uuid).env.copyTo(path.join(staging, 'indexes', uuid), true));
    }

    ctx.trace.time('copying the update files', () => {
      for (const t of ctx.queue.enqueued()) {
        if (t.kind.kind !== 'documentAddition') continue;
        const source = ctx.files.path(t.kind.contentFile);
        if (fs.existsSync(source)) fs.copyFileSync(source, path.join(staging, 'update_files', t.kind.contentFile));
      }
    });
    check();

    await ctx.trace.timeAsync('writing the archive', () => packDirectory(staging, path.join(dir, name), { mode: 0o444 }));
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return { tasks: tasks.map((t) => succeeded(t, null)), indexUids: [] };
}
