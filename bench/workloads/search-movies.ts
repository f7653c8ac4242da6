// search-movies: 1,688 TMDB movies, Meilisearch's own movie-workload text queries plus generated
// known-item title queries (clean, with a typo, or cut to a prefix). See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { repeated, titleQueries } from '../lib/querygen.ts';
import { runSearchWorkload, type QuerySpec } from '../lib/search-bench.ts';
import { readNdjson } from '../lib/text.ts';
import type { Workload } from './types.ts';

const DATASET = 'movies-tmdb-1688';
const SEED = 1688;

interface MovieQuery {
  q?: string;
  limit?: number;
}

export const searchMovies: Workload = {
  name: 'search-movies',
  description: 'TMDB movies: Meilisearch movie-workload queries + 500 generated title queries',
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    const docs = readNdjson(path.join(dir, 'movies.ndjson'));
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as {
      settings_for_this_dataset: { searchableAttributes: string[] };
      queries: MovieQuery[];
    };
    // the text of every query (filters, sorts, facets and hybrid parameters dropped: the peers
    // cannot run them alike), once each, with the largest limit it is used with (default 20);
    // the placeholder "" is left out (MiniSearch and FlexSearch have no placeholder search)
    const limits = new Map<string, number>();
    for (const q of file.queries) {
      if (!q.q) continue;
      limits.set(q.q, Math.max(limits.get(q.q) ?? 0, q.limit ?? 20));
    }
    const queries: QuerySpec[] = [...limits].map(([q, limit]) => ({ q, limit }));
    const titles = titleQueries(docs, 'title', 'id', { n: 500, seed: SEED, limit: 10, typoRate: 0.35, prefixRate: 0.25 });
    await runSearchWorkload(ctx, {
      docs,
      settings: { uid: 'bench-movies', primaryKey: 'id', searchableAttributes: file.settings_for_this_dataset.searchableAttributes },
      sets: [
        { name: 'queries', description: 'distinct text queries of queries.json; timed: 50 rounds', queries, stream: repeated(queries.length, 50) },
        { name: 'titles', description: '500 known-item title queries: 40% clean, 35% one typo, 25% prefix', queries: titles },
      ],
    });
  },
};
