// Index creation, update (primary key, rename) and swap. Their effect on the uid → uuid
// mapping and on the index uid of past tasks is written in the task-queue commit, so a
// crash leaves either the old or the new state.
import { ApiError } from '../../api/errors/index.ts';
import { EngineError } from '../../engine/errors.ts';
import type { IndexSwap, Task } from '../types.ts';
import { failed, indexNotFound, succeeded, type BatchResult, type ProcessContext } from './context.ts';
import type { TaskQueue } from '../queue.ts';

export async function processIndexCreation(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  const uid = task.indexUid!;
  if (task.kind.kind !== 'indexCreation') throw new Error('not an index creation');
  if (ctx.registry.exists(uid)) {
    return { tasks: [failed(task, new ApiError('index_already_exists', `Index \`${uid}\` already exists.`))], indexUids: [] };
  }
  const primaryKey = task.kind.primaryKey;
  const { uuid, index } = ctx.trace.time('creating the index', () => ctx.registry.create(primaryKey, ctx.startedAt));
  await ctx.trace.timeAsync('waiting for the disk', () => index.env.flushed());
  return { tasks: [succeeded(task)], indexUids: [uid], commit: () => ctx.queue.setIndex(uid, uuid) };
}

export async function processIndexUpdate(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  const uid = task.indexUid!;
  const kind = task.kind;
  if (kind.kind !== 'indexUpdate') throw new Error('not an index update');
  const uuid = ctx.queue.indexUuid(uid);
  if (uuid === undefined) return { tasks: [failed(task, indexNotFound(uid))], indexUids: [] };
  const renameTo = kind.newIndexUid !== null && kind.newIndexUid !== uid ? kind.newIndexUid : null;
  if (renameTo !== null && ctx.registry.exists(renameTo)) {
    return { tasks: [failed(task, new ApiError('index_already_exists', `Index \`${renameTo}\` already exists.`))], indexUids: [] };
  }
  const index = ctx.registry.byUuid(uuid);
  try {
    ctx.trace.time('updating the index', () =>
      index.env.write(() => {
        const meta = index.meta();
        let primaryKey = meta.primaryKey;
        if (kind.primaryKey !== null && kind.primaryKey !== meta.primaryKey) {
          if (index.numberOfDocuments() > 0 && meta.primaryKey !== null) {
            throw new EngineError('index_primary_key_already_exists', `Index already has a primary key: \`${meta.primaryKey}\`.`);
          }
          primaryKey = kind.primaryKey;
        }
        index.setMain('meta', { ...meta, primaryKey, updatedAt: ctx.startedAt });
        index.setMain('generation', index.generation() + 1);
      }),
    );
  } catch (err) {
    return { tasks: [failed(task, err)], indexUids: [] };
  }
  await ctx.trace.timeAsync('waiting for the disk', () => index.env.flushed());
  const result = succeeded(task);
  if (renameTo === null) return { tasks: [result], indexUids: [uid] };
  return {
    // the update task itself keeps the old uid (tasks.md §3); the rest of the history moves
    tasks: [result],
    indexUids: [uid, renameTo],
    commit: () => {
      ctx.queue.removeIndex(uid);
      ctx.queue.setIndex(renameTo, uuid);
      renameInTasks(ctx.queue, new Map([[uid, renameTo]]));
    },
  };
}

export async function processIndexSwap(task: Task, ctx: ProcessContext): Promise<BatchResult> {
  if (task.kind.kind !== 'indexSwap') throw new Error('not an index swap');
  const swaps = task.kind.swaps;
  const err = checkSwaps(swaps, ctx);
  if (err) return { tasks: [failed(task, err)], indexUids: [] };
  const renames = new Map<string, string>();
  for (const { indexes: [a, b], rename } of swaps) {
    renames.set(a, b);
    if (!rename) renames.set(b, a);
  }
  const now = ctx.startedAt;
  for (const uid of renames.keys()) {
    const index = ctx.registry.get(uid)!;
    ctx.trace.time('updating the indexes', () => index.env.write(() => index.setMain('meta', { ...index.meta(), updatedAt: now })));
    await ctx.trace.timeAsync('waiting for the disk', () => index.env.flushed());
  }
  return {
    tasks: [succeeded(task)],
    indexUids: [...renames.keys(), ...renames.values()],
    commit: () => {
      const uuids = new Map([...renames.keys()].map((uid) => [uid, ctx.queue.indexUuid(uid)!]));
      for (const uid of renames.keys()) ctx.queue.removeIndex(uid);
      for (const [from, to] of renames) ctx.queue.setIndex(to, uuids.get(from)!);
      renameInTasks(ctx.queue, renames);
    },
  };
}

function checkSwaps(swaps: IndexSwap[], ctx: ProcessContext): ApiError | null {
  const missing: string[] = [];
  for (const { indexes, rename } of swaps) {
    if (!ctx.registry.exists(indexes[0]) && !missing.includes(indexes[0])) missing.push(indexes[0]);
    if (!rename && !ctx.registry.exists(indexes[1]) && !missing.includes(indexes[1])) missing.push(indexes[1]);
  }
  if (missing.length === 1) return indexNotFound(missing[0]!);
  if (missing.length > 1) return new ApiError('index_not_found', `Indexes ${missing.map((m) => `\`${m}\``).join(', ')} not found.`);
  const conflicts = swaps.filter((s) => s.rename && ctx.registry.exists(s.indexes[1])).map((s) => s.indexes);
  if (conflicts.length === 1) {
    const [a, b] = conflicts[0]!;
    return new ApiError(
      'index_already_exists',
      `Cannot rename \`${a}\` to \`${b}\` as the index already exists. Hint: You can remove \`${b}\` first and then do your remove.`,
    );
  }
  if (conflicts.length > 1) {
    return new ApiError(
      'index_already_exists',
      `The following indexes are being renamed but cannot because their new name conflicts with an already existing index: ${conflicts.map(([, b]) => `\`${b}\``).join(', ')}. Renaming doesn't overwrite the other index name.`,
    );
  }
  return null;
}

/** Rewrites the index uid of every past task (swaps and renames rewrite history). */
function renameInTasks(queue: TaskQueue, renames: Map<string, string>): void {
  const changed: Task[] = [];
  for (const [from, to] of renames) {
    for (const uid of queue.bitmap(`index:${from}`)) {
      const t = queue.get(uid);
      if (t) changed.push({ ...t, indexUid: to });
    }
  }
  queue.putTasks(changed);
}
