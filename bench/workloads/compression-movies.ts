// compression-movies: what response compression costs and saves on a 1,000-hit search answer
// (the 1,688 TMDB movies, `q` empty, `limit` 1000): for each Accept-Encoding (none, gzip, br,
// deflate), 300 sequential requests after 30 of warm-up, timed from the request to the decoded
// body (client decompression included), and the bytes on the wire.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { nowMs, percentile } from '../lib/stats.ts';
import type { Workload, WorkloadContext } from './types.ts';

const DATASET = 'movies-tmdb-1688';
const INDEX = 'movies';
const ROUNDS = 300;
const WARMUP = 30;
const BODY = JSON.stringify({ q: '', limit: 1000 });

const decoders: Record<string, (b: Buffer) => Buffer> = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync, deflate: zlib.inflateSync };

function search(ctx: WorkloadContext, agent: http.Agent, encoding: string | null): Promise<{ ms: number; wire: number; hits: number }> {
  const base = new URL(ctx.baseUrl);
  const headers: Record<string, string | number> = { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) };
  if (encoding !== null) headers['accept-encoding'] = encoding;
  return new Promise((resolve, reject) => {
    const t0 = nowMs();
    const req = http.request({ host: base.hostname, port: base.port, path: `/indexes/${INDEX}/search`, method: 'POST', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const used = res.headers['content-encoding'];
        if ((used ?? null) !== encoding) return reject(new Error(`asked ${encoding}, got ${used}`));
        const body = used === undefined ? raw : decoders[used]!(raw);
        const hits = (JSON.parse(body.toString('utf8')) as { hits: unknown[] }).hits.length;
        resolve({ ms: nowMs() - t0, wire: raw.length, hits });
      });
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

export const compressionMovies: Workload = {
  name: 'compression-movies',
  description: 'a 1,000-hit search answer with no compression, gzip, br and deflate: latency to the decoded body and bytes on the wire',
  dataset: DATASET,
  async run(ctx) {
    const docs = fs.readFileSync(path.join(ctx.datasetsDir, DATASET, 'movies.ndjson'));
    const add = await ctx.request<{ taskUid: number }>('POST', `/indexes/${INDEX}/documents?primaryKey=id`, docs, { 'Content-Type': 'application/x-ndjson' });
    const task = await ctx.waitForTask(add.body.taskUid);
    if (task.status !== 'succeeded') throw new Error(`indexing failed: ${JSON.stringify(task.error)}`);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (const encoding of [null, 'gzip', 'br', 'deflate']) {
      const name = encoding ?? 'identity';
      for (let i = 0; i < WARMUP; i++) await search(ctx, agent, encoding);
      const ms: number[] = [];
      let wire = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const r = await search(ctx, agent, encoding);
        if (r.hits !== 1000) throw new Error(`${r.hits} hits`);
        ms.push(r.ms);
        wire = r.wire;
      }
      ctx.report(`${name}.p50`, percentile(ms, 50), 'ms');
      ctx.report(`${name}.p99`, percentile(ms, 99), 'ms');
      ctx.report(`${name}.bytes`, wire / 1000, 'kB');
    }
    agent.destroy();
  },
};
