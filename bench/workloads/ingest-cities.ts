// ingest-cities: 135k GeoNames cities, ingested as one payload, as ten payloads, and a
// 50 x ~2 MB enqueue-latency probe. See bench/README.md for what each figure means.
// With MUNINN_BENCH_CITIES_FACETS=1 each index first gets the dataset's filterable and sortable
// attributes (queries.json's settings_for_this_dataset, searchable attributes left as they are),
// so the figures include facet and geo indexing.
import fs from 'node:fs';
import path from 'node:path';
import { isoDurationSeconds, nowMs, percentile, toMB } from '../lib/stats.ts';
import type { TaskJson, Workload, WorkloadContext } from './types.ts';

const DATASET = 'geo-cities-geonames-135k';
const PRIMARY_KEY = 'id';
const NDJSON = { 'Content-Type': 'application/x-ndjson' };
const PROBE_BYTES = 2_000_000;
const PROBE_POSTS = 50;
const PROBE_P99_TARGET_MS = 50;

interface Enqueued {
  taskUid: number;
  ms: number;
}

const seenTaskUids = new Set<number>();

/** The facet settings of queries.json's settings_for_this_dataset (searchable attributes untouched). */
const FACET_SETTINGS = {
  filterableAttributes: ['_geo', 'population', 'country', 'featureCode'],
  sortableAttributes: ['_geo', 'population'],
};
const withFacets = (): boolean => process.env.MUNINN_BENCH_CITIES_FACETS === '1';

/** Creates the index with the facet settings (when asked) before any document is sent. */
async function prepareIndex(ctx: WorkloadContext, index: string): Promise<void> {
  if (!withFacets()) return;
  const res = await ctx.request<{ taskUid?: number }>('PATCH', `/indexes/${index}/settings`, FACET_SETTINGS);
  if (res.status !== 202 || typeof res.body.taskUid !== 'number') {
    throw new Error(`PATCH /indexes/${index}/settings -> ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
  }
  seenTaskUids.add(res.body.taskUid);
  const task = await ctx.waitForTask(res.body.taskUid);
  if (task.status !== 'succeeded') throw new Error(`settings task ${task.uid} on ${index} ${task.status}: ${JSON.stringify(task.error)}`);
}

async function enqueue(ctx: WorkloadContext, index: string, body: Uint8Array): Promise<Enqueued> {
  const res = await ctx.request<{ taskUid?: number }>('POST', `/indexes/${index}/documents?primaryKey=${PRIMARY_KEY}`, body, NDJSON);
  if (res.status !== 202 || typeof res.body.taskUid !== 'number') {
    throw new Error(`POST /indexes/${index}/documents -> ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`);
  }
  const taskUid = res.body.taskUid;
  // a repeated uid would make waitForTask watch someone else's task
  if (seenTaskUids.has(taskUid)) throw new Error(`POST /indexes/${index}/documents returned taskUid ${taskUid} twice`);
  seenTaskUids.add(taskUid);
  return { taskUid, ms: res.ms };
}

function mustSucceed(task: TaskJson, index: string): TaskJson {
  if (task.indexUid !== index) throw new Error(`task ${task.uid} belongs to index ${task.indexUid}, expected ${index}`);
  if (task.status !== 'succeeded') {
    throw new Error(`task ${task.uid} (${task.type} on ${task.indexUid}) ${task.status}: ${JSON.stringify(task.error)}`);
  }
  return task;
}

async function checkCount(ctx: WorkloadContext, index: string, expected: number): Promise<number> {
  const res = await ctx.request<{ numberOfDocuments?: number }>('GET', `/indexes/${index}/stats`);
  const n = res.body?.numberOfDocuments;
  if (res.status !== 200 || n !== expected) {
    throw new Error(`${index}: expected numberOfDocuments ${expected}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  return n;
}

const ndjson = (lines: readonly string[]): Uint8Array => Buffer.from(lines.join('\n') + '\n', 'utf8');

function distinctIds(lines: readonly string[]): number {
  const ids = new Set<unknown>();
  for (const line of lines) ids.add((JSON.parse(line) as Record<string, unknown>)[PRIMARY_KEY]);
  return ids.size;
}

export const ingestCities: Workload = {
  name: 'ingest-cities',
  description: 'NDJSON ingestion of 135k cities: 1 payload, 10 payloads, 50 x 2 MB enqueue probe',
  dataset: DATASET,
  async run(ctx) {
    seenTaskUids.clear();
    const file = path.join(ctx.datasetsDir, DATASET, 'cities.ndjson');
    const raw = fs.readFileSync(file, 'utf8');
    const lines = raw.split('\n').filter((l) => l.trim() !== '');
    const total = distinctIds(lines);
    const full = ndjson(lines);
    ctx.report('dataset.documents', lines.length, 'docs');
    ctx.report('dataset.distinct_ids', total, 'docs');
    ctx.report('dataset.payload_size', toMB(full.byteLength), 'MB');
    ctx.report('dataset.facet_settings', withFacets() ? 1 : 0, 'bool');
    for (const index of ['cities-one', 'cities-ten', 'cities-probe']) await prepareIndex(ctx, index);

    // a. one payload of everything
    ctx.memPhase();
    const a0 = nowMs();
    const one = await enqueue(ctx, 'cities-one', full);
    const oneTask = mustSucceed(await ctx.waitForTask(one.taskUid), 'cities-one');
    const oneS = (nowMs() - a0) / 1000;
    const onePeak = ctx.memPhase();
    ctx.report('one.enqueue_latency', one.ms, 'ms');
    ctx.report('one.time_to_succeeded', oneS, 's');
    const serverS = isoDurationSeconds(oneTask.duration);
    if (serverS !== null) ctx.report('one.server_task_duration', serverS, 's');
    ctx.report('one.docs_per_s', lines.length / oneS, 'docs/s');
    ctx.report('one.peak_rss', toMB(onePeak.peakRss), 'MB');
    ctx.report('one.peak_rss_anon', toMB(onePeak.peakAnon), 'MB');
    ctx.report('one.peak_rss_over_payload', onePeak.peakRss / full.byteLength, 'x');
    ctx.report('one.numberOfDocuments', await checkCount(ctx, 'cities-one', total), 'docs');

    // b. ten payloads, enqueued back to back
    const per = Math.ceil(lines.length / 10);
    const chunks = Array.from({ length: 10 }, (_, i) => ndjson(lines.slice(i * per, (i + 1) * per)));
    const b0 = nowMs();
    const ten: Enqueued[] = [];
    for (const chunk of chunks) ten.push(await enqueue(ctx, 'cities-ten', chunk));
    const tenTasks: TaskJson[] = [];
    for (const t of ten) tenTasks.push(mustSucceed(await ctx.waitForTask(t.taskUid), 'cities-ten'));
    const tenS = (nowMs() - b0) / 1000;
    const tenPeak = ctx.memPhase();
    const tenMs = ten.map((t) => t.ms);
    ctx.report('ten.payload_size', toMB(chunks[0]!.byteLength), 'MB');
    ctx.report('ten.enqueue_latency_p50', percentile(tenMs, 50), 'ms');
    ctx.report('ten.enqueue_latency_p99', percentile(tenMs, 99), 'ms');
    ctx.report('ten.time_to_last_succeeded', tenS, 's');
    ctx.report('ten.docs_per_s', lines.length / tenS, 'docs/s');
    ctx.report('ten.batches', new Set(tenTasks.map((t) => t.batchUid)).size, 'batches');
    ctx.report('ten.peak_rss', toMB(tenPeak.peakRss), 'MB');
    ctx.report('ten.peak_rss_anon', toMB(tenPeak.peakAnon), 'MB');
    ctx.report('ten.numberOfDocuments', await checkCount(ctx, 'cities-ten', total), 'docs');

    const ingested = ctx.disk();
    ctx.report('disk.after_one_and_ten', toMB(ingested.apparentBytes), 'MB');
    ctx.report('disk.after_one_and_ten_allocated', toMB(ingested.allocatedBytes), 'MB');

    // c. enqueue-latency probe: 50 sequential POSTs of a ~2 MB slice
    let n = 0;
    for (let bytes = 0; n < lines.length && bytes < PROBE_BYTES; n++) bytes += Buffer.byteLength(lines[n]!) + 1;
    const slice = lines.slice(0, n);
    const probe = ndjson(slice);
    const c0 = nowMs();
    const probes: Enqueued[] = [];
    for (let i = 0; i < PROBE_POSTS; i++) probes.push(await enqueue(ctx, 'cities-probe', probe));
    for (const t of probes) mustSucceed(await ctx.waitForTask(t.taskUid), 'cities-probe');
    const drainS = (nowMs() - c0) / 1000;
    const probePeak = ctx.memPhase();
    const pMs = probes.map((t) => t.ms);
    const p99 = percentile(pMs, 99);
    ctx.report('probe.payload_size', toMB(probe.byteLength), 'MB');
    ctx.report('probe.docs_per_payload', slice.length, 'docs');
    ctx.report('probe.enqueue_latency_p50', percentile(pMs, 50), 'ms');
    ctx.report('probe.enqueue_latency_p95', percentile(pMs, 95), 'ms');
    ctx.report('probe.enqueue_latency_p99', p99, 'ms');
    ctx.report('probe.enqueue_latency_max', percentile(pMs, 100), 'ms');
    ctx.report(`probe.p99_under_${PROBE_P99_TARGET_MS}ms`, p99 < PROBE_P99_TARGET_MS ? 1 : 0, 'bool');
    ctx.report('probe.drain_time', drainS, 's');
    ctx.report('probe.peak_rss', toMB(probePeak.peakRss), 'MB');
    ctx.report('probe.numberOfDocuments', await checkCount(ctx, 'cities-probe', distinctIds(slice)), 'docs');

    // the queue must be empty before the runner measures the disk
    // (polled: the server may still list the last batch as processing for a moment)
    for (const deadline = nowMs() + 10_000; ; ) {
      const pending = await ctx.request<{ total?: number }>('GET', '/tasks?statuses=enqueued,processing&limit=1');
      if (pending.status !== 200 || pending.body.total === 0) break;
      if (nowMs() > deadline) throw new Error(`queue not drained after 10 s: ${JSON.stringify(pending.body).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 20));
    }

    const overall = ctx.memOverall();
    ctx.report('server.peak_rss', toMB(overall.peakRss), 'MB');
    ctx.report('server.peak_rss_over_payload', overall.peakRss / full.byteLength, 'x');
  },
};
