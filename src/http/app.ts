// Builds the fastify application without listening (tests start it on an ephemeral port).
// Fastify's own body parsers are replaced by a pass-through: handlers read bodies after
// authentication, with Meilisearch's errors (see body.ts).
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Duplex } from 'node:stream';
import { ApiError, toApiError } from '../api/errors/index.ts';
import type { SearchPool } from '../api/search/pool.ts';
import type { Instance } from '../instance/index.ts';
import { authenticate } from './auth-hook.ts';
import type { HttpContext, LogControl } from './context.ts';
import { SearchQueue, type SearchQueueOptions } from '../api/search/queue.ts';
import { formatByteSize } from '../cli/index.ts';
import { databaseSizes, registerServiceRoutes } from './routes/service.ts';
import { Metrics } from './metrics.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerIndexRoutes } from './routes/indexes.ts';
import { registerDocumentRoutes } from './routes/documents.ts';
import { registerTaskRoutes } from './routes/tasks.ts';
import { registerSettingsRoutes } from './routes/settings.ts';
import { registerSearchRoutes } from './routes/search.ts';
import { registerMultiSearchRoutes } from './routes/multi-search.ts';
import { registerFacetSearchRoutes } from './routes/facet-search.ts';
import { registerBackupRoutes } from './routes/backups.ts';
import { registerWebhookRoutes } from './routes/webhooks.ts';
import { registerLogRoutes } from './routes/logs.ts';
import { registerRenderRoutes } from './routes/render.ts';
import { registerExperimentalRoutes } from './routes/experimental.ts';
import { collectRoutes, registerOpenApiRoute } from './openapi.ts';
import { QueryEmbeddings } from './query-embedding.ts';
import fastifyCompress from '@fastify/compress';
import os from 'node:os';
import zlib from 'node:zlib';
import type { HttpsSetup } from './tls.ts';
import { formatElapsed, requestSpan, type HttpLogRecord } from './request-log.ts';

export interface AppOptions {
  instance: Instance;
  /** bytes */
  payloadSizeLimit: number;
  /** serve HTTPS (see tls.ts `loadTls`) */
  https?: HttpsSetup;
  /** where request and error lines go (none: the app logs nothing) */
  log?: (record: HttpLogRecord) => void;
  /** one INFO line per request (default true with `log`; false spares the per-request hook) */
  logRequests?: boolean;
  /** the filters and the stream of the /logs routes (none: they cannot open a stream) */
  logs?: LogControl;
  /** `--experimental-embedding-cache-entries` */
  embeddingCacheEntries?: number;
  /** serve the search dashboard at `GET /` to browsers (`--env development`) */
  dashboard?: boolean;
  /** the search queue (default: Meilisearch's 1000 waiting, 4 per core in progress, dropped after 60 s) */
  searchQueue?: SearchQueueOptions;
  /** search threads beside the HTTP thread (none: searches run on it); the caller owns it */
  searchPool?: SearchPool;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    // Meilisearch (actix) takes request heads up to 128 KiB (a tenant token can be long); Node's
    // default is 16 KiB. Beyond it both answer 431 with an empty body (clientError below).
    ...(opts.https ? { https: { ...opts.https.serverOptions, maxHeaderSize: MAX_HEADER_BYTES } } : { http: { maxHeaderSize: MAX_HEADER_BYTES } }),
    clientErrorHandler: answerClientError,
    bodyLimit: opts.payloadSizeLimit,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 4096 },
  });
  const ctx: HttpContext = {
    instance: opts.instance,
    payloadLimit: opts.payloadSizeLimit,
    payloadLimitText: formatByteSize(opts.payloadSizeLimit),
    searchPool: opts.searchPool ?? null,
    metrics: null as unknown as Metrics,
    logs: opts.logs ?? null,
    dashboard: opts.dashboard ?? false,
    queryEmbeddings: new QueryEmbeddings({ allowed: opts.instance.options.allowedNetworks ?? [], cacheEntries: opts.embeddingCacheEntries ?? 0 }),
    searchQueue: new SearchQueue(opts.searchQueue ?? { capacity: 1000, permits: os.availableParallelism() * 4, dropAfterMs: 60_000 }),
  };
  ctx.metrics = new Metrics(opts.instance, () => databaseSizes(ctx), () => ctx.searchQueue);
  // every answered request is counted, by route pattern (Meilisearch counts with the feature off too)
  app.addHook('onResponse', async (req, reply) => {
    const pattern = req.routeOptions.url;
    if (req.method === 'OPTIONS') return;
    ctx.metrics.observe(req.method, pattern === undefined ? null : pattern, req.url.split('?')[0]!, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  app.decorateRequest('auth', null as unknown as never);
  app.decorateRequest('searchTicket', null);
  // a search holds its place from arrival until its answer is sent or its connection ends
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.searchQueue !== true) return;
    const ticket = ctx.searchQueue.arrive();
    req.searchTicket = ticket;
    reply.raw.once('close', () => ctx.searchQueue.leave(ticket));
  });
  app.decorateRequest('contentTypeHeader', undefined);

  app.addHook('onRequest', async (req, reply) => {
    // Fastify answers a Content-Type it cannot parse before any handler runs; Meilisearch
    // answers 415 for it, after routing, authentication and query checks. The header is kept
    // aside for the routes (body.ts `contentTypeHeader`) and hidden from fastify.
    const contentType = req.headers['content-type'];
    if (contentType !== undefined) {
      req.contentTypeHeader = contentType;
      delete req.headers['content-type'];
    }
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', '*');
    reply.header('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    const auth = req.routeOptions.config?.auth;
    if (auth) req.auth = authenticate(ctx.instance, req, auth);
  });

  if (opts.https) opts.https.install(app.server as unknown as import('node:tls').Server);
  const log = opts.log ?? (() => {});
  if (opts.log && opts.logRequests !== false) {
    const logs = opts.logs;
    app.addHook('onResponse', async (req, reply) => {
      if (logs !== undefined && !logs.wants('info', 'muninn::http')) return;
      log({ level: 'info', target: 'muninn::http', message: 'close', fields: { 'time.busy': formatElapsed(reply.elapsedTime) }, span: requestSpan(req, reply.statusCode) });
    });
  }
  app.setErrorHandler((err, req, reply) => sendError(log, err, req, reply));
  app.setNotFoundHandler((req, reply) => {
    // Meilisearch answers unknown routes with an empty 404, and known paths with another method with an empty 405.
    const path = req.url.split('?')[0]!.replace(/\/+$/, '') || '/';
    const known = routePatterns.some((r) => r.method !== req.method && r.regex.test(path));
    reply.code(known ? 405 : 404).send();
  });

  app.options('/*', async (req, reply) => {
    reply
      .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
      .header('access-control-allow-headers', String(req.headers['access-control-request-headers'] ?? '*'))
      .header('access-control-max-age', '86400')
      .code(204)
      .send();
  });

  // responses compressed as the client asks (br, gzip, deflate; every size), with the fast levels
  // actix's Compress middleware uses (gzip and deflate 1, brotli 3: a 2 MB answer in about 30 ms
  // rather than 55 at zlib's default); request bodies are decoded by body.ts, not by the plugin
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: 0,
    encodings: ['br', 'gzip', 'deflate'],
    zlibOptions: { level: 1 },
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } },
  });

  const routePatterns: { method: string; regex: RegExp; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' || route.method === 'HEAD') return;
    route.handler = answerJson(route.handler as Handler);
    const regex = new RegExp('^' + route.url.replace(/\/\*$/, '/.*').replace(/:[^/]+/g, '[^/]+') + '$');
    for (const m of Array.isArray(route.method) ? route.method : [route.method]) routePatterns.push({ method: m, regex, url: route.url });
  });

  const registered = collectRoutes(app);
  app.decorate('registeredRoutes', registered);
  registerOpenApiRoute(app, registered);
  registerServiceRoutes(app, ctx);
  registerKeyRoutes(app, ctx);
  registerIndexRoutes(app, ctx);
  registerDocumentRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
  registerSettingsRoutes(app, ctx);
  registerSearchRoutes(app, ctx);
  registerMultiSearchRoutes(app, ctx);
  registerFacetSearchRoutes(app, ctx);
  registerBackupRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerLogRoutes(app, ctx);
  registerRenderRoutes(app, ctx);
  registerExperimentalRoutes(app, ctx);
  registerShadowed405(app, routePatterns);
  await app.ready();
  return app;
}

/**
 * A literal path that a parametric route of another method would also match
 * (`GET /tasks/cancel` against `GET /tasks/:taskUid`, `DELETE /indexes/:indexUid/documents/fetch`
 * against `DELETE /indexes/:indexUid/documents/:documentId`) is its own resource in Meilisearch:
 * the other methods answer an empty 405, never the parametric route.
 */
function registerShadowed405(app: FastifyInstance, routes: readonly { method: string; regex: RegExp; url: string }[]): void {
  const literal = [...new Set(routes.filter((r) => !/(^|\/):[^/]+$/.test(r.url) && !r.url.endsWith('*')).map((r) => r.url))];
  for (const url of literal) {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      if (routes.some((r) => r.url === url && r.method === method)) continue;
      const shadowing = routes.some((r) => r.method === method && r.url !== url && /:[^/]+$/.test(r.url) && r.regex.test(url));
      if (shadowing) app.route({ method, url, config: { methodNotAllowed: true }, handler: (_req, reply) => reply.code(405).send() });
    }
  }
}

const MAX_HEADER_BYTES = 128 * 1024;

/** HTTP-level errors (before any route): a bodiless status, as actix answers them. */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

type Handler = (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Every value a handler returns is sent as JSON, with Meilisearch's exact `content-type:
 * application/json` (fastify would add `; charset=utf-8`, and would send a returned string as
 * `text/plain` without quotes: `byWord` for `GET /settings/proximity-precision`, which the
 * official clients cannot parse). A handler that answers otherwise (NDJSON, an empty 204) calls
 * `reply.send` itself.
 */
function answerJson(handler: Handler): Handler {
  return async function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
    const value = await handler.call(this, req, reply);
    if (value === undefined || value === reply || reply.sent) return value;
    return asJson(reply).send(value);
  };
}

/** The reply serialises whatever it is sent (a string too) with JSON.stringify, as `application/json`. */
function asJson(reply: FastifyReply): FastifyReply {
  return reply.header('content-type', 'application/json').serializer(JSON.stringify);
}

function sendError(log: (record: HttpLogRecord) => void, err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  let apiErr: ApiError;
  const fst = err as { code?: string; statusCode?: number; message?: string };
  if (err instanceof ApiError) apiErr = err;
  else if (fst?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') apiErr = new ApiError('payload_too_large', fst.message ?? 'payload too large');
  else if (typeof fst?.statusCode === 'number' && fst.statusCode < 500) apiErr = new ApiError('bad_request', fst.message ?? 'bad request');
  else apiErr = toApiError(err);
  if (apiErr.code === 'internal') {
    log({ level: 'error', target: 'muninn::http', message: `internal error: ${(err as Error)?.stack ?? String(err)}`, span: requestSpan(req, apiErr.status) });
  } else {
    log({ level: 'warn', target: 'muninn::http', message: `Error encountered while processing the incoming HTTP request: ${apiErr.code}: ${apiErr.message}`, span: requestSpan(req, apiErr.status) });
  }
  if (apiErr.status === 503) reply.header('retry-after', '10');
  asJson(reply.code(apiErr.status)).send(apiErr.toBody());
}
