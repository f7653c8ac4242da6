// POST /dumps, POST /snapshots (dumps-snapshots.md §1, §5) and POST /export: a `dumpCreation` task
// holding the API keys as they are now, a `snapshotCreation` task (no details), whose bodies and query
// strings are ignored as Meilisearch ignores them; an `export` task from a validated body.
import type { FastifyInstance } from 'fastify';
import { enqueuedDetails } from '../../api/tasks/details.ts';
import { summarizedTaskView } from '../../api/tasks/views.ts';
import type { TaskKind } from '../../api/tasks/model.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { parseExport } from '../../api/export/index.ts';

export function registerBackupRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;

  app.post('/dumps', { config: { auth: { action: 'dumps.create' } } }, async (_req, reply) => {
    const kind: TaskKind = { kind: 'dumpCreation', keys: instance.keys.all(), instanceUid: instance.dataDir.instanceUid };
    const task = await instance.register({ indexUid: null, kind, details: enqueuedDetails(kind) });
    reply.code(202);
    return summarizedTaskView(task);
  });

  // 200, not 202: Meilisearch's answer to POST /export (tasks.md §1)
  app.post('/export', { config: { auth: { action: 'export' } } }, async (req) => {
    const request = parseExport(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    const kind: TaskKind = { kind: 'export', payload: { ...request } };
    const task = await instance.register({ indexUid: null, kind, details: enqueuedDetails(kind) });
    return summarizedTaskView(task);
  });

  app.post('/snapshots', { config: { auth: { action: 'snapshots.create' } } }, async (_req, reply) => {
    const task = await instance.register({ indexUid: null, kind: { kind: 'snapshotCreation' }, details: null });
    reply.code(202);
    return summarizedTaskView(task);
  });
}
