// filter-ecommerce: filters on 3,291 Best Buy products (brand, hierarchical categories, price
// ranges, combinations), alone (placeholder search) and with the real Algolia query suggestions.
// Every answer is checked against a naive evaluation of the filter. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { norm, quote, runFilterWorkload, valuesOf, expectTotal, all, type BenchQuery, type QueryClass, type SearchBody, type SearchReply } from '../lib/filter-bench.ts';
import { readNdjson, Rng, type Doc } from '../lib/text.ts';
import type { Workload } from './types.ts';

export const ECOMMERCE = 'ecommerce-bestbuy-3291';
const SEED = 3291;
/** draws of the weighted query stream (popularity + 1) per query class */
const QUERY_DRAWS = 1000;

export const LEVELS = [1, 2, 3, 4].map((l) => `hierarchicalCategories_lvl${l}`);

export const ECOMMERCE_SETTINGS = {
  searchableAttributes: ['name', 'brand', 'categories', 'description'],
  filterableAttributes: ['brand', 'categories', 'hierarchicalCategories_lvl0', ...LEVELS, 'price', 'popularity'],
  sortableAttributes: ['price', 'popularity'],
  // totals up to the whole catalog are exact, so the checks can compare them
  pagination: { maxTotalHits: 10_000 },
};

/** A filter expression and the same condition in JavaScript. */
export interface Filter {
  text: string;
  pred(d: Doc): boolean;
}

export function eq(field: string, value: string): Filter {
  const n = norm(value);
  return { text: `${field} = ${quote(value)}`, pred: (d) => valuesOf(d, field).some((v) => typeof v === 'string' && norm(v) === n) };
}

export function inList(field: string, values: string[]): Filter {
  const ns = new Set(values.map(norm));
  return { text: `${field} IN [${values.map(quote).join(', ')}]`, pred: (d) => valuesOf(d, field).some((v) => typeof v === 'string' && ns.has(norm(v))) };
}

const num = (d: Doc, field: string): number[] => valuesOf(d, field).filter((v): v is number => typeof v === 'number');

export function between(field: string, lo: number, hi: number): Filter {
  return { text: `${field} ${lo} TO ${hi}`, pred: (d) => num(d, field).some((v) => v >= lo && v <= hi) };
}

export function cmp(field: string, op: '<' | '<=' | '>' | '>=', x: number): Filter {
  const test = { '<': (v: number) => v < x, '<=': (v: number) => v <= x, '>': (v: number) => v > x, '>=': (v: number) => v >= x }[op];
  return { text: `${field} ${op} ${x}`, pred: (d) => num(d, field).some(test) };
}

export function and(...fs: Filter[]): Filter {
  return { text: fs.map((f) => `(${f.text})`).join(' AND '), pred: (d) => fs.every((f) => f.pred(d)) };
}

export function or(...fs: Filter[]): Filter {
  return { text: fs.map((f) => `(${f.text})`).join(' OR '), pred: (d) => fs.some((f) => f.pred(d)) };
}

export function not(f: Filter): Filter {
  return { text: `NOT (${f.text})`, pred: (d) => !f.pred(d) };
}

export interface EcommerceData {
  docs: Doc[];
  byId: Map<string, Doc>;
  brands: string[];
  categories: Array<[field: string, value: string]>;
  /** prices sorted ascending */
  prices: number[];
  /** the weighted query stream: QUERY_DRAWS draws by popularity + 1 */
  draws: string[];
  /** its distinct queries, in first-draw order */
  queries: string[];
}

export function loadEcommerce(datasetsDir: string): EcommerceData {
  const dir = path.join(datasetsDir, ECOMMERCE);
  const docs = readNdjson(path.join(dir, 'products.ndjson'));
  const byId = new Map(docs.map((d) => [String(d.id), d]));
  const distinct = (field: string) => [...new Set(docs.flatMap((d) => valuesOf(d, field)).filter((v): v is string => typeof v === 'string'))].sort();
  const brands = distinct('brand');
  const categories: Array<[string, string]> = [...LEVELS, 'categories'].flatMap((f) => distinct(f).map((v) => [f, v] as [string, string]));
  const prices = docs.map((d) => d.price as number).sort((a, b) => a - b);
  const suggestions = fs
    .readFileSync(path.join(dir, 'queries-algolia-query-suggestions.ndjson'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { query: string; popularity: number });
  const rng = new Rng(SEED);
  const cumulative: number[] = [];
  let sum = 0;
  for (const s of suggestions) cumulative.push((sum += s.popularity + 1));
  const draws: string[] = [];
  for (let i = 0; i < QUERY_DRAWS; i++) {
    const x = rng.next() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    draws.push(suggestions[lo]!.query);
  }
  return { docs, byId, brands, categories, prices, draws, queries: [...new Set(draws)] };
}

const quantile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Filter pools used alone (placeholder search): every brand, every category value, price ranges, combinations. */
export function filterPools(data: EcommerceData): Record<'brand' | 'category' | 'price' | 'combined', Filter[]> {
  const rng = new Rng(SEED + 1);
  const { docs, prices } = data;
  const price: Filter[] = [
    cmp('price', '<', quantile(prices, 0.1)),
    cmp('price', '>=', quantile(prices, 0.9)),
    between('price', quantile(prices, 0.25), quantile(prices, 0.75)),
  ];
  for (let i = 0; i < 37; i++) {
    const a = quantile(prices, rng.next());
    const b = quantile(prices, rng.next());
    price.push(between('price', Math.min(a, b), Math.max(a, b)));
  }
  const combined: Filter[] = [];
  for (let i = 0; i < 100; i++) {
    const d = rng.pick(docs);
    const p = d.price as number;
    const lvl1 = d.hierarchicalCategories_lvl1 as string | undefined;
    const other = rng.pick(data.brands);
    switch (i % 4) {
      case 0: // a shopper's drill-down: brand, category, price band
        combined.push(and(eq('brand', d.brand as string), ...(lvl1 ? [eq('hierarchicalCategories_lvl1', lvl1)] : []), between('price', Math.floor(p / 2), Math.ceil(p * 2))));
        break;
      case 1:
        combined.push(and(or(eq('brand', d.brand as string), eq('brand', other)), cmp('price', '<=', Math.ceil(p))));
        break;
      case 2:
        combined.push(and(inList('brand', [d.brand as string, other, rng.pick(data.brands)]), eq('categories', rng.pick(valuesOf(d, 'categories') as string[]))));
        break;
      default:
        combined.push(and(eq('hierarchicalCategories_lvl0', d.hierarchicalCategories_lvl0 as string), not(eq('brand', d.brand as string)), cmp('price', '>', Math.floor(p))));
    }
  }
  return { brand: data.brands.map((b) => eq('brand', b)), category: data.categories.map(([f, v]) => eq(f, v)), price, combined };
}

/** The unfiltered candidates of each query (ids), from one search with a limit above the catalog size. */
export function candidatesOf(data: EcommerceData, queries: readonly string[], search: (b: SearchBody) => SearchReply): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const q of queries) {
    const r = search({ q, limit: 10_000, attributesToRetrieve: ['id'] });
    const ids = r.hits.map((h) => String(h.id));
    if (ids.length !== r.estimatedTotalHits) throw new Error(`unfiltered ${JSON.stringify(q)}: ${ids.length} hits but estimatedTotalHits ${r.estimatedTotalHits}`);
    out.set(q, ids);
  }
  return out;
}

/** Placeholder search with `f`: the total must be the naive count, every hit must match. */
export function filterOnly(data: EcommerceData, f: Filter, extra: SearchBody = {}): BenchQuery {
  const expected = data.docs.filter(f.pred).length;
  return {
    body: { q: '', filter: f.text, ...extra },
    check: expectTotal(expected, { pred: f.pred, byId: data.byId, minHits: Math.min(1, expected) }),
  };
}

/** A query with `f`: the total must be the count of its unfiltered candidates matching `f`. */
export function queryWithFilter(data: EcommerceData, q: string, f: Filter, candidates: readonly string[], extra: SearchBody = {}): BenchQuery {
  const matching = candidates.filter((id) => f.pred(data.byId.get(id)!)).length;
  // the query's best unfiltered hit is still a candidate when it passes the filter
  const top = candidates[0] === undefined ? undefined : data.byId.get(candidates[0]);
  return {
    body: { q, filter: f.text, ...extra },
    check: all(expectTotal(matching, { pred: f.pred, byId: data.byId, minHits: top !== undefined && f.pred(top) ? 1 : 0 })),
  };
}

/** Classes of real queries: one query per distinct text, timed over the weighted stream. */
export function queryClass(data: EcommerceData, name: string, description: string, make: (q: string) => BenchQuery, targetP95Ms?: number): QueryClass {
  const index = new Map(data.queries.map((q, i) => [q, i]));
  return {
    name,
    description,
    queries: data.queries.map(make),
    stream: data.draws.map((q) => index.get(q)!),
    ...(targetP95Ms !== undefined ? { targetP95Ms } : {}),
  };
}

export const filterEcommerce: Workload = {
  name: 'filter-ecommerce',
  description: '3,291 products: brand / category level / price-range filters and combinations, alone and with 1,000 weighted real queries',
  dataset: ECOMMERCE,
  async run(ctx) {
    const data = loadEcommerce(ctx.datasetsDir);
    const pools = filterPools(data);
    await runFilterWorkload(ctx, {
      uid: 'bench-filter-ecommerce',
      primaryKey: 'id',
      docs: data.docs,
      settings: ECOMMERCE_SETTINGS,
      classes(search) {
        const candidates = candidatesOf(data, data.queries, search);
        const rng = new Rng(SEED + 2);
        // per query, filters built from its best unfiltered hit (a random product when it has none)
        const source = (q: string): Doc => data.byId.get(candidates.get(q)![0] ?? '') ?? rng.pick(data.docs);
        const byQuery = new Map(
          data.queries.map((q) => {
            const d = source(q);
            const levels = LEVELS.filter((l) => typeof d[l] === 'string');
            const level = rng.pick(levels);
            const p = d.price as number;
            return [
              q,
              {
                brand: eq('brand', d.brand as string),
                category: eq(level, d[level] as string),
                price: between('price', Math.floor(p / 2), Math.ceil(p * 2)),
                combined: and(inList('brand', [d.brand as string, rng.pick(data.brands)]), eq('hierarchicalCategories_lvl1', (d.hierarchicalCategories_lvl1 ?? d.hierarchicalCategories_lvl0) as string), cmp('price', '<=', Math.ceil(p * 1.5))),
              },
            ] as const;
          }),
        );
        const qf = (kind: 'brand' | 'category' | 'price' | 'combined') => (q: string) => queryWithFilter(data, q, byQuery.get(q)![kind], candidates.get(q)!);
        return [
          { name: 'brand', description: 'placeholder, brand = X (every brand)', queries: pools.brand.map((f) => filterOnly(data, f)) },
          { name: 'category', description: 'placeholder, hierarchicalCategories_lvl1..4 = X or categories = X (every value)', queries: pools.category.map((f) => filterOnly(data, f)) },
          { name: 'price', description: 'placeholder, price ranges (TO, <, >=) between price quantiles', queries: pools.price.map((f) => filterOnly(data, f)) },
          { name: 'combined', description: 'placeholder, AND/OR/NOT/IN of brand, category and price', queries: pools.combined.map((f) => filterOnly(data, f)) },
          queryClass(data, 'q', 'real queries, no filter (baseline)', (q) => ({ body: { q }, check: expectTotal(candidates.get(q)!.length) })),
          queryClass(data, 'q+brand', 'real queries, brand = brand of the best unfiltered hit', qf('brand')),
          queryClass(data, 'q+category', 'real queries, a category level of the best unfiltered hit', qf('category')),
          queryClass(data, 'q+price', 'real queries, price within [p/2, 2p] of the best unfiltered hit', qf('price')),
          queryClass(data, 'q+combined', 'real queries, brand IN [..] AND lvl1 = .. AND price <= ..', qf('combined')),
        ];
      },
    });
  },
};
