// What a batch processor receives and returns.
import type { IndexRegistry } from '../index-registry.ts';
import type { Extractor } from '../../engine/indexing/extract/extractor.ts';
import type { TaskQueue } from '../queue.ts';
import type { Task } from '../types.ts';
import type { UpdateFiles } from '../update-files.ts';
import type { ProgressTrace } from '../progress-trace.ts';
import type { IndexingBudget } from '../../engine/indexing/budget.ts';
import { ApiError, toApiError } from '../../api/errors/index.ts';
import { failedDetails } from '../details.ts';
import type { AllowedNetworks } from '../outgoing.ts';

export interface ProcessContext {
  queue: TaskQueue;
  /** parses payload files on another thread */
  extractor: Extractor;
  registry: IndexRegistry;
  files: UpdateFiles;
  batchUid: number;
  startedAt: number;
  /** true once a cancelation asks to interrupt this batch */
  shouldAbort(): boolean;
  progress(step: string, finished: number, total: number): void;
  /** the batch's `progressTrace`: processors time their steps in it */
  trace: ProgressTrace;
  /** where dumps are written (`--dump-dir`, default `dumps/`) */
  dumpDir?: string;
  /** where snapshots are written (`--snapshot-dir`, default `snapshots/`) */
  snapshotDir?: string;
  /** the database directory (snapshots copy its VERSION and instance-uid) */
  dataDir?: string;
  /** `--experimental-allowed-ip-networks` for outgoing requests (default: global addresses only) */
  allowedNetworks?: AllowedNetworks;
  /** what one step of a document batch may hold (default: `indexingBudget()`, the largest) */
  indexing?: IndexingBudget;
  /** vectors embedders' servers computed for the batch's tasks before its writes (embedding.ts) */
  embedded?: EmbeddedVectors | null;
}

export interface EmbeddedVectors {
  /** task uid → the payload with its computed vectors */
  payloads: Map<number, string>;
  /** task uid (a settings update) → embedder → file of the vectors to store after it (`generatedVectors`) */
  regenerated: Map<number, Map<string, string>>;
  /** task uid → what it fails with */
  failures: Map<number, Error>;
}

export interface BatchResult {
  /** final task records (status, details, error); the loop stamps batch uid and times */
  tasks: Task[];
  /** more writes to run inside the task-queue commit (index mapping, task rewrites) */
  commit?: () => void;
  /** clean-up once the commit is durable (remove directories, files) */
  after?: () => Promise<void>;
  /** indexes whose content changed, for the readers' caches */
  indexUids: string[];
  /** a failed database upgrade: the scheduler runs nothing but cancelations from now on */
  halt?: boolean;
  /** requests the batch sent to embedders' servers (the batch's `embedderRequests`) */
  embedderRequests?: { total: number; failed: number; lastError?: string };
}

/** Thrown inside a processor when a cancelation interrupts the batch; nothing it wrote is kept. */
export class Aborted extends Error {
  constructor() {
    super('batch interrupted by a task cancelation');
  }
}

export function succeeded(task: Task, details: Record<string, unknown> | null = task.details): Task {
  return { ...task, status: 'succeeded', details, error: null };
}

/** A failed copy of a task; engine errors get the ``Index `uid`: `` prefix when they ask for it. */
export function failed(task: Task, err: unknown): Task {
  const prefix = task.indexUid !== null ? `Index \`${task.indexUid}\`: ` : '';
  const apiErr = toApiError(err, { enginePrefix: prefix });
  return { ...task, status: 'failed', details: task.details === null ? null : failedDetails(task.details), error: apiErr.toBody() };
}

import { indexNotFound } from '../../api/indexes/index.ts';

export { indexNotFound };
