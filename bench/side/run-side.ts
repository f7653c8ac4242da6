// Runs side-by-side workloads: for every spec, Muninn first, then (with --vs-meili, when the binary
// is there) Meilisearch, each on its own fresh db dir and port, never both at once: a server is
// stopped before the next one starts. Prints one table per spec (a column per server), the top-10
// agreement, the workload's summary, and writes the JSON result as the classic runner does.
import fs from 'node:fs';
import path from 'node:path';
import { defaultMeiliBinary, MEILI_VERSION, prepareMeili, startMeili } from '../lib/meili.ts';
import { machine, writeJson, type BenchResult, type Figure } from '../lib/report.ts';
import { makeTempDir, startServer, type RunningServer } from '../lib/server.ts';
import { diskUsage } from '../lib/disk.ts';
import { toMB } from '../lib/stats.ts';
import { agreement, agreementLines, differenceLines, sideTable } from './compare.ts';
import { measureServer } from './driver.ts';
import type { EngineRun, SideSpec, SideWorkload, SpecRun } from './types.ts';

export interface SideRunOptions {
  repoRoot: string;
  datasetsDir: string;
  outDir: string;
  keep: boolean;
  vsMeili: boolean;
  /** the gzipped (or plain) Meilisearch binary; default ../shared/tools/meilisearch/… */
  meiliBinary?: string;
  maxQueries?: number;
  /** print the first N bodies per set whose top 10 differ between the servers */
  showDiffs?: number;
  sizes: number[];
  /** Muninn listens on this port, Meilisearch on the next one; default: free ephemeral ports */
  port?: number;
}

type Engine = 'muninn' | 'meilisearch';

export async function runSide(list: readonly SideWorkload[], o: SideRunOptions): Promise<number> {
  const tmp = makeTempDir('muninn-bench-side-');
  let current: RunningServer | null = null;
  const onSignal = () =>
    void (current?.stop() ?? Promise.resolve()).finally(() => {
      if (!o.keep) fs.rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const engines: Engine[] = ['muninn'];
  let meiliExe: string | null = null;
  if (o.vsMeili) {
    const binary = o.meiliBinary ?? defaultMeiliBinary(o.repoRoot);
    meiliExe = prepareMeili(binary, tmp);
    if (meiliExe) {
      engines.push('meilisearch');
      console.error(`[bench] --vs-meili: Meilisearch ${MEILI_VERSION} from ${binary} (its default indexing threads and memory)`);
    } else {
      // on stdout too, above the tables: a one-column table must not pass for a comparison
      console.log(`--vs-meili: no Meilisearch binary at ${binary}; Meilisearch skipped, Muninn measured alone`);
    }
  }

  let code = 0;
  try {
    for (const workload of list) {
      const figures: Figure[] = [];
      const result: BenchResult = { workload: workload.name + (meiliExe ? '-vs-meili' : ''), date: new Date().toISOString(), machine: machine(), dataset: workload.dataset, figures };
      const errors: string[] = [];
      const specRuns: SpecRun[] = [];
      try {
        console.error(`[bench] ${workload.name}: ${workload.description}`);
        for (const spec of workload.specs({ datasetsDir: o.datasetsDir, sizes: o.sizes })) {
          const payloads = new Map(spec.indexes.map((ix) => [ix.uid, ix.payloads()] as const));
          const runs: EngineRun[] = [];
          for (const engine of engines) {
            const run = await runOne(engine, spec, payloads, { ...o, tmp, meiliExe, workload: workload.name }, (s) => (current = s));
            current = null;
            runs.push(run);
            if (run.error) errors.push(`${engine}${spec.label ? ` ${spec.label}` : ''}: ${run.error}`);
          }
          specRuns.push({ spec, runs });
          const prefix = spec.label ? `${spec.label}.` : '';
          for (const r of runs) for (const f of r.figures) figures.push({ ...f, name: `${prefix}${r.engine}.${f.name}` });
          const agree = runs.length === 2 && !runs.some((r) => r.error) ? agreement(spec, runs[0]!, runs[1]!) : [];
          for (const g of agree) {
            figures.push({ name: `${prefix}agreement.${g.set}.top10_identical`, value: g.identical, unit: 'x' });
            figures.push({ name: `${prefix}agreement.${g.set}.top10_same_set`, value: g.sameSet, unit: 'x' });
          }
          const m = result.machine;
          console.log(`\n${workload.name}${spec.label ? ` ${spec.label}` : ''} — ${m.cpus} cpus (${m.cpuModel}), ${m.totalMemGiB} GiB, node ${m.node}, dataset ${workload.dataset}`);
          console.log(sideTable(runs));
          for (const line of agreementLines(agree, engines[0]!, engines[1] ?? '')) console.log(line);
          if (o.showDiffs && agree.length > 0) for (const line of differenceLines(spec, runs[0]!, runs[1]!, o.showDiffs)) console.log(line);
          for (const r of runs) if (r.error) console.log(`${r.engine}: FAILED: ${r.error}`);
        }
        if (workload.summarize) {
          const s = workload.summarize(specRuns);
          figures.push(...s.figures);
          console.log(['', ...s.lines].join('\n'));
        }
      } catch (err) {
        errors.push(err instanceof Error ? err.message : String(err));
        console.error(`[bench] ${workload.name}: FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      if (errors.length > 0) {
        result.error = errors.join('; ');
        code = 1;
      }
      console.log(`\nresults: ${writeJson(o.outDir, result)}`);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (o.keep) console.log(`kept: ${tmp} (one dir per server run: db/ and server.log)`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
  return code;
}

interface RunContext extends SideRunOptions {
  tmp: string;
  meiliExe: string | null;
  workload: string;
}

/** Starts one server on a fresh db dir, measures it, stops it, measures the dir once more. */
async function runOne(engine: Engine, spec: SideSpec, payloads: Map<string, Buffer[]>, c: RunContext, started: (s: RunningServer) => void): Promise<EngineRun> {
  const dir = path.join(c.tmp, `${c.workload}${spec.label ? `-${spec.label}` : ''}-${engine}`);
  fs.mkdirSync(dir, { recursive: true });
  const dbPath = path.join(dir, 'db');
  const logFile = path.join(dir, 'server.log');
  console.error(`[bench] ${engine}${spec.label ? ` ${spec.label}` : ''}: starting (db ${dbPath})`);
  let server: RunningServer;
  try {
    server =
      engine === 'muninn'
        ? await startServer({ repoRoot: c.repoRoot, dbPath, logFile, ...(c.port ? { port: c.port } : {}) })
        : await startMeili({ executable: c.meiliExe!, workDir: dir, dbPath, logFile, ...(c.port ? { port: c.port + 1 } : {}) });
  } catch (err) {
    return { engine, figures: [], top10: new Map(), error: `could not start: ${err instanceof Error ? err.message : String(err)}` };
  }
  started(server);
  const run = await measureServer({ engine, server, dbPath, spec, payloads, ...(c.maxQueries ? { maxQueries: c.maxQueries } : {}) });
  if (run.error) console.error(`[bench] ${engine} server output (tail):\n${server.tail().split('\n').slice(-20).join('\n')}`);
  await server.stop();
  const stopped = diskUsage(dbPath);
  run.figures.push({ name: 'disk.after_shutdown', value: toMB(stopped.apparentBytes), unit: 'MB' });
  if (!c.keep) fs.rmSync(dir, { recursive: true, force: true });
  return run;
}
