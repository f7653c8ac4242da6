// search-cities: 135,233 GeoNames cities searched by name: 1,000 generated queries of one- and
// two-word city names, clean, with typos, or cut to a prefix (fixed seed). See bench/README.md.
import path from 'node:path';
import { titleQueries } from '../lib/querygen.ts';
import { runSearchWorkload } from '../lib/search-bench.ts';
import { readNdjson } from '../lib/text.ts';
import type { Workload } from './types.ts';

const DATASET = 'geo-cities-geonames-135k';
const SEED = 135233;

export const searchCities: Workload = {
  name: 'search-cities',
  description: '135k cities by name: 1,000 generated one- and two-word name queries with typos and prefixes',
  dataset: DATASET,
  async run(ctx) {
    const docs = readNdjson(path.join(ctx.datasetsDir, DATASET, 'cities.ndjson'));
    const names = titleQueries(docs, 'name', 'id', { n: 1000, seed: SEED, limit: 10, typoRate: 0.4, prefixRate: 0.25, maxWords: 2 });
    await runSearchWorkload(ctx, {
      docs,
      settings: { uid: 'bench-cities', primaryKey: 'id', searchableAttributes: ['name'] },
      sets: [{ name: 'names', description: '1,000 known-item city-name queries (1-2 words): 35% clean, 40% typo, 25% prefix', queries: names }],
    });
  },
};
