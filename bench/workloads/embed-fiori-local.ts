// embed-fiori-local (issue 14): the 778 SAP Fiori chunks embedded on this machine by a
// `huggingFace` embedder running all-MiniLM-L6-v2 (ONNX, CPU). The model is read from
// MUNINN_BENCH_MINILM_DIR (a directory with tokenizer.json and model.onnx; bench/fetch-minilm.sh
// makes one); without it the workload says so and reports nothing. Reported: indexing time and
// documents/s, the agreement of the computed vectors with the dataset's own MiniLM vectors
// (mean cosine), known-item semantic search (a chunk's title as `q`: is its document in the top
// 10), and the latency a semantic search pays for embedding `q`, cold and warm cache.
import fs from 'node:fs';
import path from 'node:path';
import { nowMs, percentile } from '../lib/stats.ts';
import type { Workload } from './types.ts';

const DATASET = 'hybrid-fiori-docs-minilm384-778';

export const embedFioriLocal: Workload = {
  name: 'embed-fiori-local',
  description: '778 documents embedded by all-MiniLM-L6-v2 run here (huggingFace source, ONNX on the CPU); vector agreement with the dataset; known-item semantic search; q embedding latency',
  dataset: DATASET,
  serverArgs: ['--experimental-embedding-cache-entries', '1000'],
  async run(ctx) {
    const model = process.env.MUNINN_BENCH_MINILM_DIR;
    if (!model || !fs.existsSync(path.join(model, 'tokenizer.json'))) {
      console.log('embed-fiori-local: set MUNINN_BENCH_MINILM_DIR to an all-MiniLM-L6-v2 directory (bench/fetch-minilm.sh makes one): skipped');
      return;
    }
    const lines = fs.readFileSync(path.join(ctx.datasetsDir, DATASET, 'docs.ndjson'), 'utf8').split('\n').filter((l) => l !== '');
    const docs = lines.map((l) => JSON.parse(l) as { id: number; title: string; content: string; _vectors: { minilm: number[] } });
    const payload = docs.map(({ _vectors: _, ...d }) => JSON.stringify(d)).join('\n');
    const embedder = { source: 'huggingFace', model, documentTemplate: '{{doc.content}}', documentTemplateMaxBytes: 4000 };
    const t0 = nowMs();
    const settings = await ctx.request<{ taskUid: number }>('PATCH', '/indexes/fiori/settings', { embedders: { e: embedder } });
    const set = await ctx.waitForTask(settings.body.taskUid, 600_000);
    if (set.status !== 'succeeded') throw new Error(`settings failed: ${JSON.stringify(set.error)}`);
    ctx.report('model.load_seconds', (nowMs() - t0) / 1000, 's');
    const t1 = nowMs();
    const add = await ctx.request<{ taskUid: number }>('POST', '/indexes/fiori/documents?primaryKey=id', payload, { 'Content-Type': 'application/x-ndjson' });
    const task = await ctx.waitForTask(add.body.taskUid, 1_800_000);
    if (task.status !== 'succeeded') throw new Error(`indexing failed: ${JSON.stringify(task.error)}`);
    const seconds = (nowMs() - t1) / 1000;
    ctx.report('index.seconds', seconds, 's');
    ctx.report('index.docs_per_s', docs.length / seconds, '');
    ctx.memPhase();

    // the computed vectors against the dataset's (the model's tokenizer cuts at its own length)
    let cosines = 0;
    for (let from = 0; from < docs.length; from += 200) {
      const page = await ctx.request<{ results: { id: number; _vectors: { e: { embeddings: number[][] } } }[] }>('POST', '/indexes/fiori/documents/fetch', { offset: from, limit: 200, retrieveVectors: true });
      for (const d of page.body.results) {
        const mine = d._vectors.e.embeddings[0]!;
        const theirs = docs[d.id - 1]!._vectors.minilm;
        let dot = 0, a = 0, b = 0;
        mine.forEach((x, i) => { dot += x * theirs[i]!; a += x * x; b += theirs[i]! * theirs[i]!; });
        cosines += dot / Math.sqrt(a * b);
      }
    }
    ctx.report('vectors.mean_cosine_to_dataset', cosines / docs.length, '');

    const queries = docs.slice(0, 200);
    const timed = async (qs: typeof queries) => {
      const ms: number[] = [];
      let found = 0;
      for (const d of qs) {
        const res = await ctx.request<{ hits: { id: number }[] }>('POST', '/indexes/fiori/search', { q: d.title, hybrid: { embedder: 'e', semanticRatio: 1 }, limit: 10, attributesToRetrieve: ['id'] });
        if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
        ms.push(res.ms);
        // chunks of one document share its title: any of them counts
        if (res.body.hits.some((h) => docs[h.id - 1]!.title === d.title)) found++;
      }
      return { ms, found };
    };
    const cold = await timed(queries);
    const warm = await timed(queries);
    ctx.report('search.known_item_top10', cold.found / queries.length, '');
    ctx.report('search.semantic_cold.p50', percentile(cold.ms, 50), 'ms');
    ctx.report('search.semantic_cold.p99', percentile(cold.ms, 99), 'ms');
    ctx.report('search.semantic_warm.p50', percentile(warm.ms, 50), 'ms');
  },
};
