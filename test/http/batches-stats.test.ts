// Batch `stats` (tasks.md §12) as the Meilisearch 1.50 binary gives them for finished batches:
// `totalNbTasks, status, types, indexUids, progressTrace` (+ `writeChannelCongestion` and
// `internalDatabaseSizes` in the binary's document batches, which Muninn omits; no
// `embedderRequests` without embedder requests). Properties checked:
// 1. every finished batch kind (index creation, document addition, settings update, document
//    deletion, index deletion, task cancelation, task deletion) has a `progressTrace`
// 2. its keys are step paths joined by " > ", a child listed before its parent, under
//    `processing tasks` and `writing tasks to disk`; its values are Rust `{:.2?}` durations
// 3. the steps are the work Muninn did for that kind (e.g. `processing tasks > indexing >
//    adding documents`), read through the official client (`batches.getBatch`, `getBatches`)
//    and raw fetch alike
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;

before(async () => {
  t = await startTestServer();
});

after(async () => {
  await t.close();
});

const DURATION = /^\d+\.\d{2}(s|ms|µs|ns)$/;

/** Checks the shape of a progressTrace and returns its step paths. */
function tracePaths(trace: unknown): string[] {
  assert.ok(trace !== null && typeof trace === 'object', 'progressTrace is an object');
  const entries = Object.entries(trace as Record<string, unknown>);
  for (const [path, value] of entries) assert.match(String(value), DURATION, path);
  const paths = entries.map(([path]) => path);
  // a parent is listed after each of its children
  paths.forEach((path, i) => {
    const parent = path.slice(0, path.lastIndexOf(' > '));
    if (path.includes(' > ')) assert.ok(paths.indexOf(parent) > i, `${parent} after ${path}`);
  });
  assert.ok(paths.includes('processing tasks') && paths.includes('writing tasks to disk'), paths.join(', '));
  return paths;
}

async function batchOf(promise: PromiseLike<unknown> & { waitTask(): Promise<{ batchUid: number | null; status: string }> }) {
  const task = await promise.waitTask();
  assert.notEqual(task.batchUid, null);
  return t.client.batches.getBatch(task.batchUid!);
}

describe('batch stats', () => {
  test('each kind of batch has a progressTrace of its own steps', async () => {
    const uid = uniqueIndex('trace');
    const index = t.client.index(uid);
    const expected: [string, Awaited<ReturnType<typeof batchOf>>, string[]][] = [];

    const created = await batchOf(t.client.createIndex(uid));
    expected.push(['index creation', created, ['processing tasks > creating the index']]);
    const added = await batchOf(index.addDocuments([{ id: 1, title: 'Carol' }, { id: 2, title: 'Wonder' }]));
    expected.push(['document addition', added, ['processing tasks > retrieving config', 'processing tasks > indexing > adding documents', 'processing tasks > committing']]);
    const settings = await batchOf(index.updateSettings({ filterableAttributes: ['title'] }));
    expected.push(['settings update', settings, ['processing tasks > indexing > applying the settings > re-indexing facets']]);
    const deleted = await batchOf(index.deleteDocuments([2]));
    expected.push(['document deletion', deleted, ['processing tasks > indexing > deleting documents']]);
    const canceled = await batchOf(t.client.tasks.cancelTasks({ uids: [0] }));
    expected.push(['task cancelation', canceled, ['processing tasks > retrieving tasks']]);
    const dropped = await batchOf(t.client.deleteIndex(uid));
    expected.push(['index deletion', dropped, ['processing tasks > counting documents']]);
    const purged = await batchOf(t.client.tasks.deleteTasks({ uids: [0] }));
    expected.push(['task deletion', purged, ['processing tasks > matching tasks', 'writing tasks to disk > applying the batch changes']]);

    for (const [kind, batch, steps] of expected) {
      assert.deepEqual(Object.keys(batch.stats), ['totalNbTasks', 'status', 'types', 'indexUids', 'progressTrace'], kind);
      const paths = tracePaths(batch.stats.progressTrace);
      for (const step of steps) assert.ok(paths.includes(step), `${kind}: ${step} in ${paths.join(', ')}`);
    }
    assert.deepEqual(added.stats.status, { succeeded: 1 });
    assert.deepEqual(added.stats.types, { documentAdditionOrUpdate: 1 });
    assert.deepEqual(added.stats.indexUids, { [uid]: 1 });
  });

  test('listed batches carry the trace they were stored with', async () => {
    const uid = uniqueIndex('listed');
    const task = await t.client.index(uid).addDocuments([{ id: 1 }]).waitTask();
    const one = await t.fetch('GET', `/batches/${task.batchUid}`);
    assert.equal(one.status, 200);
    tracePaths(one.body.stats.progressTrace);
    const listed = await t.client.batches.getBatches({ uids: [task.uid] });
    assert.equal(listed.results.length, 1);
    assert.deepEqual(listed.results[0]!.stats, one.body.stats);
    const raw = await t.fetch('GET', `/batches?batchUids=${task.batchUid}`);
    assert.deepEqual(raw.body.results[0].stats, one.body.stats);
    // no embedder, no write channel: the binary's other diagnostics are absent
    for (const key of ['embedderRequests', 'writeChannelCongestion', 'internalDatabaseSizes']) assert.ok(!(key in one.body.stats), key);
  });
});
