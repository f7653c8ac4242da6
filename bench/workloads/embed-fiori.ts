// embed-fiori (issue 14): the 778 SAP Fiori chunks embedded by a REST embedder whose server — a
// stand-in in this process on 127.0.0.1 — answers each request after 20 ms with deterministic
// 64-d vectors (batched template, ten texts a request). Reported: indexing time and documents/s,
// the requests made (batching keeps them far below the documents), then the latency a semantic
// search pays for embedding its `q`: a cold cache (every text new) against a warm one (the same
// texts again, `--experimental-embedding-cache-entries 1000`).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { nowMs, percentile } from '../lib/stats.ts';
import type { Workload } from './types.ts';

const DATASET = 'hybrid-fiori-docs-minilm384-778';
const DELAY_MS = 20;
const D = 64;

function vectorOf(text: string): number[] {
  const h = crypto.createHash('sha512').update(text).digest();
  return Array.from({ length: D }, (_, i) => (h[i % h.length]! - 128) / 128);
}

export const embedFiori: Workload = {
  name: 'embed-fiori',
  description: '778 documents embedded through a REST stand-in answering in 20 ms; requests made; search latency with a cold and a warm query cache',
  dataset: DATASET,
  serverArgs: ['--experimental-allowed-ip-networks', '127.0.0.0/8', '--experimental-embedding-cache-entries', '1000'],
  async run(ctx) {
    let requests = 0;
    let texts = 0;
    const stand = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const inputs = (JSON.parse(raw) as { inputs: string[] }).inputs;
        requests++;
        texts += inputs.length;
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ vectors: inputs.map(vectorOf) })), DELAY_MS);
      });
    });
    await new Promise<void>((r) => stand.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(stand.address() as AddressInfo).port}/embed`;
    try {
      const docs = fs.readFileSync(path.join(ctx.datasetsDir, DATASET, 'docs.ndjson'), 'utf8').split('\n').filter((l) => l !== '');
      const embedder = {
        source: 'rest', url, dimensions: D, documentTemplate: '{{doc.title}}\n{{doc.content}}', documentTemplateMaxBytes: 2000,
        request: { inputs: ['{{text}}', '{{..}}'] }, response: { vectors: ['{{embedding}}', '{{..}}'] },
      };
      const settings = await ctx.request<{ taskUid: number }>('PATCH', '/indexes/fiori/settings', { embedders: { e: embedder } });
      await ctx.waitForTask(settings.body.taskUid);
      const t0 = nowMs();
      const add = await ctx.request<{ taskUid: number }>('POST', '/indexes/fiori/documents?primaryKey=id', docs.join('\n'), { 'Content-Type': 'application/x-ndjson' });
      const task = await ctx.waitForTask(add.body.taskUid, 600_000);
      if (task.status !== 'succeeded') throw new Error(`indexing failed: ${JSON.stringify(task.error)}`);
      const seconds = (nowMs() - t0) / 1000;
      ctx.report('index.seconds', seconds, 's');
      ctx.report('index.docs_per_s', docs.length / seconds, '');
      ctx.report('index.requests', requests, '');
      ctx.report('index.texts', texts, '');
      // the share of the batch spent waiting for the embedding server (its progress trace)
      const batch = await ctx.request<{ stats: { progressTrace?: Record<string, string> } }>('GET', `/batches/${task.batchUid}`);
      const trace = batch.body.stats.progressTrace ?? {};
      const step = Object.entries(trace).find(([k]) => k.endsWith('embedding documents'))?.[1];
      const asMs = (d: string) => { const m = /^([\d.]+)(s|ms|µs|ns)$/.exec(d); return m ? Number(m[1]) * ({ s: 1000, ms: 1, 'µs': 1e-3, ns: 1e-6 } as Record<string, number>)[m[2]!]! : NaN; };
      if (step !== undefined) ctx.report('index.embedding_step', asMs(step), 'ms');
      const total = trace['processing tasks'];
      if (total !== undefined) ctx.report('index.batch', asMs(total), 'ms');

      const titles = docs.map((l) => (JSON.parse(l) as { title: string }).title).slice(0, 200);
      const timed = async (qs: string[], semanticRatio: number) => {
        const ms: number[] = [];
        for (const q of qs) {
          const res = await ctx.request('POST', '/indexes/fiori/search', { q, hybrid: { embedder: 'e', semanticRatio }, limit: 10 });
          if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
          ms.push(res.ms);
        }
        return ms;
      };
      const keyword = await timed(titles.map((t) => `${t} kw`), 0);
      const cold = await timed(titles, 1);
      const before = requests;
      const warm = await timed(titles, 1);
      ctx.report('search.keyword.p50', percentile(keyword, 50), 'ms');
      ctx.report('search.semantic_cold.p50', percentile(cold, 50), 'ms');
      ctx.report('search.semantic_cold.p99', percentile(cold, 99), 'ms');
      ctx.report('search.semantic_warm.p50', percentile(warm, 50), 'ms');
      ctx.report('search.semantic_warm.p99', percentile(warm, 99), 'ms');
      ctx.report('search.warm_requests', requests - before, '');
    } finally {
      stand.closeAllConnections();
      stand.close();
    }
  },
};
