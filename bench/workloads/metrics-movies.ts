// metrics-movies: what `GET /metrics` costs searches (issue 15). The 1,688 TMDB movies; one client
// sends searches (a word of a title, limit 20) in phases that alternate the `metrics` feature off
// and on, three of each (so drift hits both alike); while it is on, a scraper reads /metrics every
// second, as a Prometheus with a 1 s interval would. Requests are counted and timed in both phases
// (Meilisearch counts them whether the feature is on or not): the difference is the feature and
// the scrapes. Also reported: the scrape's own time and size.
import fs from 'node:fs';
import path from 'node:path';
import { nowMs, percentile } from '../lib/stats.ts';
import type { Workload } from './types.ts';

const DATASET = 'movies-tmdb-1688';
const INDEX = 'movies';
const PER_PHASE = 600;
const PHASES = 3;

export const metricsMovies: Workload = {
  name: 'metrics-movies',
  description: 'search p50/p99 with the metrics feature off, and on with a scrape every second; the scrape time and size',
  dataset: DATASET,
  async run(ctx) {
    const raw = fs.readFileSync(path.join(ctx.datasetsDir, DATASET, 'movies.ndjson'));
    const add = await ctx.request<{ taskUid: number }>('POST', `/indexes/${INDEX}/documents?primaryKey=id`, raw, { 'Content-Type': 'application/x-ndjson' });
    const task = await ctx.waitForTask(add.body.taskUid);
    if (task.status !== 'succeeded') throw new Error(`indexing failed: ${JSON.stringify(task.error)}`);
    const words = raw.toString('utf8').split('\n').filter((l) => l !== '').map((l) => String((JSON.parse(l) as { title?: string }).title ?? '').split(/\s+/)[0]!.toLowerCase()).filter((w) => w.length > 2);
    const timed = { off: [] as number[], on: [] as number[] };
    const scrapes: number[] = [];
    let scrapeBytes = 0;
    let q = 0;
    const searchPhase = async (into: number[]) => {
      for (let i = 0; i < PER_PHASE; i++) {
        const res = await ctx.request('POST', `/indexes/${INDEX}/search`, { q: words[q++ % words.length], limit: 20 });
        if (res.status !== 200) throw new Error(`search answered ${res.status}`);
        into.push(res.ms);
      }
    };
    for (let p = 0; p < PHASES; p++) {
      await ctx.request('PATCH', '/experimental-features', { metrics: false });
      await searchPhase(timed.off);
      await ctx.request('PATCH', '/experimental-features', { metrics: true });
      let scraping = true;
      const scraper = (async () => {
        while (scraping) {
          const t0 = nowMs();
          const res = await ctx.request<string>('GET', '/metrics');
          if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
          scrapes.push(nowMs() - t0);
          scrapeBytes = Buffer.byteLength(String(res.body));
          await new Promise((r) => setTimeout(r, 1000));
        }
      })();
      await searchPhase(timed.on);
      scraping = false;
      await scraper;
    }
    for (const mode of ['off', 'on'] as const) {
      ctx.report(`search.${mode}.p50`, percentile(timed[mode], 50), 'ms');
      ctx.report(`search.${mode}.p99`, percentile(timed[mode], 99), 'ms');
    }
    ctx.report('scrape.p50', percentile(scrapes, 50), 'ms');
    ctx.report('scrape.count', scrapes.length, '');
    ctx.report('scrape.bytes', scrapeBytes / 1000, 'kB');
  },
};
