// /, /health, /version, /stats, /experimental-features
import type { FastifyInstance } from 'fastify';
import { formatDate, formatHumanSize } from '../../api/format/time.ts';
import { indexStatsView, parseStatsQuery } from '../../api/indexes/index.ts';
import { checkFields, expectObject, typeError } from '../../api/validate/index.ts';
import { parseQueryString } from '../../api/validate/query.ts';
import { FEATURE_KEYS, type FeatureKey } from '../../tasks/features.ts';
import { API_VERSION } from '../../instance/index.ts';
import type { HttpContext } from '../context.ts';
import { ApiError } from '../../api/errors/index.ts';
import { readJson } from '../body.ts';
import { indexStats } from './indexes.ts';
import { DASHBOARD_CSP, DASHBOARD_HTML } from '../dashboard.ts';

/** `databaseSize` and `usedDatabaseSize` of GET /stats: every environment of the instance. */
export function databaseSizes(ctx: HttpContext): { databaseSize: number; usedDatabaseSize: number } {
  const { instance } = ctx;
  let databaseSize = 0;
  let usedDatabaseSize = 0;
  const envs = [instance.queue.env, instance.keys.env];
  for (const uid of instance.queue.indexUids()) {
    const index = instance.indexes.get(uid);
    if (index) envs.push(index.env);
  }
  for (const env of envs) {
    const s = env.sizes();
    databaseSize += s.fileBytes;
    usedDatabaseSize += s.usedBytes;
  }
  return { databaseSize, usedDatabaseSize };
}

export function registerServiceRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;

  // a browser gets the search dashboard in development (as Meilisearch's mini-dashboard); clients get JSON
  app.get('/', { config: { auth: { action: 'public' } } }, async (req, reply) => {
    if (!ctx.dashboard || !(req.headers.accept ?? '').includes('text/html')) return { status: 'Meilisearch is running' };
    return reply.type('text/html; charset=utf-8').header('content-security-policy', DASHBOARD_CSP).header('x-content-type-options', 'nosniff').send(DASHBOARD_HTML);
  });
  app.get('/health', { config: { auth: { action: 'public' } } }, async (_req, reply) => {
    if (!instance.mustRestart) return { status: 'available' };
    reply.code(500);
    return { status: 'mustRestart' };
  });

  app.get('/version', { config: { auth: { action: 'version' } } }, async () => ({
    commitSha: process.env.MUNINN_COMMIT_SHA ?? 'unknown',
    commitDate: process.env.MUNINN_COMMIT_DATE ?? 'unknown',
    pkgVersion: API_VERSION,
  }));

  app.get('/stats', { config: { auth: { action: 'stats.get' } } }, async (req) => {
    const opts = parseStatsQuery(parseQueryString(req.url.split('?')[1] ?? ''));
    const { databaseSize, usedDatabaseSize } = databaseSizes(ctx);
    const indexes: Record<string, unknown> = {};
    let lastUpdate: number | null = null;
    for (const uid of instance.queue.indexUids()) {
      const index = instance.indexes.get(uid);
      if (!index) continue;
      if (!req.auth.canSeeIndex(uid)) continue;
      const updatedAt = index.meta().updatedAt;
      if (lastUpdate === null || updatedAt > lastUpdate) lastUpdate = updatedAt;
      indexes[uid] = indexStatsView(indexStats(ctx, uid, index), opts);
    }
    const size = (n: number) => (opts.human ? formatHumanSize(n) : n);
    return {
      databaseSize: size(databaseSize),
      usedDatabaseSize: size(usedDatabaseSize),
      lastUpdate: lastUpdate === null ? null : formatDate(lastUpdate),
      indexes,
    };
  });

  // the key must reach every index: the global action's rule of the auth hook (auth-keys.md §6)
  app.get('/metrics', { config: { auth: { action: 'metrics.get' } } }, async (_req, reply) => {
    if (!instance.features.get().metrics) {
      throw new ApiError('feature_not_enabled', 'Getting metrics requires enabling the `metrics` experimental feature. See https://github.com/meilisearch/product/discussions/625');
    }
    reply.header('content-type', 'text/plain; version=0.0.4');
    return reply.send(await ctx.metrics.text());
  });

  app.get('/experimental-features', { config: { auth: { action: 'experimental.get' } } }, async () => instance.features.get());

  app.patch('/experimental-features', { config: { auth: { action: 'experimental.update' } } }, async (req) => {
    const body = expectObject(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    checkFields(body, { known: FEATURE_KEYS });
    const patch: Partial<Record<FeatureKey, boolean | null>> = {};
    for (const key of FEATURE_KEYS) {
      const v = body[key];
      if (v === undefined) continue;
      if (v !== null && typeof v !== 'boolean') throw typeError(`.${key}`, 'a boolean', v, 'bad_request');
      patch[key] = v;
    }
    instance.assertWritable();
    return instance.features.update(patch);
  });
}

