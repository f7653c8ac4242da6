// Messages between the HTTP thread and the scheduler worker.
import type { BatchProgress } from '../types.ts';
import type { AllowedNetworks } from '../outgoing.ts';

export interface SchedulerConfig {
  dataDir: string;
  maxBatchedTasks: number;
  maxBatchedBytes: number;
  /** `--max-indexing-memory` in bytes: bounds each step of a document batch (undefined: the largest steps) */
  maxIndexingMemory?: number;
  /** `--dump-dir` */
  dumpDir?: string;
  /** `--snapshot-dir` */
  snapshotDir?: string;
  /** `--experimental-allowed-ip-networks` */
  allowedNetworks?: AllowedNetworks;
  /** a database upgrade failed earlier in this process: run nothing but cancelations */
  halted?: boolean;
  /** tasks.md §10: past `maxTasks` stored tasks, the oldest `deleteCount` finished ones are deleted */
  cleanup: { maxTasks: number; deleteCount: number };
}

/** Shared control words: [0] = batch uid + 1 to interrupt (0 = none). */
export const CONTROL_ABORT = 0;

export type ToWorker = { type: 'wake' } | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  /** about to wait for a wake, having received `wakes` of them so far */
  | { type: 'idle'; wakes: number }
  | { type: 'started'; batchUid: number; taskUids: number[]; startedAt: number; indexUids: string[]; batchStrategy: string }
  | { type: 'progress'; batchUid: number; progress: BatchProgress; trace: Record<string, string> }
  | { type: 'finished'; batchUid: number; indexUids: string[] }
  | { type: 'aborted'; batchUid: number }
  | { type: 'error'; message: string }
  | { type: 'notice'; message: string }
  /** a database upgrade failed: workers started later in this process must not run tasks either */
  | { type: 'halted' }
  | { type: 'stopped' };
