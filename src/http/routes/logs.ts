// /logs/stream and /logs/stderr (stats-health.md §7): behind the `logsRoute` feature and the
// `metrics.get` action. A stream is a chunked `application/octet-stream` answer of log lines (human
// or JSON), one at a time, until its reader leaves or `DELETE /logs/stream` ends it.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { logsFeatureNotEnabled, logsRouteInUse, parseLogStderrBody, parseLogStreamBody } from '../../api/logs/index.ts';
import type { HttpContext } from '../context.ts';
import { readJson } from '../body.ts';

/** Lines a slow reader may leave unread before newer ones are dropped. */
const MAX_BEHIND_BYTES = 16 * 1024 * 1024;

export function registerLogRoutes(app: FastifyInstance, ctx: HttpContext): void {
  const { instance } = ctx;
  const checkFeature = () => {
    if (!instance.features.get().logsRoute) throw logsFeatureNotEnabled();
  };
  const auth = { action: 'metrics.get' };

  app.post('/logs/stream', { compress: false, config: { auth } }, async (req, reply) => {
    checkFeature();
    const request = parseLogStreamBody(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    const out = new PassThrough();
    const stream = ctx.logs?.openStream(request, {
      write: (line) => {
        if (out.writableLength < MAX_BEHIND_BYTES) out.write(line);
      },
      end: () => out.end(),
    });
    if (stream === undefined || stream === null) throw logsRouteInUse();
    // the reader left: the route is free again
    const socket = reply.raw.socket;
    if (socket) open.add(socket);
    reply.raw.once('close', () => {
      stream.close();
      if (socket) open.delete(socket);
    });
    reply.header('content-type', 'application/octet-stream').header('x-accel-buffering', 'no');
    // Node sends the head with the first chunk; the reader should see the 200 before any line comes
    out.once('resume', () => setImmediate(() => reply.raw.writableEnded || reply.raw.flushHeaders()));
    return reply.send(out);
  });

  // a closing server ends the stream and drops its connection (an endless answer would hold the close)
  const open = new Set<import('node:net').Socket>();
  app.addHook('preClose', async () => {
    ctx.logs?.closeStream();
    for (const socket of open) socket.destroy();
  });

  app.delete('/logs/stream', { config: { auth } }, async (_req, reply) => {
    checkFeature();
    ctx.logs?.closeStream();
    reply.code(204).send();
  });

  app.post('/logs/stderr', { config: { auth } }, async (req, reply) => {
    checkFeature();
    const filter = parseLogStderrBody(await readJson(req, { limit: ctx.payloadLimit, limitText: ctx.payloadLimitText }));
    ctx.logs?.setStderrFilter(filter);
    reply.code(204).send();
  });
}
