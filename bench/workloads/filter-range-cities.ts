// filter-range-cities: population ranges of 1%, 10% and 90% selectivity on 135,233 cities, with
// thresholds computed from the data (ties make the real share move a little: it is measured and
// printed), placeholder search with limit 20, and the same ranges with city-name queries. Totals
// are checked against naive counts. See bench/README.md.
import { expectTotal, runFilterWorkload, type BenchQuery, type QueryClass } from '../lib/filter-bench.ts';
import { titleQueries } from '../lib/querygen.ts';
import { Rng, type Doc } from '../lib/text.ts';
import { CITIES, CITIES_TARGET_MS, loadCities, unfiltered } from './geo-cities.ts';
import type { Workload } from './types.ts';

const SEED = 1352330;
const RANGES_PER_SELECTIVITY = 30;
const QUERIES_PER_SELECTIVITY = 100;

interface Range {
  text: string;
  pred(d: Doc): boolean;
  count: number;
}

/**
 * Ranges selecting `share` of the cities: upper tails (population >= x), lower tails (< x),
 * windows (a TO b, and > a AND <= b) starting at random ranks. Candidates whose real share is off
 * by more than max(share / 5, 2 points) because of ties (12,788 cities have population 0) are
 * drawn again.
 */
function rangesOf(pops: readonly number[], share: number, rng: Rng): Range[] {
  const N = pops.length;
  const want = Math.round(share * N);
  const tolerance = Math.min(share / 5, 0.02);
  const first = (v: number) => {
    let lo = 0;
    let hi = N;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pops[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const count = (test: (p: number) => boolean) => pops.reduce((n, p) => n + (test(p) ? 1 : 0), 0);
  const out: Range[] = [];
  for (let guard = 0; out.length < RANGES_PER_SELECTIVITY && guard < 10_000; guard++) {
    let r: Omit<Range, 'count'>;
    const form = guard % 4;
    switch (form) {
      case 0: {
        const x = pops[N - want - rng.int(Math.max(1, Math.floor(want / 20)))]!;
        r = { text: `population >= ${x}`, pred: (d) => (d.population as number) >= x };
        break;
      }
      case 1: {
        const x = pops[Math.min(N - 1, want + rng.int(Math.max(1, Math.floor(want / 20))))]!;
        r = { text: `population < ${x}`, pred: (d) => (d.population as number) < x };
        break;
      }
      default: {
        const a = pops[rng.int(N - want + 1)]!;
        const b = pops[Math.min(N - 1, first(a) + want - 1)]!;
        r =
          form === 2
            ? { text: `population ${a} TO ${b}`, pred: (d) => (d.population as number) >= a && (d.population as number) <= b }
            : { text: `population > ${a} AND population <= ${b}`, pred: (d) => (d.population as number) > a && (d.population as number) <= b };
      }
    }
    const n = count((p) => r.pred({ population: p }));
    if (Math.abs(n / N - share) <= tolerance && !out.some((o) => o.text === r.text)) out.push({ ...r, count: n });
  }
  if (out.length < RANGES_PER_SELECTIVITY) throw new Error(`only ${out.length} ranges of selectivity ${share} found`);
  return out;
}

export const filterRangeCities: Workload = {
  name: 'filter-range-cities',
  description: '135k cities: population ranges of 1%, 10%, 90% selectivity (from the data), placeholder limit 20 and with city-name queries',
  dataset: CITIES,
  async run(ctx) {
    const data = loadCities(ctx.datasetsDir);
    const N = data.docs.length;
    const pops = data.docs.map((d) => d.population as number).sort((a, b) => a - b);
    const rng = new Rng(SEED);
    const shares: Array<[label: string, share: number, target: number]> = [
      ['1pct', 0.01, CITIES_TARGET_MS],
      ['10pct', 0.1, CITIES_TARGET_MS],
      ['90pct', 0.9, 3],
    ];
    const ranges = new Map(shares.map(([label, share]) => [label, rangesOf(pops, share, rng)]));
    const names = titleQueries(data.docs, 'name', 'id', { n: QUERIES_PER_SELECTIVITY, seed: SEED + 1, limit: 20, typoRate: 0.2, prefixRate: 0.3, maxWords: 2 });
    await runFilterWorkload(ctx, {
      uid: 'bench-range-cities',
      primaryKey: 'id',
      docs: data.docs,
      settings: data.settings,
      classes(search) {
        const candidates = new Map(names.map((s) => [s.q, unfiltered(search, s.q)]));
        const classes: QueryClass[] = [];
        for (const [label, share, target] of shares) {
          const rs = ranges.get(label)!;
          classes.push({
            name: `range-${label}`,
            description: `placeholder, limit 20, ${rs.length} population ranges selecting ~${share * 100}% (>=, <, TO, > AND <=)`,
            queries: rs.map((r): BenchQuery => ({ body: { q: '', limit: 20, filter: r.text }, check: expectTotal(r.count, { pred: r.pred, minHits: 20 }), selectivity: r.count / N })),
            targetP95Ms: target,
          });
        }
        for (const [label] of shares) {
          const rs = ranges.get(label)!;
          classes.push({
            name: `q+range-${label}`,
            description: `${names.length} city-name queries (20% typo, 30% prefix), limit 20, each with one of the ${label} ranges`,
            queries: names.map((s, i): BenchQuery => {
              const r = rs[i % rs.length]!;
              const ids = candidates.get(s.q)!;
              const n = ids.filter((id) => r.pred(data.byId.get(id)!)).length;
              return { body: { q: s.q, limit: 20, filter: r.text }, check: expectTotal(n, { pred: r.pred, byId: data.byId, minHits: Math.min(1, n) }) };
            }),
            targetP95Ms: CITIES_TARGET_MS,
          });
        }
        return classes;
      },
    });
  },
};
