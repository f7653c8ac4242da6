// dump-cities: the 135k GeoNames cities (with the dataset's facet settings) dumped, the dump imported
// into a second server started with --import-dump, and a snapshot taken while a search load runs.
// Figures: dump seconds, archive size, peak RSS while dumping; import seconds (spawn to ready) and
// the importing server's peak RSS; search p50/p99 idle and during the snapshot, snapshot seconds.
import fs from 'node:fs';
import path from 'node:path';
import { titleQueries } from '../lib/querygen.ts';
import { RssSampler } from '../lib/rss.ts';
import { startServer } from '../lib/server.ts';
import { isoDurationSeconds, nowMs, percentile, toMB } from '../lib/stats.ts';
import { readNdjson } from '../lib/text.ts';
import type { Workload, WorkloadContext } from './types.ts';

const DATASET = 'geo-cities-geonames-135k';
const INDEX = 'cities';
const SEED = 4242;
const CLIENTS = 2;

async function mustSucceed(ctx: WorkloadContext, res: { status: number; body: { taskUid?: number } }, what: string) {
  if (res.status !== 202 || typeof res.body.taskUid !== 'number') throw new Error(`${what} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  const task = await ctx.waitForTask(res.body.taskUid, 600_000);
  if (task.status !== 'succeeded') throw new Error(`${what}: task ${task.uid} ${task.status}: ${JSON.stringify(task.error)}`);
  return task;
}

/** Runs the queries with CLIENTS concurrent clients until `until()` says stop (at least one pass); latencies in ms. */
async function searchLoad(ctx: WorkloadContext, queries: { q: string }[], until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  let passes = 0;
  const client = async () => {
    for (;;) {
      if (next >= queries.length) {
        if (until()) return;
        next = 0;
        passes++;
      }
      const q = queries[next++]!;
      const res = await ctx.request('POST', `/indexes/${INDEX}/search`, { q: q.q, limit: 10 });
      if (res.status !== 200) throw new Error(`search -> ${res.status}`);
      latencies.push(res.ms);
      if (passes > 0 && until()) return;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return latencies;
}

export const dumpCities: Workload = {
  name: 'dump-cities',
  description: '135k cities: dump, --import-dump into a new server, snapshot under a search load',
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    const settings = (JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { settings_for_this_dataset: Record<string, unknown> }).settings_for_this_dataset;
    await mustSucceed(ctx, await ctx.request('PATCH', `/indexes/${INDEX}/settings`, settings), 'settings');
    const body = fs.readFileSync(path.join(dir, 'cities.ndjson'));
    await mustSucceed(ctx, await ctx.request('POST', `/indexes/${INDEX}/documents?primaryKey=id`, body, { 'Content-Type': 'application/x-ndjson' }), 'documents');
    ctx.memPhase();

    // the dump
    const dumpTask = await mustSucceed(ctx, await ctx.request('POST', '/dumps'), 'dump');
    const dumpMem = ctx.memPhase();
    const dumpUid = String(dumpTask.details?.dumpUid);
    const file = path.join(ctx.workDir, 'dumps', `${dumpUid}.dump`);
    ctx.report('dump.seconds', isoDurationSeconds(dumpTask.duration) ?? NaN, 's');
    ctx.report('dump.archive_size', toMB(fs.statSync(file).size), 'MB');
    ctx.report('dump.peak_rss', toMB(dumpMem.peakRss), 'MB');

    // the import, in a second server
    const importDb = path.join(ctx.workDir, 'imported');
    const t0 = nowMs();
    const imported = await startServer({ repoRoot: ctx.repoRoot, dbPath: importDb, logFile: path.join(ctx.workDir, 'import.log'), extraArgs: ['--import-dump', file], readyTimeoutMs: 600_000 });
    const sampler = new RssSampler(imported.pid, 50);
    try {
      ctx.report('import.seconds', (nowMs() - t0) / 1000, 's');
      // the importing process is sampled from its start by its kernel high-water mark
      ctx.report('import.peak_rss', toMB(sampler.overall().peakRss), 'MB');
      const stats = (await fetch(`${imported.baseUrl}/indexes/${INDEX}/stats`, { headers: { authorization: `Bearer ${imported.masterKey}` } }).then((r) => r.json())) as { numberOfDocuments: number };
      if (stats.numberOfDocuments !== body.toString('utf8').trim().split('\n').length) throw new Error(`the import holds ${stats.numberOfDocuments} documents`);
    } finally {
      sampler.stop();
      await imported.stop();
    }

    // a snapshot while searches run
    const docs = readNdjson(path.join(dir, 'cities.ndjson'));
    const queries = titleQueries(docs, 'name', 'id', { n: 500, seed: SEED, limit: 10, typoRate: 0.4, prefixRate: 0.25, maxWords: 2 });
    await searchLoad(ctx, queries, () => true); // warm-up pass
    const idle = await searchLoad(ctx, queries, () => true);
    ctx.report('search.idle_p50', percentile(idle, 50), 'ms');
    ctx.report('search.idle_p99', percentile(idle, 99), 'ms');
    const snap = await ctx.request<{ taskUid?: number }>('POST', '/snapshots');
    let done = false;
    const waiting = mustSucceed(ctx, snap, 'snapshot').finally(() => (done = true));
    const during = await searchLoad(ctx, queries, () => done);
    const snapTask = await waiting;
    ctx.report('snapshot.seconds', isoDurationSeconds(snapTask.duration) ?? NaN, 's');
    ctx.report('snapshot.size', toMB(fs.statSync(path.join(ctx.workDir, 'snapshots', 'db.snapshot')).size), 'MB');
    ctx.report('search.during_snapshot_p50', percentile(during, 50), 'ms');
    ctx.report('search.during_snapshot_p99', percentile(during, 99), 'ms');
    ctx.report('search.during_snapshot_queries', during.length, 'queries');
  },
};
