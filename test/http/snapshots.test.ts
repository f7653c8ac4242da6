// Snapshots through the official client: POST /snapshots writes `<db dir>.snapshot` (read-only,
// replaced by the next one), --import-snapshot restores it, --schedule-snapshot enqueues them
// (dumps-snapshots.md §5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Instance, StartupError } from '../../src/instance/index.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

test('a snapshot restores an equal database without the snapshot tasks', async () => {
  const snapshotDir = tmp('muninn-snapshots-');
  const source = await startTestServer({ args: ['--snapshot-dir', snapshotDir] });
  let restored: TestServer | null = null;
  const restoredDb = path.join(tmp('muninn-restored-'), 'db');
  try {
    const c = source.client;
    await c.index('movies').addDocuments([{ id: 1, title: 'Carol' }, { id: 2, title: 'Wonder Woman' }]).waitTask();
    await c.index('movies').updateSettings({ filterableAttributes: ['title'] }).waitTask();
    await c.index('vec').updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 2 } } }).waitTask();
    await c.index('vec').addDocuments([{ id: 1, _vectors: { manual: [0.5, 0.5] } }]).waitTask();
    const key = await c.createKey({ actions: ['search'], indexes: ['movies'], expiresAt: null });

    // a batch in progress keeps both snapshot tasks enqueued until it ends: they then run together
    const filler = await c.index('filler').addDocuments(Array.from({ length: 20_000 }, (_, i) => ({ id: i, text: `lorem ipsum ${i}` })));
    // snapshots go before index tasks: the filler must have started for both to wait behind it
    while ((await c.tasks.getTask(filler.taskUid)).status === 'enqueued') await new Promise((r) => setTimeout(r, 5));
    const first = await c.createSnapshot();
    const second = await c.createSnapshot();
    const done = await c.tasks.waitForTask(second.taskUid);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    const firstDone = await c.tasks.getTask(first.taskUid);
    assert.equal(firstDone.batchUid, done.batchUid, 'enqueued snapshots share one batch');
    assert.equal('details' in firstDone, false, 'a snapshot task has no details');

    const file = path.join(snapshotDir, `${path.basename(source.dbPath)}.snapshot`);
    assert.deepEqual(fs.readdirSync(snapshotDir), [path.basename(file)]);
    assert.equal(fs.statSync(file).mode & 0o777, 0o444, 'read-only');
    // the next snapshot replaces it
    const before = fs.statSync(file).mtimeMs;
    await c.index('movies').addDocuments([{ id: 3, title: 'Life of Pi' }]).waitTask();
    const last = await c.createSnapshot().waitTask();
    assert.deepEqual(fs.readdirSync(snapshotDir), [path.basename(file)]);
    assert.ok(fs.statSync(file).mtimeMs >= before);

    restored = await startTestServer({ dbPath: restoredDb, args: ['--import-snapshot', file] });
    const b = restored.client;
    assert.deepEqual((await b.index('movies').getDocuments()).results, (await c.index('movies').getDocuments()).results);
    assert.deepEqual(await b.index('movies').getSettings(), await c.index('movies').getSettings());
    const docs = async (client: typeof c) => (await client.index('vec').getDocuments({ retrieveVectors: true })).results;
    assert.deepEqual(await docs(b), await docs(c));
    assert.equal((await b.getKey(key.uid)).key, key.key);
    const restoredTasks = (await b.tasks.getTasks({ limit: 100 })).results;
    assert.equal(restoredTasks.some((t) => t.uid === last.uid), false, 'the snapshot tasks are not in their snapshot');
    const sourceTasks = (await c.tasks.getTasks({ limit: 100 })).results.filter((t) => t.uid < last.uid);
    assert.deepEqual(restoredTasks, sourceTasks);
    const hits = await b.index('movies').search('life', { filter: 'title = "Life of Pi"' });
    assert.deepEqual(hits.hits.map((h) => h.id), [3]);
  } finally {
    await source.close();
    await restored?.close();
    fs.rmSync(snapshotDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(restoredDb), { recursive: true, force: true });
  }
});

test('--import-snapshot follows the decision table; a bad file leaves no database', async () => {
  const base = { masterKey: null, maxBatchedTasks: Infinity, maxBatchedBytes: Infinity, payloadSizeLimit: 100 * 1024 * 1024 } as const;
  const dir = tmp('muninn-import-snapshot-');
  try {
    const missing = path.join(dir, 'nope.snapshot');
    const db = path.join(dir, 'db');
    await assert.rejects(
      Instance.open({ ...base, dbPath: db, importSnapshot: { path: missing, ignoreMissing: false, ignoreIfDbExists: false } }),
      (err) => err instanceof StartupError && err.message === `snapshot doesn't exist at ${missing}`,
    );
    const started = await Instance.open({ ...base, dbPath: db, importSnapshot: { path: missing, ignoreMissing: true, ignoreIfDbExists: false } });
    await started.close();
    const garbage = path.join(dir, 'garbage.snapshot');
    fs.writeFileSync(garbage, 'not a snapshot');
    await assert.rejects(
      Instance.open({ ...base, dbPath: db, importSnapshot: { path: garbage, ignoreMissing: false, ignoreIfDbExists: false } }),
      (err) => err instanceof StartupError && err.message === `database already exists at "${fs.realpathSync(db)}", try to delete it or rename it`,
    );
    const kept = await Instance.open({ ...base, dbPath: db, importSnapshot: { path: garbage, ignoreMissing: false, ignoreIfDbExists: true } });
    await kept.close();
    const fresh = path.join(dir, 'fresh');
    await assert.rejects(
      Instance.open({ ...base, dbPath: fresh, importSnapshot: { path: garbage, ignoreMissing: false, ignoreIfDbExists: false } }),
      (err) => err instanceof StartupError && /the snapshot could not be imported/.test(err.message),
    );
    assert.equal(fs.existsSync(fresh), false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('--schedule-snapshot enqueues snapshot tasks on its interval', async () => {
  const snapshotDir = tmp('muninn-snapshots-');
  const source = await startTestServer({ args: ['--snapshot-dir', snapshotDir, '--schedule-snapshot', '1'] });
  try {
    const deadline = Date.now() + 15_000;
    let tasks: { status: string }[] = [];
    while (Date.now() < deadline) {
      tasks = (await source.client.tasks.getTasks({ types: ['snapshotCreation'] })).results;
      if (tasks.some((t) => t.status === 'succeeded')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(tasks.some((t) => t.status === 'succeeded'), JSON.stringify(tasks));
    assert.ok(fs.existsSync(path.join(snapshotDir, `${path.basename(source.dbPath)}.snapshot`)));
  } finally {
    await source.close();
    fs.rmSync(snapshotDir, { recursive: true, force: true });
  }
});
