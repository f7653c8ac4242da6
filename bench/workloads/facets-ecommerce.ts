// facets-ecommerce: facet distribution (and price stats) on 5 facets of 3,291 Best Buy products,
// for the placeholder search, the placeholder with a filter, and the real Algolia queries. Every
// distribution is checked against naive counts over the candidates. See bench/README.md.
import { all, expectFacets, expectTotal, runFilterWorkload, type BenchQuery } from '../lib/filter-bench.ts';
import { Rng } from '../lib/text.ts';
import {
  candidatesOf,
  ECOMMERCE,
  ECOMMERCE_SETTINGS,
  filterPools,
  loadEcommerce,
  queryClass,
  type EcommerceData,
  type Filter,
} from './filter-ecommerce.ts';
import type { Workload } from './types.ts';

/** The five facets: brand (263 values), categories (66), two category levels, price (numbers: distribution and stats). */
export const FACETS = ['brand', 'categories', 'hierarchicalCategories_lvl1', 'hierarchicalCategories_lvl2', 'price'];
const NUMERIC = ['price'];

function facetsOf(data: EcommerceData, q: string, f: Filter | null, candidates: readonly string[] | null): BenchQuery {
  const docs = candidates === null ? data.docs.filter((d) => f === null || f.pred(d)) : candidates.map((id) => data.byId.get(id)!);
  return {
    body: { q, facets: FACETS, ...(f === null ? {} : { filter: f.text }) },
    check: all(expectTotal(docs.length), expectFacets(docs, FACETS, NUMERIC)),
  };
}

export const facetsEcommerce: Workload = {
  name: 'facets-ecommerce',
  description: '3,291 products: facetDistribution + facetStats on 5 facets, placeholder (with and without filters) and 1,000 weighted real queries',
  dataset: ECOMMERCE,
  async run(ctx) {
    const data = loadEcommerce(ctx.datasetsDir);
    const pools = filterPools(data);
    const rng = new Rng(33291);
    // a faceted-navigation mix: one filter of each pool in turn, 100 in all
    const filters: Filter[] = [];
    const kinds = [pools.brand, pools.category, pools.price, pools.combined];
    for (let i = 0; i < 100; i++) filters.push(rng.pick(kinds[i % kinds.length]!));
    await runFilterWorkload(ctx, {
      uid: 'bench-facets-ecommerce',
      primaryKey: 'id',
      docs: data.docs,
      settings: ECOMMERCE_SETTINGS,
      classes(search) {
        const candidates = candidatesOf(data, data.queries, search);
        return [
          { name: 'placeholder', description: `q "" with facets ${FACETS.join(', ')} (every product)`, queries: [facetsOf(data, '', null, null)] },
          { name: 'placeholder+filter', description: 'q "" with a brand / category / price / combined filter and the 5 facets', queries: filters.map((f) => facetsOf(data, '', f, null)) },
          queryClass(data, 'q', 'real queries with the 5 facets', (q) => facetsOf(data, q, null, candidates.get(q)!)),
          queryClass(data, 'q-nofacets', 'the same real queries without facets (baseline)', (q) => ({ body: { q }, check: expectTotal(candidates.get(q)!.length) })),
        ];
      },
    });
  },
};
