// The loop shared by the filter, facet and geo workloads (issue 4): one index built twice with the
// same settings and documents (in the runner's server, and in this process through src/lib.ts),
// then, per query class: a check pass, warm-up, and three timed passes.
//
//   index ─► server (HTTP, NDJSON)  +  Muninn.open (dist/lib.js) in a temp dir (Muninn.request, JSON array)
//   classes(search) ─► built once the in-process index answers (a class may derive its filters
//   from unfiltered searches)
//   per class: check pass (every distinct query, in-process and over HTTP: same answer in both,
//   and the class's own check, e.g. a hit count computed naively from the documents) ─► any
//   failure ends the run with an error ─► warm-up ─► in-process c1 (Muninn.search, the engine
//   call, one per event-loop turn) ─► HTTP c1 ─► HTTP c4 (4 clients on keep-alive sockets) ─►
//   p50/p95/p99, qps
//
// A wrong answer fails the run: a benchmark that measures errors is worthless.
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { forceGc } from './gc.ts';
import { makeTempDir } from './server.ts';
import { nowMs, percentile } from './stats.ts';
import type { Doc } from './text.ts';
import type { WorkloadContext } from '../workloads/types.ts';

export type SearchBody = Record<string, unknown>;

/** The parts of a search response the checks read. */
export interface SearchReply {
  hits: Doc[];
  estimatedTotalHits?: number;
  totalHits?: number;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
  processingTimeMs?: number;
  [k: string]: unknown;
}

/** A check: null when the reply is right, else what is wrong. */
export type Check = (reply: SearchReply) => string | null;

export interface BenchQuery {
  body: SearchBody;
  check?: Check;
  /** measured selectivity of the query's filter (share of the index), reported per class */
  selectivity?: number;
}

export interface QueryClass {
  name: string;
  description: string;
  /** distinct queries; each goes through the check pass */
  queries: BenchQuery[];
  /** timed sequence (indices into `queries`); default: the queries shuffled and cycled to STREAM */
  stream?: number[];
  /** in-process p95 target in ms (printed as met / missed; a miss does not fail the run) */
  targetP95Ms?: number;
}

export interface FilterWorkloadSpec {
  uid: string;
  primaryKey: string;
  docs: Doc[];
  /** the full settings object sent with PATCH /indexes/{uid}/settings */
  settings: Record<string, unknown>;
  /** built once both indexes are ready; `search` runs in-process (for classes derived from answers) */
  classes(search: (body: SearchBody) => SearchReply): QueryClass[];
  /** length of a class's default stream */
  streamLength?: number;
}

const STREAM = 400;
/** untimed queries before each timed pass: this many, or fewer when they take longer than WARMUP_MS */
const WARMUP = 50;
const WARMUP_MS = 3_000;
const CLIENTS = 4;
/** wall-clock cap of one timed pass */
const PASS_BUDGET_MS = 20_000;
const MAX_PAYLOAD = 50_000_000;

interface MuninnLib {
  Muninn: {
    open(opts: { dbPath?: string; payloadSizeLimit?: number }): Promise<InProcess>;
  };
}
interface InProcess {
  request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: T }>;
  waitForTask(taskUid: number, opts?: { timeoutMs?: number; intervalMs?: number }): Promise<Record<string, unknown>>;
  search(indexUid: string, body: Record<string, unknown>): unknown;
  close(): Promise<void>;
}

type Call = <T = unknown>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, ndjson?: boolean) => Promise<{ status: number; body: T }>;
type Wait = (taskUid: number) => Promise<{ status?: unknown; error?: unknown }>;

async function enqueued(what: string, res: { status: number; body: unknown }, wait: Wait): Promise<void> {
  const uid = (res.body as { taskUid?: number } | null)?.taskUid;
  if (res.status !== 202 || typeof uid !== 'number') throw new Error(`${what} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  const task = await wait(uid);
  if (task.status !== 'succeeded') throw new Error(`${what}: task ${uid} ${String(task.status)}: ${JSON.stringify(task.error)}`);
}

/** Creates the index, applies every setting, adds the documents, checks the document count. */
async function buildIndex(call: Call, wait: Wait, spec: FilterWorkloadSpec, ndjson: boolean): Promise<void> {
  const { uid, primaryKey, docs } = spec;
  await enqueued(`POST /indexes ${uid}`, await call('POST', '/indexes', { uid, primaryKey }), wait);
  await enqueued(`PATCH /indexes/${uid}/settings`, await call('PATCH', `/indexes/${uid}/settings`, spec.settings), wait);
  const path = `/indexes/${uid}/documents?primaryKey=${encodeURIComponent(primaryKey)}`;
  if (ndjson) {
    const lines = docs.map((d) => JSON.stringify(d));
    for (let i = 0; i < lines.length; ) {
      let bytes = 0;
      const start = i;
      while (i < lines.length && (i === start || bytes + lines[i]!.length + 1 <= MAX_PAYLOAD)) bytes += lines[i++]!.length + 1;
      await enqueued(`POST ${path}`, await call('POST', path, lines.slice(start, i).join('\n') + '\n', true), wait);
    }
  } else {
    await enqueued(`POST ${path}`, await call('POST', path, docs), wait);
  }
  const distinct = new Set(docs.map((d) => String(d[primaryKey]))).size;
  const stats = await call<{ numberOfDocuments?: number }>('GET', `/indexes/${uid}/stats`);
  if (stats.status !== 200 || stats.body?.numberOfDocuments !== distinct) {
    throw new Error(`${uid}: expected numberOfDocuments ${distinct}, got ${stats.status} ${JSON.stringify(stats.body).slice(0, 200)}`);
  }
}

/** JSON with object keys sorted, without the fields that differ between two runs of one query. */
function canonical(reply: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) if (v[k as keyof typeof v] !== undefined) out[k] = sortKeys(v[k as keyof typeof v]);
      return out;
    }
    return v;
  };
  const { processingTimeMs: _t, requestUid: _r, ...rest } = reply as Record<string, unknown>;
  return JSON.stringify(sortKeys(rest));
}

interface Pass {
  latencies: number[];
  wallMs: number;
  /**
   * in-process passes: share of the pass this thread spent runnable but waiting for a core (other
   * processes on the shared machine); null when /proc cannot tell
   */
  waitShare?: number | null;
}

/** This thread's [run, wait-for-a-core] ns so far (/proc/thread-self/schedstat; tick-granular, so per pass, not per call). */
function schedstat(): [number, number] | null {
  try {
    const [run, wait] = fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ').map(Number);
    return run !== undefined && wait !== undefined && Number.isFinite(run) && Number.isFinite(wait) ? [run, wait] : null;
  } catch {
    return null;
  }
}

export interface ClassFigures {
  name: string;
  queries: number;
  inprocess?: Pass;
  http?: Pass;
  c4?: Pass;
  target?: number;
}

export async function runFilterWorkload(ctx: WorkloadContext, spec: FilterWorkloadSpec): Promise<void> {
  const gcOk = forceGc();
  ctx.report('dataset.documents', spec.docs.length, 'docs');

  // the server's index
  const call: Call = (method, path, body, ndjson) => ctx.request(method, path, body, ndjson ? { 'Content-Type': 'application/x-ndjson' } : {});
  let t0 = nowMs();
  await buildIndex(call, (uid) => ctx.waitForTask(uid), spec, true);
  ctx.report('http.index_time', (nowMs() - t0) / 1000, 's');

  // the in-process one: the compiled library (`npm run bench` builds dist/ first), what
  // `import { Muninn } from 'muninn'` loads
  const lib = (await import('../../dist/lib.js' as string)) as unknown as MuninnLib;
  const dir = makeTempDir('muninn-bench-filter-');
  const m = await lib.Muninn.open({ dbPath: dir, payloadSizeLimit: 1_000_000_000 });
  try {
    const local: Call = (method, path, body) => m.request(method, path, body);
    t0 = nowMs();
    await buildIndex(local, (uid) => m.waitForTask(uid, { timeoutMs: 30 * 60_000 }) as Promise<{ status?: unknown }>, spec, false);
    ctx.report('inprocess.index_time', (nowMs() - t0) / 1000, 's');

    const search = (body: SearchBody): SearchReply => m.search(spec.uid, body) as SearchReply;
    let retries = 0;
    const httpSearch = async (body: SearchBody): Promise<SearchReply> => {
      const send = () => ctx.request<SearchReply>('POST', `/indexes/${spec.uid}/search`, body);
      // a keep-alive socket left idle during the in-process passes may be closed by the server just
      // as it is reused: a search is idempotent, send it once more (and count it)
      const res = await send().catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ECONNRESET' && err.message !== 'socket hang up') throw err;
        retries++;
        return send();
      });
      if (res.status !== 200) throw new Error(`POST /indexes/${spec.uid}/search ${JSON.stringify(body)} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.body;
    };
    const classes = spec.classes(search);
    const rows: ClassFigures[] = [];
    const failures: string[] = [];

    for (const cls of classes) {
      console.error(`[bench] ${cls.name}: ${cls.queries.length} distinct queries — ${cls.description}`);
      ctx.report(`${cls.name}.distinct_queries`, cls.queries.length, 'queries');

      // check pass: the same answer in-process and over HTTP, and the class's own check
      let zero = 0;
      let total = 0;
      const before = failures.length;
      for (const [i, q] of cls.queries.entries()) {
        const what = `${cls.name}[${i}] ${JSON.stringify(q.body)}`;
        let local: SearchReply;
        try {
          local = search(q.body);
        } catch (err) {
          failures.push(`${what}: in-process error ${err instanceof Error ? err.message : String(err)}`);
          continue;
        }
        let remote: SearchReply;
        try {
          remote = await httpSearch(q.body);
        } catch (err) {
          failures.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
          continue;
        }
        if (canonical(local) !== canonical(remote)) failures.push(`${what}: in-process and HTTP answers differ`);
        const problem = q.check?.(local) ?? null;
        if (problem !== null) failures.push(`${what}: ${problem}`);
        if (local.hits.length === 0) zero++;
        total += local.estimatedTotalHits ?? local.totalHits ?? 0;
      }
      const bad = failures.length - before;
      ctx.report(`${cls.name}.check_failures`, bad, 'queries');
      ctx.report(`${cls.name}.zero_hits`, zero / cls.queries.length, 'x');
      ctx.report(`${cls.name}.mean_total_hits`, total / cls.queries.length, 'hits');
      const sel = cls.queries.map((q) => q.selectivity).filter((s): s is number => s !== undefined);
      if (sel.length > 0) {
        ctx.report(`${cls.name}.selectivity_mean`, sel.reduce((a, b) => a + b, 0) / sel.length, 'x');
        ctx.report(`${cls.name}.selectivity_min`, Math.min(...sel), 'x');
        ctx.report(`${cls.name}.selectivity_max`, Math.max(...sel), 'x');
      }
      if (bad > 0) {
        console.error(`[bench] ${cls.name}: ${bad} WRONG ANSWERS, e.g.\n  ${failures.slice(before, before + 5).join('\n  ')}`);
        rows.push({ name: cls.name, queries: cls.queries.length });
        continue; // no timing of wrong answers; the run fails below
      }

      const stream = cls.stream ?? defaultStream(cls.queries.length, spec.streamLength ?? STREAM);
      const bodies = stream.map((i) => cls.queries[i]!.body);
      const warm = bodies.slice(0, WARMUP);

      // in-process, one caller (Muninn.search is synchronous)
      for (let i = 0, t = nowMs(); i < warm.length && nowMs() - t < WARMUP_MS; i++) {
        await nextTurn();
        search(warm[i]!);
      }
      if (gcOk) forceGc();
      const inprocess = await timeInProcess(bodies, search);
      report(ctx, `${cls.name}.inprocess`, inprocess);

      // HTTP, 1 and 4 clients
      for (let i = 0, t = nowMs(); i < warm.length && nowMs() - t < WARMUP_MS; i++) await httpSearch(warm[i]!);
      if (gcOk) forceGc();
      const http = await timeHttp(bodies, httpSearch, 1);
      report(ctx, `${cls.name}.http`, http);
      const c4 = await timeHttp(bodies, httpSearch, CLIENTS);
      report(ctx, `${cls.name}.http.c${CLIENTS}`, c4);
      const row: ClassFigures = { name: cls.name, queries: cls.queries.length, inprocess, http, c4 };
      if (cls.targetP95Ms !== undefined) {
        row.target = cls.targetP95Ms;
        ctx.report(`${cls.name}.target_p95_met`, percentile(inprocess.latencies, 95) < cls.targetP95Ms ? 1 : 0, 'bool');
      }
      rows.push(row);
    }
    ctx.report('http.retried_requests', retries, 'requests');
    ctx.report('server.search_peak_rss', ctx.memPhase().peakRss / 1e6, 'MB');
    printSummary(rows);
    if (failures.length > 0) {
      throw new Error(`${failures.length} wrong answer(s); first: ${failures.slice(0, 3).join(' | ')}`);
    }
  } finally {
    await m.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** 0..n-1 shuffled (fixed seed), repeated to `length` (at least every query once). */
function defaultStream(n: number, length: number): number[] {
  const out: number[] = [];
  let s = 0x9e3779b9 ^ n;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  while (out.length < Math.max(n, length)) {
    const round = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    out.push(...round);
  }
  return out.slice(0, Math.max(n, length));
}

/**
 * One caller, one call per event-loop turn (as from an application's handlers): between turns V8
 * runs its scavenge jobs, which a synchronous loop would push into the next call's allocations
 * instead (geo sort p95 9.9 → 4.1 ms when measured both ways).
 */
async function timeInProcess(bodies: readonly SearchBody[], search: (b: SearchBody) => SearchReply): Promise<Pass> {
  const latencies: number[] = [];
  const before = schedstat();
  const t0 = nowMs();
  for (const b of bodies) {
    await nextTurn();
    const s = nowMs();
    search(b);
    latencies.push(nowMs() - s);
    if (s - t0 > PASS_BUDGET_MS) break;
  }
  const wallMs = nowMs() - t0;
  const after = schedstat();
  const waitShare = before && after ? (after[1] - before[1]) / 1e6 / wallMs : null;
  return { latencies, wallMs, waitShare };
}

async function timeHttp(bodies: readonly SearchBody[], search: (b: SearchBody) => Promise<SearchReply>, clients: number): Promise<Pass> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = nowMs();
  const worker = async () => {
    while (next < bodies.length && nowMs() - t0 < PASS_BUDGET_MS) {
      const b = bodies[next++]!;
      const s = nowMs();
      await search(b); // throws on a non-200 answer
      latencies.push(nowMs() - s);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return { latencies, wallMs: nowMs() - t0 };
}

function report(ctx: WorkloadContext, prefix: string, pass: Pass): void {
  if (pass.latencies.length === 0) return;
  for (const p of [50, 95, 99]) ctx.report(`${prefix}.p${p}`, percentile(pass.latencies, p), 'ms');
  if (pass.waitShare !== undefined && pass.waitShare !== null) ctx.report(`${prefix}.cpu_wait_share`, pass.waitShare, 'x');
  ctx.report(`${prefix}.qps`, pass.latencies.length / (pass.wallMs / 1000), 'q/s');
  ctx.report(`${prefix}.timed_queries`, pass.latencies.length, 'queries');
}

function printSummary(rows: readonly ClassFigures[]): void {
  const pct = (p: Pass | undefined) => (p === undefined || p.latencies.length === 0 ? '—' : [50, 95, 99].map((q) => percentile(p.latencies, q).toFixed(2)).join(' / '));
  const table = [
    ['class', 'queries', 'timed', 'in-process p50/p95/p99 ms', 'waited', 'HTTP c1 p50/p95/p99', 'HTTP c4 p50/p95/p99', 'c4 q/s', 'target p95'],
    ...rows.map((r) => [
      r.name,
      String(r.queries),
      String(r.inprocess?.latencies.length ?? 0),
      pct(r.inprocess),
      typeof r.inprocess?.waitShare === 'number' ? `${(r.inprocess.waitShare * 100).toFixed(1)}%` : '—',
      pct(r.http),
      pct(r.c4),
      r.c4 ? (r.c4.latencies.length / (r.c4.wallMs / 1000)).toFixed(0) : '—',
      r.target === undefined || !r.inprocess ? '' : `< ${r.target} ms: ${percentile(r.inprocess.latencies, 95) < r.target ? 'met' : 'MISSED'}`,
    ]),
  ];
  const w = table[0]!.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  console.log(
    ['', 'summary (latency in ms; in-process = Muninn.search in the runner; waited = share of the in-process pass spent waiting for a core)', ...table.map(line)].join('\n'),
  );
}

// ---------------------------------------------------------------------------------------------
// Naive reference computations for the checks

/** milli's facet normalization of a string: trim, NFKD, lower case. */
export const norm = (s: string): string => s.trim().normalize('NFKD').toLowerCase();

/** A field's values as an array (a scalar is one value, null / missing none). */
export function valuesOf(doc: Doc, field: string): unknown[] {
  const v = doc[field];
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/** A filter value in double quotes (for values with spaces, `>`, `&`...). */
export const quote = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const RAD = Math.PI / 180;
/** Haversine distance in meters, Earth radius 6,371 km, rounded to the millimetre (as milli computes it). */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const phi1 = lat1 * RAD;
  const phi2 = lat2 * RAD;
  const a = (1 - Math.cos(phi2 - phi1)) / 2 + Math.cos(phi1) * Math.cos(phi2) * ((1 - Math.cos(lng2 * RAD - lng1 * RAD)) / 2);
  return Math.round(2 * 6371e3 * Math.asin(Math.sqrt(a)) * 1000) / 1000;
}

/** The total a reply reports (estimatedTotalHits, or totalHits in page mode). */
export const totalOf = (r: SearchReply): number => r.estimatedTotalHits ?? r.totalHits ?? -1;

/** Checks the reported total, and that every hit passes `pred` (by its id in `byId`). */
export function expectTotal(expected: number, opts: { pred?: (d: Doc) => boolean; byId?: Map<string, Doc>; key?: string; minHits?: number } = {}): Check {
  return (r) => {
    if (totalOf(r) !== expected) return `total ${totalOf(r)}, expected ${expected}`;
    if (opts.minHits !== undefined && r.hits.length < opts.minHits) return `${r.hits.length} hits, expected at least ${opts.minHits}`;
    if (opts.pred) {
      for (const h of r.hits) {
        const doc = opts.byId ? opts.byId.get(String(h[opts.key ?? 'id'])) : h;
        if (doc === undefined || !opts.pred(doc)) return `hit ${JSON.stringify(h).slice(0, 200)} does not match the filter`;
      }
    }
    return null;
  };
}

/** Checks several things in turn. */
export const all = (...checks: Array<Check | undefined>): Check => (r) => {
  for (const c of checks) {
    const p = c?.(r) ?? null;
    if (p !== null) return p;
  }
  return null;
};

/**
 * The facet distribution and stats of `candidates`, checked against naive counts: every returned
 * value has its exact count; a field returns min(maxValues, distinct values) entries; strings are
 * the first ones in byte order of their normalized form (the default `alpha` order); `numeric`
 * fields get their min/max in facetStats.
 */
export function expectFacets(candidates: readonly Doc[], fields: readonly string[], numeric: readonly string[], maxValues = 100): Check {
  const want = new Map<string, Map<string, number>>();
  const stats = new Map<string, { min: number; max: number }>();
  for (const f of fields) {
    const counts = new Map<string, number>();
    for (const d of candidates) {
      const seen = new Set<string>();
      for (const v of valuesOf(d, f)) {
        const key = typeof v === 'number' ? `n:${v}` : `s:${norm(String(v))}`;
        if (seen.has(key)) continue;
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        if (typeof v === 'number') {
          const s = stats.get(f);
          if (s === undefined) stats.set(f, { min: v, max: v });
          else {
            s.min = Math.min(s.min, v);
            s.max = Math.max(s.max, v);
          }
        }
      }
    }
    want.set(f, counts);
  }
  return (r) => {
    const dist = r.facetDistribution;
    if (dist === undefined) return 'no facetDistribution';
    for (const f of fields) {
      const got = dist[f];
      const counts = want.get(f)!;
      if (got === undefined) return `facetDistribution has no ${f}`;
      const keys = Object.keys(got);
      const expectedKeys = Math.min(maxValues, counts.size);
      if (keys.length !== expectedKeys) return `${f}: ${keys.length} values, expected ${expectedKeys}`;
      for (const k of keys) {
        const n = numeric.includes(f) ? counts.get(`n:${Number(k)}`) : counts.get(`s:${norm(k)}`);
        if (n !== got[k]) return `${f}: ${JSON.stringify(k)} counted ${got[k]}, expected ${n ?? 0}`;
      }
      if (!numeric.includes(f)) {
        const enc = (s: string) => Buffer.from(s, 'utf8');
        const first = [...counts.keys()].map((k) => k.slice(2)).sort((a, b) => Buffer.compare(enc(a), enc(b))).slice(0, maxValues);
        const gotNorm = new Set(keys.map(norm));
        const missing = first.find((k) => !gotNorm.has(k));
        if (missing !== undefined) return `${f}: value ${JSON.stringify(missing)} missing from the first ${maxValues} in alpha order`;
      }
    }
    for (const f of numeric) {
      const s = stats.get(f);
      const g = r.facetStats?.[f];
      if (s === undefined ? g !== undefined : g === undefined || g.min !== s.min || g.max !== s.max) {
        return `facetStats.${f} ${JSON.stringify(g)}, expected ${JSON.stringify(s)}`;
      }
    }
    return null;
  };
}
