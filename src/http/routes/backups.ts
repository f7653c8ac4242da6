// POST /dumps and POST /snapshots (dumps-snapshots.md §1, §5): a `dumpCreation` task holding the API
// keys as they are now, a `snapshotCreation` task (no details); the body and the query string are
// ignored, as Meilisearch ignores them.
import type { FastifyInstance } from 'fastify';
import { enqueuedDetails } from '../../api/tasks/details.ts';
import { summarizedTaskView } from '../../api/tasks/views.ts';
import type { TaskKind } from '../../api/tasks/model.ts';
import type { HttpContext } from '../context.ts';

export function registerBackupRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;

  app.post('/dumps', { config: { auth: { action: 'dumps.create' } } }, async (_req, reply) => {
    const kind: TaskKind = { kind: 'dumpCreation', keys: instance.keys.all(), instanceUid: instance.dataDir.instanceUid };
    const task = await instance.register({ indexUid: null, kind, details: enqueuedDetails(kind) });
    reply.code(202);
    return summarizedTaskView(task);
  });

  app.post('/snapshots', { config: { auth: { action: 'snapshots.create' } } }, async (_req, reply) => {
    const task = await instance.register({ indexUid: null, kind: { kind: 'snapshotCreation' }, details: null });
    reply.code(202);
    return summarizedTaskView(task);
  });
}
