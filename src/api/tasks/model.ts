// The task model shared by the API views, the queue, the autobatcher and the scheduler. It is
// owned here, in the contract layer, so that src/tasks imports it and src/api imports nothing of
// src/tasks (src/tasks/types.ts re-exports it).
//
//   enqueued ──► processing ──► succeeded | failed
//      └────────────┴─────────► canceled (by a taskCancelation)
//
// Times are microseconds since the Unix epoch (numbers); views format them.
import type { ErrorBody } from '../errors/index.ts';
import type { ApiKey } from '../../auth/key-store.ts';

/** Public task types, in the order Meilisearch uses in messages (tasks.md §3). */
export const TASK_TYPES = [
  'documentAdditionOrUpdate',
  'documentEdition',
  'documentDeletion',
  'settingsUpdate',
  'indexCreation',
  'indexDeletion',
  'indexUpdate',
  'indexSwap',
  'taskCancelation',
  'taskDeletion',
  'dumpCreation',
  'snapshotCreation',
  'export',
  'upgradeDatabase',
  'indexCompaction',
  'networkTopologyChange',
  'dsrUpdate',
  'dsrClear',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_STATUSES = ['enqueued', 'processing', 'succeeded', 'failed', 'canceled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface IndexSwap {
  indexes: [string, string];
  rename: boolean;
}

/** What a task does. `kind` is internal and finer than the public `type` (a clear is a documentDeletion). */
export type TaskKind =
  | {
      kind: 'documentAddition';
      method: 'replace' | 'update';
      primaryKey: string | null;
      /** uuid of the NDJSON file in update_files/ */
      contentFile: string;
      documentsCount: number;
      payloadBytes: number;
      allowIndexCreation: boolean;
      skipCreation: boolean;
      /**
       * the first field value Meilisearch's indexer would refuse (serde's message, e.g. `recursion
       * limit exceeded at line 1 column 128`): the payload was accepted, the task fails with it
       */
      valueError?: string;
    }
  | { kind: 'documentDeletion'; ids: string[] }
  | { kind: 'documentDeletionByFilter'; filter: unknown }
  | { kind: 'documentClear' }
  | { kind: 'documentEdition'; filter: unknown; context: unknown; function: string }
  | { kind: 'settingsUpdate'; settings: Record<string, unknown>; isDeletion: boolean; allowIndexCreation: boolean }
  | { kind: 'indexCreation'; primaryKey: string | null }
  | { kind: 'indexUpdate'; primaryKey: string | null; newIndexUid: string | null }
  | { kind: 'indexDeletion' }
  | { kind: 'indexSwap'; swaps: IndexSwap[] }
  /** `matched`: the portable roaring serialisation of the matched task uids, fixed at registration. */
  | { kind: 'taskCancelation'; query: string; matched: Uint8Array }
  | { kind: 'taskDeletion'; query: string; matched: Uint8Array }
  /** the API keys as they were at enqueue time, and the instance uid (dumps-snapshots.md §1) */
  | { kind: 'dumpCreation'; keys?: ApiKey[]; instanceUid?: string | null }
  | { kind: 'snapshotCreation' }
  | { kind: 'export'; payload: Record<string, unknown> }
  | { kind: 'upgradeDatabase'; from: [number, number, number] }
  | { kind: 'indexCompaction' };

export type KindName = TaskKind['kind'];

const PUBLIC_TYPE: Record<KindName, TaskType> = {
  documentAddition: 'documentAdditionOrUpdate',
  documentDeletion: 'documentDeletion',
  documentDeletionByFilter: 'documentDeletion',
  documentClear: 'documentDeletion',
  documentEdition: 'documentEdition',
  settingsUpdate: 'settingsUpdate',
  indexCreation: 'indexCreation',
  indexUpdate: 'indexUpdate',
  indexDeletion: 'indexDeletion',
  indexSwap: 'indexSwap',
  taskCancelation: 'taskCancelation',
  taskDeletion: 'taskDeletion',
  dumpCreation: 'dumpCreation',
  snapshotCreation: 'snapshotCreation',
  export: 'export',
  upgradeDatabase: 'upgradeDatabase',
  indexCompaction: 'indexCompaction',
};

/** The public `type` of a task kind. */
export function publicType(kind: TaskKind | KindName): TaskType {
  return PUBLIC_TYPE[typeof kind === 'string' ? kind : kind.kind];
}

/** The task record as stored in the queue. */
export interface Task {
  uid: number;
  batchUid: number | null;
  indexUid: string | null;
  status: TaskStatus;
  kind: TaskKind;
  canceledBy: number | null;
  /** null only for types without details (snapshotCreation) */
  details: Record<string, unknown> | null;
  error: ErrorBody | null;
  enqueuedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  customMetadata?: string;
}

export interface BatchStats {
  totalNbTasks: number;
  status: Partial<Record<TaskStatus, number>>;
  types: Partial<Record<TaskType, number>>;
  indexUids: Record<string, number>;
  progressTrace?: Record<string, string>;
  writeChannelCongestion?: Record<string, number>;
  internalDatabaseSizes?: Record<string, unknown>;
  embedderRequests?: { total: number; failed: number; lastError?: string };
}

/** A batch as stored once it is finished. */
export interface Batch {
  uid: number;
  details: Record<string, unknown>;
  stats: BatchStats;
  startedAt: number;
  finishedAt: number | null;
  batchStrategy: string;
  /** enqueuedAt of the oldest and newest task of the batch (for date filters on batches) */
  enqueuedAtRange?: [number, number];
}

/** Progress of the batch being processed (batches.md `progress`). */
export interface BatchProgress {
  steps: { currentStep: string; finished: number; total: number }[];
  percentage: number;
}

/** Filters of GET /tasks, /batches, cancel and delete; values inside a filter are ORed. Dates are exclusive µs bounds. */
export interface TaskFilter {
  uids?: number[];
  batchUids?: number[];
  statuses?: TaskStatus[];
  types?: TaskType[];
  indexUids?: string[];
  canceledBy?: number[];
  afterEnqueuedAt?: number;
  beforeEnqueuedAt?: number;
  afterStartedAt?: number;
  beforeStartedAt?: number;
  afterFinishedAt?: number;
  beforeFinishedAt?: number;
}

export interface Page {
  limit: number;
  from?: number;
  reverse: boolean;
}
