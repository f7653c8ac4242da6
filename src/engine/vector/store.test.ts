// The vector store on a real LMDB environment:
// 1. similarities follow the reference's worked example ((1 + cos) / 2) and its zero-norm quirk;
// 2. the HNSW graphs built over two batches find ≥ 95 % of the exact top 10;
// 3. after deleting and updating documents no link points at a removed node, and recall holds;
// 4. a filtered search returns only candidates, exactly when they are few;
// 5. a document with several vectors is found by any of them, at its best distance;
// 6. binary-quantized vectors use the Hamming similarity;
// 7. a failed task's changes roll back with its transaction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bitmap } from '../bitmap/index.ts';
import { Index } from '../index/index.ts';
import { rng } from '../random.fixtures.ts';
import { VectorReader, type EmbedderSpec } from './store.ts';
import { VectorIndexWriter } from './writer.ts';

function openIndex(): Index {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-vectors-'));
  return Index.open(dir, { primaryKey: 'id', now: 1 });
}

const cosine = (dimensions: number, id = 0): EmbedderSpec => ({ name: 'e', id, dimensions, metric: 'cosine', quantized: false });

function batch(index: Index, spec: EmbedderSpec, fn: (w: VectorIndexWriter) => void): void {
  index.env.write(() => {
    const w = new VectorIndexWriter(index, [spec]);
    fn(w);
    w.save(index.generation() + 1);
    // as the documents writer does: readers cache per generation
    index.setMain('generation', index.generation() + 1);
  });
}

function randomVectors(n: number, dims: number, seed: number): number[][] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Array.from({ length: dims }, () => r() * 2 - 1));
}

function exactTop(vectors: Map<number, number[]>, q: number[], k: number): number[] {
  const cos = (a: number[], b: number[]) => {
    let d = 0, na = 0, nb = 0;
    for (let i = 0; i < a.length; i++) {
      d += a[i]! * b[i]!;
      na += a[i]! ** 2;
      nb += b[i]! ** 2;
    }
    return d / Math.sqrt(na * nb);
  };
  return [...vectors].map(([id, v]) => [id, cos(q, Float32Array.from(v) as unknown as number[])] as const).sort((a, b) => b[1] - a[1]).slice(0, k).map((x) => x[0]);
}

function recall(reader: VectorReader, spec: EmbedderSpec, vectors: Map<number, number[]>, queries: number[][]): number {
  let hit = 0;
  for (const q of queries) {
    const truth = new Set(exactTop(vectors, q, 10));
    const got = reader.nearest(spec, { vector: q, limit: 10, candidates: null, linear: { below: 0, ratio: 0 } });
    for (const id of got.ids) if (truth.has(id)) hit++;
  }
  return hit / (queries.length * 10);
}

test('similarities are (1 + cos) / 2, a zero vector is at similarity 1', () => {
  const index = openIndex();
  const spec = cosine(2);
  batch(index, spec, (w) => {
    w.set(0, spec, [[1, 3]], false);
    w.set(1, spec, [[1, 2]], false);
    w.set(2, spec, [[2, 3]], false);
    w.set(3, spec, [[0, 0]], false);
  });
  const got = new VectorReader(index).nearest(spec, { vector: [1, 1], limit: 4, candidates: null });
  assert.deepEqual(got.ids, [3, 2, 1, 0]);
  assert.deepEqual(got.similarities.map((s) => Math.round(s * 1e5) / 1e5), [1, 0.99029, 0.97434, 0.94721]);
});

test('graphs built over two batches find the exact neighbours; deletes and updates leave no stale link', () => {
  const index = openIndex();
  const spec = cosine(16);
  const all = randomVectors(3000, 16, 7);
  const vectors = new Map<number, number[]>();
  batch(index, spec, (w) => all.slice(0, 2000).forEach((v, id) => (w.set(id, spec, [v], false), vectors.set(id, v))));
  batch(index, spec, (w) => all.slice(2000).forEach((v, i) => (w.set(2000 + i, spec, [v], false), vectors.set(2000 + i, v))));
  const reader = new VectorReader(index);
  const queries = randomVectors(50, 16, 99);
  assert.ok(recall(reader, spec, vectors, queries) >= 0.95, 'recall after two batches');

  const r = rng(3);
  const removed = new Set<number>();
  const fresh = randomVectors(100, 16, 11);
  batch(index, spec, (w) => {
    for (let id = 0; id < 3000; id++) if (r() < 0.1) (w.remove(id), removed.add(id), vectors.delete(id));
    for (let i = 0; i < 100; i++) {
      const id = 2900 + i;
      if (removed.has(id)) continue;
      w.set(id, spec, [fresh[i]!], false);
      vectors.set(id, fresh[i]!);
    }
  });
  for (const [key, bytes] of index.vectors.links.entries()) {
    assert.ok(!removed.has(key[3]), `removed node ${key[3]} still has links`);
    const links = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    for (const n of links) assert.ok(!removed.has(n), `node ${key[3]} links to removed ${n}`);
  }
  const after = new VectorReader(index);
  const state = after.state(spec.id)!;
  assert.ok(!removed.has(state.graphs[0]!.entry));
  assert.equal(state.embeddings, vectors.size);
  assert.ok(recall(after, spec, vectors, queries) >= 0.95, 'recall after deletes and updates');
});

test('a filtered search keeps to its candidates, exactly by scan or through the graph', () => {
  const index = openIndex();
  const spec = cosine(8);
  const all = randomVectors(1000, 8, 5);
  const vectors = new Map(all.map((v, id) => [id, v]));
  batch(index, spec, (w) => all.forEach((v, id) => w.set(id, spec, [v], false)));
  const reader = new VectorReader(index);
  const even = new Bitmap(all.map((_, id) => id).filter((id) => id % 10 === 0));
  const q = randomVectors(1, 8, 1)[0]!;
  const truth = exactTop(new Map([...vectors].filter(([id]) => id % 10 === 0)), q, 10);
  assert.deepEqual(reader.nearest(spec, { vector: q, limit: 10, candidates: even }).ids, truth);
  const graph = reader.nearest(spec, { vector: q, limit: 10, candidates: even, linear: { below: 0, ratio: 0 } });
  assert.ok(graph.ids.every((id) => id % 10 === 0));
  assert.ok(graph.ids.filter((id) => truth.includes(id)).length >= 9);
});

test('a document with several vectors is found by any, at its best distance', () => {
  const index = openIndex();
  const spec = cosine(2);
  batch(index, spec, (w) => {
    w.set(0, spec, [[1, 0], [0, 1]], false);
    w.set(1, spec, [[1, 0.1]], false);
    w.set(2, spec, [[-1, 0]], false);
  });
  const reader = new VectorReader(index);
  assert.deepEqual(reader.nearest(spec, { vector: [0, 1], limit: 3, candidates: null, linear: { below: 0, ratio: 0 } }).ids.slice(0, 1), [0]);
  assert.deepEqual(reader.nearest(spec, { vector: [1, 0], limit: 1, candidates: null, linear: { below: 0, ratio: 0 } }).ids, [0]);
  assert.equal(reader.state(spec.id)!.graphs.length, 2);
  assert.equal(reader.state(spec.id)!.embeddings, 4);
});

test('binary-quantized vectors compare by Hamming distance', () => {
  const index = openIndex();
  const spec: EmbedderSpec = { name: 'q', id: 1, dimensions: 4, metric: 'cosine', quantized: true };
  batch(index, spec, (w) => {
    w.set(0, spec, [[1, 1, -1, -1]], false);
    w.set(1, spec, [[1, -1, -1, -1]], false);
  });
  const reader = new VectorReader(index);
  const got = reader.nearest(spec, { vector: [0.5, 0.5, -2, -3], limit: 2, candidates: null });
  assert.deepEqual(got.ids, [0, 1]);
  // one bit apart out of a 64-bit word (Meilisearch's store counts whole words)
  assert.deepEqual(got.similarities, [1, 1 - 1 / 64]);
  assert.deepEqual(reader.embeddings(1, 1)!.vector(0), [1, 0, 0, 0]);
});

test("a failed task's vectors roll back", () => {
  const index = openIndex();
  const spec = cosine(2);
  index.env.write(() => {
    const w = new VectorIndexWriter(index, [spec]);
    w.set(0, spec, [[1, 0]], false);
    const cp = w.beginTask();
    try {
      index.env.write(() => {
        w.set(1, spec, [[0, 1]], false);
        throw new Error('task fails');
      });
    } catch {
      w.rollback(cp);
    }
    w.save(index.generation() + 1);
  });
  const reader = new VectorReader(index);
  assert.deepEqual(reader.docids(spec.id).toArray(), [0]);
  assert.equal(reader.embeddings(spec.id, 1), undefined);
  assert.deepEqual(reader.nearest(spec, { vector: [0, 1], limit: 5, candidates: null, linear: { below: 0, ratio: 0 } }).ids, [0]);
});

test('a prefetch reads the graph into the caches once per generation and changes no answer', () => {
  const index = openIndex();
  const spec = cosine(8);
  const all = randomVectors(500, 8, 21);
  batch(index, spec, (w) => all.forEach((v, id) => w.set(id, spec, [v], false)));
  const q = randomVectors(1, 8, 2)[0]!;
  const cold = new VectorReader(index).nearest(spec, { vector: q, limit: 10, candidates: null, linear: { below: 0, ratio: 0 } });
  const reader = new VectorReader(index);
  assert.ok(reader.prefetch(spec, Infinity) > 500 * 8 * 4);
  assert.equal(reader.prefetch(spec, Infinity), 0, 'once per generation');
  assert.deepEqual(reader.nearest(spec, { vector: q, limit: 10, candidates: null, linear: { below: 0, ratio: 0 } }), cold);
});

test('caches carried to the next generation forget the documents a batch changed', () => {
  const index = openIndex();
  const spec = cosine(4);
  const all = randomVectors(300, 4, 8);
  batch(index, spec, (w) => all.forEach((v, id) => w.set(id, spec, [v], false)));
  const q = [0.3, -0.2, 0.9, 0.1];
  const graph = { below: 0, ratio: 0 };
  const first = new VectorReader(index).nearest(spec, { vector: q, limit: 3, candidates: null, linear: graph });
  assert.notEqual(first.ids[0], 7);
  // a batch that changes no vector: a new generation, the same answers from the caches kept
  index.env.write(() => index.setMain('generation', index.generation() + 1));
  assert.deepEqual(new VectorReader(index).nearest(spec, { vector: q, limit: 3, candidates: null, linear: graph }), first);
  // document 7 becomes the query itself; the top document goes
  const versionBefore = index.vectors.embedders.get(spec.id)!.version;
  batch(index, spec, (w) => {
    w.set(7, spec, [q], false);
    w.remove(first.ids[0]!);
  });
  const after = new VectorReader(index).nearest(spec, { vector: q, limit: 3, candidates: null, linear: graph });
  assert.equal(after.ids[0], 7);
  assert.equal(after.similarities[0], 1);
  assert.ok(!after.ids.includes(first.ids[0]!));
  assert.equal(index.vectors.embedders.get(spec.id)!.base, versionBefore);
});
