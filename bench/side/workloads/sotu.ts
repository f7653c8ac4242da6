// side-sotu: the 233 State of the Union addresses (46 kB of text on average). Two consecutive words
// of a speech, the text cropped around them.
import path from 'node:path';
import { wordQueries } from '../../lib/querygen.ts';
import { readNdjson } from '../../lib/text.ts';
import { datasetIndex } from '../payloads.ts';
import type { SideWorkload } from '../types.ts';

const DATASET = 'text-sotu-233';
const SEED = 233;

export const sideSotu: SideWorkload = {
  name: 'side-sotu',
  description: '233 long speeches: two consecutive words, text cropped',
  dataset: DATASET,
  specs({ datasetsDir }) {
    const docs = readNdjson(path.join(datasetsDir, DATASET, 'sotu.ndjson'));
    const pairs = wordQueries(docs, 'text', 'id', { n: 300, seed: SEED, limit: 10, typoRate: 0, prefixRate: 0, words: 2 });
    const uid = 'side-sotu';
    const settings = { searchableAttributes: ['text', 'president'] };
    return [
      {
        label: '',
        indexes: [datasetIndex(uid, 'id', docs, settings)],
        sets: [
          {
            name: 'two-words+crop',
            description: '300 pairs of consecutive words of a speech (3+ letters, no stop word), text cropped to 30 words',
            index: uid,
            bodies: pairs.map((p) => ({ q: p.q, limit: 10, attributesToRetrieve: ['id', 'year', 'president'], attributesToCrop: ['text'], cropLength: 30 })),
          },
        ],
      },
    ];
  },
};
