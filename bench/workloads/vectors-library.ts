// vectors-library: the vector store in process (the library API, no HTTP) on the 100k GloVe
// vectors: build time in batches of 10,000, bytes per vector on disk (graph links and vectors
// apart), recall@10 and single-thread QPS over a sweep of the search breadth (ef), cold-start
// latency of a fresh environment; beside `hnswlib-node` when it is installed (a dev-only peer:
// `npm install --no-save hnswlib-node@3`). See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Index } from '../../src/engine/index/index.ts';
import { kernelKind, VectorIndexWriter, VectorReader, type EmbedderSpec } from '../../src/engine/vector/index.ts';
import { percentile } from '../lib/stats.ts';
import type { Workload, WorkloadContext } from './types.ts';

const DATASET = 'vectors-glove100-100k';
const D = 100;
const BATCH = 10_000;
const SWEEP = [50, 100, 150, 200, 300];

const spec: EmbedderSpec = { name: 'glove', id: 0, dimensions: D, metric: 'cosine', quantized: false };

function f32(dir: string, name: string): Float32Array {
  return new Float32Array(new Uint8Array(fs.readFileSync(path.join(dir, name))).buffer);
}

function recall(found: readonly number[][], truth: Int32Array): number {
  let hit = 0;
  found.forEach((ids, q) => {
    const want = new Set(truth.subarray(q * 100, q * 100 + 10));
    for (const id of ids) if (want.has(id)) hit++;
  });
  return hit / (found.length * 10);
}

interface HnswIndex {
  initIndex(max: number, m: number, efConstruction: number, seed: number): void;
  addPoint(v: number[] | Float32Array, label: number): void;
  setEf(ef: number): void;
  searchKnn(v: number[] | Float32Array, k: number): { neighbors: number[] };
}

function hnswlib(): { HierarchicalNSW: new (space: string, dim: number) => HnswIndex } | null {
  try {
    return createRequire(import.meta.url)('hnswlib-node') as { HierarchicalNSW: new (space: string, dim: number) => HnswIndex };
  } catch {
    return null;
  }
}

function sweep(ctx: WorkloadContext, name: string, queries: Float32Array, truth: Int32Array, search: (q: Float32Array, ef: number) => number[]): void {
  const nq = queries.length / D;
  for (const ef of SWEEP) {
    for (let i = 0; i < 100; i++) search(queries.subarray(i * D, (i + 1) * D), ef);
    const found: number[][] = [];
    const ms: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < nq; i++) {
      const s = performance.now();
      found.push(search(queries.subarray(i * D, (i + 1) * D), ef));
      ms.push(performance.now() - s);
    }
    const wall = performance.now() - t0;
    ctx.report(`${name}.ef${ef}.recall10`, recall(found, truth), '');
    ctx.report(`${name}.ef${ef}.qps`, nq / (wall / 1000), 'q/s');
    ctx.report(`${name}.ef${ef}.p50`, percentile(ms, 50), 'ms');
    ctx.report(`${name}.ef${ef}.p99`, percentile(ms, 99), 'ms');
  }
}

async function siftL2(ctx: WorkloadContext): Promise<void> {
  const dir = path.join(ctx.datasetsDir, 'vectors-sift128-5k');
  const SD = 128;
  const base = f32(dir, 'base.f32');
  const queries = f32(dir, 'queries.f32');
  const truth = new Int32Array(new Uint8Array(fs.readFileSync(path.join(dir, 'groundtruth-l2-top100.i32'))).buffer);
  const n = base.length / SD;
  const nq = queries.length / SD;
  const l2: EmbedderSpec = { name: 'sift', id: 1, dimensions: SD, metric: 'euclidean', quantized: false };
  const db = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-sift-bench-'));
  const index = Index.open(db, { primaryKey: 'id', now: 0 });
  try {
    const t0 = performance.now();
    index.env.write(() => {
      const w = new VectorIndexWriter(index, [l2]);
      for (let i = 0; i < n; i++) w.set(i, l2, [base.subarray(i * SD, (i + 1) * SD)], false);
      w.save(index.generation() + 1);
      index.setMain('generation', 1);
    });
    ctx.report('sift.build.seconds', (performance.now() - t0) / 1000, 's');
    const reader = new VectorReader(index);
    let hit = 0;
    const t1 = performance.now();
    for (let q = 0; q < nq; q++) {
      const ids = reader.nearest(l2, { vector: queries.subarray(q * SD, (q + 1) * SD), limit: 10, candidates: null, linear: { below: 0, ratio: 0 } }).ids;
      const want = new Set(truth.subarray(q * 100, q * 100 + 10));
      for (const id of ids) if (want.has(id)) hit++;
    }
    ctx.report('sift.recall10', hit / (nq * 10), '');
    ctx.report('sift.qps', nq / ((performance.now() - t1) / 1000), 'q/s');
  } finally {
    await index.env.close();
    fs.rmSync(db, { recursive: true, force: true });
  }
}

export const vectorsLibrary: Workload = {
  name: 'vectors-library',
  description: `100k GloVe vectors in process: build, bytes per vector, recall@10 / QPS over ef ${SWEEP.join(', ')}, cold start; hnswlib-node beside it when installed`,
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    const base = f32(dir, 'base.f32');
    const queries = f32(dir, 'queries.f32');
    const truth = new Int32Array(new Uint8Array(fs.readFileSync(path.join(dir, 'groundtruth-cosine-top100.i32'))).buffer);
    const n = base.length / D;
    const db = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-vectors-bench-'));
    try {
      ctx.report('muninn.kernels.wasmSimd', kernelKind() === 'wasm-simd' ? 1 : 0, '');
      let index = Index.open(db, { primaryKey: 'id', now: 0 });
      const heap0 = process.memoryUsage().rss;
      const t0 = performance.now();
      for (let s = 0; s < n; s += BATCH) {
        index.env.write(() => {
          const w = new VectorIndexWriter(index, [spec]);
          for (let i = s; i < Math.min(n, s + BATCH); i++) w.set(i, spec, [base.subarray(i * D, (i + 1) * D)], false);
          w.save(index.generation() + 1);
          index.setMain('generation', index.generation() + 1);
        });
      }
      const buildMs = performance.now() - t0;
      ctx.report('muninn.build.seconds', buildMs / 1000, 's');
      ctx.report('muninn.build.vectorsPerSecond', n / (buildMs / 1000), 'vectors/s');
      ctx.report('muninn.build.rssGrowth', (process.memoryUsage().rss - heap0) / 1e6, 'MB');
      ctx.report('muninn.disk.linksBytesPerVector', index.vectors.links.usedBytes() / n, 'B');
      ctx.report('muninn.disk.vectorsBytesPerVector', index.vectors.embeddings.usedBytes() / n, 'B');
      let linkBytes = 0;
      for (const [, v] of index.vectors.links.entries()) linkBytes += v.length;
      ctx.report('muninn.graph.linkPayloadBytesPerVector', linkBytes / n, 'B');

      // +1,000 vectors into the 100k graph, one batch
      const t1 = performance.now();
      index.env.write(() => {
        const w = new VectorIndexWriter(index, [spec]);
        for (let i = 0; i < 1000; i++) w.set(n + i, spec, [queries.subarray(i * D, (i + 1) * D)], false);
        w.save(index.generation() + 1);
        index.setMain('generation', index.generation() + 1);
      });
      ctx.report('muninn.add1000.seconds', (performance.now() - t1) / 1000, 's');
      index.env.write(() => {
        const w = new VectorIndexWriter(index, [spec]);
        for (let i = 0; i < 1000; i++) w.remove(n + i);
        w.save(index.generation() + 1);
        index.setMain('generation', index.generation() + 1);
      });

      // cold start: a fresh environment's first search (vectors and links not read yet)
      await index.env.close();
      index = Index.open(db);
      const q0 = queries.subarray(0, D);
      const c0 = performance.now();
      new VectorReader(index).nearest(spec, { vector: q0, limit: 10, candidates: null });
      ctx.report('muninn.coldStart.firstSearch', performance.now() - c0, 'ms');

      await index.env.close();
      index = Index.open(db);
      const p0 = performance.now();
      const warm = new VectorReader(index);
      const prefetched = warm.prefetch(spec, Infinity);
      ctx.report('muninn.prefetch.ms', performance.now() - p0, 'ms');
      ctx.report('muninn.prefetch.bytes', prefetched / 1e6, 'MB');
      const w0 = performance.now();
      warm.nearest(spec, { vector: q0, limit: 10, candidates: null });
      ctx.report('muninn.coldStart.firstSearchAfterPrefetch', performance.now() - w0, 'ms');

      const reader = new VectorReader(index);
      sweep(ctx, 'muninn', queries, truth, (q, ef) => reader.nearest(spec, { vector: q, limit: 10, candidates: null, ef }).ids);
      ctx.report('muninn.rss', process.memoryUsage().rss / 1e6, 'MB');
      await index.env.close();
    } finally {
      fs.rmSync(db, { recursive: true, force: true });
    }

    // SIFT 128-d, euclidean (the engine's L2 metric; Meilisearch's API has no L2)
    await siftL2(ctx);

    const lib = hnswlib();
    if (lib === null) {
      console.log('vectors-library: hnswlib-node is not installed (npm install --no-save hnswlib-node@3): peer skipped');
      return;
    }
    const h = new lib.HierarchicalNSW('cosine', D);
    h.initIndex(n, 16, 125, 100);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) h.addPoint(Array.from(base.subarray(i * D, (i + 1) * D)), i);
    ctx.report('hnswlib.build.seconds', (performance.now() - t0) / 1000, 's');
    sweep(ctx, 'hnswlib', queries, truth, (q, ef) => {
      h.setEf(ef);
      return h.searchKnn(Array.from(q), 10).neighbors;
    });
  },
};
