// /indexes/:indexUid/settings and its sub-routes (settings.md §2–§5)
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  parseSettingsPatch,
  parseSubRoute,
  resetAllPatch,
  resetPatch,
  settingsTaskDetails,
  settingsView,
  subSettingView,
  SUB_ROUTES,
  type SettingsFeatures,
  type SettingsPatch,
} from '../../api/settings/index.ts';
import { summarizedTaskView } from '../../api/tasks/views.ts';
import { storedSettings } from '../../tasks/index-settings.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';
import { indexParam, requireIndex } from './indexes.ts';

export function registerSettingsRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  const features = (): SettingsFeatures => instance.features.get();
  const read = { config: { auth: { action: 'settings.get', indexParam: 'indexUid' } } };
  const write = { config: { auth: { action: 'settings.update', indexParam: 'indexUid' } } };

  const enqueue = async (req: FastifyRequest, reply: FastifyReply, patch: SettingsPatch, isDeletion: boolean) => {
    const uid = indexParam(req);
    const task = await instance.register({
      indexUid: uid,
      kind: { kind: 'settingsUpdate', settings: patch as Record<string, unknown>, isDeletion, allowIndexCreation: !isDeletion && req.auth.canCreateIndex(uid) },
      details: settingsTaskDetails(patch),
    });
    reply.code(202);
    return summarizedTaskView(task);
  };
  const body = (req: FastifyRequest) => readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText });

  app.get('/indexes/:indexUid/settings', read, async (req) => {
    const uid = indexParam(req);
    return settingsView(storedSettings(requireIndex(ctx, uid)), { features: features() });
  });
  // the body is checked before the index uid (enqueue), as Meilisearch's extractors do
  app.patch('/indexes/:indexUid/settings', write, async (req, reply) => {
    return enqueue(req, reply, parseSettingsPatch(await body(req), { features: features() }), false);
  });
  app.delete('/indexes/:indexUid/settings', write, async (req, reply) => {
    indexParam(req);
    return enqueue(req, reply, resetAllPatch(), true);
  });

  for (const { route, setting, verb } of SUB_ROUTES) {
    const url = `/indexes/:indexUid/settings/${route}`;
    app.get(url, read, async (req) => {
      const uid = indexParam(req);
      return subSettingView(setting, storedSettings(requireIndex(ctx, uid)));
    });
    app.route({
      method: verb,
      url,
      ...write,
      handler: async (req, reply) => {
        return enqueue(req, reply, parseSubRoute(setting, await body(req), { features: features() }), false);
      },
    });
    app.delete(url, write, async (req, reply) => {
      indexParam(req);
      return enqueue(req, reply, resetPatch(setting), true);
    });
  }
}
