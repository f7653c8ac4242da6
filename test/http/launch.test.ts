// The server binary as a user starts it (`tsx src/main.ts` in a child process), for what only the
// process shows: its log lines, its telemetry, and its refusals.
// Checks:
//  1. --log-level INFO (the default) prints a start line and one INFO line per request, in Meilisearch's
//     human form; --log-level WARN prints the error of a failed request and no INFO line.
//  2. --experimental-logs-mode json prints every log line as a JSON object shaped like Meilisearch's.
//  3. Without --no-analytics nothing leaves the process (every socket connection and DNS lookup of the
//     main thread is recorded by a preloaded module), and the summary says telemetry is disabled.
//  4. --import-dump, --import-snapshot and --schedule-snapshot exit 1 with a message naming the option,
//     before the database is created.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'src/main.ts');

interface Launched {
  child: ChildProcess;
  url: string;
  dbPath: string;
  /** everything the process wrote on stderr so far */
  stderr(): string;
  /** resolves once stderr has a line matching `pattern` */
  waitFor(pattern: RegExp): Promise<string>;
  stop(): Promise<void>;
}

// An empty environment apart from what node needs: no MEILI_* variable of the machine leaks in.
function childEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME };
}

function spawnMain(args: string[], nodeArgs: string[] = []): { child: ChildProcess; dbPath: string } {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-launch-'));
  fs.rmSync(dbPath, { recursive: true });
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', MAIN, '--db-path', dbPath, '--http-addr', '127.0.0.1:0', ...args], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { child, dbPath };
}

async function launch(args: string[], nodeArgs: string[] = []): Promise<Launched> {
  const { child, dbPath } = spawnMain(args, nodeArgs);
  let text = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const line = text.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    text += chunk;
    check();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      waiters.push({ pattern, resolve });
      check();
      exited.then(() => reject(new Error(`exited before printing ${pattern}:\n${text}`)));
    });
  const listening = await waitFor(/^Server listening on:\s+"http:\/\/127\.0\.0\.1:\d+"/);
  const url = /"(http:[^"]+)"/.exec(listening)![1]!;
  return {
    child,
    url,
    dbPath,
    stderr: () => text,
    waitFor,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dbPath, { recursive: true, force: true });
    },
  };
}

/** Log lines only (the launch summary is plain text, as Meilisearch's). */
function logLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^\d{4}-\d\d-\d\dT/.test(line) || line.startsWith('{'));
}

test('--log-level INFO prints request lines in the human form', async () => {
  const server = await launch(['--log-level', 'INFO']);
  try {
    assert.equal((await fetch(`${server.url}/health?probe=1`, { headers: { 'user-agent': 'launch-test' } })).status, 200);
    const line = await server.waitFor(/route=\/health/);
    assert.match(
      line,
      /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}INFO HTTP request\{method=GET host=127\.0\.0\.1:\d+ route=\/health query_parameters=probe=1 user_agent=launch-test status_code=200\}: muninn::http: close time\.busy=[\d.]+(µs|ms|s)$/,
    );
    assert.match(server.stderr(), /INFO muninn::server: starting service: listening on: http:\/\/127\.0\.0\.1:\d+/);
  } finally {
    await server.stop();
  }
});

test('--log-level WARN prints failed requests and no INFO line', async () => {
  const server = await launch(['--log-level', 'warn']);
  try {
    await fetch(`${server.url}/health`);
    assert.equal((await fetch(`${server.url}/indexes/missing/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 404);
    const warn = await server.waitFor(/ WARN /);
    assert.match(warn, /route=\/indexes\/missing\/search .*status_code=404\}: muninn::http: .*index_not_found: Index `missing` not found\./);
    assert.deepEqual(logLines(server.stderr()).filter((l) => l.includes(' INFO ')), []);
  } finally {
    await server.stop();
  }
});

test('--experimental-logs-mode json prints JSON lines; nothing leaves the process without --no-analytics', async () => {
  // Records, on stderr, every outgoing connection and DNS lookup the server's main thread makes.
  const preload = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-net-spy-')), 'net-spy.mjs');
  fs.writeFileSync(
    preload,
    [
      "import net from 'node:net';",
      "import dns from 'node:dns';",
      'const connect = net.Socket.prototype.connect;',
      "// unix sockets (tsx's own IPC pipe) cannot leave the machine: only TCP connections are recorded",
      "net.Socket.prototype.connect = function (...args) { const o = Array.isArray(args[0]) ? args[0][0] : args[0]; if (!(o && typeof o === 'object' && 'path' in o) && typeof o !== 'string') process.stderr.write('OUTGOING ' + JSON.stringify(o) + '\\n'); return connect.apply(this, args); };",
      'const lookup = dns.lookup;',
      "dns.lookup = function (host, ...rest) { process.stderr.write('LOOKUP ' + host + '\\n'); return lookup.call(this, host, ...rest); };",
      'const realFetch = globalThis.fetch;',
      "globalThis.fetch = function (input, init) { process.stderr.write('FETCH ' + String(input) + '\\n'); return realFetch(input, init); };",
    ].join('\n'),
  );
  const server = await launch(['--experimental-logs-mode', 'JSON'], ['--import', preload]);
  try {
    assert.equal((await fetch(`${server.url}/indexes/missing`)).status, 404);
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
    await server.waitFor(/"route":"\/health"/);
    const lines = logLines(server.stderr());
    assert.ok(lines.length >= 3, server.stderr());
    const records = lines.map((line) => JSON.parse(line) as Record<string, any>);
    for (const r of records) {
      assert.match(r.timestamp, /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      assert.ok(['ERROR', 'WARN', 'INFO'].includes(r.level), r.level);
      assert.equal(typeof r.fields.message, 'string');
      assert.match(r.target, /^muninn::/);
    }
    const health = records.find((r) => r.span?.route === '/health')!;
    assert.deepEqual(Object.keys(health).sort(), ['fields', 'level', 'span', 'spans', 'target', 'timestamp']);
    assert.equal(health.level, 'INFO');
    assert.equal(health.fields.message, 'close');
    assert.match(health.fields['time.busy'], /^[\d.]+(µs|ms|s)$/);
    assert.deepEqual({ ...health.span, host: undefined, user_agent: undefined }, { method: 'GET', route: '/health', query_parameters: '', status_code: 200, name: 'HTTP request', host: undefined, user_agent: undefined });
    const failed = records.find((r) => r.level === 'WARN')!;
    assert.equal(failed.span.route, '/indexes/missing');
    assert.equal(failed.span.status_code, 404);

    // Nothing was sent: the only name looked up is the address the server listens on, and the summary says so.
    assert.doesNotMatch(server.stderr(), /^(OUTGOING|FETCH) /m);
    const lookups = server.stderr().split('\n').filter((l) => l.startsWith('LOOKUP '));
    assert.deepEqual([...new Set(lookups)], ['LOOKUP 127.0.0.1'], 'the spy is installed and saw only the listening address');
    assert.match(server.stderr(), /^Anonymous telemetry:\s+"Disabled"$/m);
  } finally {
    await server.stop();
    fs.rmSync(path.dirname(preload), { recursive: true, force: true });
  }
});

test('a dump or snapshot to import that does not exist stops the start with Meilisearch\'s message', async () => {
  const cases: { args: string[]; message: RegExp }[] = [
    { args: ['--import-dump', 'no-such.dump'], message: /^Error: dump doesn't exist at "no-such\.dump"$/m },
    { args: ['--import-snapshot', 'no-such.snapshot'], message: /^Error: snapshot doesn't exist at no-such\.snapshot$/m },
  ];
  for (const { args, message } of cases) {
    const { child, dbPath } = spawnMain(args);
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 1, stderr);
    assert.match(stderr, message);
    assert.equal(fs.existsSync(dbPath), false, 'the database is not created');
  }
});

test('--experimental-dumpless-upgrade reaches the database check as --upgrade-db does', async () => {
  const run = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-launch-old-'));
    fs.writeFileSync(path.join(dbPath, 'VERSION'), '1.12.0');
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--db-path', dbPath, '--http-addr', '127.0.0.1:0', ...args], {
      cwd: ROOT,
      env: { ...childEnv(), ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    fs.rmSync(dbPath, { recursive: true, force: true });
    return { code, stderr };
  };
  const without = await run([]);
  assert.equal(without.code, 1);
  assert.match(without.stderr, /Your database version \(1\.12\.0\) is incompatible/);
  for (const attempt of [await run(['--experimental-dumpless-upgrade']), await run([], { MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE: 'true' })]) {
    assert.equal(attempt.code, 1);
    assert.match(attempt.stderr, /^Error: A database written by Meilisearch 1\.12\.0 cannot be upgraded in place by Muninn\. Create a dump with Meilisearch v1\.12\.0 and import it with `--import-dump`$/m);
  }
});
