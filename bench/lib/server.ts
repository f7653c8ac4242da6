// Starts and stops a fresh server as a child process: Muninn (startServer), or any binary that
// speaks the Meilisearch API (spawnServer; bench/lib/meili.ts starts the real Meilisearch with it).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { nowMs } from './stats.ts';

export interface ServerOptions {
  repoRoot: string;
  dbPath: string;
  logFile: string;
  port?: number;
  /** ms to wait for readiness */
  readyTimeoutMs?: number;
  /** more launch options */
  extraArgs?: string[];
}

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  port: number;
  baseUrl: string;
  masterKey: string;
  /** ms from spawn to the first 200 on /health */
  startupMs: number;
  /** whether the "Server listening on" line was seen on stdout/stderr before readiness */
  sawListeningLine: boolean;
  /** last lines of the server output, for error reports */
  tail(): string;
  stop(): Promise<void>;
}

/** A port the OS considers free right now (bind to 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** 32 random characters from [A-Za-z0-9]. */
export function randomKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.randomBytes(32), (b) => alphabet[b % alphabet.length]).join('');
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const masterKey = randomKey();
  // MUNINN_BENCH_ENTRY lets the runner be tried against a stand-in server script.
  // The server runs as `npm start` does: the compiled dist/main.js (`npm run build` first).
  const entry = process.env.MUNINN_BENCH_ENTRY ?? 'dist/main.js';
  // MUNINN_BENCH_NODE_ARGS: flags for the server's node (profiling, GC tracing), space-separated
  const nodeArgs = (process.env.MUNINN_BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const args = [...nodeArgs, ...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry, '--db-path', opts.dbPath, '--http-addr', `127.0.0.1:${port}`,
    '--no-analytics', '--master-key', masterKey,
    // one INFO line per request would measure the log pipe too (and the figures predate request lines)
    '--log-level', 'WARN', ...(opts.extraArgs ?? [])];
  return spawnServer({ command: process.execPath, args, cwd: opts.repoRoot, logFile: opts.logFile, port, masterKey, ...(opts.readyTimeoutMs ? { readyTimeoutMs: opts.readyTimeoutMs } : {}) });
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  /** the port the arguments make the server listen on (127.0.0.1) */
  port: number;
  masterKey: string;
  readyTimeoutMs?: number;
}

/** Spawns a server that speaks the Meilisearch API and waits for its first 200 on /health. */
export async function spawnServer(spec: SpawnSpec): Promise<RunningServer> {
  const { port, masterKey } = spec;
  const t0 = nowMs();
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(spec.env ? { env: spec.env } : {}) });
  if (child.pid === undefined) throw new Error(`could not spawn ${spec.command}`);
  const pid = child.pid;

  const log = fs.createWriteStream(spec.logFile);
  const lines: string[] = [];
  let sawListeningLine = false;
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    const text = chunk.toString('utf8');
    if (text.includes('Server listening on')) sawListeningLine = true;
    lines.push(...text.split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited: number | string | null = null;
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = code ?? signal ?? 'unknown';
      resolve();
    }),
  );

  const baseUrl = `http://127.0.0.1:${port}`;
  const tail = () => lines.join('\n');
  const stop = async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exitPromise.then(() => false), sleep(5000).then(() => true)]);
      if (killed && exited === null) {
        child.kill('SIGKILL');
        await exitPromise;
      }
    }
    await new Promise<void>((r) => log.end(r));
  };

  const timeout = spec.readyTimeoutMs ?? 60_000;
  const deadline = t0 + timeout;
  for (;;) {
    if (exited !== null) {
      await stop();
      throw new Error(`server exited (${exited}) before becoming ready:\n${tail()}`);
    }
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (nowMs() > deadline) {
      await stop();
      throw new Error(`server not ready after ${timeout} ms:\n${tail()}`);
    }
    await sleep(50);
  }
  const startupMs = nowMs() - t0;
  return { child, pid, port, baseUrl, masterKey, startupMs, sawListeningLine, tail, stop };
}

export function makeTempDir(prefix = 'muninn-bench-'): string {
  return fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), prefix));
}
