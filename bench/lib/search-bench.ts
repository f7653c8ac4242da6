// The engine loop shared by the search-* workloads: for each engine, probe, index, run every
// query set, measure, close. See bench/README.md ("Search workloads") for every figure.
import { forceGc } from './gc.ts';
import { createEngine, ENGINE_NAMES, EngineUnavailable, type EngineName, type IndexSettings, type SearchEngine } from './engines.ts';
import { readMem, resetHwm } from './rss.ts';
import { nowMs, percentile, toMB } from './stats.ts';
import type { Doc } from './text.ts';
import type { WorkloadContext } from '../workloads/types.ts';

export interface QuerySpec {
  q: string;
  limit: number;
  /** weight in the quality figures (e.g. the query's popularity); default 1 */
  weight?: number;
  /** ids of the documents the query was made from (known-item queries) */
  expected?: readonly string[];
}

export interface QuerySet {
  /** figure prefix: <engine>.<name>.<metric> */
  name: string;
  description: string;
  /** distinct queries, each run once for the quality figures */
  queries: QuerySpec[];
  /**
   * the timed sequence, as indices into `queries` (e.g. repeated by popularity); when absent, the
   * quality pass itself is the timed pass
   */
  stream?: number[];
}

export interface SearchWorkloadSpec {
  docs: Doc[];
  settings: IndexSettings;
  sets: QuerySet[];
}

/** untimed queries before the first pass of each set (JIT, caches) */
const WARMUP = 50;
/** wall-clock cap of one timed pass; the pass stops early and says how many queries it timed */
const TIMED_PASS_BUDGET_MS = 60_000;
const REFERENCE: EngineName = 'minisearch';
const CONCURRENT_CLIENTS = 4;

interface PassResult {
  latencies: number[];
  wallMs: number;
}

async function timedPass(engine: SearchEngine, queries: readonly QuerySpec[], order: readonly number[], clients: number, keep?: string[][]): Promise<PassResult> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = nowMs();
  const deadline = t0 + TIMED_PASS_BUDGET_MS;
  const worker = async () => {
    for (;;) {
      if (next >= order.length || (!keep && nowMs() > deadline)) return;
      const i = order[next++]!;
      const spec = queries[i]!;
      const s = nowMs();
      const ids = await engine.search(spec.q, spec.limit);
      latencies.push(nowMs() - s);
      if (keep) keep[i] = ids;
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return { latencies, wallMs: nowMs() - t0 };
}

function reportPass(ctx: WorkloadContext, prefix: string, pass: PassResult): void {
  if (pass.latencies.length === 0) return;
  ctx.report(`${prefix}.p50`, percentile(pass.latencies, 50), 'ms');
  ctx.report(`${prefix}.p95`, percentile(pass.latencies, 95), 'ms');
  ctx.report(`${prefix}.p99`, percentile(pass.latencies, 99), 'ms');
  ctx.report(`${prefix}.qps`, pass.latencies.length / (pass.wallMs / 1000), 'q/s');
  ctx.report(`${prefix}.timed_queries`, pass.latencies.length, 'queries');
}

interface Quality {
  zeroHits: number;
  hitAt10?: number;
  mrrAt10?: number;
}

function quality(set: QuerySet, results: readonly string[][]): Quality {
  let w = 0;
  let zero = 0;
  let kw = 0;
  let hit = 0;
  let rr = 0;
  set.queries.forEach((spec, i) => {
    const weight = spec.weight ?? 1;
    const ids = results[i] ?? [];
    w += weight;
    if (ids.length === 0) zero += weight;
    if (spec.expected) {
      kw += weight;
      const want = new Set(spec.expected);
      const rank = ids.slice(0, 10).findIndex((id) => want.has(id));
      if (rank >= 0) {
        hit += weight;
        rr += weight / (rank + 1);
      }
    }
  });
  return { zeroHits: zero / w, ...(kw > 0 ? { hitAt10: hit / kw, mrrAt10: rr / kw } : {}) };
}

/** Mean over queries where the reference has hits of |top10 ∩ ref top10| / min(10, |ref top10|). */
function overlapAt10(set: QuerySet, results: readonly string[][], reference: readonly string[][]): number | null {
  let w = 0;
  let sum = 0;
  set.queries.forEach((spec, i) => {
    const ref = (reference[i] ?? []).slice(0, 10);
    if (ref.length === 0) return;
    const mine = new Set((results[i] ?? []).slice(0, 10));
    const weight = spec.weight ?? 1;
    w += weight;
    sum += (weight * ref.filter((id) => mine.has(id)).length) / ref.length;
  });
  return w > 0 ? sum / w : null;
}

/** V8 heap in use plus memory held outside it by JS objects (Buffers, ArrayBuffers) */
function heapBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

function selectEngines(ctx: WorkloadContext): EngineName[] {
  const wanted = ctx.options?.engines;
  if (!wanted || wanted.length === 0) return [...ENGINE_NAMES];
  for (const e of wanted) if (!(ENGINE_NAMES as readonly string[]).includes(e)) throw new Error(`unknown engine "${e}" (engines: ${ENGINE_NAMES.join(', ')})`);
  return ENGINE_NAMES.filter((e) => wanted.includes(e));
}

function capSet(set: QuerySet, max: number | undefined): QuerySet {
  if (!max) return set;
  if (set.stream) return { ...set, queries: set.queries, stream: set.stream.slice(0, max) };
  return { ...set, queries: set.queries.slice(0, max) };
}

interface Row {
  engine: string;
  cells: Record<string, string>;
}

export async function runSearchWorkload(ctx: WorkloadContext, spec: SearchWorkloadSpec): Promise<void> {
  const sets = spec.sets.map((s) => capSet(s, ctx.options?.maxQueries));
  ctx.report('dataset.documents', spec.docs.length, 'docs');
  for (const set of sets) {
    ctx.report(`dataset.${set.name}.distinct_queries`, set.queries.length, 'queries');
    ctx.report(`dataset.${set.name}.stream_queries`, (set.stream ?? set.queries).length, 'queries');
  }
  const engines = selectEngines(ctx);
  const gcOk = forceGc();
  const results = new Map<string, Map<string, string[][]>>(); // engine -> set -> ids per query
  const rows: Row[] = [];
  const errors: string[] = [];

  for (const name of engines) {
    const engine = createEngine(name, { request: ctx.request, waitForTask: ctx.waitForTask, serverDisk: ctx.disk });
    const row: Row = { engine: name, cells: {} };
    try {
      console.error(`[bench] ${name}: ${engine.config}`);
      const reason = await engine.probe();
      ctx.report(`${name}.available`, reason ? 0 : 1, 'bool');
      if (reason) {
        row.cells.status = 'not available yet';
        if (!ctx.options?.indexWithoutSearch) {
          console.error(`[bench] ${name}: skipped, ${reason}`);
          continue; // the finally clause closes the engine and adds the row
        }
        console.error(`[bench] ${name}: ${reason}; indexing only (--index-without-search)`);
      }

      // indexing
      forceGc();
      const heapBase = heapBytes();
      const base = readMem(process.pid);
      const hwmOk = resetHwm(process.pid);
      if (engine.kind === 'http') ctx.memPhase();
      const t0 = nowMs();
      await engine.index(spec.docs, spec.settings);
      const indexS = (nowMs() - t0) / 1000;
      ctx.report(`${name}.index_time`, indexS, 's');
      ctx.report(`${name}.index_docs_per_s`, spec.docs.length / indexS, 'docs/s');
      row.cells['index s'] = indexS.toFixed(2);
      row.cells['docs/s'] = Math.round(spec.docs.length / indexS).toLocaleString('en-US');
      if (engine.kind === 'http') {
        const peak = ctx.memPhase();
        ctx.report(`${name}.index_server_peak_rss`, toMB(peak.peakRss), 'MB');
        ctx.report(`${name}.index_server_peak_rss_anon`, toMB(peak.peakAnon), 'MB');
        row.cells['peak RSS MB'] = `${toMB(peak.peakRss).toFixed(0)} (server)`;
      } else {
        const after = readMem(process.pid);
        if (base && after && hwmOk) {
          ctx.report(`${name}.index_peak_rss_delta`, toMB((after.vmHWM - base.vmRSS) * 1024), 'MB');
          row.cells['peak RSS MB'] = `+${toMB((after.vmHWM - base.vmRSS) * 1024).toFixed(0)}`;
        }
        forceGc();
        const settled = readMem(process.pid);
        if (base && settled && gcOk) ctx.report(`${name}.index_retained_rss_delta`, toMB((settled.vmRSS - base.vmRSS) * 1024), 'MB');
        if (gcOk) {
          const retained = heapBytes() - heapBase;
          ctx.report(`${name}.index_retained_heap`, toMB(retained), 'MB');
          row.cells['retained heap MB'] = toMB(retained).toFixed(1);
        }
      }
      if (engine.disk) {
        const d = engine.disk();
        ctx.report(`${name}.disk`, toMB(d.apparentBytes), 'MB');
        ctx.report(`${name}.disk_allocated`, toMB(d.allocatedBytes), 'MB');
        row.cells['disk MB'] = toMB(d.apparentBytes).toFixed(1);
      }
      for (const [fig, value, unit] of engine.figures?.() ?? []) ctx.report(`${name}.${fig}`, value, unit);

      if (reason) continue; // --index-without-search: indexing figures only

      // searching
      const perSet = new Map<string, string[][]>();
      results.set(name, perSet);
      for (const set of sets) {
        const warm = set.queries.slice(0, WARMUP);
        for (const q of warm) await engine.search(q.q, q.limit);
        const ids: string[][] = new Array<string[]>(set.queries.length);
        const all = set.queries.map((_, i) => i);
        const first = await timedPass(engine, set.queries, all, 1, ids);
        perSet.set(set.name, ids);
        const c1 = set.stream ? await timedPass(engine, set.queries, set.stream, 1) : first;
        reportPass(ctx, `${name}.${set.name}`, c1);
        row.cells[`${set.name} p50/p95/p99 ms`] = [50, 95, 99].map((p) => percentile(c1.latencies, p).toFixed(2)).join(' / ');
        row.cells[`${set.name} qps`] = (c1.latencies.length / (c1.wallMs / 1000)).toFixed(0);
        if (engine.kind === 'http') {
          const c4 = await timedPass(engine, set.queries, set.stream ?? all, CONCURRENT_CLIENTS);
          reportPass(ctx, `${name}.${set.name}.c${CONCURRENT_CLIENTS}`, c4);
          row.cells[`${set.name} qps`] += ` (c4: ${(c4.latencies.length / (c4.wallMs / 1000)).toFixed(0)})`;
        }
        const qual = quality(set, ids);
        ctx.report(`${name}.${set.name}.zero_hits`, qual.zeroHits, 'x');
        row.cells[`${set.name} zero hits`] = qual.zeroHits.toFixed(3);
        if (qual.hitAt10 !== undefined) {
          ctx.report(`${name}.${set.name}.hit_at_10`, qual.hitAt10, 'x');
          ctx.report(`${name}.${set.name}.mrr_at_10`, qual.mrrAt10!, 'x');
          row.cells[`${set.name} hit@10`] = qual.hitAt10.toFixed(3);
        }
      }
      if (engine.kind === 'http') ctx.report(`${name}.search_server_peak_rss`, toMB(ctx.memPhase().peakRss), 'MB');
    } catch (err) {
      if (err instanceof EngineUnavailable) {
        console.error(`[bench] ${name}: skipped, ${err.message}`);
        ctx.report(`${name}.available`, 0, 'bool');
        row.cells.status = 'not available yet';
        results.delete(name);
      } else {
        const msg = err instanceof Error ? err.message : String(err);
        console.error(`[bench] ${name}: FAILED: ${err instanceof Error ? (err.stack ?? msg) : msg}`);
        errors.push(`${name}: ${msg}`);
        row.cells.status = `FAILED: ${msg.slice(0, 80)}`;
        results.delete(name);
      }
    } finally {
      await engine.close().catch(() => {});
      rows.push(row);
    }
  }

  // agreement with the reference engine, on the same distinct queries
  const ref = results.get(REFERENCE);
  if (ref) {
    for (const [name, perSet] of results) {
      if (name === REFERENCE) continue;
      for (const set of sets) {
        const o = overlapAt10(set, perSet.get(set.name) ?? [], ref.get(set.name) ?? []);
        if (o === null) continue;
        ctx.report(`${name}.${set.name}.overlap_at_10_vs_${REFERENCE}`, o, 'x');
        const row = rows.find((r) => r.engine === name);
        if (row) row.cells[`${set.name} overlap@10 vs ms`] = o.toFixed(3);
      }
    }
  }

  printSummary(rows);
  if (errors.length > 0) throw new Error(errors.join('; '));
}

function printSummary(rows: Row[]): void {
  // one column per engine, one line per measure
  const keys: string[] = [];
  for (const r of rows) for (const k of Object.keys(r.cells)) if (!keys.includes(k)) keys.push(k);
  const table = [['', ...rows.map((r) => r.engine)], ...keys.map((k) => [k, ...rows.map((r) => r.cells[k] ?? '')])];
  const w = table[0]!.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const fmtLine = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  console.log(['', 'summary', fmtLine(table[0]!), ...table.slice(1).map(fmtLine)].join('\n'));
}
