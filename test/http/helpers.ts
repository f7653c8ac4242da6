// Test harness: a real Muninn server on an ephemeral loopback port with a temp data
// directory, and the official `meilisearch` client pointed at it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Meilisearch, MeilisearchApiError } from 'meilisearch';
import { parseCli } from '../../src/cli/index.ts';
import { startServer, type RunningServer } from '../../src/server.ts';

export const MASTER_KEY = 'muninn-test-master-key';

export interface TestServer {
  server: RunningServer;
  url: string;
  dbPath: string;
  masterKey: string | null;
  /** client authenticated with the master key (or none) */
  client: Meilisearch;
  /** a client with another API key */
  clientWith(apiKey: string | undefined): Meilisearch;
  /** raw HTTP with the master key unless `key` says otherwise */
  fetch(method: string, urlPath: string, init?: { body?: unknown; raw?: string | Uint8Array; headers?: Record<string, string>; key?: string | null }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

let counter = 0;
/** A fresh index uid for one test. */
export function uniqueIndex(prefix = 'idx'): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}`;
}

export async function startTestServer(opts: { masterKey?: string | null; args?: string[]; dbPath?: string } = {}): Promise<TestServer> {
  const dbPath = opts.dbPath ?? fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-test-'));
  const masterKey = opts.masterKey === undefined ? MASTER_KEY : opts.masterKey;
  // dumps and snapshots go beside the temporary database, never into the working directory
  const backups = (opts.args ?? []).some((a) => a === '--dump-dir') ? [] : ['--dump-dir', `${dbPath}.dumps`];
  if (!(opts.args ?? []).includes('--snapshot-dir')) backups.push('--snapshot-dir', `${dbPath}.snapshots`);
  const argv = ['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--no-analytics', '--log-level', 'ERROR', ...backups, ...(opts.args ?? [])];
  if (masterKey !== null) argv.push('--master-key', masterKey);
  const parsed = parseCli({ argv, env: {}, cwd: dbPath, totalMemory: os.totalmem(), cpuCount: os.cpus().length });
  if (parsed.kind !== 'run') throw new Error(`bad test options: ${parsed.stderr}`);
  const server = await startServer(parsed.options);
  const url = server.url;
  const clientWith = (apiKey: string | undefined) => new Meilisearch({ host: url, ...(apiKey !== undefined ? { apiKey } : {}), defaultWaitOptions: { timeout: 20_000, interval: 10 } });
  return {
    server,
    url,
    dbPath,
    masterKey,
    client: clientWith(masterKey ?? undefined),
    clientWith,
    async fetch(method, urlPath, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      const key = init.key === undefined ? masterKey : init.key;
      if (key) headers.authorization = `Bearer ${key}`;
      let body: string | Uint8Array | undefined;
      if (init.raw !== undefined) body = init.raw;
      else if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + urlPath, { method, headers, ...(body !== undefined ? { body: body as BodyInit } : {}) });
      const text = await res.text();
      let parsedBody: unknown = text;
      try {
        parsedBody = text === '' ? null : JSON.parse(text);
      } catch {
        parsedBody = text;
      }
      return { status: res.status, body: parsedBody, headers: res.headers };
    },
    async close() {
      await server.close();
      if (!opts.dbPath) fs.rmSync(dbPath, { recursive: true, force: true });
      for (const dir of [`${dbPath}.dumps`, `${dbPath}.snapshots`]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts that a client call fails with this Meilisearch code and HTTP status. */
export async function assertApiError(promise: Promise<unknown>, code: string, status: number, message?: string | RegExp): Promise<void> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof MeilisearchApiError, `expected an API error, got ${String(err)}`);
    assert.equal(err.cause?.code, code, `code (message: ${err.cause?.message})`);
    assert.equal(err.response.status, status);
    assert.equal(err.cause?.link, `https://docs.meilisearch.com/errors#${code}`);
    if (typeof message === 'string') assert.equal(err.cause?.message, message);
    else if (message) assert.match(err.cause?.message ?? '', message);
    return;
  }
  assert.fail(`expected error ${code}`);
}

/** Asserts a raw response is a Meilisearch error. */
export function assertErrorBody(res: { status: number; body: any }, code: string, status: number, message?: string | RegExp): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body?.code, code, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['message', 'code', 'type', 'link']);
  assert.equal(res.body.link, `https://docs.meilisearch.com/errors#${code}`);
  if (typeof message === 'string') assert.equal(res.body.message, message);
  else if (message) assert.match(res.body.message, message);
}
