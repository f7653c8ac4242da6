// Dumpless upgrade (upgrade.md §3, decision 0011) of a database written by Muninn 0.1.0 (the
// fixture test/fixtures/db-muninn-0.1.0, vectors still inside the documents): refused without
// --upgrade-db, upgraded by an `upgradeDatabase` task with it, and rolled back untouched when a
// failed upgrade is canceled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { open as openLmdb } from 'lmdb';
import { Instance, StartupError } from '../../src/instance/index.ts';
import { STORAGE_VERSION } from '../../src/engine/version.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/db-muninn-0.1.0');
const KEY = 'fixtureMasterKey123';
const base = { masterKey: KEY, maxBatchedTasks: Infinity, maxBatchedBytes: Infinity, payloadSizeLimit: 100 * 1024 * 1024 } as const;

function copyFixture(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-upgrade-')), 'db');
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/**
 * A digest of every non-empty table of every index, by directory: keys and values as raw bytes.
 * (Opening an index declares the tables this release knows, which adds empty ones to an old file.)
 */
function indexFiles(db: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const uuid of fs.readdirSync(path.join(db, 'indexes')).sort()) {
    const root = openLmdb({ path: path.join(db, 'indexes', uuid), maxDbs: 64, readOnly: true });
    const hash = crypto.createHash('sha256');
    for (const name of [...root.getKeys()].map(String).sort()) {
      const table = root.openDB(name, { keyEncoding: 'binary', encoding: 'binary' });
      const entries = [...table.getRange()];
      if (entries.length === 0) continue;
      hash.update(`${name}\0`);
      for (const { key, value } of entries) hash.update(key as Buffer).update(value as Buffer);
    }
    root.close();
    out[uuid] = hash.digest('hex');
  }
  return out;
}

const storageFile = (db: string) => fs.readFileSync(path.join(db, 'muninn-version'), 'utf8');

async function waitForType(t: TestServer, type: string) {
  for (let i = 0; i < 2000; i++) {
    const [task] = (await t.client.tasks.getTasks({ types: [type as 'upgradeDatabase'], limit: 1 })).results;
    if (task && task.status !== 'enqueued' && task.status !== 'processing') return task;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no finished ${type} task`);
}

test('a 0.1.0 database is refused without --upgrade-db and upgraded with it', async () => {
  const db = copyFixture();
  let t: TestServer | null = null;
  try {
    await assert.rejects(Instance.open({ ...base, dbPath: db }), (err) => {
      assert.ok(err instanceof StartupError);
      assert.match(err.message, new RegExp(`^Your database version \\(0\\.1\\.0\\) is incompatible with your current Muninn version \\(${STORAGE_VERSION.replace(/\./g, '\\.')}\\)\\.\\n`));
      assert.match(err.message, /set the `--upgrade-db` flag/);
      return true;
    });
    const before = indexFiles(db);
    t = await startTestServer({ dbPath: db, masterKey: KEY, args: ['--upgrade-db'] });
    const upgrade = await waitForType(t, 'upgradeDatabase');
    assert.equal(upgrade.status, 'succeeded', JSON.stringify(upgrade.error));
    assert.deepEqual(upgrade.details, { upgradeFrom: 'v0.1.0', upgradeTo: `v${STORAGE_VERSION}` });
    assert.equal(upgrade.indexUid, null);
    const batch = await t.client.batches.getBatch(upgrade.batchUid!);
    assert.equal(batch.batchStrategy, 'stopped after the last task of type `upgradeDatabase` because they cannot be batched with tasks of any other type.');
    assert.equal(storageFile(db), STORAGE_VERSION);

    // the tasks and keys of the old release are there; the vectors moved into the vector store
    const tasks = (await t.client.tasks.getTasks({ limit: 10 })).results;
    assert.deepEqual(tasks.map((x) => x.type), ['upgradeDatabase', 'documentAdditionOrUpdate', 'documentAdditionOrUpdate', 'settingsUpdate']);
    assert.equal((await t.client.getKey('11111111-2222-4333-8444-555555555555')).name, 'front');
    const movies = t.client.index('movies');
    const semantic = await movies.search('', { vector: [0, 1, 0], hybrid: { embedder: 'manual', semanticRatio: 1 }, limit: 2 });
    assert.deepEqual(semantic.hits.map((h) => h.id), [2, 3]);
    const doc = await t.fetch('GET', '/indexes/movies/documents/1?retrieveVectors=true');
    assert.deepEqual(doc.body._vectors, { manual: { embeddings: [[1, 0, 0]], regenerate: false } });
    assert.deepEqual((await movies.search('wall', { filter: 'genre = animation', sort: ['year:asc'] })).hits.map((h) => h.id), [2]);
    assert.equal((await t.client.index('books').getDocument('a1')).title, 'Dune');
    // every index lives in its migrated copy; the old directories went with the commit
    const after = indexFiles(db);
    assert.equal(Object.keys(after).length, 2);
    assert.equal(Object.keys(after).some((uuid) => uuid in before), false);
    // tasks run again after the upgrade
    const next = await movies.addDocuments([{ id: 5, title: 'Alien', genre: 'horror', year: 1979, _vectors: { manual: [0, 0, 1] } }]).waitTask();
    assert.equal(next.status, 'succeeded', JSON.stringify(next.error));
    await t.close();
    t = null;
    // the upgraded database opens without the flag
    const reopened = await Instance.open({ ...base, dbPath: db });
    await reopened.close();
  } finally {
    await t?.close();
    fs.rmSync(path.dirname(db), { recursive: true, force: true });
  }
});

test('a failed upgrade holds every other task; canceling it rolls the database back untouched', async () => {
  const db = copyFixture();
  const before = indexFiles(db);
  let t: TestServer | null = null;
  process.env.MUNINN_FAILPOINT = 'upgrade-index:movies';
  try {
    t = await startTestServer({ dbPath: db, masterKey: KEY, args: ['--upgrade-db'] });
    delete process.env.MUNINN_FAILPOINT;
    const upgrade = await waitForType(t, 'upgradeDatabase');
    assert.equal(upgrade.status, 'failed');
    assert.equal(upgrade.error?.code, 'internal');
    assert.match(upgrade.error?.message ?? '', /^Failed to upgrade index `movies`: /);
    assert.deepEqual(indexFiles(db), before, 'a failed upgrade leaves the indexes as they were');
    // nothing else runs while the database is not upgraded
    const held = await t.client.index('books').addDocuments([{ isbn: 'c3', title: 'Ulysses' }]);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await t.client.tasks.getTask(held.taskUid)).status, 'enqueued');
    // reads keep working on the old indexes
    assert.equal((await t.client.index('books').search('dune')).hits.length, 1);

    const cancel = await t.client.tasks.cancelTasks({ types: ['upgradeDatabase'] }).waitTask();
    assert.equal(cancel.status, 'succeeded');
    assert.equal((await t.client.tasks.getTask(upgrade.uid)).status, 'canceled');
    assert.equal(storageFile(db), '0.1.0', 'the instance is back in the previous format');
    assert.equal((await t.client.tasks.getTask(held.taskUid)).status, 'enqueued', 'this release runs nothing on a rolled-back database');
    await t.close();
    t = null;
    assert.deepEqual(indexFiles(db), before, 'the rolled-back indexes hold what the previous release wrote, entry for entry');
    await assert.rejects(Instance.open({ ...base, dbPath: db }), (err) => err instanceof StartupError && /\(0\.1\.0\)/.test(err.message));

    // a later upgrade succeeds, and the held task runs after it
    t = await startTestServer({ dbPath: db, masterKey: KEY, args: ['--upgrade-db'] });
    const done = await t.client.tasks.waitForTask(held.taskUid);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    const upgrades = (await t.client.tasks.getTasks({ types: ['upgradeDatabase'] })).results;
    assert.deepEqual(upgrades.map((u) => u.status), ['succeeded', 'canceled']);
  } finally {
    delete process.env.MUNINN_FAILPOINT;
    await t?.close();
    fs.rmSync(path.dirname(db), { recursive: true, force: true });
  }
});

test('a failed upgrade is retried at the next start, in its first batch, without the flag', async () => {
  const db = copyFixture();
  let t: TestServer | null = null;
  process.env.MUNINN_FAILPOINT = 'upgrade-index:books';
  try {
    t = await startTestServer({ dbPath: db, masterKey: KEY, args: ['--upgrade-db'] });
    delete process.env.MUNINN_FAILPOINT;
    const failed = await waitForType(t, 'upgradeDatabase');
    assert.equal(failed.status, 'failed');
    assert.match(failed.error?.message ?? '', /^Failed to upgrade index `books`: /);
    await t.close();
    t = null;
    t = await startTestServer({ dbPath: db, masterKey: KEY });
    // the task shows `failed` until its retry ends
    let retried = await t.client.tasks.getTask(failed.uid);
    for (let i = 0; i < 500 && retried.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      retried = await t.client.tasks.getTask(failed.uid);
    }
    assert.equal(retried.status, 'succeeded', JSON.stringify(retried.error));
    assert.equal(retried.error, null, 'the earlier error is cleared');
    assert.equal(retried.batchUid, failed.batchUid);
    assert.equal((await t.client.tasks.getTasks({ types: ['upgradeDatabase'] })).results.length, 1);
    const semantic = await t.client.index('movies').search('', { vector: [1, 0, 0], hybrid: { embedder: 'manual', semanticRatio: 1 }, limit: 1 });
    assert.deepEqual(semantic.hits.map((h) => h.id), [1]);
  } finally {
    delete process.env.MUNINN_FAILPOINT;
    await t?.close();
    fs.rmSync(path.dirname(db), { recursive: true, force: true });
  }
});
