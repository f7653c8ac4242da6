// /tasks, /tasks/:taskUid, /tasks/cancel, DELETE /tasks, /batches, /batches/:batchUid
import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors/index.ts';
import { enqueuedDetails } from '../../api/tasks/details.ts';
import { parseBatchUid, parseTaskUid, parseTasksQuery } from '../../api/tasks/query.ts';
import { batchStats, batchView, summarizedTaskView, taskView } from '../../api/tasks/views.ts';
import { aggregateBatchDetails } from '../../api/tasks/details.ts';
import type { AuthContext } from '../../auth/index.ts';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { paginate } from '../../tasks/queue.ts';
import { formatBinarySize } from '../../api/format/time.ts';
import type { Processing } from '../../tasks/scheduler/index.ts';
import type { Batch, Task } from '../../tasks/types.ts';
import type { HttpContext } from '../context.ts';
import { query } from './indexes.ts';

function rawQueryString(req: FastifyRequest): string {
  const i = req.url.indexOf('?');
  return i === -1 ? '' : req.url.slice(i + 1);
}

export function registerTaskRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  const { queue, scheduler } = instance;

  /** Task uids the key may see: tasks of its indexes only, no global task (tasks.md §5). */
  const visible = (auth: AuthContext): Bitmap | null => {
    if (auth.allIndexes) return null;
    const parts: Bitmap[] = [];
    for (const name of queue.bitmaps.keys({ start: 'index:', end: 'index;' })) {
      if (auth.canSeeIndex(name.slice('index:'.length))) parts.push(queue.bitmap(name));
    }
    return Bitmap.orMany(parts);
  };
  const viewOf = (t: Task, p: Processing | null) => taskView(t, p && p.taskUids.has(t.uid) ? p : undefined);

  app.get('/tasks', { config: { auth: { action: 'tasks.get' } } }, async (req) => {
    const { filter, page } = parseTasksQuery(query(req), 'list');
    const processing = scheduler.processing();
    let set = queue.matchTasks(filter, processing);
    const total = set.size;
    const allowed = visible(req.auth);
    if (allowed) set = Bitmap.and(set, allowed);
    const { uids, next } = paginate(set, page);
    const results = uids.flatMap((uid) => {
      const t = queue.get(uid);
      return t ? [viewOf(t, processing)] : [];
    });
    return { results, total, limit: page.limit, from: uids.length > 0 ? uids[0] : null, next };
  });

  app.get('/tasks/:taskUid', { config: { auth: { action: 'tasks.get' } } }, async (req) => {
    const uid = parseTaskUid((req.params as { taskUid: string }).taskUid);
    const task = queue.get(uid);
    const allowed = visible(req.auth);
    if (!task || (allowed && !allowed.has(uid))) throw new ApiError('task_not_found', `Task \`${uid}\` not found.`);
    return viewOf(task, scheduler.processing());
  });

  app.post('/tasks/compact', { config: { auth: { action: 'tasks.compact' } } }, async () => {
    if (!instance.features.get().taskQueueCompactionRoute) {
      throw new ApiError(
        'feature_not_enabled',
        'Using the /tasks/compact route requires enabling the `task queue compaction route` experimental feature. See https://github.com/orgs/meilisearch/discussions/883',
      );
    }
    try {
      const { preBytes, postBytes } = await instance.compactTaskQueue();
      return { preSize: formatBinarySize(preBytes), postSize: formatBinarySize(postBytes), status: 'succeeded', actionRequired: 'you must restart your instance' };
    } catch (err) {
      if (err instanceof ApiError) throw err;
      return { status: 'failed', errorMessage: (err as Error)?.message ?? String(err) };
    }
  });

  app.get('/tasks/:taskUid/documents', { config: { auth: { action: 'tasks.get' } } }, async (req, reply) => {
    if (!instance.features.get().getTaskDocumentsRoute) {
      throw new ApiError(
        'feature_not_enabled',
        'Getting the documents of an enqueued task requires enabling the `get task documents route` experimental feature. See https://github.com/orgs/meilisearch/discussions/808',
      );
    }
    const uid = parseTaskUid((req.params as { taskUid: string }).taskUid);
    const task = queue.get(uid);
    const allowed = visible(req.auth);
    if (!task || (allowed && !allowed.has(uid))) throw new ApiError('task_not_found', `Task \`${uid}\` not found.`);
    const file = task.status === 'enqueued' && task.kind.kind === 'documentAddition' ? instance.files.path(task.kind.contentFile) : null;
    if (file === null || !fs.existsSync(file)) {
      throw new ApiError(
        'task_file_not_found',
        `Task \`${uid}\` does not contain any documents. Only \`documentAdditionOrUpdate\` tasks with the statuses \`enqueued\` or \`processing\` contain documents`,
      );
    }
    return reply.type('application/x-ndjson').send(fs.createReadStream(file));
  });

  const registerTaskManagement = async (req: FastifyRequest, mode: 'cancel' | 'delete') => {
    const raw = rawQueryString(req);
    const { filter, originalQuery } = parseTasksQuery(query(req), mode, raw);
    let matched = queue.matchTasks(filter, scheduler.processing());
    const allowed = visible(req.auth);
    if (allowed) matched = Bitmap.and(matched, allowed);
    const kind =
      mode === 'cancel'
        ? { kind: 'taskCancelation' as const, query: originalQuery ?? `?${raw}`, matched: matched.serialize('portable') }
        : { kind: 'taskDeletion' as const, query: originalQuery ?? `?${raw}`, matched: matched.serialize('portable') };
    const task = await instance.register({ indexUid: null, kind, details: enqueuedDetails(kind, { matchedTasks: matched.size }) });
    return summarizedTaskView(task);
  };

  app.post('/tasks/cancel', { config: { auth: { action: 'tasks.cancel' } } }, async (req) => registerTaskManagement(req, 'cancel'));
  app.delete('/tasks', { config: { auth: { action: 'tasks.delete' } } }, async (req) => registerTaskManagement(req, 'delete'));

  /** The batch in progress as a batch record (it has none on disk yet). */
  const processingBatch = (p: Processing): Batch => {
    const tasks = p.taskUids.toArray().flatMap((uid) => {
      const t = queue.get(uid);
      return t ? [{ ...t, status: 'processing' as const, batchUid: p.batchUid, startedAt: p.startedAt }] : [];
    });
    return {
      uid: p.batchUid,
      details: aggregateBatchDetails(tasks),
      stats: { ...batchStats(tasks, { processing: true }), progressTrace: p.trace },
      startedAt: p.startedAt,
      finishedAt: null,
      batchStrategy: p.batchStrategy,
    };
  };
  const batchOf = (uid: number, p: Processing | null) => {
    const b = queue.batch(uid);
    if (b) return batchView(b, null);
    if (p && p.batchUid === uid) return batchView(processingBatch(p), p.progress ?? { steps: [], percentage: 0 });
    return null;
  };

  app.get('/batches', { config: { auth: { action: 'tasks.get' } } }, async (req) => {
    const { filter, page } = parseTasksQuery(query(req), 'list');
    const processing = scheduler.processing();
    let set = queue.matchBatches(filter, processing);
    const total = set.size;
    if (!req.auth.allIndexes) {
      const allowed = visible(req.auth)!;
      set = new Bitmap(set.toArray().filter((b) => batchTaskUids(b, processing).intersects(allowed)));
    }
    const { uids, next } = paginate(set, page);
    const results = uids.flatMap((uid) => {
      const v = batchOf(uid, processing);
      return v ? [v] : [];
    });
    return { results, total, limit: page.limit, from: uids.length > 0 ? uids[0] : null, next };
  });

  const batchTaskUids = (uid: number, p: Processing | null): Bitmap => (p && p.batchUid === uid ? p.taskUids : queue.bitmap(`batch:${uid}`));

  app.get('/batches/:batchUid', { config: { auth: { action: 'tasks.get' } } }, async (req) => {
    const uid = parseBatchUid((req.params as { batchUid: string }).batchUid);
    const processing = scheduler.processing();
    const view = batchOf(uid, processing);
    const allowed = visible(req.auth);
    if (!view || (allowed && !batchTaskUids(uid, processing).intersects(allowed))) {
      throw new ApiError('batch_not_found', `Batch \`${uid}\` not found.`);
    }
    return view;
  });
}
