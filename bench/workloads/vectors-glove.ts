// vectors-glove: 100,000 GloVe 100-d vectors (userProvided embedder, cosine) sent as 10 NDJSON
// payloads of 10,000 documents, then the dataset's 1,000 queries over HTTP: recall@10 against
// the exact top-100, latency and QPS at one and four clients; filtered searches at 10 % and 1 %
// selectivity against exact filtered truth (brute force here); then 1,000 vectors added to the
// graph and 10 % of the documents deleted, with the recall after. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { percentile } from '../lib/stats.ts';
import type { Workload, WorkloadContext } from './types.ts';

const DATASET = 'vectors-glove100-100k';
const D = 100;
const UID = 'bench-vectors-glove';
const EMBEDDER = 'glove';

interface Glove {
  base: Float32Array;
  queries: Float32Array;
  truth: Int32Array;
  n: number;
}

function load(datasetsDir: string): Glove {
  const dir = path.join(datasetsDir, DATASET);
  const f32 = (name: string) => new Float32Array(new Uint8Array(fs.readFileSync(path.join(dir, name))).buffer);
  const base = f32('base.f32');
  const truth = new Int32Array(new Uint8Array(fs.readFileSync(path.join(dir, 'groundtruth-cosine-top100.i32'))).buffer);
  return { base, queries: f32('queries.f32'), truth, n: base.length / D };
}

const row = (a: Float32Array, i: number) => a.subarray(i * D, (i + 1) * D);

/** Exact top-k by cosine among `ids`. */
function exactTop(g: Glove, q: Float32Array, ids: readonly number[], k: number): number[] {
  const qn = Math.hypot(...q);
  const scored = ids.map((id) => {
    const v = row(g.base, id);
    let dot = 0;
    let vn = 0;
    for (let i = 0; i < D; i++) {
      dot += q[i]! * v[i]!;
      vn += v[i]! * v[i]!;
    }
    return [id, dot / (qn * Math.sqrt(vn))] as const;
  });
  return scored.sort((a, b) => b[1] - a[1]).slice(0, k).map((s) => s[0]);
}

interface Reply {
  hits: Array<{ id: number }>;
}

async function searchAll(ctx: WorkloadContext, bodies: readonly Record<string, unknown>[], clients: number): Promise<{ ids: number[][]; ms: number[]; wallMs: number }> {
  const ids: number[][] = new Array(bodies.length);
  const ms: number[] = new Array(bodies.length);
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    for (let i = next++; i < bodies.length; i = next++) {
      const res = await ctx.request<Reply>('POST', `/indexes/${UID}/search`, bodies[i]);
      if (res.status !== 200) throw new Error(`search ${res.status}: ${JSON.stringify(res.body)}`);
      ids[i] = res.body.hits.map((h) => Number(h.id));
      ms[i] = res.ms;
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return { ids, ms, wallMs: performance.now() - t0 };
}

function recallAt10(found: number[][], truth: (i: number) => readonly number[]): number {
  let hit = 0;
  let total = 0;
  found.forEach((ids, i) => {
    const want = new Set(truth(i).slice(0, 10));
    total += want.size;
    for (const id of ids) if (want.has(id)) hit++;
  });
  return total === 0 ? 1 : hit / total;
}

function ndjson(g: Glove, from: number, to: number, vectors: Float32Array = g.base, idOffset = 0): string {
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    const id = i + idOffset;
    lines.push(JSON.stringify({ id, p10: id % 10 === 0, p1: id % 100 === 0, _vectors: { [EMBEDDER]: Array.from(row(vectors, i)) } }));
  }
  return lines.join('\n');
}

async function sendAndWait(ctx: WorkloadContext, payloads: string[]): Promise<number> {
  const t0 = performance.now();
  const uids: number[] = [];
  for (const body of payloads) {
    const res = await ctx.request<{ taskUid: number }>('POST', `/indexes/${UID}/documents`, body, { 'content-type': 'application/x-ndjson' });
    if (res.status !== 202) throw new Error(`add ${res.status}: ${JSON.stringify(res.body)}`);
    uids.push(res.body.taskUid);
  }
  for (const uid of uids) {
    const task = await ctx.waitForTask(uid, 3_600_000);
    if (task.status !== 'succeeded') throw new Error(`task ${uid} ${task.status}: ${JSON.stringify(task.error)}`);
  }
  return performance.now() - t0;
}

export const vectorsGlove: Workload = {
  name: 'vectors-glove',
  description: '100k GloVe 100-d vectors over HTTP: ingest, recall@10 / latency / QPS (1 and 4 clients), filtered at 10 % and 1 %, +1,000 vectors, −10 %',
  dataset: DATASET,
  async run(ctx) {
    const g = load(ctx.datasetsDir);
    const settings = await ctx.request<{ taskUid: number }>('PATCH', `/indexes/${UID}/settings`, {
      embedders: { [EMBEDDER]: { source: 'userProvided', dimensions: D } },
      filterableAttributes: ['p10', 'p1'],
    });
    await ctx.waitForTask(settings.body.taskUid);
    ctx.memPhase();

    const payloads = Array.from({ length: 10 }, (_, p) => ndjson(g, p * 10_000, (p + 1) * 10_000));
    const ingestMs = await sendAndWait(ctx, payloads);
    ctx.report('ingest.seconds', ingestMs / 1000, 's');
    ctx.report('ingest.vectorsPerSecond', g.n / (ingestMs / 1000), 'vectors/s');
    const ingestMem = ctx.memPhase();
    ctx.report('ingest.peakRss', ingestMem.peakRss / 1e6, 'MB');
    ctx.report('ingest.peakAnon', ingestMem.peakAnon / 1e6, 'MB');
    // after the server's quiet release (the scheduler retires 5 s after the batch, and the
    // release runs 5 s after that, then a full GC and the trim): what indexing leaves behind
    await new Promise((r) => setTimeout(r, 15_000));
    ctx.memPhase();
    await new Promise((r) => setTimeout(r, 500));
    const settled = ctx.memPhase();
    ctx.report('afterIngest.rss', settled.peakRss / 1e6, 'MB');
    ctx.report('afterIngest.anon', settled.peakAnon / 1e6, 'MB');
    ctx.report('disk.total', ctx.disk().allocatedBytes / 1e6, 'MB');

    const nq = g.queries.length / D;
    const body = (i: number, extra: Record<string, unknown> = {}) => ({
      vector: Array.from(row(g.queries, i)),
      hybrid: { embedder: EMBEDDER, semanticRatio: 1 },
      limit: 10,
      attributesToRetrieve: ['id'],
      ...extra,
    });
    const bodies = Array.from({ length: nq }, (_, i) => body(i));
    await searchAll(ctx, bodies.slice(0, 50), 1); // warm-up
    const truth = (i: number) => Array.from(g.truth.subarray(i * 100, i * 100 + 10));
    for (const clients of [1, 4]) {
      const run = await searchAll(ctx, bodies, clients);
      ctx.report(`search.c${clients}.recall10`, recallAt10(run.ids, truth), '');
      ctx.report(`search.c${clients}.p50`, percentile(run.ms, 50), 'ms');
      ctx.report(`search.c${clients}.p95`, percentile(run.ms, 95), 'ms');
      ctx.report(`search.c${clients}.p99`, percentile(run.ms, 99), 'ms');
      ctx.report(`search.c${clients}.qps`, nq / (run.wallMs / 1000), 'q/s');
    }
    const searchMem = ctx.memPhase();
    ctx.report('search.peakRss', searchMem.peakRss / 1e6, 'MB');
    ctx.report('search.peakAnon', searchMem.peakAnon / 1e6, 'MB');

    // filtered: exact truth among the matching documents, on 200 queries
    for (const [field, every] of [['p10', 10], ['p1', 100]] as const) {
      const ids = Array.from({ length: g.n / every }, (_, k) => k * every);
      const some = Array.from({ length: 200 }, (_, i) => i);
      const exact = some.map((i) => exactTop(g, row(g.queries, i), ids, 10));
      const run = await searchAll(ctx, some.map((i) => body(i, { filter: `${field} = true` })), 1);
      ctx.report(`filtered.${field}.recall10`, recallAt10(run.ids, (i) => exact[i]!), '');
      ctx.report(`filtered.${field}.p50`, percentile(run.ms, 50), 'ms');
      ctx.report(`filtered.${field}.p99`, percentile(run.ms, 99), 'ms');
      ctx.report(`filtered.${field}.qps`, some.length / (run.wallMs / 1000), 'q/s');
    }

    // +1,000 vectors (the query vectors, as new documents), then −10 %
    const addMs = await sendAndWait(ctx, [ndjson(g, 0, 1000, g.queries, g.n)]);
    ctx.report('incremental.add1000.seconds', addMs / 1000, 's');
    // the same vectors again as new documents, in payloads of 100 and of 1 (autobatching may join them)
    const hundreds = Array.from({ length: 10 }, (_, p) => ndjson(g, p * 100, (p + 1) * 100, g.queries, g.n + 1000));
    ctx.report('incremental.add10x100.seconds', (await sendAndWait(ctx, hundreds)) / 1000, 's');
    const ones = Array.from({ length: 100 }, (_, i) => ndjson(g, i, i + 1, g.queries, g.n + 2000));
    ctx.report('incremental.add100x1.seconds', (await sendAndWait(ctx, ones)) / 1000, 's');
    const doomed = Array.from({ length: g.n / 10 }, (_, k) => k * 10 + 3);
    const del = await ctx.request<{ taskUid: number }>('POST', `/indexes/${UID}/documents/delete-batch`, doomed);
    const t0 = performance.now();
    await ctx.waitForTask(del.body.taskUid, 3_600_000);
    ctx.report('incremental.delete10pct.seconds', (performance.now() - t0) / 1000, 's');
    const gone = new Set(doomed);
    const left = Array.from({ length: g.n }, (_, i) => i).filter((i) => !gone.has(i));
    const some = Array.from({ length: 200 }, (_, i) => 500 + i);
    const exact = some.map((i) => exactTop(g, row(g.queries, i), left, 10));
    const run = await searchAll(ctx, some.map((i) => body(i)), 1);
    // the added documents are the queries themselves (ids n + …): leave them out of the comparison
    const found = run.ids.map((ids) => ids.filter((id) => id < g.n));
    ctx.report('incremental.recall10', recallAt10(found, (i) => exact[i]!.slice(0, found[i]!.length)), '');
    ctx.report('overall.peakRss', ctx.memOverall().peakRss / 1e6, 'MB');
  },
};
