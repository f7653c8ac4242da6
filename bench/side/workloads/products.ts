// side-products: 3,291 Best Buy products and the 2,120 real query suggestions of Algolia's Best Buy
// demo, each sent twice: plain, then with four facets and a filter (a price window or a top-level
// category, seeded). The same bodies for every server.
import fs from 'node:fs';
import path from 'node:path';
import { quote } from '../../lib/filter-bench.ts';
import { readNdjson, Rng } from '../../lib/text.ts';
import { datasetIndex } from '../payloads.ts';
import type { SideWorkload } from '../types.ts';

const DATASET = 'ecommerce-bestbuy-3291';
const SEED = 3291;
const FACETS = ['brand', 'categories', 'hierarchicalCategories_lvl0', 'price'];

export const sideProducts: SideWorkload = {
  name: 'side-products',
  description: 'Best Buy products: 2,120 real queries, plain and with 4 facets + a filter',
  dataset: DATASET,
  specs({ datasetsDir }) {
    const dir = path.join(datasetsDir, DATASET);
    const docs = readNdjson(path.join(dir, 'products.ndjson'));
    const queries = fs
      .readFileSync(path.join(dir, 'queries-algolia-query-suggestions.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { query: string }).query);
    const prices = docs.map((d) => d.price as number).sort((a, b) => a - b);
    const quantile = (q: number) => prices[Math.min(prices.length - 1, Math.floor(q * prices.length))]!;
    const rng = new Rng(SEED + 10);
    const filtered = queries.map((q, i) => {
      let filter: string;
      if (i % 2 === 0) {
        const from = rng.next() * 0.5;
        filter = `price >= ${quantile(from)} AND price < ${quantile(from + 0.5)}`;
      } else {
        filter = `hierarchicalCategories_lvl0 = ${quote(rng.pick(docs).hierarchicalCategories_lvl0 as string)}`;
      }
      return { q, limit: 10, facets: FACETS, filter };
    });
    const uid = 'side-products';
    const settings = {
      searchableAttributes: ['name', 'brand', 'categories', 'description'],
      filterableAttributes: ['brand', 'categories', 'hierarchicalCategories_lvl0', 'hierarchicalCategories_lvl1', 'price'],
    };
    return [
      {
        label: '',
        indexes: [datasetIndex(uid, 'id', docs, settings)],
        sets: [
          { name: 'queries', description: 'the 2,120 Algolia query suggestions, limit 10', index: uid, bodies: queries.map((q) => ({ q, limit: 10 })) },
          { name: 'queries+facets+filter', description: 'the same with facets brand, categories, lvl0, price and a price window (half the catalog) or a lvl0 category', index: uid, bodies: filtered },
        ],
      },
    ];
  },
};
