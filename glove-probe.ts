import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index } from './src/engine/index/index.ts';
import { VectorIndexWriter, VectorReader, type EmbedderSpec } from './src/engine/vector/index.ts';
const dir = '/work/shared/datasets/vectors-glove100-100k';
const D = 100;
const base = new Float32Array(fs.readFileSync(path.join(dir, 'base.f32')).buffer.slice(0));
const queries = new Float32Array(fs.readFileSync(path.join(dir, 'queries.f32')).buffer.slice(0));
const gt = new Int32Array(fs.readFileSync(path.join(dir, 'groundtruth-cosine-top100.i32')).buffer.slice(0));
const N = Number(process.argv[2] ?? 100000);
const B = Number(process.argv[3] ?? 10000);
const db = fs.mkdtempSync(path.join(os.tmpdir(), 'glove-'));
const index = Index.open(db, { primaryKey: 'id', now: 1 });
const spec: EmbedderSpec = { name: 'e', id: 0, dimensions: D, metric: 'cosine', quantized: false };
let t0 = performance.now();
for (let s = 0; s < N; s += B) {
  const t = performance.now();
  index.env.write(() => {
    const w = new VectorIndexWriter(index, [spec]);
    for (let i = s; i < Math.min(N, s + B); i++) w.set(i, spec, [base.subarray(i * D, (i + 1) * D)], false);
    w.save();
  });
  console.log(`batch ${s}: ${(performance.now() - t).toFixed(0)} ms`);
}
console.log(`build ${N}: ${((performance.now() - t0) / 1000).toFixed(1)} s, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
const reader = new VectorReader(index);
const nq = 1000;
let hit = 0;
t0 = performance.now();
const lat: number[] = [];
for (let q = 0; q < nq; q++) {
  const t = performance.now();
  const r = reader.nearest(spec, { vector: queries.subarray(q * D, (q + 1) * D), limit: 10, candidates: null });
  lat.push(performance.now() - t);
  const truth = new Set(Array.from(gt.subarray(q * 100, q * 100 + 10)).filter((x) => x < N));
  if (N < 100000) continue;
  for (const id of r.ids) if (truth.has(id)) hit++;
}
lat.sort((a, b) => a - b);
console.log(`recall@10 ${(hit / (nq * 10)).toFixed(3)} qps ${(nq / ((performance.now() - t0) / 1000)).toFixed(0)} p50 ${lat[500]!.toFixed(2)} p99 ${lat[990]!.toFixed(2)}`);
let links = 0, bytes = 0;
for (const [, v] of index.vectors.links.entries()) { links++; bytes += v.length; }
console.log(`link lists ${links}, link bytes/vector ${(bytes / N).toFixed(0)}, links table ${(index.vectors.links.usedBytes() / N).toFixed(0)} B/vector, embeddings ${(index.vectors.embeddings.usedBytes() / N).toFixed(0)} B/vector`);
