// Measures one server (Muninn or Meilisearch, started by run-side.ts) on one spec, over HTTP only:
//
//   idle RSS ─► indexes created, settings applied (each task waited for)
//   ─► ingest: every payload POSTed one after another (202s, no waiting), IngestWatcher polls
//      tasks and batch progress until all tasks are final ─► documents counted ─► RSS, disk
//   ─► per set: warm-up, 1-client pass (every body once: latencies, top 10 kept),
//      4-client pass (every body once, cycled up to C4_MIN, 4 async loops, keep-alive) ─► RSS peak
//   ─► with `duringIngest`: one client loops over the set's bodies for 5 s on the idle server, then
//      again while the set's index is ingested again into `<uid>-again` (latencies while indexing)
//
// Memory comes from /proc/<pid>/status: VmRSS now, VmHWM (the kernel's peak, never reset here).
import os from 'node:os';
import { diskUsage } from '../lib/disk.ts';
import type { SearchBody } from '../lib/filter-bench.ts';
import { makeRequest, makeWaitForTask, type Request } from '../lib/http.ts';
import { readMem } from '../lib/rss.ts';
import type { RunningServer } from '../lib/server.ts';
import { nowMs, percentile, toMB } from '../lib/stats.ts';
import { IngestWatcher } from './progress.ts';
import type { EngineRun, SideSet, SideSpec } from './types.ts';

const WARMUP = 30;
const CLIENTS = 4;
/** the 4-client pass sends every body once, cycled up to this many when the set is smaller */
const C4_MIN = 200;
/** wall-clock cap of the 4-client pass */
const C4_BUDGET_MS = 30_000;
/** duration of the idle loop measured before a search-during-ingest loop */
const IDLE_LOOP_MS = 5_000;

export interface DriverInput {
  engine: string;
  server: RunningServer;
  dbPath: string;
  spec: SideSpec;
  /** index uid -> its NDJSON payloads (built once, shared by every server) */
  payloads: Map<string, Buffer[]>;
  /** cap on the bodies of every set (a quick run) */
  maxQueries?: number;
}

interface Hits {
  hits: Array<Record<string, unknown>>;
}

/** Every figure of one server on one spec; a failure ends the measure and is kept in `error`. */
export async function measureServer(input: DriverInput): Promise<EngineRun> {
  const run: EngineRun = { engine: input.engine, figures: [], top10: new Map() };
  const report: Report = (name, value, unit) => {
    run.figures.push({ name, value, unit });
    console.error(`  ${input.engine}${input.spec.label ? ` ${input.spec.label}` : ''} ${name} = ${Number.isInteger(value) ? value : value.toFixed(3)} ${unit}`);
  };
  try {
    await measure(input, run, report);
  } catch (err) {
    run.error = err instanceof Error ? err.message : String(err);
    console.error(`[bench] ${input.engine}: FAILED: ${err instanceof Error ? (err.stack ?? run.error) : run.error}`);
  }
  return run;
}

type Report = (name: string, value: number, unit: string) => void;

async function measure(input: DriverInput, run: EngineRun, report: Report): Promise<void> {
  const { server, spec } = input;
  const mem = () => readMem(server.pid);
  const request = makeRequest(server.baseUrl, server.masterKey);
  const wait = makeWaitForTask(request, 10);
  const enqueue = async (what: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<number> => {
    const res = await request<{ taskUid?: number }>(method, path, body, headers);
    if (res.status !== 202 || typeof res.body?.taskUid !== 'number') throw new Error(`${what} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body.taskUid;
  };

  report('machine.load_1m', os.loadavg()[0]!, 'load');
  report('server.startup_time', server.startupMs, 'ms');
  report('rss.idle', toMB((mem()?.vmRSS ?? 0) * 1024), 'MB');

  let t0 = nowMs();
  for (const ix of spec.indexes) {
    for (const [what, method, path, body] of [
      [`POST /indexes ${ix.uid}`, 'POST', '/indexes', { uid: ix.uid, primaryKey: ix.primaryKey }],
      [`PATCH /indexes/${ix.uid}/settings`, 'PATCH', `/indexes/${ix.uid}/settings`, ix.settings],
    ] as const) {
      const task = await wait(await enqueue(what, method, path, body));
      if (task.status !== 'succeeded') throw new Error(`${what}: task ${task.uid} ${task.status}: ${JSON.stringify(task.error)}`);
    }
  }
  report('settings.time', (nowMs() - t0) / 1000, 's');

  // ingest
  const documents = spec.indexes.reduce((n, ix) => n + ix.documents, 0);
  const payloadCount = [...input.payloads.values()].reduce((n, p) => n + p.length, 0);
  t0 = nowMs();
  const watcher = new IngestWatcher(request, t0);
  const watching = watcher.run();
  watching.catch(() => {}); // awaited below; a send failure aborts it first
  try {
    for (const ix of spec.indexes) {
      const path = `/indexes/${ix.uid}/documents?primaryKey=${encodeURIComponent(ix.primaryKey)}`;
      for (const payload of input.payloads.get(ix.uid) ?? []) {
        watcher.add(await enqueue(`POST ${path}`, 'POST', path, payload, { 'Content-Type': 'application/x-ndjson' }));
      }
    }
  } catch (err) {
    watcher.abort();
    throw err;
  }
  watcher.sent();
  const ingest = await watching;
  if (ingest.failed.length > 0) throw new Error(`ingest: task ${ingest.failed[0]!.uid} ${ingest.failed[0]!.status}: ${JSON.stringify(ingest.failed[0]!.error)}`);
  report('ingest.payloads', payloadCount, 'payloads');
  report('ingest.time', ingest.doneMs / 1000, 's');
  report('ingest.docs_per_s', documents / (ingest.doneMs / 1000), 'docs/s');
  report('ingest.longest_stall', ingest.longestStallMs / 1000, 's');
  report('ingest.longest_stall_at', ingest.longestStallAtMs / 1000, 's');
  console.error(`[bench] ${input.engine} longest stall ${(ingest.longestStallMs / 1000).toFixed(2)} s: from ${ingest.longestStallSeen[0]} to ${ingest.longestStallSeen[1]}`);
  report('ingest.batches', ingest.batches, 'batches');
  for (const ix of spec.indexes) {
    const stats = await request<{ numberOfDocuments?: number }>('GET', `/indexes/${ix.uid}/stats`);
    if (stats.status !== 200 || stats.body?.numberOfDocuments !== ix.documents) {
      throw new Error(`${ix.uid}: expected numberOfDocuments ${ix.documents}, got ${stats.status} ${JSON.stringify(stats.body).slice(0, 200)}`);
    }
  }
  const after = mem();
  report('rss.after_ingest', toMB((after?.vmRSS ?? 0) * 1024), 'MB');
  report('rss.peak_ingest', toMB((after?.vmHWM ?? 0) * 1024), 'MB');
  const disk = diskUsage(input.dbPath);
  report('disk.after_ingest', toMB(disk.apparentBytes), 'MB');
  report('disk.after_ingest_allocated', toMB(disk.allocatedBytes), 'MB');

  // search
  const idleP99 = new Map<string, number>();
  for (const set of spec.sets) {
    const ix = spec.indexes.find((i) => i.uid === set.index);
    if (!ix) throw new Error(`set ${set.name}: no index ${set.index}`);
    const bodies = input.maxQueries ? set.bodies.slice(0, input.maxQueries) : set.bodies;
    const search = searcher(request, set, ix.primaryKey);
    for (const body of bodies.slice(0, WARMUP)) await search(body);
    const top10: string[][] = [];
    const lat: number[] = [];
    for (const body of bodies) {
      const s = nowMs();
      const ids = await search(body);
      lat.push(nowMs() - s);
      top10.push(ids);
    }
    run.top10.set(set.name, top10);
    report(`${set.name}.queries`, bodies.length, 'queries');
    report(`${set.name}.p50`, percentile(lat, 50), 'ms');
    report(`${set.name}.p95`, percentile(lat, 95), 'ms');
    report(`${set.name}.p99`, percentile(lat, 99), 'ms');
    idleP99.set(set.name, percentile(lat, 99));
    const c4 = await concurrentPass(search, bodies);
    report(`${set.name}.qps_c4`, c4.done / (c4.wallMs / 1000), 'q/s');
    report(`${set.name}.zero_hits`, top10.filter((ids) => ids.length === 0).length / top10.length, 'x');
  }
  if (spec.duringIngest) await searchDuringIngest(input, spec.duringIngest.set, { request, wait, enqueue, report, idleP99 });
  const end = mem();
  report('rss.after_search', toMB((end?.vmRSS ?? 0) * 1024), 'MB');
  report('rss.peak', toMB((end?.vmHWM ?? 0) * 1024), 'MB');
}

interface DuringIngestTools {
  request: Request;
  wait: ReturnType<typeof makeWaitForTask>;
  enqueue(what: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<number>;
  report: Report;
  idleP99: Map<string, number>;
}

/** One client searching the set's index in a loop while its payloads are ingested again into a copy. */
async function searchDuringIngest(input: DriverInput, setName: string, t: DuringIngestTools): Promise<void> {
  const set = input.spec.sets.find((s) => s.name === setName);
  const ix = set && input.spec.indexes.find((i) => i.uid === set.index);
  if (!set || !ix) throw new Error(`duringIngest: no set ${setName} or its index`);
  const copy = `${ix.uid}-again`;
  for (const [what, method, path, body] of [
    [`POST /indexes ${copy}`, 'POST', '/indexes', { uid: copy, primaryKey: ix.primaryKey }],
    [`PATCH /indexes/${copy}/settings`, 'PATCH', `/indexes/${copy}/settings`, ix.settings],
  ] as const) {
    const task = await t.wait(await t.enqueue(what, method, path, body));
    if (task.status !== 'succeeded') throw new Error(`${what}: task ${task.uid} ${task.status}: ${JSON.stringify(task.error)}`);
  }
  const bodies = input.maxQueries ? set.bodies.slice(0, input.maxQueries) : set.bodies;
  const search = searcher(t.request, set, ix.primaryKey);
  // the baseline: the same loop on the idle server (its bodies repeat, as they will while indexing,
  // so caches are as warm in both)
  const idle: number[] = [];
  const idleStart = nowMs();
  for (let k = 0; nowMs() - idleStart < IDLE_LOOP_MS; k++) {
    const s = nowMs();
    await search(bodies[k % bodies.length]!);
    idle.push(nowMs() - s);
  }
  const watcher = new IngestWatcher(t.request, nowMs());
  let ingesting = true;
  const watching = watcher.run().finally(() => (ingesting = false));
  watching.catch(() => {});
  const lat: number[] = [];
  const loop = (async () => {
    for (let k = 0; ingesting; k++) {
      const s = nowMs();
      await search(bodies[k % bodies.length]!);
      lat.push(nowMs() - s);
    }
  })();
  try {
    const path = `/indexes/${copy}/documents?primaryKey=${encodeURIComponent(ix.primaryKey)}`;
    for (const payload of input.payloads.get(ix.uid) ?? []) {
      watcher.add(await t.enqueue(`POST ${path}`, 'POST', path, payload, { 'Content-Type': 'application/x-ndjson' }));
    }
  } catch (err) {
    watcher.abort();
    throw err;
  }
  watcher.sent();
  const ingest = await watching;
  await loop;
  if (ingest.failed.length > 0) throw new Error(`ingest during search: task ${ingest.failed[0]!.uid} ${ingest.failed[0]!.status}`);
  const p99 = percentile(lat, 99);
  t.report(`${set.name}.loop_idle.p50`, percentile(idle, 50), 'ms');
  t.report(`${set.name}.loop_idle.p99`, percentile(idle, 99), 'ms');
  t.report(`${set.name}.during_ingest.queries`, lat.length, 'queries');
  t.report(`${set.name}.during_ingest.p50`, percentile(lat, 50), 'ms');
  t.report(`${set.name}.during_ingest.p95`, percentile(lat, 95), 'ms');
  t.report(`${set.name}.during_ingest.p99`, p99, 'ms');
  t.report(`${set.name}.during_ingest.p99_vs_loop_idle`, p99 / percentile(idle, 99), 'x');
  t.report(`${set.name}.during_ingest.p99_vs_first_pass`, p99 / (t.idleP99.get(set.name) ?? p99), 'x');
  t.report(`${set.name}.during_ingest.ingest_time`, ingest.doneMs / 1000, 's');
}

/** A search of the set's index that returns the ids of the first 10 hits. */
function searcher(request: Request, set: SideSet, primaryKey: string): (body: SearchBody) => Promise<string[]> {
  const path = `/indexes/${set.index}/search`;
  return async (body) => {
    const res = await request<Hits>('POST', path, body);
    if (res.status !== 200 || !Array.isArray(res.body?.hits)) throw new Error(`POST ${path} ${JSON.stringify(body)} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body.hits.slice(0, 10).map((h) => String(h[primaryKey]));
  };
}

async function concurrentPass(search: (b: SearchBody) => Promise<unknown>, bodies: readonly SearchBody[]): Promise<{ done: number; wallMs: number }> {
  const total = Math.max(bodies.length, C4_MIN);
  let next = 0;
  let done = 0;
  const t0 = nowMs();
  const loop = async () => {
    while (next < total && nowMs() - t0 < C4_BUDGET_MS) {
      const body = bodies[next++ % bodies.length]!;
      await search(body);
      done++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, loop));
  return { done, wallMs: nowMs() - t0 };
}
