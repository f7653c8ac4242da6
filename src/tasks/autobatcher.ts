// Chooses the next batch to process (tasks.md §11 "Processing order and autobatching").
//
// Pure: no I/O, no clock. The scheduler hands over a snapshot of the queue (`SchedulerView`) and gets back
// which tasks form the next batch, what the processor must do with them and the `batchStrategy` text.
//
// The behaviour mirrors Meilisearch's `create_next_batch` + `autobatcher::autobatch`:
//   1. the enqueued taskCancelation with the highest uid, alone;
//   2. every enqueued or failed upgradeDatabase, together;
//   3. (networkTopologyChange: enterprise, not modelled);
//   4. every enqueued taskDeletion, together;
//   5. the oldest indexCompaction, alone;   6. the oldest export, alone;
//   7. every snapshotCreation, together;     8. the oldest dumpCreation, alone;
//   9. the oldest remaining enqueued task decides the target index; the enqueued tasks of that index (uid order,
//      cut by the task-count / payload-size limits) are fed to the autobatcher, which keeps the longest valid prefix.
import type { Task, TaskKind, TaskType } from './types.ts';
import { publicType } from './types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------------

export interface SchedulerView {
  /** enqueued tasks in ascending uid order (only status 'enqueued') */
  enqueued: readonly Task[];
  /** does this index exist right now, and its primary key (null if none) */
  index(uid: string): { exists: boolean; primaryKey: string | null };
  /** failed upgradeDatabase tasks are retried (tasks.md §11 step 2) */
  failedUpgrades?: readonly Task[];
  limits: {
    /** max tasks in an index batch; Infinity = unlimited (values < 1 act as 1: a batch always has a task) */
    maxTasks: number;
    /** max summed `payloadBytes` of the documentAddition tasks of an index batch; Infinity = unlimited */
    maxBytes: number;
  };
}

/**
 * What an index-operation batch is, in Meilisearch's terms (the processor mostly just applies the tasks in order):
 * - `documents`: additions/updates (replace and update mixed) and deletions by id (`DocumentOperation`)
 * - `deletions`: deletions by id and/or by filter (`DocumentDeletion`)
 * - `clear`: ends with/contains a documentClear; earlier additions/deletions are superseded (`DocumentClear`)
 * - `settings`: settings updates only (`Settings`)
 * - `clearAndSettings`: settings updates, clears and deletions (`ClearAndSettings`)
 */
export type IndexOperationMode = 'documents' | 'deletions' | 'clear' | 'settings' | 'clearAndSettings';

export type BatchKindPlan =
  | { op: 'taskCancelation'; task: Task }
  /** `reuseBatchUid`: the batch uid of the highest-uid upgrade task, when it already has one (failed retry). */
  | { op: 'upgradeDatabase'; tasks: Task[]; reuseBatchUid: number | null }
  | { op: 'taskDeletions'; tasks: Task[] }
  | { op: 'indexCompaction'; indexUid: string; task: Task }
  | { op: 'export'; task: Task }
  | { op: 'snapshots'; tasks: Task[] }
  | { op: 'dump'; task: Task }
  | { op: 'indexCreation'; indexUid: string; task: Task }
  | { op: 'indexUpdate'; indexUid: string; task: Task }
  | { op: 'indexSwap'; task: Task }
  | { op: 'documentEdition'; indexUid: string; task: Task }
  | {
      op: 'indexOperation';
      indexUid: string;
      mode: IndexOperationMode;
      /** documentAddition / documentDeletion(ByFilter) / documentClear / settingsUpdate tasks, uid order */
      tasks: Task[];
      /** the index may be created by this batch if it does not exist (decided by the first task only) */
      mayCreateIndex: boolean;
      /**
       * `primaryKey` of the first documentAddition of the batch (null if none/unset): the key to use when the
       * index has none yet. When the index has one and this differs, the batch must fail (first-task mismatch).
       */
      primaryKey: string | null;
    }
  | {
      op: 'indexDeletion';
      indexUid: string;
      /** the tasks absorbed before the indexDeletion, then the indexDeletion itself (last), uid order */
      tasks: Task[];
      /** Meilisearch's `index_has_been_created`: the absorbed first task was allowed to create the index */
      mayCreateIndex: boolean;
    };

export interface BatchPlan {
  plan: BatchKindPlan;
  /** every task of the batch, uid order */
  tasks: Task[];
  /** the stop-reason text of tasks.md §11 */
  batchStrategy: string;
}

/** The `batchStrategy` texts (Meilisearch `BatchStopReason` Display). */
export const stopReason = {
  unspecified: () => 'unspecified',
  taskKindCannotBeBatched: (type: TaskType) =>
    `stopped after the last task of type \`${type}\` because they cannot be batched with tasks of any other type.`,
  taskCannotBeBatched: (type: TaskType, id: number) =>
    `created batch containing only task with id ${id} of type \`${type}\` that cannot be batched with any other task.`,
  exhaustedEnqueuedTasks: () => 'batched all enqueued tasks',
  exhaustedEnqueuedTasksForIndex: (index: string) => `batched all enqueued tasks for index \`${index}\``,
  reachedTaskLimit: (limit: number) => `batched up to configured batch limit of ${limit} tasks`,
  reachedSizeLimit: (limit: number, size: number) =>
    `batched up to configured batch size limit of ${limit}B with a total of ${size}B`,
  primaryKeyIndexMismatch: (id: number, taskPk: string, indexPk: string) =>
    `stopped batching before task with id ${id} because its primary key \`${taskPk}\` is different from the primary key of the index \`${indexPk}\``,
  primaryKeyBatchMismatch: (id: number, taskPk: string, batchPk: string) =>
    `stopped batching before task with id ${id} because its primary key \`${taskPk}\` is different from the primary key of the batch \`${batchPk}\``,
  primaryKeyGuessing: (id: number, taskPk: string) =>
    `stopped batching before task with id ${id} because it is setting the \`${taskPk}\` primary key and it would interfere with primary key guessing of the batch`,
  indexCreationMismatch: (id: number) =>
    `stopped batching before task with id ${id} because its index creation rules differ from the ones from the batch`,
  indexDeletion: (id: number) => `stopped after task with id ${id} because it deletes the index`,
  documentOperationWithSettings: (id: number) =>
    `stopped before task with id ${id} because it is a settings change which cannot be batched with document operations`,
  documentOperationWithDeletionByFilter: (id: number) =>
    `stopped before task with id ${id} because it is a deletion by filter which cannot be batched with document operations`,
  deletionByFilterWithDocumentOperation: (id: number) =>
    `stopped before task with id ${id} because it is a document operation which cannot be batched with deletions by filter`,
  settingsWithDocumentOperation: (id: number) =>
    `stopped before task with id ${id} because it is a document operation which cannot be batched with settings changes`,
} as const;

/**
 * The indexes a task belongs to, as Meilisearch's `Task::indexes()`: its `indexUid`, the new uid of a rename,
 * every index named by a swap. A task is part of an index's task list when that index is in this list.
 */
export function taskIndexes(task: Task): string[] {
  const k = task.kind;
  if (k.kind === 'indexSwap') {
    const out: string[] = [];
    for (const s of k.swaps) for (const i of s.indexes) if (!out.includes(i)) out.push(i);
    return out;
  }
  const out: string[] = [];
  if (task.indexUid !== null) out.push(task.indexUid);
  if (k.kind === 'indexUpdate' && k.newIndexUid !== null && !out.includes(k.newIndexUid)) out.push(k.newIndexUid);
  return out;
}

/** tasks.md §11: the next batch to process, or null when nothing is enqueued. */
export function nextBatch(view: SchedulerView): BatchPlan | null {
  const enqueued = view.enqueued
    .filter((t) => t.status === 'enqueued')
    .slice()
    .sort((a, b) => a.uid - b.uid);

  const ofKind = (name: TaskKind['kind']): Task[] => enqueued.filter((t) => t.kind.kind === name);

  // 1. task cancelation: the most recent one, alone.
  const cancels = ofKind('taskCancelation');
  if (cancels.length > 0) {
    const task = cancels[cancels.length - 1]!;
    return single({ op: 'taskCancelation', task }, stopReason.taskCannotBeBatched('taskCancelation', task.uid));
  }

  // 2. database upgrade: all enqueued or failed upgrades together.
  const upgradesByUid = new Map<number, Task>();
  for (const t of view.failedUpgrades ?? []) if (t.kind.kind === 'upgradeDatabase') upgradesByUid.set(t.uid, t);
  for (const t of ofKind('upgradeDatabase')) upgradesByUid.set(t.uid, t);
  if (upgradesByUid.size > 0) {
    const tasks = [...upgradesByUid.values()].sort((a, b) => a.uid - b.uid);
    return {
      plan: { op: 'upgradeDatabase', tasks, reuseBatchUid: tasks[tasks.length - 1]!.batchUid },
      tasks,
      batchStrategy: stopReason.taskKindCannotBeBatched('upgradeDatabase'),
    };
  }

  // 3. network topology change: enterprise only, not modelled.

  // 4. task deletions: all together.
  const deletions = ofKind('taskDeletion');
  if (deletions.length > 0) {
    return {
      plan: { op: 'taskDeletions', tasks: deletions },
      tasks: deletions,
      batchStrategy: stopReason.taskKindCannotBeBatched('taskDeletion'),
    };
  }

  // 5. index compaction: the oldest, alone.
  const compaction = ofKind('indexCompaction')[0];
  if (compaction) {
    return single(
      { op: 'indexCompaction', indexUid: compaction.indexUid ?? '', task: compaction },
      stopReason.taskCannotBeBatched('indexCompaction', compaction.uid),
    );
  }

  // 6. export: the oldest, alone.
  const exp = ofKind('export')[0];
  if (exp) return single({ op: 'export', task: exp }, stopReason.taskCannotBeBatched('export', exp.uid));

  // 7. snapshots: all together.
  const snapshots = ofKind('snapshotCreation');
  if (snapshots.length > 0) {
    return {
      plan: { op: 'snapshots', tasks: snapshots },
      tasks: snapshots,
      batchStrategy: stopReason.taskKindCannotBeBatched('snapshotCreation'),
    };
  }

  // 8. dump: the oldest, alone.
  const dump = ofKind('dumpCreation')[0];
  if (dump) return single({ op: 'dump', task: dump }, stopReason.taskCannotBeBatched('dumpCreation', dump.uid));

  // 9. index tasks: the oldest remaining enqueued task decides the index.
  const first = enqueued[0];
  if (!first) return null;

  const indexName = taskIndexes(first)[0];
  if (first.kind.kind === 'indexSwap' || indexName === undefined) {
    // A swap is always the first task of its index list when it is the oldest task overall, and the
    // autobatcher never batches it: it is alone (Meilisearch takes the same path for an empty swap).
    return single({ op: 'indexSwap', task: first }, stopReason.taskCannotBeBatched(publicType(first.kind), first.uid));
  }

  const { exists, primaryKey: indexPk } = view.index(indexName);
  const indexTasks = enqueued.filter((t) => taskIndexes(t).includes(indexName));

  // Cut the candidate list by the configured limits (before autobatching, as Meilisearch does).
  const maxTasks = Math.max(1, view.limits.maxTasks);
  const maxBytes = view.limits.maxBytes;
  let limitReason: string | null = null;
  const candidates: Task[] = [];
  let totalBytes = 0;
  for (const task of indexTasks) {
    if (candidates.length >= maxTasks) {
      limitReason = stopReason.reachedTaskLimit(maxTasks);
      break;
    }
    if (task.kind.kind === 'documentAddition') totalBytes += task.kind.payloadBytes;
    if (totalBytes > maxBytes && candidates.length > 0) {
      limitReason = stopReason.reachedSizeLimit(maxBytes, totalBytes);
      break;
    }
    candidates.push(task);
  }
  const exhaustedReason =
    candidates.length === enqueued.length
      ? stopReason.exhaustedEnqueuedTasks()
      : stopReason.exhaustedEnqueuedTasksForIndex(indexName);

  const result = autobatch(candidates, exists, exists ? indexPk : null);
  const batchStrategy = result.reason ?? limitReason ?? exhaustedReason;
  const acc = result.acc;
  const tasks = acc.tasks;

  let plan: BatchKindPlan;
  switch (acc.k) {
    case 'indexCreation':
      plan = { op: 'indexCreation', indexUid: indexName, task: tasks[0]! };
      break;
    case 'indexUpdate':
      plan = { op: 'indexUpdate', indexUid: indexName, task: tasks[0]! };
      break;
    case 'indexSwap':
      plan = { op: 'indexSwap', task: tasks[0]! };
      break;
    case 'indexCompaction':
      plan = { op: 'indexCompaction', indexUid: indexName, task: tasks[0]! };
      break;
    case 'documentEdition':
      plan = { op: 'documentEdition', indexUid: indexName, task: tasks[0]! };
      break;
    case 'indexDeletion':
      plan = { op: 'indexDeletion', indexUid: indexName, tasks, mayCreateIndex: result.mustCreateIndex };
      break;
    default:
      plan = {
        op: 'indexOperation',
        indexUid: indexName,
        mode: acc.k,
        tasks,
        mayCreateIndex: result.mustCreateIndex,
        primaryKey: acc.k === 'documents' ? firstAdditionPrimaryKey(tasks) : null,
      };
  }
  return { plan, tasks, batchStrategy };
}

// ---------------------------------------------------------------------------------------------------------------
// Autobatcher (Meilisearch `autobatcher.rs`)
// ---------------------------------------------------------------------------------------------------------------

/** A task's kind as far as batching is concerned. */
type AutobatchKind =
  | { t: 'import'; allowIndexCreation: boolean; primaryKey: string | null }
  | { t: 'deletion'; byFilter: boolean }
  | { t: 'clear' }
  | { t: 'settings'; allowIndexCreation: boolean }
  | { t: 'documentEdition' }
  | { t: 'indexCreation' }
  | { t: 'indexDeletion' }
  | { t: 'indexUpdate' }
  | { t: 'indexSwap' }
  | { t: 'indexCompaction' };

function autobatchKind(kind: TaskKind): AutobatchKind {
  switch (kind.kind) {
    case 'documentAddition':
      return { t: 'import', allowIndexCreation: kind.allowIndexCreation, primaryKey: kind.primaryKey };
    case 'documentDeletion':
      return { t: 'deletion', byFilter: false };
    case 'documentDeletionByFilter':
      return { t: 'deletion', byFilter: true };
    case 'documentClear':
      return { t: 'clear' };
    case 'settingsUpdate':
      // a settings reset never creates the index
      return { t: 'settings', allowIndexCreation: kind.allowIndexCreation && !kind.isDeletion };
    case 'documentEdition':
      return { t: 'documentEdition' };
    case 'indexCreation':
      return { t: 'indexCreation' };
    case 'indexDeletion':
      return { t: 'indexDeletion' };
    case 'indexUpdate':
      return { t: 'indexUpdate' };
    case 'indexSwap':
      return { t: 'indexSwap' };
    case 'indexCompaction':
      return { t: 'indexCompaction' };
    default:
      // Global tasks are handled by the priority steps and never reach the autobatcher.
      throw new Error(`autobatcher: task kind ${kind.kind} does not apply to an index`);
  }
}

/** The batch being built. */
type Acc =
  | { k: 'documents'; tasks: Task[]; allowIndexCreation: boolean; primaryKey: string | null }
  | { k: 'deletions'; tasks: Task[]; includesByFilter: boolean }
  | { k: 'clear'; tasks: Task[] }
  | { k: 'settings'; tasks: Task[]; allowIndexCreation: boolean }
  | { k: 'clearAndSettings'; tasks: Task[]; allowIndexCreation: boolean }
  | { k: 'indexDeletion'; tasks: Task[] }
  | { k: 'indexCreation' | 'indexUpdate' | 'indexSwap' | 'indexCompaction' | 'documentEdition'; tasks: Task[] };

type Step = { stop: false; acc: Acc } | { stop: true; acc: Acc; reason: string };

function accAllowIndexCreation(acc: Acc): boolean | undefined {
  return acc.k === 'documents' || acc.k === 'settings' || acc.k === 'clearAndSettings'
    ? acc.allowIndexCreation
    : undefined;
}

function kindAllowIndexCreation(kind: AutobatchKind): boolean | undefined {
  return kind.t === 'import' || kind.t === 'settings' ? kind.allowIndexCreation : undefined;
}

/** First task of a batch. `mustCreateIndex`: the batch may create the index. */
function start(task: Task, indexPk: string | null): { step: Step; mustCreateIndex: boolean } {
  const kind = autobatchKind(task.kind);
  const type = publicType(task.kind);
  const alone = (k: 'indexCreation' | 'indexUpdate' | 'indexSwap' | 'indexCompaction' | 'documentEdition') => ({
    stop: true as const,
    acc: { k, tasks: [task] },
    reason: stopReason.taskCannotBeBatched(type, task.uid),
  });
  switch (kind.t) {
    case 'indexCreation':
      return { step: alone('indexCreation'), mustCreateIndex: true };
    case 'indexUpdate':
      return { step: alone('indexUpdate'), mustCreateIndex: false };
    case 'indexSwap':
      return { step: alone('indexSwap'), mustCreateIndex: false };
    case 'indexCompaction':
      return { step: alone('indexCompaction'), mustCreateIndex: false };
    case 'documentEdition':
      return { step: alone('documentEdition'), mustCreateIndex: false };
    case 'indexDeletion':
      return {
        step: { stop: true, acc: { k: 'indexDeletion', tasks: [task] }, reason: stopReason.indexDeletion(task.uid) },
        mustCreateIndex: false,
      };
    case 'clear':
      return { step: { stop: false, acc: { k: 'clear', tasks: [task] } }, mustCreateIndex: false };
    case 'deletion':
      return {
        step: { stop: false, acc: { k: 'deletions', tasks: [task], includesByFilter: kind.byFilter } },
        mustCreateIndex: false,
      };
    case 'settings':
      return {
        step: { stop: false, acc: { k: 'settings', tasks: [task], allowIndexCreation: kind.allowIndexCreation } },
        mustCreateIndex: kind.allowIndexCreation,
      };
    case 'import': {
      const acc: Acc = {
        k: 'documents',
        tasks: [task],
        allowIndexCreation: kind.allowIndexCreation,
        primaryKey: kind.primaryKey,
      };
      if (indexPk !== null && kind.primaryKey !== null && kind.primaryKey !== indexPk) {
        // conflicts with the existing index primary key: alone, the processor makes it fail
        return {
          step: { stop: true, acc, reason: stopReason.primaryKeyIndexMismatch(task.uid, kind.primaryKey, indexPk) },
          mustCreateIndex: kind.allowIndexCreation,
        };
      }
      return { step: { stop: false, acc }, mustCreateIndex: kind.allowIndexCreation };
    }
  }
}

/** Try to add `task` to the batch. On a stop, `acc` is the batch as it was (or as it becomes, for indexDeletion). */
function accumulate(acc: Acc, task: Task, indexExists: boolean, indexPk: string | null): Step {
  const id = task.uid;
  const kind = autobatchKind(task.kind);
  const stop = (reason: string, next: Acc = acc): Step => ({ stop: true, acc: next, reason });
  const go = (next: Acc): Step => ({ stop: false, acc: next });
  const plus = [...acc.tasks, task];

  // Primary key consistency: only additions carry a primary key; only a `documents` batch has one.
  let pk: string | null = acc.k === 'documents' ? acc.primaryKey : null;
  if (kind.t === 'import' && kind.primaryKey !== null) {
    const taskPk = kind.primaryKey;
    if (indexPk !== null) {
      if (taskPk !== indexPk) return stop(stopReason.primaryKeyIndexMismatch(id, taskPk, indexPk));
    } else if (acc.k === 'documents') {
      if (acc.primaryKey === null) return stop(stopReason.primaryKeyGuessing(id, taskPk));
      if (acc.primaryKey !== taskPk) return stop(stopReason.primaryKeyBatchMismatch(id, taskPk, acc.primaryKey));
    }
    pk = taskPk;
  }

  // Never batched with anything.
  if (
    kind.t === 'indexCreation' ||
    kind.t === 'indexUpdate' ||
    kind.t === 'indexSwap' ||
    kind.t === 'documentEdition' ||
    kind.t === 'indexCompaction'
  ) {
    return stop(stopReason.taskCannotBeBatched(publicType(task.kind), id));
  }

  // Index creation rights: a batch that may not create the missing index cannot absorb a task that may.
  if (!indexExists && accAllowIndexCreation(acc) === false && kindAllowIndexCreation(kind) === true) {
    return stop(stopReason.indexCreationMismatch(id));
  }

  // An index deletion absorbs the batch and ends it.
  if (kind.t === 'indexDeletion') {
    switch (acc.k) {
      case 'clear':
      case 'deletions':
      case 'documents':
      case 'settings':
      case 'clearAndSettings':
        return stop(stopReason.indexDeletion(id), { k: 'indexDeletion', tasks: plus });
      default:
        break; // unreachable: those batches never continue
    }
  }

  switch (acc.k) {
    case 'clear':
      if (kind.t === 'clear' || kind.t === 'deletion') return go({ k: 'clear', tasks: plus });
      // Meilisearch reports both additions and settings after a clear with this text
      return stop(stopReason.documentOperationWithSettings(id));

    case 'documents':
      switch (kind.t) {
        case 'clear':
          return go({ k: 'clear', tasks: plus });
        case 'import':
          return go({ k: 'documents', tasks: plus, allowIndexCreation: acc.allowIndexCreation, primaryKey: pk });
        case 'deletion':
          if (kind.byFilter) return stop(stopReason.documentOperationWithDeletionByFilter(id));
          return go({ k: 'documents', tasks: plus, allowIndexCreation: acc.allowIndexCreation, primaryKey: pk });
        case 'settings':
          return stop(stopReason.documentOperationWithSettings(id));
        default:
          break;
      }
      break;

    case 'deletions':
      switch (kind.t) {
        case 'clear':
          return go({ k: 'clear', tasks: plus });
        case 'import':
          if (acc.includesByFilter) return stop(stopReason.deletionByFilterWithDocumentOperation(id));
          if (indexExists || !kind.allowIndexCreation) {
            return go({
              k: 'documents',
              tasks: plus,
              allowIndexCreation: kind.allowIndexCreation,
              primaryKey: kind.primaryKey,
            });
          }
          // the index does not exist but the addition would create it
          return stop(stopReason.indexCreationMismatch(id));
        case 'deletion':
          return go({ k: 'deletions', tasks: plus, includesByFilter: acc.includesByFilter || kind.byFilter });
        case 'settings':
          return stop(stopReason.documentOperationWithSettings(id));
        default:
          break;
      }
      break;

    case 'settings':
      switch (kind.t) {
        case 'clear':
          return go({ k: 'clearAndSettings', tasks: plus, allowIndexCreation: acc.allowIndexCreation });
        case 'import':
        case 'deletion':
          return stop(stopReason.settingsWithDocumentOperation(id));
        case 'settings':
          return go({ k: 'settings', tasks: plus, allowIndexCreation: acc.allowIndexCreation });
        default:
          break;
      }
      break;

    case 'clearAndSettings':
      switch (kind.t) {
        case 'clear':
        case 'deletion':
        case 'settings':
          return go({ k: 'clearAndSettings', tasks: plus, allowIndexCreation: acc.allowIndexCreation });
        case 'import':
          return stop(stopReason.settingsWithDocumentOperation(id));
        default:
          break;
      }
      break;

    default:
      break;
  }
  // Unreachable with well-formed input (single-task batches stop immediately).
  return stop(stopReason.unspecified());
}

/**
 * The longest valid prefix of an index's enqueued tasks (uid order, non-empty). `reason` is null when every
 * task was taken. `mustCreateIndex`: the first task may create the index.
 */
function autobatch(
  tasks: readonly Task[],
  indexExists: boolean,
  indexPk: string | null,
): { acc: Acc; mustCreateIndex: boolean; reason: string | null } {
  const { step, mustCreateIndex } = start(tasks[0]!, indexPk);
  if (step.stop) return { acc: step.acc, mustCreateIndex, reason: step.reason };
  // once a task may create the index, later tasks can rely on it existing
  const exists = indexExists || mustCreateIndex;
  let acc = step.acc;
  for (let i = 1; i < tasks.length; i++) {
    const next = accumulate(acc, tasks[i]!, exists, indexPk);
    if (next.stop) return { acc: next.acc, mustCreateIndex, reason: next.reason };
    acc = next.acc;
  }
  return { acc, mustCreateIndex, reason: null };
}

function firstAdditionPrimaryKey(tasks: readonly Task[]): string | null {
  for (const t of tasks) if (t.kind.kind === 'documentAddition') return t.kind.primaryKey;
  return null;
}

function single(plan: BatchKindPlan & { task: Task }, batchStrategy: string): BatchPlan {
  return { plan, tasks: [plan.task], batchStrategy };
}
