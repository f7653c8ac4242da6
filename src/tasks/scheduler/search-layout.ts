// Startup step of the scheduler worker: indexes whose search tables are in an older layout (before
// postings were split in chunks of ids, docs/decisions/0006, or with the chunk last, 0007) are
// re-indexed for search from their stored documents, before any search can read them.
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import type { IndexRegistry } from '../index-registry.ts';
import type { TaskQueue } from '../queue.ts';
import { searchConfig, storedSettings } from '../index-settings.ts';

/** Rebuilds the search tables of every index still in the old layout; returns their uids. */
export function upgradeSearchLayouts(queue: TaskQueue, registry: IndexRegistry): string[] {
  const upgraded: string[] = [];
  for (const uid of queue.indexUids()) {
    const index = registry.get(uid);
    if (index === undefined || index.searchLayoutCurrent()) continue;
    index.env.write(() => {
      // search only: the facet tables are left to the next batch's own check
      const writer = new DocumentsWriter(index, searchConfig(storedSettings(index)));
      writer.indexSearchIfMissing();
      writer.save(index.meta().updatedAt);
    });
    upgraded.push(uid);
  }
  return upgraded;
}
