// search-commedia: MiniSearch's benchmark corpus (14,097 lines of the Divina Commedia) with
// MiniSearch's benchmark queries plus generated known-item word queries. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { repeated, wordQueries } from '../lib/querygen.ts';
import { runSearchWorkload, type QuerySpec } from '../lib/search-bench.ts';
import { readNdjson } from '../lib/text.ts';
import type { Workload } from './types.ts';

const DATASET = 'text-divina-commedia-14k';
const SEED = 14097;

export const searchCommedia: Workload = {
  name: 'search-commedia',
  description: "Divina Commedia lines: MiniSearch's benchmark queries + 1,000 generated word queries",
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    // the corpus ids ("Inf II 1") hold spaces, which Meilisearch-style ids refuse: every engine
    // gets the same ids with the spaces as underscores
    const docs = readNdjson(path.join(dir, 'lines.ndjson')).map((d) => ({ ...d, id: String(d.id).replace(/\s+/g, '_') }));
    const file = JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { queries: Array<{ term?: string; q?: string }> };
    // the text of every operation (exact / fuzzy / prefix / search / autosuggest), once each; the
    // per-query MiniSearch options (maxEdits, prefix, fuzzy) and the filter are dropped: every
    // engine runs with its one configuration
    const texts = [...new Set(file.queries.map((q) => q.q ?? q.term ?? '').filter((t) => t !== ''))];
    const queries: QuerySpec[] = texts.map((q) => ({ q, limit: 10 }));
    const words = wordQueries(docs, 'txt', 'id', { n: 1000, seed: SEED, limit: 10, typoRate: 0.3, prefixRate: 0.15 });
    await runSearchWorkload(ctx, {
      docs,
      settings: { uid: 'bench-commedia', primaryKey: 'id', searchableAttributes: ['txt'] },
      sets: [
        { name: 'queries', description: "MiniSearch's benchmark query texts; timed: 50 rounds", queries, stream: repeated(queries.length, 50) },
        { name: 'words', description: '1,000 known-item queries of 1-3 words of a line, 30% with a typo, 15% last word cut', queries: words },
      ],
    });
  },
};
