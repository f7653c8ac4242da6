// HTTP client used through WorkloadContext. It uses node:http with a keep-alive agent rather
// than fetch: on 2 MB bodies undici's fetch added 5-7 ms at p50 and 25-105 ms at p99 of
// client-side time against a do-nothing server (node:http: ~1.5 ms / 7-13 ms), which would
// swamp the enqueue-latency figures.
import http from 'node:http';
import type { HttpResult, TaskJson } from '../workloads/types.ts';
import { nowMs } from './stats.ts';

export type Request = <T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpResult<T>>;

export function makeRequest(baseUrl: string, apiKey: string): Request {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  return function request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
    const h: Record<string, string | number> = { Authorization: `Bearer ${apiKey}`, ...headers };
    let payload: string | Uint8Array | undefined;
    if (body === undefined) payload = undefined;
    else if (typeof body === 'string' || body instanceof Uint8Array) payload = body;
    else {
      payload = JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    if (payload !== undefined) h['Content-Length'] = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength;
    return new Promise((resolve, reject) => {
      const t0 = nowMs();
      const req = http.request({ host: base.hostname, port: base.port, path, method, headers: h, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = nowMs() - t0;
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            // keep the text
          }
          resolve({ status: res.statusCode ?? 0, body: parsed as T, ms });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  };
}

const FINAL = new Set(['succeeded', 'failed', 'canceled']);

export function makeWaitForTask(request: Request, pollMs = 10) {
  return async function waitForTask(taskUid: number, timeoutMs = 30 * 60_000): Promise<TaskJson> {
    const deadline = nowMs() + timeoutMs;
    for (;;) {
      const res = await request<TaskJson>('GET', `/tasks/${taskUid}`);
      if (res.status !== 200) throw new Error(`GET /tasks/${taskUid} -> ${res.status}: ${JSON.stringify(res.body)}`);
      if (FINAL.has(res.body.status)) return res.body;
      if (nowMs() > deadline) throw new Error(`task ${taskUid} still ${res.body.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };
}
