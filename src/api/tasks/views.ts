// JSON views of tasks and batches (tasks.md §1, §2, §12), with Meilisearch's exact key order.
import type { ErrorBody } from '../errors/index.ts';
import {
  publicType,
  TASK_STATUSES,
  TASK_TYPES,
  type Batch,
  type BatchProgress,
  type BatchStats,
  type Task,
  type TaskStatus,
  type TaskType,
} from './model.ts';
import { formatDate, formatDuration, formatOptionalDate } from '../format/time.ts';
import { orderDetails, type Details } from './details.ts';

export {
  accumulateDetails,
  aggregateBatchDetails,
  DEFAULT_TARGET_VERSION,
  enqueuedDetails,
  failedDetails,
  maskSecret,
  maskSettingsSecrets,
  orderDetails,
  type Details,
  type EnqueueContext,
} from './details.ts';

/** Response of every route that enqueues a task (§1). */
export interface SummarizedTaskView {
  taskUid: number;
  indexUid: string | null;
  status: TaskStatus;
  type: TaskType;
  enqueuedAt: string;
  customMetadata?: string;
}

/** The full task object (§2). */
export interface TaskView {
  uid: number;
  batchUid: number | null;
  indexUid: string | null;
  status: TaskStatus;
  type: TaskType;
  canceledBy: number | null;
  details?: Details;
  error: ErrorBody | null;
  duration: string | null;
  enqueuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  customMetadata?: string;
}

/** The batch object (§12). */
export interface BatchView {
  uid: number;
  progress: BatchProgress | null;
  details: Details;
  stats: BatchStatsView;
  duration: string | null;
  startedAt: string;
  finishedAt: string | null;
  batchStrategy: string;
}

export type BatchStatsView = BatchStats;

/** The summarized task of §1: `taskUid, indexUid, status, type, enqueuedAt[, customMetadata]`. */
export function summarizedTaskView(task: Task): SummarizedTaskView {
  const view: SummarizedTaskView = {
    taskUid: task.uid,
    indexUid: task.indexUid,
    status: task.status,
    type: publicType(task.kind),
    enqueuedAt: formatDate(task.enqueuedAt),
  };
  if (task.customMetadata !== undefined) view.customMetadata = task.customMetadata;
  return view;
}

/**
 * The full task object of §2. `processing` (the in-memory state of the running batch) turns an
 * enqueued task into `status: processing` with that batch uid and start time.
 */
export function taskView(task: Task, processing?: { batchUid: number; startedAt: number }): TaskView {
  const live = processing !== undefined && task.status === 'enqueued';
  const startedAt = live ? processing.startedAt : task.startedAt;
  const finishedAt = live ? null : task.finishedAt;
  const view: Record<string, unknown> = {
    uid: task.uid,
    batchUid: live ? processing.batchUid : task.batchUid,
    indexUid: task.indexUid,
    status: live ? 'processing' : task.status,
    type: publicType(task.kind),
    canceledBy: task.canceledBy,
  };
  if (task.details !== null) view.details = orderDetails(task.details);
  view.error = task.error === null ? null : errorView(task.error);
  view.duration = startedAt !== null && finishedAt !== null ? formatDuration(finishedAt - startedAt) : null;
  view.enqueuedAt = formatDate(task.enqueuedAt);
  view.startedAt = formatOptionalDate(startedAt);
  view.finishedAt = formatOptionalDate(finishedAt);
  if (task.customMetadata !== undefined) view.customMetadata = task.customMetadata;
  return view as unknown as TaskView;
}

/** The batch object of §12; `progress` is given only for the batch being processed. */
export function batchView(batch: Batch, progress?: BatchProgress | null): BatchView {
  return {
    uid: batch.uid,
    progress: progress ? progressView(progress) : null,
    details: orderDetails(batch.details),
    stats: statsView(batch.stats),
    duration: batch.finishedAt === null ? null : formatDuration(batch.finishedAt - batch.startedAt),
    startedAt: formatDate(batch.startedAt),
    finishedAt: formatOptionalDate(batch.finishedAt),
    batchStrategy: batch.batchStrategy,
  };
}

/**
 * The `stats` counts of a batch's tasks. With `processing: true` (the running batch) every task counts
 * as `processing`, as Meilisearch does until the batch finishes.
 */
export function batchStats(tasks: readonly Task[], opts: { processing?: boolean } = {}): BatchStats {
  const status: Partial<Record<TaskStatus, number>> = {};
  const types: Partial<Record<TaskType, number>> = {};
  const indexUids: Record<string, number> = {};
  for (const task of tasks) {
    const s: TaskStatus = opts.processing ? 'processing' : task.status;
    status[s] = (status[s] ?? 0) + 1;
    const t = publicType(task.kind);
    types[t] = (types[t] ?? 0) + 1;
    if (task.indexUid !== null) indexUids[task.indexUid] = (indexUids[task.indexUid] ?? 0) + 1;
  }
  return statsView({ totalNbTasks: tasks.length, status, types, indexUids });
}

/** Stats with ordered maps (status order, type order of TASK_TYPES, index uids sorted) and empty diagnostics dropped. */
function statsView(stats: BatchStats): BatchStats {
  const status: Partial<Record<TaskStatus, number>> = {};
  for (const s of TASK_STATUSES) if (stats.status[s]) status[s] = stats.status[s];
  const types: Partial<Record<TaskType, number>> = {};
  for (const t of TASK_TYPES) if (stats.types[t]) types[t] = stats.types[t];
  const indexUids: Record<string, number> = {};
  for (const uid of Object.keys(stats.indexUids).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (stats.indexUids[uid]) indexUids[uid] = stats.indexUids[uid];
  }
  const out: BatchStats = { totalNbTasks: stats.totalNbTasks, status, types, indexUids };
  if (stats.progressTrace && Object.keys(stats.progressTrace).length > 0) out.progressTrace = stats.progressTrace;
  if (stats.writeChannelCongestion) out.writeChannelCongestion = stats.writeChannelCongestion;
  if (stats.internalDatabaseSizes && Object.keys(stats.internalDatabaseSizes).length > 0) {
    out.internalDatabaseSizes = stats.internalDatabaseSizes;
  }
  const er = stats.embedderRequests;
  if (er && (er.total !== 0 || er.failed !== 0 || er.lastError !== undefined)) {
    out.embedderRequests = { total: er.total, failed: er.failed };
    if (er.lastError !== undefined) out.embedderRequests.lastError = er.lastError;
  }
  return out;
}

function progressView(progress: BatchProgress): BatchProgress {
  return {
    steps: progress.steps.map((s) => ({ currentStep: s.currentStep, finished: s.finished, total: s.total })),
    percentage: progress.percentage,
  };
}

function errorView(error: ErrorBody): ErrorBody {
  return { message: error.message, code: error.code, type: error.type, link: error.link };
}
