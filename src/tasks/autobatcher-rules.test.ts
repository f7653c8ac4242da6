// Autobatcher (tasks.md §11), part 2: clears, settings, index creation rights, primary keys, limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextBatch, stopReason as R, taskIndexes } from './autobatcher.ts';
import { ALL, EXISTS, M, MISSING, PK_ID, add, addNoCreate, addPk, clr, compact, crt, del, delF, dump, idel, runRows, set, snap, swap, task, upd, upg, view } from './autobatcher.fixtures.ts';

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
