// The log lines of requests, in the shape of Meilisearch's `HTTP request` tracing span (the server's
// logger, src/logger.ts, prints them in human or JSON form).
import type { FastifyRequest } from 'fastify';

type Fields = Record<string, string | number>;

/** A log line about one request. */
export interface HttpLogRecord {
  level: 'error' | 'warn' | 'info';
  target: string;
  message: string;
  fields?: Fields;
  span?: { name: string; fields: Fields };
}

/** The fields of Meilisearch's `HTTP request` span. */
export function requestSpan(req: FastifyRequest, status: number): { name: string; fields: Fields } {
  const question = req.url.indexOf('?');
  return {
    name: 'HTTP request',
    fields: {
      method: req.method,
      host: req.headers.host ?? '',
      route: question === -1 ? req.url : req.url.slice(0, question),
      query_parameters: question === -1 ? '' : req.url.slice(question + 1),
      user_agent: req.headers['user-agent'] ?? '',
      status_code: status,
    },
  };
}

/** A duration as tracing prints it: `717µs`, `1.55ms`, `2.03s`. */
export function formatElapsed(milliseconds: number): string {
  if (milliseconds < 1) return `${threeDigits(milliseconds * 1000)}µs`;
  if (milliseconds < 1000) return `${threeDigits(milliseconds)}ms`;
  return `${threeDigits(milliseconds / 1000)}s`;
}

function threeDigits(x: number): string {
  const text = x >= 100 ? String(Math.round(x)) : x.toPrecision(3);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
