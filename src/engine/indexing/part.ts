// An index part: one kind of data the documents writer keeps beside the documents (search tables,
// facet and geo tables, vectors), all with the same lifecycle in a batch. The writer walks the
// list of parts; it does not know which kinds there are for these steps.
//
//   batch: constructor (inside the batch's write)
//     task: beginTask ─► writes (child transaction) ─► endTask (may fail the task) │ rollback
//     flushDue? ─► the step commits
//   save (end of the batch, inside its write) · clearAll (documentClear)
import type { Bitmap } from '../bitmap/index.ts';

export interface IndexPart<Checkpoint = unknown> {
  /** A task starts: the in-memory state to restore if it fails. */
  beginTask(): Checkpoint;
  rollback(checkpoint: Checkpoint): void;
  /** The task's writes are done (inside its transaction); throws to fail the task. */
  endTask(): void;
  /** Pending changes outgrew their bound: a good time to commit the step. */
  flushDue(): boolean;
  /** Every document is gone. */
  clearAll(): void;
  /** End of the batch: pending changes written, state stored. `used`: the ids in use. */
  save(used: Bitmap): void;
}
