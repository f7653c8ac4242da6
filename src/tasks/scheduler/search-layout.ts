// Startup step of the scheduler worker: indexes whose search tables are in an older layout (before
// postings were split in chunks of ids, docs/decisions/0006, or with the chunk last, 0007) are
// re-indexed for search from their stored documents, before any search can read them; indexes
// with embedders whose vectors are still in their documents (written before the vector store,
// decision 0010) get them moved into it.
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import type { Index } from '../../engine/index/index.ts';
import type { IndexRegistry } from '../index-registry.ts';
import type { TaskQueue } from '../queue.ts';
import { searchConfig, storedSettings } from '../index-settings.ts';
import { embedderConfigs } from '../../api/settings/index.ts';

/** The index needs the start-up step: search tables in an older layout, or vectors still in its documents. */
export function needsStartupUpgrade(index: Index): boolean {
  if (!index.searchLayoutCurrent()) return true;
  return index.getMain('embedderIds') === undefined && embedderConfigs(storedSettings(index).embedders).length > 0;
}

/** Rebuilds the search tables of every index still in the old layout; returns their uids. */
export function upgradeSearchLayouts(queue: TaskQueue, registry: IndexRegistry): string[] {
  const upgraded: string[] = [];
  for (const uid of queue.indexUids()) {
    const index = registry.get(uid);
    if (index === undefined || !needsStartupUpgrade(index)) continue;
    const settings = storedSettings(index);
    const vectors = embedderConfigs(settings.embedders);
    index.env.write(() => {
      // search and vectors only: the facet tables are left to the next batch's own check
      const writer = new DocumentsWriter(index, searchConfig(settings), { vectors });
      writer.indexSearchIfMissing();
      writer.indexVectorsIfMissing();
      writer.save(index.meta().updatedAt);
    });
    upgraded.push(uid);
  }
  return upgraded;
}
