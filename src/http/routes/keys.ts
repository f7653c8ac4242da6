// /keys, /keys/:key
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { keyListView, keyView, parseCreateKey, parseListKeysQuery, parseUpdateKey } from '../../api/keys/index.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { query } from './indexes.ts';

export function registerKeyRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { keys } = ctx.instance;
  const keyParam = (req: FastifyRequest) => (req.params as { key: string }).key;

  app.post('/keys', { config: { auth: { action: 'keys.create', keysRoute: true } } }, async (req, reply) => {
    const input = parseCreateKey(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    const key = await keys.create(input);
    reply.code(201);
    return keyView(key, keys.keyValue(key.uid));
  });

  app.get('/keys', { config: { auth: { action: 'keys.get', keysRoute: true } } }, async (req) => {
    const q = parseListKeysQuery(query(req));
    return keyListView(keys.list(q.offset, q.limit), q, (uid) => keys.keyValue(uid));
  });

  app.get('/keys/:key', { config: { auth: { action: 'keys.get', keysRoute: true } } }, async (req) => {
    const key = keys.get(keyParam(req));
    return keyView(key, keys.keyValue(key.uid));
  });

  app.patch('/keys/:key', { config: { auth: { action: 'keys.update', keysRoute: true } } }, async (req) => {
    const body = await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });
    const key = await keys.update(keyParam(req), parseUpdateKey(body));
    return keyView(key, keys.keyValue(key.uid));
  });

  app.delete('/keys/:key', { config: { auth: { action: 'keys.delete', keysRoute: true } } }, async (req, reply) => {
    await keys.delete(keyParam(req));
    reply.code(204).send();
  });
}
