// growth: synthetic product-like documents (growth-docs.ts) at several sizes, each size on a fresh
// server: ingest (payloads of 50k documents, one after another), 300 seeded queries, memory, disk,
// progress stalls. The summary lines up the sizes and extrapolates 10M documents from a power law
// fitted to the measured ingest times: an estimate, printed as such, never a measurement.
import { fmt } from '../../lib/report.ts';
import { fitPower } from '../extrapolate.ts';
import { GrowthCorpus } from '../growth-docs.ts';
import { DOCS_PER_PAYLOAD } from '../payloads.ts';
import { agreement } from '../compare.ts';
import type { EngineRun, SideWorkload, SpecRun } from '../types.ts';

const SEED = 275937;
const QUERIES = 300;
const TARGET = 10_000_000;
export const DEFAULT_SIZES = [10_000, 100_000];

/** "10k", "1m", "2500" -> a count. */
export function parseSize(s: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim());
  if (!m) return null;
  const n = Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1e3 : m[2]?.toLowerCase() === 'm' ? 1e6 : 1);
  return Number.isInteger(n) && n > 0 ? n : null;
}

export const sizeLabel = (n: number): string => (n % 1e6 === 0 ? `${n / 1e6}m` : n % 1e3 === 0 ? `${n / 1e3}k` : String(n));

const SETTINGS = {
  searchableAttributes: ['title', 'body'],
  filterableAttributes: ['category', 'price'],
};

export const growth: SideWorkload = {
  name: 'growth',
  description: 'synthetic products (3-6 word title, 20-40 word body, Zipf words, 50 categories, price) at growing sizes',
  dataset: 'generated from words-english-275k',
  specs({ datasetsDir, sizes }) {
    const corpus = GrowthCorpus.load(datasetsDir, SEED);
    const uid = 'growth';
    return sizes.map((n) => ({
      label: sizeLabel(n),
      indexes: [{ uid, primaryKey: 'id', settings: SETTINGS, documents: n, payloads: () => corpus.payloads(n, DOCS_PER_PAYLOAD) }],
      sets: [{ name: 'queries', description: `${QUERIES} queries: two words, a typo, a 3-letter prefix, a word + filter`, index: uid, bodies: corpus.queries(n, QUERIES, SEED + 1) }],
    }));
  },
  summarize(specRuns) {
    return summarizeGrowth(specRuns);
  },
};

const fig = (r: EngineRun, name: string): number | undefined => r.figures.find((f) => f.name === name)?.value;

function summarizeGrowth(specRuns: readonly SpecRun[]): { lines: string[]; figures: Array<{ name: string; value: number; unit: string }> } {
  const head = ['size', 'server', 'ingest s', 'docs/s', 'stall s', 'p50 ms', 'p95 ms', 'p99 ms', 'QPS c4', 'RSS idle', 'RSS ingest', 'RSS peak', 'disk MB', 'top10 same'];
  const rows: string[][] = [];
  const engines = new Map<string, Array<[number, number, number]>>(); // engine -> [docs, seconds, disk MB]
  for (const { spec, runs } of specRuns) {
    const docs = spec.indexes[0]!.documents;
    const agree = runs.length === 2 && !runs.some((r) => r.error) ? agreement(spec, runs[0]!, runs[1]!)[0] : undefined;
    for (const r of runs) {
      const v = (name: string) => {
        const x = fig(r, name);
        return x === undefined ? '' : fmt(x);
      };
      rows.push([spec.label, r.engine, v('ingest.time'), v('ingest.docs_per_s'), v('ingest.longest_stall'), v('queries.p50'), v('queries.p95'), v('queries.p99'), v('queries.qps_c4'),
        v('rss.idle'), v('rss.after_ingest'), v('rss.peak'), v('disk.after_ingest_allocated'), agree ? `${(agree.identical * 100).toFixed(0)}%` : '']);
      const t = fig(r, 'ingest.time');
      const disk = fig(r, 'disk.after_ingest_allocated');
      if (t !== undefined && disk !== undefined && !r.error) (engines.get(r.engine) ?? engines.set(r.engine, []).get(r.engine)!).push([docs, t, disk]);
    }
  }
  const all = [head, ...rows];
  const w = head.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  const lines = ['growth — measured (RSS in MB; disk = allocated; top10 same = share of queries whose top-10 ids are identical, same order)', line(head), line(w.map((x) => '-'.repeat(x))), ...rows.map(line)];
  const figures: Array<{ name: string; value: number; unit: string }> = [];
  lines.push('', `EXTRAPOLATION to ${fmt(TARGET)} documents — NOT MEASURED: power law T(N) = c·N^b fitted to the ingest times above; disk scaled by bytes/document of the largest size`);
  for (const [engine, pts] of engines) {
    const fit = fitPower(pts.map(([n, t]) => [n, t] as const));
    if (!fit) {
      lines.push(`  ${engine}: needs at least two sizes (--sizes 10k,100k)`);
      continue;
    }
    const t = fit.at(TARGET);
    const [maxN, , maxDisk] = pts.reduce((a, b) => (b[0] > a[0] ? b : a));
    const disk = (maxDisk / maxN) * TARGET;
    lines.push(`  ${engine}: ingest ≈ ${fmt(t)} s (${fmt(t / 60)} min), ≈ ${fmt(TARGET / t)} docs/s; b = ${fit.b.toFixed(3)} over ${fit.n} sizes (b > 1: slower per document as the index grows); disk ≈ ${fmt(disk / 1000)} GB`);
    figures.push({ name: `extrapolated_10m.${engine}.ingest_time`, value: t, unit: 's (extrapolated)' });
    figures.push({ name: `extrapolated_10m.${engine}.docs_per_s`, value: TARGET / t, unit: 'docs/s (extrapolated)' });
    figures.push({ name: `extrapolated_10m.${engine}.fit_exponent`, value: fit.b, unit: 'b' });
    figures.push({ name: `extrapolated_10m.${engine}.disk`, value: disk, unit: 'MB (extrapolated)' });
  }
  return { lines, figures };
}
