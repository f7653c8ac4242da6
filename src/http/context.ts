// What every route group is registered with, and the request fields the app adds. Routes import
// this, never app.ts (which imports them).
import type { SearchPool } from '../api/search/pool.ts';
import type { FastifyReply } from 'fastify';
import type { AuthContext } from '../auth/index.ts';
import type { Instance } from '../instance/index.ts';
import type { RouteAuth } from './auth-hook.ts';
import type { Metrics } from './metrics.ts';

export interface HttpContext {
  instance: Instance;
  /** the payload size limit in bytes, and as the error message prints it */
  payloadLimit: number;
  payloadLimitText: string;
  /** threads searches may run on besides this one (none: every search runs here) */
  searchPool: SearchPool | null;
  /** the Prometheus metrics of `GET /metrics` */
  metrics: Metrics;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    auth: AuthContext;
    /** the Content-Type header, kept aside by app.ts (read it through body.ts `contentTypeHeader`) */
    contentTypeHeader: string | undefined;
  }
}

/** Sends a body already serialised to JSON as it is, `content-type: application/json` (no charset, as Meilisearch). */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.header('content-type', 'application/json').serializer((s: unknown) => s as string).send(json);
}
