// search-ecommerce: 3,291 Best Buy products, the 2,120 real query suggestions of Algolia's Best Buy
// demo, timed in a mix weighted by their popularity. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { runSearchWorkload, type QuerySpec } from '../lib/search-bench.ts';
import { readNdjson, Rng } from '../lib/text.ts';
import type { Workload } from './types.ts';

const DATASET = 'ecommerce-bestbuy-3291';
const SEED = 3291;

interface Suggestion {
  query: string;
  popularity: number;
}

export const searchEcommerce: Workload = {
  name: 'search-ecommerce',
  description: 'Best Buy products, 2,120 real queries weighted by popularity',
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    const docs = readNdjson(path.join(dir, 'products.ndjson'));
    const suggestions = fs
      .readFileSync(path.join(dir, 'queries-algolia-query-suggestions.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Suggestion);
    // weight = popularity + 1, so that the 1,369 suggestions with popularity 0 still count once
    const queries: QuerySpec[] = suggestions.map((s) => ({ q: s.query, limit: 10, weight: s.popularity + 1 }));
    const stream: number[] = [];
    queries.forEach((q, i) => {
      for (let k = 0; k < q.weight!; k++) stream.push(i);
    });
    new Rng(SEED).shuffle(stream);
    await runSearchWorkload(ctx, {
      docs,
      settings: { uid: 'bench-ecommerce', primaryKey: 'id', searchableAttributes: ['name', 'brand', 'categories', 'description'] },
      sets: [
        {
          name: 'queries',
          description: 'the 2,120 Algolia query suggestions; timed stream: each repeated popularity+1 times (7,330), shuffled',
          queries,
          stream,
        },
      ],
    });
  },
};
