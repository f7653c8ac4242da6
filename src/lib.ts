// The embeddable library: a Muninn instance inside a Node program, answering the same
// Meilisearch API in-process (no socket) and, on request, over HTTP.
import type { FastifyInstance } from 'fastify';
import os from 'node:os';
import { parseCli, type Options } from './cli/index.ts';
import { executeMultiSearch, executeSearch, parseMultiSearchBody, parseSearchBody, type SearchResponse } from './api/search/index.ts';
import { indexNotFound } from './api/indexes/index.ts';
import { buildApp } from './http/app.ts';
import { loadTls, type TlsOptions } from './http/tls.ts';
import { Instance } from './instance/index.ts';
import { instanceOptions } from './server.ts';
import { silentLogs } from './logger.ts';

export interface MuninnOptions {
  /** data directory (default `./data.ms`) */
  dbPath?: string;
  masterKey?: string;
  /** request body limit in bytes (default 100 MB) */
  payloadSizeLimit?: number;
  /** serve `listen` over HTTPS: the files of `--ssl-cert-path`, `--ssl-key-path`, … (read once, here) */
  ssl?: TlsOptions;
}

export type { TlsOptions };

export interface MuninnResponse<T = unknown> {
  status: number;
  body: T;
}

export class Muninn {
  readonly instance: Instance;
  readonly #app: FastifyInstance;
  readonly #masterKey: string | null;

  private constructor(instance: Instance, app: FastifyInstance, masterKey: string | null) {
    this.instance = instance;
    this.#app = app;
    this.#masterKey = masterKey;
  }

  /** Opens (or creates) a database; its scheduler worker starts when tasks are waiting. */
  static async open(opts: MuninnOptions = {}): Promise<Muninn> {
    const argv = ['--db-path', opts.dbPath ?? './data.ms', '--no-analytics'];
    if (opts.masterKey) argv.push('--master-key', opts.masterKey);
    if (opts.payloadSizeLimit) argv.push('--http-payload-size-limit', String(opts.payloadSizeLimit));
    const parsed = parseCli({ argv, env: {}, cwd: process.cwd(), totalMemory: os.totalmem(), cpuCount: os.cpus().length });
    if (parsed.kind === 'exit') throw new Error(parsed.stderr.trim());
    const options: Options = parsed.options;
    const https = opts.ssl ? loadTls(opts.ssl) : undefined;
    const instance = await Instance.open(instanceOptions(options));
    const app = await buildApp({ instance, payloadSizeLimit: options.httpPayloadSizeLimit, logs: silentLogs(), ...(https ? { https } : {}) });
    return new Muninn(instance, app, options.masterKey);
  }

  /** Sends one API request in-process, e.g. `request('POST', '/indexes/movies/documents', docs)`. */
  async request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<MuninnResponse<T>> {
    const headers: Record<string, string> = {};
    if (this.#masterKey) headers.authorization = `Bearer ${this.#masterKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.#app.inject({ method, url, headers, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
    const text = res.body;
    return { status: res.statusCode, body: (text === '' ? null : JSON.parse(text)) as T };
  }

  /**
   * Searches an index directly (no HTTP encoding): `body` is what `POST /indexes/{uid}/search`
   * takes. Throws the API error (an `ApiError` with `code`) a request would have answered.
   */
  search(indexUid: string, body: Record<string, unknown> = {}): SearchResponse {
    const index = this.instance.indexes.get(indexUid);
    if (!index) throw indexNotFound(indexUid);
    return executeSearch(index, indexUid, parseSearchBody(body), { features: this.instance.features.get() });
  }

  /**
   * Runs a multi-search directly: `body` is what `POST /multi-search` takes (`queries`, optional
   * `federation`). Every index is allowed, as with the master key. Throws the API error a request
   * would have answered.
   */
  multiSearch(body: Record<string, unknown>): Record<string, unknown> {
    return executeMultiSearch(parseMultiSearchBody(body), { index: (uid) => this.instance.indexes.get(uid), features: this.instance.features.get() });
  }

  /** Waits until a task is finished and returns it. */
  async waitForTask(taskUid: number, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<Record<string, unknown>> {
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    for (;;) {
      const { body } = await this.request<Record<string, unknown>>('GET', `/tasks/${taskUid}`);
      if (body.status === 'succeeded' || body.status === 'failed' || body.status === 'canceled') return body;
      if (Date.now() > deadline) throw new Error(`task ${taskUid} did not finish in time`);
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 10));
    }
  }

  /** Serves the API over HTTP (HTTPS when opened with `ssl`) as well; resolves with the base URL. */
  async listen(opts: { host?: string; port?: number } = {}): Promise<string> {
    return this.#app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 7700 });
  }

  async close(): Promise<void> {
    await this.#app.close();
    await this.instance.close();
  }
}
