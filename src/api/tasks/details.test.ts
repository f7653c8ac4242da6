import { test } from 'node:test';
import assert from 'node:assert/strict';
import roaring from 'roaring';
import type { Task, TaskKind } from './model.ts';
import { accumulateDetails, aggregateBatchDetails, enqueuedDetails, failedDetails, maskSecret, orderDetails } from './views.ts';

const matched = (...uids: number[]): Uint8Array => new roaring.RoaringBitmap32(uids).serialize('portable');

test('enqueuedDetails: every kind, values and key order', () => {
  const cases: [string, TaskKind, object | null, object?][] = [
    ['addition', { kind: 'documentAddition', method: 'update', primaryKey: 'id', contentFile: 'f', documentsCount: 3, payloadBytes: 9, allowIndexCreation: true, skipCreation: false },
      { receivedDocuments: 3, indexedDocuments: null }],
    ['deletion by ids', { kind: 'documentDeletion', ids: ['1', '2'] }, { providedIds: 2, deletedDocuments: null }],
    ['deletion by filter', { kind: 'documentDeletionByFilter', filter: 'doggo = bernese' },
      { providedIds: 0, deletedDocuments: null, originalFilter: '"doggo = bernese"' }],
    ['deletion by array filter', { kind: 'documentDeletionByFilter', filter: [['a = 1', 'b = 2'], 'c = 3'] },
      { providedIds: 0, deletedDocuments: null, originalFilter: '[["a = 1","b = 2"],"c = 3"]' }],
    ['clear', { kind: 'documentClear' }, { deletedDocuments: null }],
    ['edition', { kind: 'documentEdition', filter: 'id > 2', context: { n: 1 }, function: 'doc.n = 1' },
      { editedDocuments: null, deletedDocuments: null, originalFilter: '"id > 2"', context: { n: 1 }, function: 'doc.n = 1' }],
    ['edition without filter', { kind: 'documentEdition', filter: null, context: null, function: 'f' },
      { editedDocuments: null, deletedDocuments: null, originalFilter: null, context: null, function: 'f' }],
    ['settings', { kind: 'settingsUpdate', settings: { rankingRules: ['words'], stopWords: null }, isDeletion: false, allowIndexCreation: true },
      { rankingRules: ['words'], stopWords: null }],
    ['creation', { kind: 'indexCreation', primaryKey: null }, { primaryKey: null }],
    ['update', { kind: 'indexUpdate', primaryKey: 'id', newIndexUid: null }, { primaryKey: 'id' }],
    ['rename', { kind: 'indexUpdate', primaryKey: null, newIndexUid: 'films' }, { primaryKey: null, oldIndexUid: 'movies', newIndexUid: 'films' }, { indexUid: 'movies' }],
    ['index deletion', { kind: 'indexDeletion' }, { deletedDocuments: null }],
    ['swap', { kind: 'indexSwap', swaps: [{ indexes: ['a', 'b'], rename: false }, { indexes: ['c', 'd'], rename: true }] },
      { swaps: [{ indexes: ['a', 'b'], rename: false }, { indexes: ['c', 'd'], rename: true }] }],
    ['cancelation', { kind: 'taskCancelation', query: '?uids=0,1', matched: matched(0, 1) }, { matchedTasks: 2, canceledTasks: null, originalFilter: '?uids=0,1' }],
    ['cancelation, explicit count', { kind: 'taskCancelation', query: '?statuses=*', matched: new Uint8Array() },
      { matchedTasks: 5, canceledTasks: null, originalFilter: '?statuses=*' }, { matchedTasks: 5 }],
    ['deletion of tasks', { kind: 'taskDeletion', query: '?statuses=succeeded', matched: matched(1, 2, 3) }, { matchedTasks: 3, deletedTasks: null, originalFilter: '?statuses=succeeded' }],
    ['dump', { kind: 'dumpCreation' }, { dumpUid: null }],
    ['snapshot', { kind: 'snapshotCreation' }, null],
    ['upgrade', { kind: 'upgradeDatabase', from: [1, 12, 0] }, { upgradeFrom: 'v1.12.0', upgradeTo: 'v1.50.0' }],
    ['upgrade to given', { kind: 'upgradeDatabase', from: [1, 12, 0] }, { upgradeFrom: 'v1.12.0', upgradeTo: 'v1.51.2' }, { targetVersion: [1, 51, 2] }],
    ['compaction', { kind: 'indexCompaction' }, {}],
    ['export', { kind: 'export', payload: { url: 'http://x', apiKey: 'abcdefghijklmnopqrstuvwxyz0123', payloadSize: 1_610_612_736, indexes: { 'z*': { overrideSettings: true }, a: { filter: 'x = 1' } } } },
      { url: 'http://x', apiKey: 'abcdeXXXXXX...', payloadSize: '1.5 GiB', indexes: { a: { filter: 'x = 1', overrideSettings: false }, 'z*': { filter: null, overrideSettings: true } } }],
    ['export minimal', { kind: 'export', payload: { url: 'http://x' } }, { url: 'http://x', indexes: {} }],
  ];
  for (const [name, kind, expected, ctx] of cases) {
    const details = enqueuedDetails(kind, ctx ?? {});
    assert.deepEqual(details, expected, name);
    if (expected !== null) assert.deepEqual(Object.keys(details!), Object.keys(expected), name);
  }
});

test('enqueuedDetails: embedder api keys are masked in settings details', () => {
  const details = enqueuedDetails({
    kind: 'settingsUpdate', isDeletion: false, allowIndexCreation: true,
    settings: { embedders: { a: { source: 'openAi', apiKey: 'sk-0123456789abcdef' }, b: { source: 'userProvided', dimensions: 3 }, c: null } },
  });
  assert.deepEqual(details, {
    embedders: { a: { source: 'openAi', apiKey: 'skXXXX...' }, b: { source: 'userProvided', dimensions: 3 }, c: null },
  });
});

test('maskSecret: the four length classes', () => {
  const cases: [string, string][] = [
    ['', 'XXX...'],
    ['123456789', 'XXX...'],
    ['1234567890', '12XXXX...'],
    ['1234567890123456789', '12XXXX...'],
    ['12345678901234567890', '123XXXXX...'],
    ['12345678901234567890123456789', '123XXXXX...'],
    ['123456789012345678901234567890', '12345XXXXXX...'],
    ['x'.repeat(64), 'xxxxxXXXXXX...'],
  ];
  for (const [secret, masked] of cases) assert.equal(maskSecret(secret), masked, secret);
});

test('failedDetails: counters forced to 0 as to_failed does', () => {
  const cases: [string, object | null, object | null][] = [
    ['addition', { receivedDocuments: 3, indexedDocuments: null }, { receivedDocuments: 3, indexedDocuments: 0 }],
    ['edition', { editedDocuments: null, deletedDocuments: null, originalFilter: null, context: null, function: 'f' },
      { editedDocuments: 0, deletedDocuments: null, originalFilter: null, context: null, function: 'f' }],
    ['deletion', { providedIds: 2, deletedDocuments: null, originalFilter: null }, { providedIds: 2, deletedDocuments: 0, originalFilter: null }],
    ['clear', { deletedDocuments: null }, { deletedDocuments: 0 }],
    ['cancelation', { matchedTasks: 4, canceledTasks: null, originalFilter: '?uids=1' }, { matchedTasks: 4, canceledTasks: 0, originalFilter: '?uids=1' }],
    ['task deletion', { matchedTasks: 4, deletedTasks: null, originalFilter: '?uids=1' }, { matchedTasks: 4, deletedTasks: 0, originalFilter: '?uids=1' }],
    ['dump', { dumpUid: null }, { dumpUid: null }],
    ['settings', { rankingRules: ['words'] }, { rankingRules: ['words'] }],
    ['index info', { primaryKey: 'id' }, { primaryKey: 'id' }],
    ['compaction', { preCompactionSize: '1.5 GiB', postCompactionSize: '1.2 GiB' }, {}],
    ['network', { movedDocuments: 0, message: 'processing tasks for previous network versions' },
      { movedDocuments: 0, message: 'Failed. Previous status: processing tasks for previous network versions' }],
    ['none', null, null],
  ];
  for (const [name, input, expected] of cases) {
    const before = input === null ? null : structuredClone(input);
    assert.deepEqual(failedDetails(input as Record<string, unknown> | null), expected, name);
    assert.deepEqual(input, before, `${name}: input untouched`);
  }
});

test('accumulateDetails: the DetailsView::accumulate rules', () => {
  const cases: [string, object, object, object][] = [
    ['received summed, indexed null+null', { receivedDocuments: 1, indexedDocuments: null }, { receivedDocuments: 2, indexedDocuments: null }, { receivedDocuments: 3, indexedDocuments: null }],
    ['null + value', { indexedDocuments: null }, { indexedDocuments: 4 }, { indexedDocuments: 4 }],
    ['value + value', { deletedDocuments: 2 }, { deletedDocuments: 5 }, { deletedDocuments: 7 }],
    ['absent + null', {}, { deletedDocuments: null }, { deletedDocuments: null }],
    ['providedIds summed', { providedIds: 2 }, { providedIds: 0 }, { providedIds: 2 }],
    ['filters joined', { originalFilter: '?uids=1' }, { originalFilter: '?uids=2' }, { originalFilter: '?uids=1&?uids=2' }],
    ['filter null + value', { originalFilter: null }, { originalFilter: '"a = 1"' }, { originalFilter: '"a = 1"' }],
    ['primary key first', { primaryKey: null }, { primaryKey: 'id' }, { primaryKey: 'id' }],
    ['primary key keeps first', { primaryKey: 'a' }, { primaryKey: 'b' }, { primaryKey: 'a' }],
    ['dumpUid first', { dumpUid: 'x' }, { dumpUid: null }, { dumpUid: 'x' }],
    ['swaps concatenated', { swaps: [{ indexes: ['a', 'b'], rename: false }] }, { swaps: [{ indexes: ['c', 'd'], rename: true }] },
      { swaps: [{ indexes: ['a', 'b'], rename: false }, { indexes: ['c', 'd'], rename: true }] }],
    ['upgrade from earliest, to latest', { upgradeFrom: 'v1.12.0', upgradeTo: 'v1.13.0' }, { upgradeFrom: 'v1.13.0', upgradeTo: 'v1.50.0' },
      { upgradeFrom: 'v1.12.0', upgradeTo: 'v1.50.0' }],
    ['settings merged, later wins', { rankingRules: ['words'], typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 4 } } },
      { stopWords: ['a'], rankingRules: ['typo'], typoTolerance: { minWordSizeForTypos: { twoTypos: 9 } } },
      { rankingRules: ['typo'], typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 } }, stopWords: ['a'] }],
    ['settings reset wins', { stopWords: ['a'] }, { stopWords: null }, { stopWords: null }],
  ];
  for (const [name, left, right, expected] of cases) {
    assert.deepEqual(accumulateDetails(left as Record<string, unknown>, right as Record<string, unknown>), expected, name);
  }
});

function t(uid: number, details: Record<string, unknown> | null): Task {
  return {
    uid, batchUid: 1, indexUid: 'movies', status: 'succeeded', kind: { kind: 'documentClear' }, canceledBy: null, details,
    error: null, enqueuedAt: 0, startedAt: 1, finishedAt: 2,
  };
}

test('aggregateBatchDetails: batch details of §12', () => {
  assert.deepEqual(aggregateBatchDetails([]), {});
  assert.deepEqual(aggregateBatchDetails([t(0, null)]), {});
  const additions = aggregateBatchDetails([
    t(0, { receivedDocuments: 1, indexedDocuments: 1 }),
    t(1, { receivedDocuments: 2, indexedDocuments: 2 }),
  ]);
  assert.deepEqual(additions, { receivedDocuments: 3, indexedDocuments: 3 });
  const mixed = aggregateBatchDetails([
    t(0, { receivedDocuments: 2, indexedDocuments: 2 }),
    t(1, { providedIds: 1, deletedDocuments: 1, originalFilter: null }),
    t(2, { providedIds: 0, deletedDocuments: 3, originalFilter: '"a = 1"' }),
    t(3, { deletedDocuments: null }),
  ]);
  assert.deepEqual(mixed, { receivedDocuments: 2, indexedDocuments: 2, providedIds: 1, deletedDocuments: 4, originalFilter: '"a = 1"' });
  assert.deepEqual(Object.keys(mixed), ['receivedDocuments', 'indexedDocuments', 'providedIds', 'deletedDocuments', 'originalFilter']);
  const cancel = aggregateBatchDetails([
    t(4, { matchedTasks: 3, canceledTasks: 3, originalFilter: '?uids=0,1,2' }),
    t(0, { receivedDocuments: 1, indexedDocuments: 0 }),
  ]);
  assert.deepEqual(Object.keys(cancel), ['receivedDocuments', 'indexedDocuments', 'matchedTasks', 'canceledTasks', 'originalFilter']);
  const deletions = aggregateBatchDetails([
    t(5, { matchedTasks: 2, deletedTasks: 2, originalFilter: '?uids=0,1' }),
    t(6, { matchedTasks: 1, deletedTasks: 0, originalFilter: '?statuses=failed' }),
  ]);
  assert.deepEqual(deletions, { matchedTasks: 3, deletedTasks: 2, originalFilter: '?uids=0,1&?statuses=failed' });
});

test('orderDetails: DetailsView order with settings keys in the middle', () => {
  const ordered = orderDetails({ newIndexUid: 'b', primaryKey: null, oldIndexUid: 'a' });
  assert.deepEqual(Object.keys(ordered), ['primaryKey', 'oldIndexUid', 'newIndexUid']);
  const mixed = orderDetails({ swaps: [], filterableAttributes: [], function: 'f', displayedAttributes: [], receivedDocuments: 1 });
  assert.deepEqual(Object.keys(mixed), ['receivedDocuments', 'function', 'filterableAttributes', 'displayedAttributes', 'swaps']);
});
