// Benchmark runner: npm run bench -- <workload> [--keep] [--port N] [--out DIR] [--engines a,b] [--max-queries N] [--index-without-search]
// Starts a fresh Muninn server in a temp dir, runs the workload against it over HTTP,
// samples the server's RSS and measures its db dir on disk. Never part of `npm test`.
// Side-by-side workloads (side-*, growth; `--vs-meili` adds the real Meilisearch) go to side/run-side.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { diskUsage } from './lib/disk.ts';
import { ENGINE_NAMES } from './lib/engine-names.ts';
import { makeRequest, makeWaitForTask } from './lib/http.ts';
import { fmt, machine, table, writeJson, type BenchResult, type Figure } from './lib/report.ts';
import { RssSampler, readMem } from './lib/rss.ts';
import { sharedDir } from './lib/shared-dir.ts';
import { makeTempDir, startServer, type RunningServer } from './lib/server.ts';
import { toMB } from './lib/stats.ts';
import { runSide } from './side/run-side.ts';
import { DEFAULT_SIZES, parseSize } from './side/workloads/growth.ts';
import { SIDE_DEFAULT, sideWorkloads } from './side/workloads/index.ts';
import { workloads } from './workloads/index.ts';
import type { WorkloadContext } from './workloads/types.ts';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '..');

function usage(): string {
  return (
    `usage: npm run bench -- <workload> [--keep] [--port N] [--out DIR] [--engines a,b] [--max-queries N] [--index-without-search]\n` +
    `       npm run bench -- [<side workload>] [--vs-meili] [--meili-bin FILE] [--sizes 10k,100k,1m] [--max-queries N] [--show-diffs N] [--keep] [--port N] [--out DIR]\n` +
    `workloads: ${Object.keys(workloads).join(', ')}\nside workloads: ${Object.keys(sideWorkloads).join(', ')} (--vs-meili alone: ${SIDE_DEFAULT.map((w) => w.name).join(', ')})\n` +
    `engines (search-*): ${ENGINE_NAMES.join(', ')}`
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      keep: { type: 'boolean', default: false },
      port: { type: 'string' },
      out: { type: 'string' },
      engines: { type: 'string' },
      'max-queries': { type: 'string' },
      'index-without-search': { type: 'boolean', default: false },
      'vs-meili': { type: 'boolean', default: false },
      'meili-bin': { type: 'string' },
      sizes: { type: 'string' },
      'show-diffs': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage());
    return 0;
  }
  const side = positionals.length === 0 && values['vs-meili'] ? SIDE_DEFAULT : positionals.length === 1 && sideWorkloads[positionals[0]!] ? [sideWorkloads[positionals[0]!]!] : null;
  if (!side && values['vs-meili']) {
    console.error(`--vs-meili works with the side workloads: ${Object.keys(sideWorkloads).join(', ')}`);
    return 2;
  }
  const workload = positionals.length === 1 ? workloads[positionals[0]!] : undefined;
  if (!workload && !side) {
    console.error(positionals.length === 1 ? `unknown workload "${positionals[0]}"\n${usage()}` : usage());
    return 2;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    console.error(`--port must be an integer in 1..65535, got "${values.port}"`);
    return 2;
  }
  const outDir = path.resolve(values.out ?? path.join(benchDir, 'out'));
  const engines = values.engines?.split(',').map((e) => e.trim()).filter((e) => e !== '');
  const unknown = engines?.filter((e) => !(ENGINE_NAMES as readonly string[]).includes(e)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown engine(s) ${unknown.join(', ')}; engines: ${ENGINE_NAMES.join(', ')}`);
    return 2;
  }
  const maxQueries = values['max-queries'] === undefined ? undefined : Number(values['max-queries']);
  if (maxQueries !== undefined && !(Number.isInteger(maxQueries) && maxQueries > 0)) {
    console.error(`--max-queries must be a positive integer, got "${values['max-queries']}"`);
    return 2;
  }

  if (side) {
    const sizes = values.sizes === undefined ? DEFAULT_SIZES : values.sizes.split(',').map(parseSize);
    if (sizes.some((n) => n === null)) {
      console.error(`--sizes takes counts such as 10k,100k,1m, got "${values.sizes}"`);
      return 2;
    }
    const showDiffs = values['show-diffs'] === undefined ? undefined : Number(values['show-diffs']);
    if (showDiffs !== undefined && !(Number.isInteger(showDiffs) && showDiffs > 0)) {
      console.error(`--show-diffs must be a positive integer, got "${values['show-diffs']}"`);
      return 2;
    }
    return runSide(side, {
      repoRoot,
      datasetsDir: path.join(sharedDir(repoRoot), 'datasets'),
      outDir,
      keep: values.keep ?? false,
      vsMeili: values['vs-meili'] ?? false,
      sizes: sizes as number[],
      ...(values['meili-bin'] ? { meiliBinary: path.resolve(values['meili-bin']) } : {}),
      ...(maxQueries ? { maxQueries } : {}),
      ...(showDiffs ? { showDiffs } : {}),
      ...(port ? { port } : {}),
    });
  }
  if (!workload) return 2;

  const tmp = makeTempDir();
  const dbPath = path.join(tmp, 'db');
  const figures: Figure[] = [];
  const report = (name: string, value: number, unit: string) => {
    figures.push({ name, value, unit });
    console.error(`  ${name} = ${fmt(value)} ${unit}`);
  };
  const result: BenchResult = { workload: workload.name, date: new Date().toISOString(), machine: machine(), dataset: workload.dataset, figures };

  let server: RunningServer | null = null;
  let sampler: RssSampler | null = null;
  const cleanup = async () => {
    sampler?.stop();
    await server?.stop();
    server = null;
  };
  const onSignal = () =>
    void cleanup().finally(() => {
      if (!values.keep) fs.rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let code = 0;
  try {
    console.error(`[bench] ${workload.name}: starting server (db ${dbPath})`);
    // dumps and snapshots go to the run's directory, never into the repository
    const extraArgs = ['--dump-dir', path.join(tmp, 'dumps'), '--snapshot-dir', path.join(tmp, 'snapshots'), ...(workload.serverArgs ?? [])];
    server = await startServer({ repoRoot, dbPath, logFile: path.join(tmp, 'server.log'), extraArgs, ...(port ? { port } : {}) });
    const srv = server;
    console.error(`[bench] server pid ${srv.pid} ready on ${srv.baseUrl} in ${srv.startupMs.toFixed(0)} ms` +
      (srv.sawListeningLine ? '' : ' (no "Server listening on" line seen)'));
    report('server.startup_time', srv.startupMs, 'ms');
    const idle = readMem(srv.pid);
    if (idle) report('server.idle_rss', toMB(idle.vmRSS * 1024), 'MB');
    sampler = new RssSampler(srv.pid, 50);
    const s = sampler;

    const request = makeRequest(srv.baseUrl, srv.masterKey);
    const ctx: WorkloadContext = {
      baseUrl: srv.baseUrl,
      apiKey: srv.masterKey,
      datasetsDir: path.join(sharedDir(repoRoot), 'datasets'),
      workDir: tmp,
      repoRoot,
      report,
      request,
      waitForTask: makeWaitForTask(request, 10),
      memPhase: () => s.phase(),
      memOverall: () => s.overall(),
      disk: () => diskUsage(dbPath),
      options: {
        ...(engines ? { engines } : {}),
        ...(maxQueries ? { maxQueries } : {}),
        ...(values['index-without-search'] ? { indexWithoutSearch: true } : {}),
      },
    };
    await workload.run(ctx);

    const running = diskUsage(dbPath);
    report('disk.final', toMB(running.apparentBytes), 'MB');
    report('disk.final_allocated', toMB(running.allocatedBytes), 'MB');
    const overall = s.overall();
    if (!figures.some((f) => f.name === 'server.peak_rss')) report('server.peak_rss', toMB(overall.peakRss), 'MB');
    await cleanup();
    const stopped = diskUsage(dbPath);
    report('disk.after_shutdown', toMB(stopped.apparentBytes), 'MB');
    report('disk.after_shutdown_allocated', toMB(stopped.allocatedBytes), 'MB');
  } catch (err) {
    code = 1;
    result.error = err instanceof Error ? err.message : String(err);
    console.error(`[bench] FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    const tail = (server as RunningServer | null)?.tail();
    if (tail) console.error(`[bench] server output (tail):\n${tail.split('\n').slice(-40).join('\n')}`);
    await cleanup();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const m = result.machine;
  console.log(`\n${workload.name} — ${m.cpus} cpus (${m.cpuModel}), ${m.totalMemGiB} GiB, node ${m.node}, dataset ${workload.dataset}`);
  console.log(table(figures));
  console.log(`\nresults: ${writeJson(outDir, result)}`);
  if (values.keep) console.log(`kept: ${tmp} (db in db/, server output in server.log)`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  return code;
}

process.exitCode = await main();
