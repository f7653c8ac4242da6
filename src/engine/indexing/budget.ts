// How much work one step of a document batch may hold, from the indexing memory
// (`--max-indexing-memory`): the dirty pages of its write transaction (LMDB keeps them in
// memory until the commit) and the pending search and facet changes.
import { MAX_DELTA_BYTES } from './search-writer.ts';
import { MAX_FACET_DELTA_BYTES } from '../facet/index.ts';

export interface IndexingBudget {
  /** estimated pages written (store `writeCounters().pages`) past which a batch commits a step */
  stepPages: number;
  /** bound of the pending search changes (`SearchWriterOptions.maxDeltaBytes`) */
  searchDeltaBytes: number;
  /** bound of the pending facet changes (`FacetWriterOptions.maxDeltaBytes`) */
  facetDeltaBytes: number;
}

/**
 * Half of LMDB's room of 131,071 dirty pages per transaction: a nested transaction begun while
 * its parent holds at most this many still has as much room of its own (store/index.ts).
 */
export const MAX_STEP_PAGES = 65_536;
const PAGE_BYTES = 4096;

/** The budget of a step for `maxIndexingMemory` bytes (unbounded: the largest budget). */
export function indexingBudget(maxIndexingMemory = Infinity): IndexingBudget {
  const quarter = maxIndexingMemory / 4;
  return {
    stepPages: Math.max(1, Math.min(MAX_STEP_PAGES, Math.floor(quarter / PAGE_BYTES))),
    searchDeltaBytes: Math.max(1, Math.min(MAX_DELTA_BYTES, Math.floor(quarter))),
    facetDeltaBytes: Math.max(1, Math.min(MAX_FACET_DELTA_BYTES, Math.floor(quarter / 2))),
  };
}
