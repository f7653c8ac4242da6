// /webhooks, /webhooks/:uuid (tasks.md §13; shapes and errors as Meilisearch 1.50 answers them).
// Synchronous: a change is on disk before the answer, and no task is registered.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWebhookBody, parseWebhookUuid, webhookView } from '../../api/webhooks/index.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';

export function registerWebhookRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  const uuidOf = (req: FastifyRequest) => parseWebhookUuid((req.params as { uuid: string }).uuid);
  const body = (req: FastifyRequest) => readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });

  app.get('/webhooks', { config: { auth: { action: 'webhooks.get' } } }, async () => ({
    results: instance.webhooks.list().map(webhookView),
  }));

  app.post('/webhooks', { config: { auth: { action: 'webhooks.create' } } }, async (req, reply) => {
    instance.assertWritable();
    const webhook = await instance.webhooks.create(parseWebhookBody(await body(req)));
    reply.code(201);
    return webhookView(webhook);
  });

  app.get('/webhooks/:uuid', { config: { auth: { action: 'webhooks.get' } } }, async (req) => webhookView(instance.webhooks.get(uuidOf(req))));

  app.patch('/webhooks/:uuid', { config: { auth: { action: 'webhooks.update' } } }, async (req) => {
    instance.assertWritable();
    const uuid = uuidOf(req);
    return webhookView(await instance.webhooks.update(uuid, parseWebhookBody(await body(req))));
  });

  app.delete('/webhooks/:uuid', { config: { auth: { action: 'webhooks.delete' } } }, async (req, reply) => {
    instance.assertWritable();
    await instance.webhooks.delete(uuidOf(req));
    reply.code(204).send();
  });
}
