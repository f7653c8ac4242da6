// What every route group is registered with, and the request fields the app adds. Routes import
// this, never app.ts (which imports them).
import type { SearchPool } from '../api/search/pool.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/index.ts';
import type { Instance } from '../instance/index.ts';
import type { RouteAuth } from './auth-hook.ts';
import type { Metrics } from './metrics.ts';
import type { LogFilter, LogStreamRequest } from '../api/logs/index.ts';
import type { SearchQueue, SearchTicket } from '../api/search/queue.ts';
import type { QueryEmbeddings } from './query-embedding.ts';

/** Where the lines of the log stream go. */
export interface LogSink {
  write(line: string): void;
  /** the stream ended (`DELETE /logs/stream`, or the reader left) */
  end(): void;
}

export interface LogStream {
  close(): void;
}

/** The server's logs as the /logs routes change them (implemented by the composition root's hub). */
export interface LogControl {
  wants(level: 'error' | 'warn' | 'info' | 'debug' | 'trace', target: string): boolean;
  setStderrFilter(filter: LogFilter): void;
  /** the one stream (null: one is open already) */
  openStream(request: LogStreamRequest, sink: LogSink): LogStream | null;
  closeStream(): void;
}

export interface HttpContext {
  instance: Instance;
  /** the payload size limit in bytes, and as the error message prints it */
  payloadLimit: number;
  payloadLimitText: string;
  /** threads searches may run on besides this one (none: every search runs here) */
  searchPool: SearchPool | null;
  /** the Prometheus metrics of `GET /metrics` */
  metrics: Metrics;
  /** the vectors of search texts, computed by embedders' servers */
  queryEmbeddings: QueryEmbeddings;
  /** `GET /` serves the search dashboard to browsers (`--env development`) */
  dashboard: boolean;
  /** searches in progress and waiting (`--experimental-search-queue-size` and its two options) */
  searchQueue: SearchQueue;
  /** the log filters and stream of the /logs routes (none: they answer as if no stream could open) */
  logs: LogControl | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** the route is a search: it goes through the search queue */
    searchQueue?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext;
    /** the Content-Type header, kept aside by app.ts (read it through body.ts `contentTypeHeader`) */
    contentTypeHeader: string | undefined;
    /** a search route's place in the search queue (null on other routes) */
    searchTicket: SearchTicket | null;
  }
}

/** Sends a body already serialised to JSON as it is, `content-type: application/json` (no charset, as Meilisearch). */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.header('content-type', 'application/json').serializer((s: unknown) => s as string).send(json);
}

/** Waits for the search's turn (after its parameters were checked); throws 503 when it was dropped. Returns the ms it waited. */
export async function searchTurn(ctx: HttpContext, req: FastifyRequest): Promise<number> {
  if (req.searchTicket === null) return 0;
  await ctx.searchQueue.ready(req.searchTicket);
  return req.searchTicket.waitedMs;
}
