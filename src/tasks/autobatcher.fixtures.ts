// Compact builders for the autobatcher tests (test code only).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextBatch, stopReason as R } from './autobatcher.ts';
import type { BatchPlan, SchedulerView } from './autobatcher.ts';
import type { Task, TaskKind, TaskStatus } from './types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Compact task builders. Every builder takes the uid first; index tasks default to index `movies`.
// ---------------------------------------------------------------------------------------------------------------

export const M = 'movies';

export function task(uid: number, indexUid: string | null, kind: TaskKind, status: TaskStatus = 'enqueued'): Task {
  return {
    uid,
    batchUid: null,
    indexUid,
    status,
    kind,
    canceledBy: null,
    details: {},
    error: null,
    enqueuedAt: uid,
    startedAt: null,
    finishedAt: null,
  };
}

export interface AddOpts {
  pk?: string | null;
  allow?: boolean;
  bytes?: number;
  update?: boolean;
}
export const add = (uid: number, idx = M, o: AddOpts = {}) =>
  task(uid, idx, {
    kind: 'documentAddition',
    method: o.update ? 'update' : 'replace',
    primaryKey: o.pk ?? null,
    contentFile: `file-${uid}`,
    documentsCount: 1,
    payloadBytes: o.bytes ?? 10,
    allowIndexCreation: o.allow ?? true,
    skipCreation: false,
  });
/** addition with a primary key */
export const addPk = (uid: number, pk: string, idx = M) => add(uid, idx, { pk });
/** addition registered by a key that may not create the index */
export const addNoCreate = (uid: number, idx = M) => add(uid, idx, { allow: false });
export const del = (uid: number, idx = M) => task(uid, idx, { kind: 'documentDeletion', ids: ['1'] });
export const delF = (uid: number, idx = M) => task(uid, idx, { kind: 'documentDeletionByFilter', filter: 'a = 1' });
export const clr = (uid: number, idx = M) => task(uid, idx, { kind: 'documentClear' });
export const set = (uid: number, idx = M, o: { allow?: boolean; reset?: boolean } = {}) =>
  task(uid, idx, {
    kind: 'settingsUpdate',
    settings: {},
    isDeletion: o.reset ?? false,
    allowIndexCreation: o.allow ?? true,
  });
export const crt = (uid: number, idx = M) => task(uid, idx, { kind: 'indexCreation', primaryKey: null });
export const upd = (uid: number, idx = M, newIndexUid: string | null = null) =>
  task(uid, idx, { kind: 'indexUpdate', primaryKey: null, newIndexUid });
export const idel = (uid: number, idx = M) => task(uid, idx, { kind: 'indexDeletion' });
export const swap = (uid: number, ...pairs: [string, string][]) =>
  task(uid, null, { kind: 'indexSwap', swaps: pairs.map((indexes) => ({ indexes, rename: false })) });
export const edit = (uid: number, idx = M) =>
  task(uid, idx, { kind: 'documentEdition', filter: null, context: null, function: 'doc' });
export const compact = (uid: number, idx = M) => task(uid, idx, { kind: 'indexCompaction' });
export const cancel = (uid: number) =>
  task(uid, null, { kind: 'taskCancelation', query: 'uids=0', matched: new Uint8Array() });
export const tdel = (uid: number) => task(uid, null, { kind: 'taskDeletion', query: 'uids=0', matched: new Uint8Array() });
export const dump = (uid: number) => task(uid, null, { kind: 'dumpCreation' });
export const snap = (uid: number) => task(uid, null, { kind: 'snapshotCreation' });
export const exp = (uid: number) => task(uid, null, { kind: 'export', payload: {} });
export const upg = (uid: number, status: TaskStatus = 'enqueued', batchUid: number | null = null) => ({
  ...task(uid, null, { kind: 'upgradeDatabase', from: [1, 12, 0] }, status),
  batchUid,
});

/** Index states: present = exists, the value is its primary key. Default: `movies` exists without primary key. */
export type Indexes = Record<string, string | null>;
export const EXISTS: Indexes = { [M]: null };
export const MISSING: Indexes = {};
export const PK_ID: Indexes = { [M]: 'id' };

export interface Limits {
  maxTasks?: number;
  maxBytes?: number;
}

export function view(enqueued: Task[], indexes: Indexes = EXISTS, limits: Limits = {}, failedUpgrades?: Task[]) {
  const v: SchedulerView = {
    enqueued,
    index: (uid) => ({ exists: uid in indexes, primaryKey: indexes[uid] ?? null }),
    limits: { maxTasks: limits.maxTasks ?? Infinity, maxBytes: limits.maxBytes ?? Infinity },
  };
  if (failedUpgrades) v.failedUpgrades = failedUpgrades;
  return v;
}

/** `op` or `op:mode` for index operations. */
export function opOf(b: BatchPlan): string {
  return b.plan.op === 'indexOperation' ? `indexOperation:${b.plan.mode}` : b.plan.op;
}

export type Row = [
  description: string,
  enqueued: Task[],
  indexes: Indexes,
  expectedUids: number[],
  expectedOp: string,
  expectedStrategy: string,
  limits?: Limits,
];

export function runRows(rows: Row[]) {
  for (const [description, enqueued, indexes, uids, op, strategy, limits] of rows) {
    test(description, () => {
      const b = nextBatch(view(enqueued, indexes, limits));
      assert.ok(b, 'expected a batch');
      assert.deepEqual(
        b.tasks.map((t) => t.uid),
        uids,
        'batch task uids',
      );
      assert.equal(opOf(b), op, 'op');
      assert.equal(b.batchStrategy, strategy, 'batchStrategy');
      // invariants: tasks in uid order, at least one task
      assert.ok(b.tasks.length >= 1);
      for (let i = 1; i < b.tasks.length; i++) assert.ok(b.tasks[i - 1]!.uid < b.tasks[i]!.uid);
    });
  }
}

export const ALL = R.exhaustedEnqueuedTasks();
export const FOR_M = R.exhaustedEnqueuedTasksForIndex(M);

// ---------------------------------------------------------------------------------------------------------------
