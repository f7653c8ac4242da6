// /indexes, /indexes/:indexUid, /indexes/:indexUid/stats, /swap-indexes
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors/index.ts';
import {
  indexStatsView,
  indexView,
  parseCreateIndex,
  parseListIndexesQuery,
  parseStatsQuery,
  parseSwaps,
  pathIndexUid,
  type IndexStatsInput,
} from '../../api/indexes/index.ts';
import { enqueuedDetails } from '../../api/tasks/details.ts';
import { summarizedTaskView } from '../../api/tasks/views.ts';
import { parseQueryString, type RawQuery } from '../../api/validate/query.ts';
import type { Index } from '../../engine/index/index.ts';
import type { TaskKind } from '../../tasks/types.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { parseUpdateIndex } from '../../api/indexes/index.ts';
import { fieldsPage, parseFieldsQuery } from '../../api/indexes/fields.ts';
import { storedSettings } from '../../tasks/index-settings.ts';

export function query(req: FastifyRequest): RawQuery {
  const i = req.url.indexOf('?');
  return parseQueryString(i === -1 ? '' : req.url.slice(i + 1));
}

export function indexParam(req: FastifyRequest): string {
  return pathIndexUid((req.params as { indexUid: string }).indexUid);
}

import { indexNotFound } from '../../api/indexes/index.ts';

export { indexNotFound };

/** The index of a path uid or a 404. */
export function requireIndex(ctx: HttpContext, uid: string): Index {
  const index = ctx.instance.indexes.get(uid);
  if (!index) throw indexNotFound(uid);
  return index;
}

export function indexStats(ctx: HttpContext, uid: string, index: Index): IndexStatsInput {
  return { ...index.stats(), isIndexing: ctx.instance.isIndexing(uid) };
}

export function registerIndexRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  const json = (req: FastifyRequest) => readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
  const enqueue = async (indexUid: string | null, kind: TaskKind, extra: { indexUid?: string } = {}) => {
    const details = enqueuedDetails(kind, { ...(indexUid !== null ? { indexUid } : {}), ...extra });
    const task = await instance.register({ indexUid, kind, details });
    return summarizedTaskView(task);
  };

  app.get('/indexes', { config: { auth: { action: 'indexes.get' } } }, async (req) => {
    const { offset, limit } = parseListIndexesQuery(query(req));
    const uids = instance.queue.indexUids().filter((uid) => req.auth.canSeeIndex(uid));
    const results = uids.slice(offset, offset + limit).flatMap((uid) => {
      const index = instance.indexes.get(uid);
      return index ? [indexView(uid, index.meta())] : [];
    });
    return { results, offset, limit, total: uids.length };
  });

  app.post('/indexes', { config: { auth: { action: 'indexes.create' } } }, async (req, reply) => {
    const { uid, primaryKey } = parseCreateIndex(await json(req));
    if (!req.auth.canSeeIndex(uid)) throw new ApiError('invalid_api_key', 'The provided API key is invalid.');
    reply.code(202);
    return enqueue(uid, { kind: 'indexCreation', primaryKey });
  });

  app.get('/indexes/:indexUid', { config: { auth: { action: 'indexes.get', indexParam: 'indexUid' } } }, async (req) => {
    const uid = indexParam(req);
    return indexView(uid, requireIndex(ctx, uid).meta());
  });

  app.patch('/indexes/:indexUid', { config: { auth: { action: 'indexes.update', indexParam: 'indexUid' } } }, async (req, reply) => {
    const { primaryKey, uid: newUid } = parseUpdateIndex(await json(req));
    const uid = indexParam(req);
    reply.code(202);
    return enqueue(uid, { kind: 'indexUpdate', primaryKey, newIndexUid: newUid }, { indexUid: uid });
  });

  app.delete('/indexes/:indexUid', { config: { auth: { action: 'indexes.delete', indexParam: 'indexUid' } } }, async (req, reply) => {
    const uid = indexParam(req);
    reply.code(202);
    return enqueue(uid, { kind: 'indexDeletion' });
  });

  app.post('/indexes/:indexUid/compact', { config: { auth: { action: 'indexes.compact', indexParam: 'indexUid' } } }, async (req, reply) => {
    const uid = indexParam(req);
    reply.code(202);
    return enqueue(uid, { kind: 'indexCompaction' });
  });

  app.get('/indexes/:indexUid/stats', { config: { auth: { action: 'stats.get', indexParam: 'indexUid' } } }, async (req) => {
    const uid = indexParam(req);
    const opts = parseStatsQuery(query(req));
    const index = requireIndex(ctx, uid);
    return indexStatsView(indexStats(ctx, uid, index), opts);
  });

  app.post('/indexes/:indexUid/fields', { config: { auth: { action: 'fields.post', indexParam: 'indexUid' } } }, async (req) => {
    const q = parseFieldsQuery(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    const uid = indexParam(req);
    const index = requireIndex(ctx, uid);
    return fieldsPage(index.fieldsOrder(), storedSettings(index), q);
  });

  app.post('/swap-indexes', { config: { auth: { action: 'indexes.swap' } } }, async (req, reply) => {
    const swaps = parseSwaps(await json(req));
    for (const s of swaps) {
      for (const uid of s.indexes) {
        if (!req.auth.canSeeIndex(uid)) throw new ApiError('invalid_api_key', 'The provided API key is invalid.');
      }
    }
    reply.code(202);
    return enqueue(null, { kind: 'indexSwap', swaps });
  });
}
