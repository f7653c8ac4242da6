import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Batch, Task, TaskKind } from './model.ts';
import { batchStats, batchView, summarizedTaskView, taskView } from './views.ts';

const iso = (s: string): number => Date.parse(s) * 1000;
const T0 = iso('2026-01-05T10:12:09Z') + 393721;
const T1 = iso('2026-01-05T10:12:09Z') + 401032;
const T2 = iso('2026-01-05T10:12:09Z') + 765820;

const addition: TaskKind = {
  kind: 'documentAddition', method: 'replace', primaryKey: null, contentFile: 'u', documentsCount: 1, payloadBytes: 10,
  allowIndexCreation: true, skipCreation: false,
};

function task(over: Partial<Task> = {}): Task {
  return {
    uid: 3, batchUid: 2, indexUid: 'movies', status: 'succeeded', kind: addition, canceledBy: null,
    details: { indexedDocuments: 1, receivedDocuments: 1 }, error: null, enqueuedAt: T0, startedAt: T1, finishedAt: T2,
    ...over,
  };
}

const TASK_KEYS = ['uid', 'batchUid', 'indexUid', 'status', 'type', 'canceledBy', 'details', 'error', 'duration', 'enqueuedAt', 'startedAt', 'finishedAt'];

test('summarizedTaskView: 5 keys, customMetadata only when set', () => {
  const view = summarizedTaskView(task({ status: 'enqueued', batchUid: null, startedAt: null, finishedAt: null }));
  assert.deepEqual(Object.keys(view), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt']);
  assert.deepEqual(view, {
    taskUid: 3, indexUid: 'movies', status: 'enqueued', type: 'documentAdditionOrUpdate', enqueuedAt: '2026-01-05T10:12:09.393721Z',
  });
  const withMeta = summarizedTaskView(task({ customMetadata: 'batch-7' }));
  assert.deepEqual(Object.keys(withMeta), ['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt', 'customMetadata']);
  assert.equal(withMeta.customMetadata, 'batch-7');
  const global = summarizedTaskView(task({ indexUid: null, kind: { kind: 'dumpCreation' } }));
  assert.equal(global.indexUid, null);
  assert.equal(global.type, 'dumpCreation');
});

test('taskView: the §2 example with exact key order', () => {
  const view = taskView(task());
  assert.deepEqual(Object.keys(view), TASK_KEYS);
  assert.deepEqual(view, {
    uid: 3, batchUid: 2, indexUid: 'movies', status: 'succeeded', type: 'documentAdditionOrUpdate', canceledBy: null,
    details: { receivedDocuments: 1, indexedDocuments: 1 }, error: null, duration: 'PT0.364788S',
    enqueuedAt: '2026-01-05T10:12:09.393721Z', startedAt: '2026-01-05T10:12:09.401032Z', finishedAt: '2026-01-05T10:12:09.76582Z', // µs 765820: the trailing zero is trimmed
  });
  assert.deepEqual(Object.keys(view.details!), ['receivedDocuments', 'indexedDocuments']);
});

test('taskView: details absent for snapshots, customMetadata last, error object order', () => {
  const snap = taskView(task({ indexUid: null, kind: { kind: 'snapshotCreation' }, details: null }));
  assert.deepEqual(Object.keys(snap), TASK_KEYS.filter((k) => k !== 'details'));
  const meta = taskView(task({ customMetadata: '' }));
  assert.deepEqual(Object.keys(meta), [...TASK_KEYS, 'customMetadata']);
  const failed = taskView(task({
    status: 'failed',
    error: { link: 'https://docs.meilisearch.com/errors#index_not_found', type: 'invalid_request', code: 'index_not_found', message: 'Index `movies` not found.' },
  }));
  assert.deepEqual(Object.keys(failed.error!), ['message', 'code', 'type', 'link']);
});

test('taskView: enqueued task, and the in-memory processing view', () => {
  const enqueued = task({ status: 'enqueued', batchUid: null, startedAt: null, finishedAt: null, details: { receivedDocuments: 1, indexedDocuments: null } });
  const plain = taskView(enqueued);
  assert.equal(plain.status, 'enqueued');
  assert.equal(plain.batchUid, null);
  assert.equal(plain.duration, null);
  assert.equal(plain.startedAt, null);
  const live = taskView(enqueued, { batchUid: 7, startedAt: T1 });
  assert.deepEqual(Object.keys(live), TASK_KEYS);
  assert.equal(live.status, 'processing');
  assert.equal(live.batchUid, 7);
  assert.equal(live.startedAt, '2026-01-05T10:12:09.401032Z');
  assert.equal(live.finishedAt, null);
  assert.equal(live.duration, null);
  // a finished task ignores the processing state
  assert.equal(taskView(task(), { batchUid: 9, startedAt: T0 }).status, 'succeeded');
});

test('taskView: durations of whole batches and negative durations', () => {
  assert.equal(taskView(task({ startedAt: T0, finishedAt: T0 + 2 * 86_400_000_000 })).duration, 'P2D');
  assert.equal(taskView(task({ startedAt: T0, finishedAt: T0 - 1 })).duration, null);
});

test('taskView: details keys are put in Meilisearch order', () => {
  const view = taskView(task({
    kind: { kind: 'taskCancelation', query: '?uids=0', matched: new Uint8Array() }, indexUid: null,
    details: { originalFilter: '?uids=0', canceledTasks: 1, matchedTasks: 1 },
  }));
  assert.deepEqual(Object.keys(view.details!), ['matchedTasks', 'canceledTasks', 'originalFilter']);
  const settings = taskView(task({
    kind: { kind: 'settingsUpdate', settings: {}, isDeletion: false, allowIndexCreation: true },
    details: { rankingRules: ['words'], displayedAttributes: ['*'] },
  }));
  assert.deepEqual(Object.keys(settings.details!), ['rankingRules', 'displayedAttributes']);
});

const BATCH_KEYS = ['uid', 'progress', 'details', 'stats', 'duration', 'startedAt', 'finishedAt', 'batchStrategy'];

function batch(over: Partial<Batch> = {}): Batch {
  return {
    uid: 2,
    details: { indexedDocuments: 3, receivedDocuments: 3 },
    stats: { totalNbTasks: 2, status: { succeeded: 2 }, types: { documentAdditionOrUpdate: 2 }, indexUids: { movies: 2 } },
    startedAt: T1, finishedAt: T2, batchStrategy: 'batched all enqueued tasks',
    ...over,
  };
}

test('batchView: the §12 object with exact key order', () => {
  const view = batchView(batch());
  assert.deepEqual(Object.keys(view), BATCH_KEYS);
  assert.deepEqual(view, {
    uid: 2, progress: null, details: { receivedDocuments: 3, indexedDocuments: 3 },
    stats: { totalNbTasks: 2, status: { succeeded: 2 }, types: { documentAdditionOrUpdate: 2 }, indexUids: { movies: 2 } },
    duration: 'PT0.364788S', startedAt: '2026-01-05T10:12:09.401032Z', finishedAt: '2026-01-05T10:12:09.76582Z',
    batchStrategy: 'batched all enqueued tasks',
  });
  assert.deepEqual(Object.keys(view.details), ['receivedDocuments', 'indexedDocuments']);
  assert.deepEqual(Object.keys(view.stats), ['totalNbTasks', 'status', 'types', 'indexUids']);
});

test('batchView: processing batch with progress, ordered stats maps, diagnostics', () => {
  const view = batchView(
    batch({
      finishedAt: null,
      stats: {
        totalNbTasks: 6,
        types: { taskCancelation: 1, documentAdditionOrUpdate: 2, indexCreation: 1, documentDeletion: 2 },
        status: { canceled: 3, succeeded: 1, failed: 0, processing: 2 },
        indexUids: { zeta: 1, Alpha: 1, beta: 2, 'a-b': 1 },
        progressTrace: {},
        internalDatabaseSizes: {},
        embedderRequests: { total: 0, failed: 0 },
        writeChannelCongestion: { attempts: 10, blocking_attempts: 0, blocking_ratio: 0 },
      },
    }),
    { steps: [{ currentStep: 'processing tasks', finished: 0, total: 2 }], percentage: 0 },
  );
  assert.deepEqual(Object.keys(view), BATCH_KEYS);
  assert.equal(view.duration, null);
  assert.equal(view.finishedAt, null);
  assert.deepEqual(view.progress, { steps: [{ currentStep: 'processing tasks', finished: 0, total: 2 }], percentage: 0 });
  assert.deepEqual(Object.keys(view.stats.status), ['processing', 'succeeded', 'canceled']);
  assert.deepEqual(Object.keys(view.stats.types), ['documentAdditionOrUpdate', 'documentDeletion', 'indexCreation', 'taskCancelation']);
  assert.deepEqual(Object.keys(view.stats.indexUids), ['Alpha', 'a-b', 'beta', 'zeta']);
  assert.deepEqual(Object.keys(view.stats), ['totalNbTasks', 'status', 'types', 'indexUids', 'writeChannelCongestion']);
  const withDiag = batchView(batch({
    stats: { ...batch().stats, progressTrace: { 'processing tasks': '12.3ms' }, embedderRequests: { total: 3, failed: 1, lastError: 'boom' } },
  }));
  assert.deepEqual(Object.keys(withDiag.stats), ['totalNbTasks', 'status', 'types', 'indexUids', 'progressTrace', 'embedderRequests']);
  assert.deepEqual(withDiag.stats.embedderRequests, { total: 3, failed: 1, lastError: 'boom' });
});

test('batchStats: counts by status, type and index; global tasks have no index', () => {
  const cancel: TaskKind = { kind: 'taskCancelation', query: '?uids=1', matched: new Uint8Array() };
  const tasks = [
    task({ uid: 4, kind: cancel, indexUid: null, status: 'succeeded' }),
    task({ uid: 1, status: 'canceled', indexUid: 'movies' }),
    task({ uid: 2, status: 'canceled', indexUid: 'books', kind: { kind: 'documentClear' } }),
    task({ uid: 3, status: 'canceled', indexUid: 'movies', kind: { kind: 'indexCreation', primaryKey: null } }),
  ];
  const stats = batchStats(tasks);
  assert.deepEqual(stats, {
    totalNbTasks: 4,
    status: { succeeded: 1, canceled: 3 },
    types: { documentAdditionOrUpdate: 1, documentDeletion: 1, indexCreation: 1, taskCancelation: 1 },
    indexUids: { books: 1, movies: 2 },
  });
  assert.deepEqual(Object.keys(stats.types), ['documentAdditionOrUpdate', 'documentDeletion', 'indexCreation', 'taskCancelation']);
  assert.deepEqual(Object.keys(stats.indexUids), ['books', 'movies']);
  assert.deepEqual(batchStats(tasks, { processing: true }).status, { processing: 4 });
  assert.deepEqual(batchStats([]), { totalNbTasks: 0, status: {}, types: {}, indexUids: {} });
  const swap = batchStats([task({ indexUid: null, kind: { kind: 'indexSwap', swaps: [{ indexes: ['a', 'b'], rename: false }] } })]);
  assert.deepEqual(swap.indexUids, {});
});
