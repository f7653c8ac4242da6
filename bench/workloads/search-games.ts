// search-games: Orama's benchmark corpus (1,512 games) with Orama's benchmark queries plus
// generated known-item title queries. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { repeated, titleQueries } from '../lib/querygen.ts';
import { runSearchWorkload, type QuerySpec } from '../lib/search-bench.ts';
import { readNdjson } from '../lib/text.ts';
import type { Workload } from './types.ts';

const DATASET = 'text-orama-games-1512';
const SEED = 1512;

export const searchGames: Workload = {
  name: 'search-games',
  description: "Orama's games corpus: Orama's benchmark queries + 500 generated title queries",
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    const docs = readNdjson(path.join(dir, 'games.ndjson'));
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { queries: Array<{ q: string }> };
    // the text of Orama's three queries; their `rating` / `genres` filters are dropped
    const queries: QuerySpec[] = [...new Set(file.queries.map((q) => q.q))].map((q) => ({ q, limit: 10 }));
    const titles = titleQueries(docs, 'title', 'id', { n: 500, seed: SEED, limit: 10, typoRate: 0.35, prefixRate: 0.25 });
    await runSearchWorkload(ctx, {
      docs,
      settings: { uid: 'bench-games', primaryKey: 'id', searchableAttributes: ['title', 'description', 'genres'] },
      sets: [
        { name: 'queries', description: "Orama's 3 benchmark queries (text only); timed: 100 rounds", queries, stream: repeated(queries.length, 100) },
        { name: 'titles', description: '500 known-item title queries: 40% clean, 35% one typo, 25% prefix', queries: titles },
      ],
    });
  },
};
