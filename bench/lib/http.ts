// fetch wrappers used through WorkloadContext.
import type { HttpResult, TaskJson } from '../workloads/types.ts';
import { nowMs } from './stats.ts';

export function makeRequest(baseUrl: string, apiKey: string) {
  return async function request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    const h: Record<string, string> = { Authorization: `Bearer ${apiKey}`, ...headers };
    let payload: string | Uint8Array<ArrayBuffer> | undefined;
    if (body === undefined) payload = undefined;
    else if (typeof body === 'string' || body instanceof Uint8Array) payload = body as string | Uint8Array<ArrayBuffer>;
    else {
      payload = JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    const t0 = nowMs();
    const res = await fetch(baseUrl + path, { method, headers: h, body: payload });
    const text = await res.text();
    const ms = nowMs() - t0;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // keep the text
    }
    return { status: res.status, body: parsed as T, ms };
  };
}

const FINAL = new Set(['succeeded', 'failed', 'canceled']);

export function makeWaitForTask(request: ReturnType<typeof makeRequest>, pollMs = 10) {
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
