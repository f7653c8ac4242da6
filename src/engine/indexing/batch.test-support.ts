// Test support: one document batch as the scheduler runs it — each task in an LMDB child
// transaction, rolled back when it throws, the batch saved at the end.
import type { Index } from '../index/index.ts';
import { DocumentsWriter } from './documents.ts';
import type { SearchConfig } from './search-config.ts';
import type { SearchWriterOptions } from './search-writer.ts';

export type TaskFn = (w: DocumentsWriter) => void;

/** Runs the batch; returns the search configuration the writer ended with. */
export function runBatch(index: Index, config: SearchConfig, tasks: TaskFn[], opts: SearchWriterOptions = {}): SearchConfig {
  let after = config;
  index.env.write(() => {
    const w = new DocumentsWriter(index, config, opts);
    for (const t of tasks) {
      const cp = w.checkpoint();
      try {
        index.env.write(() => {
          t(w);
          w.endTask();
        });
      } catch {
        w.rollback(cp);
      }
    }
    w.save(2);
    after = w.searchConfig!;
  });
  return after;
}
