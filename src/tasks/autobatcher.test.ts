import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { nextBatch, stopReason as R, taskIndexes } from './autobatcher.ts';
import type { BatchPlan, SchedulerView } from './autobatcher.ts';
import type { Task, TaskKind, TaskStatus } from './types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Compact task builders. Every builder takes the uid first; index tasks default to index `movies`.
// ---------------------------------------------------------------------------------------------------------------

const M = 'movies';

function task(uid: number, indexUid: string | null, kind: TaskKind, status: TaskStatus = 'enqueued'): Task {
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

interface AddOpts {
  pk?: string | null;
  allow?: boolean;
  bytes?: number;
  update?: boolean;
}
const add = (uid: number, idx = M, o: AddOpts = {}) =>
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
const addPk = (uid: number, pk: string, idx = M) => add(uid, idx, { pk });
/** addition registered by a key that may not create the index */
const addNoCreate = (uid: number, idx = M) => add(uid, idx, { allow: false });
const del = (uid: number, idx = M) => task(uid, idx, { kind: 'documentDeletion', ids: ['1'] });
const delF = (uid: number, idx = M) => task(uid, idx, { kind: 'documentDeletionByFilter', filter: 'a = 1' });
const clr = (uid: number, idx = M) => task(uid, idx, { kind: 'documentClear' });
const set = (uid: number, idx = M, o: { allow?: boolean; reset?: boolean } = {}) =>
  task(uid, idx, {
    kind: 'settingsUpdate',
    settings: {},
    isDeletion: o.reset ?? false,
    allowIndexCreation: o.allow ?? true,
  });
const crt = (uid: number, idx = M) => task(uid, idx, { kind: 'indexCreation', primaryKey: null });
const upd = (uid: number, idx = M, newIndexUid: string | null = null) =>
  task(uid, idx, { kind: 'indexUpdate', primaryKey: null, newIndexUid });
const idel = (uid: number, idx = M) => task(uid, idx, { kind: 'indexDeletion' });
const swap = (uid: number, ...pairs: [string, string][]) =>
  task(uid, null, { kind: 'indexSwap', swaps: pairs.map((indexes) => ({ indexes, rename: false })) });
const edit = (uid: number, idx = M) =>
  task(uid, idx, { kind: 'documentEdition', filter: null, context: null, function: 'doc' });
const compact = (uid: number, idx = M) => task(uid, idx, { kind: 'indexCompaction' });
const cancel = (uid: number) =>
  task(uid, null, { kind: 'taskCancelation', query: 'uids=0', matched: new Uint8Array() });
const tdel = (uid: number) => task(uid, null, { kind: 'taskDeletion', query: 'uids=0', matched: new Uint8Array() });
const dump = (uid: number) => task(uid, null, { kind: 'dumpCreation' });
const snap = (uid: number) => task(uid, null, { kind: 'snapshotCreation' });
const exp = (uid: number) => task(uid, null, { kind: 'export', payload: {} });
const upg = (uid: number, status: TaskStatus = 'enqueued', batchUid: number | null = null) => ({
  ...task(uid, null, { kind: 'upgradeDatabase', from: [1, 12, 0] }, status),
  batchUid,
});

/** Index states: present = exists, the value is its primary key. Default: `movies` exists without primary key. */
type Indexes = Record<string, string | null>;
const EXISTS: Indexes = { [M]: null };
const MISSING: Indexes = {};
const PK_ID: Indexes = { [M]: 'id' };

interface Limits {
  maxTasks?: number;
  maxBytes?: number;
}

function view(enqueued: Task[], indexes: Indexes = EXISTS, limits: Limits = {}, failedUpgrades?: Task[]) {
  const v: SchedulerView = {
    enqueued,
    index: (uid) => ({ exists: uid in indexes, primaryKey: indexes[uid] ?? null }),
    limits: { maxTasks: limits.maxTasks ?? Infinity, maxBytes: limits.maxBytes ?? Infinity },
  };
  if (failedUpgrades) v.failedUpgrades = failedUpgrades;
  return v;
}

/** `op` or `op:mode` for index operations. */
function opOf(b: BatchPlan): string {
  return b.plan.op === 'indexOperation' ? `indexOperation:${b.plan.mode}` : b.plan.op;
}

type Row = [
  description: string,
  enqueued: Task[],
  indexes: Indexes,
  expectedUids: number[],
  expectedOp: string,
  expectedStrategy: string,
  limits?: Limits,
];

function runRows(rows: Row[]) {
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

const ALL = R.exhaustedEnqueuedTasks();
const FOR_M = R.exhaustedEnqueuedTasksForIndex(M);

// ---------------------------------------------------------------------------------------------------------------

describe('priorities (tasks.md §11 steps 1-9)', () => {
  runRows([
    [
      'cancelation first: the highest enqueued cancelation, alone',
      [add(0), cancel(1), dump(2), cancel(3), tdel(4)],
      EXISTS,
      [3],
      'taskCancelation',
      'created batch containing only task with id 3 of type `taskCancelation` that cannot be batched with any other task.',
    ],
    [
      'upgrades before task deletions, all together',
      [tdel(0), upg(1), add(2), upg(3)],
      EXISTS,
      [1, 3],
      'upgradeDatabase',
      'stopped after the last task of type `upgradeDatabase` because they cannot be batched with tasks of any other type.',
    ],
    [
      'task deletions: all enqueued together, before compaction/export/snapshot/dump',
      [add(0), tdel(1), dump(2), compact(3), tdel(4)],
      EXISTS,
      [1, 4],
      'taskDeletions',
      'stopped after the last task of type `taskDeletion` because they cannot be batched with tasks of any other type.',
    ],
    [
      'index compaction: oldest alone, before export',
      [add(0), exp(1), compact(2), compact(3)],
      EXISTS,
      [2],
      'indexCompaction',
      R.taskCannotBeBatched('indexCompaction', 2),
    ],
    [
      'export: oldest alone, before snapshots',
      [snap(0), exp(1), exp(2)],
      EXISTS,
      [1],
      'export',
      'created batch containing only task with id 1 of type `export` that cannot be batched with any other task.',
    ],
    [
      'snapshots: all together, before dumps',
      [dump(0), snap(1), add(2), snap(3)],
      EXISTS,
      [1, 3],
      'snapshots',
      'stopped after the last task of type `snapshotCreation` because they cannot be batched with tasks of any other type.',
    ],
    [
      'dump: oldest alone, before older index tasks',
      [add(0), dump(5), dump(6)],
      EXISTS,
      [5],
      'dump',
      'created batch containing only task with id 5 of type `dumpCreation` that cannot be batched with any other task.',
    ],
    [
      'index tasks: the oldest task decides the index; other indexes are skipped, not stoppers',
      [add(0, 'b'), add(1, 'a'), add(2, 'b')],
      { a: null, b: null },
      [0, 2],
      'indexOperation:documents',
      'batched all enqueued tasks for index `b`',
    ],
    [
      'all enqueued tasks in one batch',
      [add(0), add(1, M, { update: true })],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      'batched all enqueued tasks',
    ],
    [
      'swap as the oldest task: alone',
      [swap(0, [M, 'b']), add(1), add(2, 'b')],
      { [M]: null, b: null },
      [0],
      'indexSwap',
      R.taskCannotBeBatched('indexSwap', 0),
    ],
    [
      'swap with no swaps: alone',
      [swap(0), add(1)],
      EXISTS,
      [0],
      'indexSwap',
      R.taskCannotBeBatched('indexSwap', 0),
    ],
  ]);
});

describe('autobatcher table: single-task kinds', () => {
  runRows([
    [
      'indexCreation is always alone',
      [crt(0), add(1)],
      MISSING,
      [0],
      'indexCreation',
      'created batch containing only task with id 0 of type `indexCreation` that cannot be batched with any other task.',
    ],
    [
      'indexUpdate is alone',
      [upd(0), add(1)],
      EXISTS,
      [0],
      'indexUpdate',
      R.taskCannotBeBatched('indexUpdate', 0),
    ],
    [
      'documentEdition is alone',
      [edit(0), add(1)],
      EXISTS,
      [0],
      'documentEdition',
      R.taskCannotBeBatched('documentEdition', 0),
    ],
    [
      'indexDeletion first ends the batch',
      [idel(0), add(1)],
      EXISTS,
      [0],
      'indexDeletion',
      'stopped after task with id 0 because it deletes the index',
    ],
  ]);
});

describe('autobatcher table: document additions', () => {
  runRows([
    [
      'replace and update additions mix',
      [add(0), add(1, M, { update: true }), add(2)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:documents',
      ALL,
    ],
    [
      'additions absorb deletions by id',
      [add(0), del(1), add(2), del(3)],
      EXISTS,
      [0, 1, 2, 3],
      'indexOperation:documents',
      ALL,
    ],
    [
      'additions then indexDeletion: batch becomes an index deletion and stops',
      [add(0), add(1), idel(2), add(3)],
      EXISTS,
      [0, 1, 2],
      'indexDeletion',
      'stopped after task with id 2 because it deletes the index',
    ],
    [
      'additions then clear: batch becomes a clear batch (later addition stops it)',
      [add(0), clr(1), clr(2), add(3)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:clear',
      R.documentOperationWithSettings(3),
    ],
    [
      'additions stop before settings',
      [add(0), add(1), set(2), add(3)],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      'stopped before task with id 2 because it is a settings change which cannot be batched with document operations',
    ],
    [
      'additions stop before a deletion by filter',
      [add(0), delF(1)],
      EXISTS,
      [0],
      'indexOperation:documents',
      'stopped before task with id 1 because it is a deletion by filter which cannot be batched with document operations',
    ],
    [
      'additions stop before an indexCreation',
      [add(0), crt(1)],
      EXISTS,
      [0],
      'indexOperation:documents',
      R.taskCannotBeBatched('indexCreation', 1),
    ],
    [
      'additions stop before an indexUpdate',
      [add(0), upd(1)],
      EXISTS,
      [0],
      'indexOperation:documents',
      R.taskCannotBeBatched('indexUpdate', 1),
    ],
    [
      'additions stop before a swap of the index',
      [add(0), swap(1, [M, 'b']), add(2)],
      { [M]: null, b: null },
      [0],
      'indexOperation:documents',
      R.taskCannotBeBatched('indexSwap', 1),
    ],
    [
      'a swap not naming the index is skipped',
      [add(0), swap(1, ['a', 'b']), add(2)],
      { [M]: null, a: null, b: null },
      [0, 2],
      'indexOperation:documents',
      FOR_M,
    ],
    [
      'additions stop before a rename into the index',
      [add(0, 'new'), upd(1, 'old', 'new'), add(2, 'new')],
      { new: null, old: null },
      [0],
      'indexOperation:documents',
      R.taskCannotBeBatched('indexUpdate', 1),
    ],
    [
      'additions stop before a documentEdition',
      [add(0), edit(1)],
      EXISTS,
      [0],
      'indexOperation:documents',
      R.taskCannotBeBatched('documentEdition', 1),
    ],
  ]);
});

describe('autobatcher table: deletions', () => {
  runRows([
    [
      'deletions by id and by filter batch together',
      [del(0), delF(1), del(2)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:deletions',
      ALL,
    ],
    [
      'deletions by id absorb additions when the index exists',
      [del(0), add(1), del(2)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:documents',
      ALL,
    ],
    [
      'deletions absorb additions that cannot create the missing index',
      [del(0), addNoCreate(1)],
      MISSING,
      [0, 1],
      'indexOperation:documents',
      ALL,
    ],
    [
      'deletions stop before an addition that would create the missing index',
      [del(0), add(1)],
      MISSING,
      [0],
      'indexOperation:deletions',
      'stopped batching before task with id 1 because its index creation rules differ from the ones from the batch',
    ],
    [
      'deletions including a by-filter one stop before additions',
      [del(0), delF(1), add(2)],
      EXISTS,
      [0, 1],
      'indexOperation:deletions',
      R.deletionByFilterWithDocumentOperation(2),
    ],
    [
      'deletions then clear become a clear batch',
      [del(0), clr(1), delF(2)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:clear',
      ALL,
    ],
    [
      'deletions then indexDeletion',
      [delF(0), del(1), idel(2), del(3)],
      EXISTS,
      [0, 1, 2],
      'indexDeletion',
      R.indexDeletion(2),
    ],
    [
      'deletions stop before settings',
      [del(0), set(1)],
      EXISTS,
      [0],
      'indexOperation:deletions',
      R.documentOperationWithSettings(1),
    ],
    [
      'deletions stop before other types',
      [delF(0), edit(1)],
      EXISTS,
      [0],
      'indexOperation:deletions',
      R.taskCannotBeBatched('documentEdition', 1),
    ],
  ]);
});

describe('autobatcher table: clear', () => {
  runRows([
    [
      'clear absorbs clears and deletions of any kind',
      [clr(0), clr(1), del(2), delF(3)],
      EXISTS,
      [0, 1, 2, 3],
      'indexOperation:clear',
      ALL,
    ],
    [
      'clear stops before additions',
      [clr(0), add(1)],
      EXISTS,
      [0],
      'indexOperation:clear',
      R.documentOperationWithSettings(1),
    ],
    [
      'clear stops before settings',
      [clr(0), set(1)],
      EXISTS,
      [0],
      'indexOperation:clear',
      R.documentOperationWithSettings(1),
    ],
    ['clear then indexDeletion', [clr(0), idel(1)], EXISTS, [0, 1], 'indexDeletion', R.indexDeletion(1)],
  ]);
});

describe('autobatcher table: settings', () => {
  runRows([
    ['settings batch together', [set(0), set(1), set(2, M, { reset: true })], EXISTS, [0, 1, 2], 'indexOperation:settings', ALL],
    [
      'settings then clear: clear+settings absorbs clears, deletions, settings; stops before additions',
      [set(0), clr(1), set(2), del(3), delF(4), clr(5), add(6)],
      EXISTS,
      [0, 1, 2, 3, 4, 5],
      'indexOperation:clearAndSettings',
      'stopped before task with id 6 because it is a document operation which cannot be batched with settings changes',
    ],
    [
      'settings stop before additions',
      [set(0), add(1)],
      EXISTS,
      [0],
      'indexOperation:settings',
      R.settingsWithDocumentOperation(1),
    ],
    [
      'settings stop before deletions',
      [set(0), delF(1)],
      EXISTS,
      [0],
      'indexOperation:settings',
      R.settingsWithDocumentOperation(1),
    ],
    ['settings then indexDeletion', [set(0), set(1), idel(2)], EXISTS, [0, 1, 2], 'indexDeletion', R.indexDeletion(2)],
    [
      'clear+settings then indexDeletion',
      [set(0), clr(1), idel(2), set(3)],
      EXISTS,
      [0, 1, 2],
      'indexDeletion',
      R.indexDeletion(2),
    ],
    [
      'settings stop before an indexCreation',
      [set(0), crt(1)],
      EXISTS,
      [0],
      'indexOperation:settings',
      R.taskCannotBeBatched('indexCreation', 1),
    ],
  ]);
});

describe('index creation rights', () => {
  runRows([
    [
      'missing index: an addition that cannot create stops before one that can',
      [addNoCreate(0), add(1)],
      MISSING,
      [0],
      'indexOperation:documents',
      R.indexCreationMismatch(1),
    ],
    [
      'existing index: creation rights do not matter',
      [addNoCreate(0), add(1)],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      ALL,
    ],
    [
      'missing index: a batch that may create it absorbs tasks that may not',
      [add(0), addNoCreate(1)],
      MISSING,
      [0, 1],
      'indexOperation:documents',
      ALL,
    ],
    [
      'missing index: settings that cannot create stop before settings that can',
      [set(0, M, { allow: false }), set(1)],
      MISSING,
      [0],
      'indexOperation:settings',
      R.indexCreationMismatch(1),
    ],
    [
      'missing index: a settings reset never creates the index',
      [set(0, M, { reset: true }), set(1)],
      MISSING,
      [0],
      'indexOperation:settings',
      R.indexCreationMismatch(1),
    ],
    [
      'missing index: creation-rights check comes before the settings/documents check',
      [set(0, M, { allow: false }), add(1)],
      MISSING,
      [0],
      'indexOperation:settings',
      R.indexCreationMismatch(1),
    ],
  ]);
});

describe('primary key consistency', () => {
  runRows([
    [
      'first task conflicting with the index primary key: alone',
      [addPk(0, 'other'), add(1)],
      PK_ID,
      [0],
      'indexOperation:documents',
      'stopped batching before task with id 0 because its primary key `other` is different from the primary key of the index `id`',
    ],
    [
      'later task conflicting with the index primary key',
      [add(0), addPk(1, 'other')],
      PK_ID,
      [0],
      'indexOperation:documents',
      'stopped batching before task with id 1 because its primary key `other` is different from the primary key of the index `id`',
    ],
    [
      'tasks matching the index primary key batch',
      [add(0), addPk(1, 'id'), add(2), addPk(3, 'id')],
      PK_ID,
      [0, 1, 2, 3],
      'indexOperation:documents',
      ALL,
    ],
    [
      'no index pk: a different pk than the batch stops',
      [addPk(0, 'a'), add(1), addPk(2, 'b')],
      MISSING,
      [0, 1],
      'indexOperation:documents',
      'stopped batching before task with id 2 because its primary key `b` is different from the primary key of the batch `a`',
    ],
    [
      'no index pk: the same pk as the batch joins',
      [addPk(0, 'a'), add(1), addPk(2, 'a')],
      EXISTS,
      [0, 1, 2],
      'indexOperation:documents',
      ALL,
    ],
    [
      'no index pk: setting a pk interferes with guessing',
      [add(0), addPk(1, 'id')],
      MISSING,
      [0],
      'indexOperation:documents',
      'stopped batching before task with id 1 because it is setting the `id` primary key and it would interfere with primary key guessing of the batch',
    ],
    [
      'guessing rule also applies after deletions turned into a documents batch',
      [del(0), add(1), addPk(2, 'id')],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      R.primaryKeyGuessing(2, 'id'),
    ],
    [
      'deletions then an addition setting the pk: the batch takes that pk',
      [del(0), addPk(1, 'id'), add(2)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:documents',
      ALL,
    ],
    [
      'pk check applies before the settings/documents check',
      [set(0), addPk(1, 'other')],
      PK_ID,
      [0],
      'indexOperation:settings',
      R.primaryKeyIndexMismatch(1, 'other', 'id'),
    ],
    [
      'a pk on a missing index is ignored by index checks (index pk only counts when it exists)',
      [addPk(0, 'a'), addPk(1, 'a')],
      MISSING,
      [0, 1],
      'indexOperation:documents',
      ALL,
    ],
  ]);
});

describe('limits', () => {
  runRows([
    [
      'task-count limit',
      [add(0), add(1), add(2)],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      'batched up to configured batch limit of 2 tasks',
      { maxTasks: 2 },
    ],
    [
      'task-count limit equal to the number of tasks is not reported',
      [add(0), add(1)],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      ALL,
      { maxTasks: 2 },
    ],
    [
      'task-count limit counts only the index tasks',
      [add(0), add(1, 'b'), add(2), add(3)],
      { [M]: null, b: null },
      [0, 2],
      'indexOperation:documents',
      R.reachedTaskLimit(2),
      { maxTasks: 2 },
    ],
    [
      'payload-size limit',
      [add(0, M, { bytes: 40 }), add(1, M, { bytes: 40 }), add(2, M, { bytes: 40 })],
      EXISTS,
      [0, 1],
      'indexOperation:documents',
      'batched up to configured batch size limit of 100B with a total of 120B',
      { maxBytes: 100 },
    ],
    [
      'an oversized first task still forms a batch',
      [add(0, M, { bytes: 500 }), add(1, M, { bytes: 10 })],
      EXISTS,
      [0],
      'indexOperation:documents',
      R.reachedSizeLimit(100, 510),
      { maxBytes: 100 },
    ],
    [
      'only addition payloads count towards the size limit',
      [del(0), delF(1), clr(2)],
      EXISTS,
      [0, 1, 2],
      'indexOperation:clear',
      ALL,
      { maxBytes: 0 },
    ],
    [
      'an autobatcher stop takes precedence over the limit',
      [add(0), set(1), add(2)],
      EXISTS,
      [0],
      'indexOperation:documents',
      R.documentOperationWithSettings(1),
      { maxTasks: 2 },
    ],
    [
      'a limit of 0 still takes one task',
      [add(0), add(1)],
      EXISTS,
      [0],
      'indexOperation:documents',
      R.reachedTaskLimit(1),
      { maxTasks: 0 },
    ],
    [
      'limits do not apply to global batches',
      [snap(0), snap(1), snap(2)],
      EXISTS,
      [0, 1, 2],
      'snapshots',
      R.taskKindCannotBeBatched('snapshotCreation'),
      { maxTasks: 1 },
    ],
  ]);
});

describe('plan details', () => {
  test('nothing enqueued → null', () => {
    assert.equal(nextBatch(view([])), null);
  });

  test('non-enqueued and unsorted input is normalised', () => {
    const done = { ...add(0), status: 'succeeded' as const };
    const b = nextBatch(view([add(3), done, add(2)]));
    assert.deepEqual(
      b?.tasks.map((t) => t.uid),
      [2, 3],
    );
    assert.equal(b?.batchStrategy, ALL);
  });

  test('failed upgrades are retried with enqueued ones and reuse the last batch uid', () => {
    const b = nextBatch(view([add(5), upg(7)], EXISTS, {}, [upg(2, 'failed', 4), upg(3, 'failed', 4)]));
    assert.ok(b && b.plan.op === 'upgradeDatabase');
    assert.deepEqual(
      b.tasks.map((t) => t.uid),
      [2, 3, 7],
    );
    assert.equal(b.plan.reuseBatchUid, null); // the highest-uid upgrade (7) has no batch yet
    const only = nextBatch(view([add(5)], EXISTS, {}, [upg(2, 'failed', 4)]));
    assert.ok(only && only.plan.op === 'upgradeDatabase');
    assert.equal(only.plan.reuseBatchUid, 4);
    assert.equal(only.batchStrategy, R.taskKindCannotBeBatched('upgradeDatabase'));
  });

  test('indexOperation carries index, mode, creation right and primary key', () => {
    const b = nextBatch(view([add(0), addPk(1, 'id'), del(2)], PK_ID));
    assert.ok(b && b.plan.op === 'indexOperation');
    assert.equal(b.plan.indexUid, M);
    assert.equal(b.plan.mode, 'documents');
    assert.equal(b.plan.mayCreateIndex, true);
    assert.equal(b.plan.primaryKey, null); // the first addition's primary key (Meilisearch behaviour)
    assert.deepEqual(b.plan.tasks, b.tasks);

    const c = nextBatch(view([addNoCreate(0), addPk(1, 'ref')], EXISTS));
    assert.ok(c && c.plan.op === 'indexOperation');
    assert.equal(c.plan.mayCreateIndex, false);
    assert.equal(c.plan.primaryKey, null);

    const d = nextBatch(view([addPk(0, 'ref'), add(1)], MISSING));
    assert.ok(d && d.plan.op === 'indexOperation');
    assert.equal(d.plan.primaryKey, 'ref');
    assert.equal(d.plan.mayCreateIndex, true);
  });

  test('deletion-led batches never create the index', () => {
    const b = nextBatch(view([del(0), addNoCreate(1)], MISSING));
    assert.ok(b && b.plan.op === 'indexOperation');
    assert.equal(b.plan.mode, 'documents');
    assert.equal(b.plan.mayCreateIndex, false);
  });

  test('indexDeletion carries the absorbed tasks and whether the index may have been created', () => {
    const b = nextBatch(view([add(0), idel(1)], MISSING));
    assert.ok(b && b.plan.op === 'indexDeletion');
    assert.equal(b.plan.indexUid, M);
    assert.deepEqual(
      b.plan.tasks.map((t) => t.uid),
      [0, 1],
    );
    assert.equal(b.plan.mayCreateIndex, true);
    const c = nextBatch(view([set(0, M, { allow: false }), idel(1)], MISSING));
    assert.ok(c && c.plan.op === 'indexDeletion');
    assert.equal(c.plan.mayCreateIndex, false);
  });

  test('single-task plans carry their task and index', () => {
    const b = nextBatch(view([upd(0, M, 'renamed')]));
    assert.ok(b && b.plan.op === 'indexUpdate');
    assert.equal(b.plan.indexUid, M);
    assert.equal(b.plan.task.uid, 0);
    const c = nextBatch(view([compact(4, 'books')]));
    assert.ok(c && c.plan.op === 'indexCompaction');
    assert.equal(c.plan.indexUid, 'books');
  });

  test('taskIndexes', () => {
    assert.deepEqual(taskIndexes(add(0)), [M]);
    assert.deepEqual(taskIndexes(upd(0, 'a', 'b')), ['a', 'b']);
    assert.deepEqual(taskIndexes(swap(0, ['a', 'b'], ['c', 'a'])), ['a', 'b', 'c']);
    assert.deepEqual(taskIndexes(dump(0)), []);
  });
});
