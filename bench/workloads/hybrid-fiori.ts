// hybrid-fiori: 778 SAP Fiori documentation chunks with their all-MiniLM-L6-v2 vectors in
// `_vectors.minilm` (userProvided, 384-d). The model is not available here, so queries are
// known-item: a document's title as `q` and its own vector as `vector`; the figures are how often
// the document comes first / in the top 10, and the latency, for keyword, semantic (ratio 1) and
// hybrid (ratio 0.5) searches. See bench/README.md.
import path from 'node:path';
import { percentile } from '../lib/stats.ts';
import { readNdjson, Rng } from '../lib/text.ts';
import type { Workload } from './types.ts';

const DATASET = 'hybrid-fiori-docs-minilm384-778';
const UID = 'bench-hybrid-fiori';

export const hybridFiori: Workload = {
  name: 'hybrid-fiori',
  description: '778 doc chunks with MiniLM vectors: known-item success@1/@10 and latency for keyword, semantic and hybrid search',
  dataset: DATASET,
  async run(ctx) {
    const docs = readNdjson(path.join(ctx.datasetsDir, DATASET, 'docs.ndjson'));
    const settings = await ctx.request<{ taskUid: number }>('PATCH', `/indexes/${UID}/settings`, {
      embedders: { minilm: { source: 'userProvided', dimensions: 384 } },
      searchableAttributes: ['title', 'content', 'tags'],
      filterableAttributes: ['category'],
    });
    await ctx.waitForTask(settings.body.taskUid);
    const t0 = performance.now();
    const add = await ctx.request<{ taskUid: number }>('POST', `/indexes/${UID}/documents?primaryKey=id`, docs);
    const task = await ctx.waitForTask(add.body.taskUid, 600_000);
    if (task.status !== 'succeeded') throw new Error(`indexing failed: ${JSON.stringify(task.error)}`);
    ctx.report('ingest.seconds', (performance.now() - t0) / 1000, 's');

    const rng = new Rng(778);
    const sample = Array.from({ length: 200 }, () => docs[rng.int(docs.length)]!);
    const modes: Array<[string, (d: (typeof docs)[number]) => Record<string, unknown>]> = [
      ['keyword', (d) => ({ q: d.title })],
      ['semantic', (d) => ({ vector: (d._vectors as { minilm: number[] }).minilm, hybrid: { embedder: 'minilm', semanticRatio: 1 } })],
      ['hybrid', (d) => ({ q: d.title, vector: (d._vectors as { minilm: number[] }).minilm, hybrid: { embedder: 'minilm', semanticRatio: 0.5 } })],
    ];
    for (const [mode, body] of modes) {
      let first = 0;
      let top10 = 0;
      const ms: number[] = [];
      for (const d of sample) {
        const res = await ctx.request<{ hits: Array<{ id: number }> }>('POST', `/indexes/${UID}/search`, { ...body(d), limit: 10, attributesToRetrieve: ['id'] });
        if (res.status !== 200) throw new Error(`${mode} search ${res.status}: ${JSON.stringify(res.body)}`);
        ms.push(res.ms);
        const ids = res.body.hits.map((h) => h.id);
        if (ids[0] === d.id) first++;
        if (ids.includes(d.id as number)) top10++;
      }
      ctx.report(`${mode}.success1`, first / sample.length, '');
      ctx.report(`${mode}.success10`, top10 / sample.length, '');
      ctx.report(`${mode}.p50`, percentile(ms, 50), 'ms');
      ctx.report(`${mode}.p99`, percentile(ms, 99), 'ms');
    }
  },
};
