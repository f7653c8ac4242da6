import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enqueuedDetails } from '../api/tasks/details.ts';
import type { Task, TaskKind } from '../api/tasks/model.ts';
import { batchFromDump, batchToDump } from './batches.ts';
import { parseDate } from './dates.ts';
import { keyFromDump, keyToDump } from './keys.ts';
import { taskFromDump, taskToDump } from './tasks.ts';
import { dumpUid } from './name.ts';

const files = { contentFile: () => ({ uuid: '00000000-0000-4000-8000-000000000000', bytes: 0 }) };

function task(uid: number, kind: TaskKind, indexUid: string | null = 'movies', over: Partial<Task> = {}): Task {
  return {
    uid,
    batchUid: 3,
    indexUid,
    status: 'succeeded',
    kind,
    canceledBy: null,
    details: enqueuedDetails(kind, { indexUid }),
    error: null,
    enqueuedAt: 1_700_000_000_123_456,
    startedAt: 1_700_000_001_000_000,
    finishedAt: 1_700_000_002_000_001,
    ...over,
  };
}

test('every task kind survives a trip through the dump format', () => {
  const key = { uid: '62b16e25-f5a3-457f-ae9d-9040788f0f18', name: 'k', description: null, actions: ['search'], indexes: ['*'], expiresAt: null, createdAt: 1_700_000_000_000_001, updatedAt: 1_700_000_000_000_001 };
  const kinds: [TaskKind, string | null][] = [
    [{ kind: 'documentAddition', method: 'update', primaryKey: 'id', contentFile: files.contentFile().uuid, documentsCount: 2, payloadBytes: 0, allowIndexCreation: true, skipCreation: false }, 'movies'],
    [{ kind: 'documentDeletion', ids: ['1', 'a'] }, 'movies'],
    [{ kind: 'documentDeletionByFilter', filter: 'genre = drama' }, 'movies'],
    [{ kind: 'documentClear' }, 'movies'],
    [{ kind: 'documentEdition', filter: null, context: { a: 1 }, function: 'doc.x = 1' }, 'movies'],
    [{ kind: 'settingsUpdate', settings: { filterableAttributes: ['g'] }, isDeletion: false, allowIndexCreation: true }, 'movies'],
    [{ kind: 'indexCreation', primaryKey: 'id' }, 'movies'],
    [{ kind: 'indexUpdate', primaryKey: null, newIndexUid: 'films' }, 'movies'],
    [{ kind: 'indexDeletion' }, 'movies'],
    [{ kind: 'indexSwap', swaps: [{ indexes: ['a', 'b'], rename: true }] }, null],
    [{ kind: 'taskCancelation', query: '?uids=1', matched: Uint8Array.from([58, 48, 0, 0, 0, 0, 0, 0]) }, null],
    [{ kind: 'taskDeletion', query: '?uids=1', matched: Uint8Array.from([58, 48, 0, 0, 0, 0, 0, 0]) }, null],
    [{ kind: 'dumpCreation', keys: [key], instanceUid: null }, null],
    [{ kind: 'snapshotCreation' }, null],
    [{ kind: 'upgradeDatabase', from: [1, 12, 0] }, null],
    [{ kind: 'export', payload: { url: 'http://x', apiKey: 'secretsecret', payloadSize: 52428800, indexes: { 'a*': { filter: 'x = 1', overrideSettings: true } } } }, null],
    [{ kind: 'indexCompaction' }, 'movies'],
  ];
  for (const [i, [kind, indexUid]] of kinds.entries()) {
    const original = task(i, kind, indexUid);
    const line = JSON.parse(JSON.stringify(taskToDump(original)));
    const back = taskFromDump(line, files);
    const expected = kind.kind === 'documentDeletion' ? { ...original, details: { ...original.details, originalFilter: null } } : original;
    assert.deepEqual(back, expected, kind.kind);
  }
});

test('the dump lines of tasks match the ones Meilisearch 1.50 writes', () => {
  const failed = task(5, { kind: 'documentDeletionByFilter', filter: 'genre = drama' }, 'books', {
    status: 'failed',
    details: { providedIds: 0, deletedDocuments: 0, originalFilter: '"genre = drama"' },
    error: { message: 'bad', code: 'invalid_document_filter', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#invalid_document_filter' } as Task['error'],
    enqueuedAt: parseDate('2026-11-29T08:20:30.832696907Z', 'x'),
  });
  assert.deepEqual(taskToDump(failed), {
    uid: 5,
    batchUid: 3,
    indexUid: 'books',
    status: 'failed',
    type: { documentDeletionByFilter: { filter: 'genre = drama' } },
    details: { DocumentDeletionByFilter: { original_filter: '"genre = drama"', deleted_documents: 0 } },
    error: failed.error,
    enqueuedAt: '2026-11-29T08:20:30.832696Z',
    startedAt: '2023-11-14T22:13:21Z',
    finishedAt: '2023-11-14T22:13:22.000001Z',
  });
  const enqueued = task(13, { kind: 'documentClear' }, 'later', { status: 'enqueued', batchUid: null, startedAt: null, finishedAt: null });
  assert.deepEqual(taskToDump(enqueued), {
    uid: 13,
    batchUid: null,
    indexUid: 'later',
    status: 'enqueued',
    type: 'documentClear',
    details: { ClearAll: { deleted_documents: null } },
    enqueuedAt: '2023-11-14T22:13:20.123456Z',
  });
  const rename = taskToDump(task(20, { kind: 'indexUpdate', primaryKey: null, newIndexUid: 'c2' }, 'c1'));
  assert.deepEqual(rename.details, { IndexInfo: { primary_key: null, new_index_uid: 'c2', old_index_uid: 'c1' } });
  assert.deepEqual(taskToDump(task(1, { kind: 'taskDeletion', query: '?uids=0', matched: Uint8Array.from([58, 48, 0, 0, 0, 0, 0, 0]) }, null)).type, { tasksDeletion: { query: '?uids=0', tasks: [58, 48, 0, 0, 0, 0, 0, 0] } });
});

test('a task line from Meilisearch reads into the task Muninn would have stored', () => {
  const line = {
    uid: 21,
    batchUid: 18,
    indexUid: 'c2',
    status: 'succeeded',
    type: { settings: { settings: { displayedAttributes: ['*'], stopWords: null }, is_deletion: true, allow_index_creation: true } },
    details: { SettingsUpdate: { settings: { displayedAttributes: ['*'], stopWords: null } } },
    enqueuedAt: '2026-11-29T08:21:38.251404949Z',
    startedAt: '2026-11-29T08:21:38.2Z',
    finishedAt: '2026-11-29T08:21:38+01:00',
  };
  const t = taskFromDump(line, files);
  assert.equal(t.kind.kind, 'settingsUpdate');
  assert.equal(t.enqueuedAt % 1_000_000, 251_404);
  assert.equal(t.startedAt! % 1_000_000, 200_000);
  assert.equal(t.finishedAt, Date.parse('2026-11-29T07:21:38Z') * 1000);
  assert.deepEqual(t.details, { displayedAttributes: ['*'], stopWords: null });
  assert.throws(() => taskFromDump({ ...line, type: { somethingNew: {} } }, files), /unknown task type `somethingNew`/);
  assert.throws(() => taskFromDump({ ...line, enqueuedAt: 'yesterday' }, files), /invalid date/);
});

test('keys and batches keep their fields; the batch enqueue range is written as Meilisearch names it', () => {
  const key = { uid: 'eb4ec4d6-00c4-47e2-80f7-583c8dad535b', name: null, description: 'd', actions: ['documents.add'], indexes: ['vec*'], expiresAt: Date.parse('2030-01-01T00:00:00Z') * 1000, createdAt: 1, updatedAt: 2 };
  assert.deepEqual(keyToDump(key), {
    description: 'd',
    uid: key.uid,
    actions: ['documents.add'],
    indexes: ['vec*'],
    expires_at: '2030-01-01T00:00:00Z',
    created_at: '1970-01-01T00:00:00.000001Z',
    updated_at: '1970-01-01T00:00:00.000002Z',
  });
  assert.deepEqual(keyFromDump(keyToDump(key)), key);
  const batch = {
    uid: 5,
    details: { providedIds: 1 },
    stats: { totalNbTasks: 2, status: { succeeded: 2 }, types: { documentDeletion: 2 }, indexUids: { movies: 2 } },
    startedAt: 10,
    finishedAt: 20,
    batchStrategy: 'batched all enqueued tasks',
    enqueuedAtRange: [3, 7] as [number, number],
  };
  const line = batchToDump(batch);
  assert.deepEqual(line.enqueuedAt, { earliest: '1970-01-01T00:00:00.000007Z', oldest: '1970-01-01T00:00:00.000003Z' });
  assert.equal(line.stopReason, 'batched all enqueued tasks');
  assert.deepEqual(batchFromDump(JSON.parse(JSON.stringify(line))), batch);
});

test('the dump uid is the UTC start time to the millisecond', () => {
  assert.equal(dumpUid(Date.parse('2025-02-04T10:22:31.331Z') * 1000 + 999), '20250204-102231331');
});
