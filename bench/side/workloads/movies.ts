// side-movies: 1,688 TMDB movies with the dataset's settings. Two sets: known-item title queries
// (clean, with typos, cut to a prefix), and words of the overviews with highlight and crop.
import path from 'node:path';
import fs from 'node:fs';
import { titleQueries, wordQueries } from '../../lib/querygen.ts';
import { readNdjson } from '../../lib/text.ts';
import { datasetIndex } from '../payloads.ts';
import type { SideWorkload } from '../types.ts';

const DATASET = 'movies-tmdb-1688';
const SEED = 1688;

export const sideMovies: SideWorkload = {
  name: 'side-movies',
  description: 'TMDB movies: titles with typos/prefixes; overview words with highlight + crop',
  dataset: DATASET,
  specs({ datasetsDir }) {
    const dir = path.join(datasetsDir, DATASET);
    const docs = readNdjson(path.join(dir, 'movies.ndjson'));
    const settings = (JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { settings_for_this_dataset: Record<string, unknown> }).settings_for_this_dataset;
    const titles = titleQueries(docs, 'title', 'id', { n: 500, seed: SEED, limit: 10, typoRate: 0.35, prefixRate: 0.25 });
    const words = wordQueries(docs, 'overview', 'id', { n: 500, seed: SEED + 10, limit: 10, typoRate: 0.3, prefixRate: 0.15 });
    const uid = 'side-movies';
    return [
      {
        label: '',
        indexes: [datasetIndex(uid, 'id', docs, settings)],
        sets: [
          { name: 'titles', description: '500 known-item titles: 40% clean, 35% typo, 25% prefix', index: uid, bodies: titles.map((t) => ({ q: t.q, limit: 10 })) },
          {
            name: 'overview+crop',
            description: '500 runs of 1-3 overview words (30% typo, 15% prefix), overview highlighted and cropped to 20 words',
            index: uid,
            bodies: words.map((w) => ({ q: w.q, limit: 10, attributesToRetrieve: ['id', 'title'], attributesToHighlight: ['overview'], attributesToCrop: ['overview'], cropLength: 20 })),
          },
        ],
      },
    ];
  },
};
