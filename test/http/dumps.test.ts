// Dumps through the official client: POST /dumps writes a V6 archive, --import-dump restores it into
// a new database with equal documents, settings, keys and tasks (dumps-snapshots.md §1–§3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Instance, StartupError } from '../../src/instance/index.ts';
import { startTestServer, type TestServer } from './helpers.ts';

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** The entry names of a gzip tar (ustar headers, 512-byte blocks). */
function tarEntries(file: string): Map<string, string> {
  const data = zlib.gunzipSync(fs.readFileSync(file));
  const out = new Map<string, string>();
  for (let off = 0; off + 512 <= data.length; ) {
    const header = data.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const name = header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const prefix = header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(header.subarray(124, 136).toString('utf8').replace(/\0.*$/s, '').trim() || '0', 8);
    const full = (prefix ? `${prefix}/${name}` : name).replace(/^\.\//, '');
    out.set(full, data.subarray(off + 512, off + 512 + size).toString('utf8'));
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

async function fill(t: TestServer): Promise<void> {
  const c = t.client;
  await c.index('movies').addDocuments([
    { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], info: { year: 2015 } },
    { id: 2, title: 'Wonder Woman', genres: ['Action'] },
    { id: 3, title: 'Life of Pi', genres: ['Adventure', 'Drama'] },
  ]).waitTask();
  await c.index('movies').updateSettings({ filterableAttributes: ['genres'], sortableAttributes: ['title'], synonyms: { film: ['movie'] } }).waitTask();
  await c.index('vec').updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 3 } } }).waitTask();
  await c.index('vec').addDocuments([
    { id: 'a', _vectors: { manual: [0.1, 0.2, 0.3] } },
    { id: 'b', _vectors: { manual: { embeddings: [[1, 0, 0], [0, 1, 0]], regenerate: false } } },
    { id: 'c', _vectors: { manual: null } },
  ]).waitTask();
  await c.createIndex('empty', { primaryKey: 'sku' }).waitTask();
  await c.index('movies').deleteDocument(99).waitTask();
  await c.createKey({ name: 'front', description: 'search only', actions: ['search'], indexes: ['movies'], expiresAt: new Date('2040-01-01T00:00:00Z') });
}

test('a dump holds the V6 layout and restores into an equal database', async () => {
  const dumpDir = tmp('muninn-dumps-');
  const source = await startTestServer({ args: ['--dump-dir', dumpDir] });
  let restored: TestServer | null = null;
  try {
    await fill(source);
    const task = await source.client.createDump().waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.equal(task.type, 'dumpCreation');
    const dumpUid = (task.details as { dumpUid: string }).dumpUid;
    assert.match(dumpUid, /^\d{8}-\d{9}$/);
    const file = path.join(dumpDir, `${dumpUid}.dump`);
    assert.deepEqual(fs.readdirSync(dumpDir), [`${dumpUid}.dump`], 'only the finished archive is left');

    const entries = tarEntries(file);
    for (const name of ['metadata.json', 'instance_uid.uuid', 'keys.jsonl', 'experimental-features.json', 'network.json', 'webhooks.json', 'tasks/queue.jsonl', 'batches/queue.jsonl']) {
      assert.ok(entries.has(name), `${name} in ${[...entries.keys()].join(', ')}`);
    }
    const metadata = JSON.parse(entries.get('metadata.json')!);
    assert.equal(metadata.dumpVersion, 'V6');
    assert.equal(metadata.dbVersion, '1.50.0');
    const vecDocs = entries.get('indexes/vec/documents.jsonl')!.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(vecDocs[0], { id: 'a', _vectors: { manual: { embeddings: [[Math.fround(0.1), Math.fround(0.2), Math.fround(0.3)]], regenerate: false } } });
    assert.deepEqual(vecDocs[2], { id: 'c', _vectors: { manual: { embeddings: [], regenerate: false } } });
    const movies = entries.get('indexes/movies/documents.jsonl')!.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(movies[0], { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], info: { year: 2015 } }, 'no _vectors without embeddings');
    const taskLines = entries.get('tasks/queue.jsonl')!.trim().split('\n').map((l) => JSON.parse(l));
    const own = taskLines.find((l) => l.uid === task.uid);
    assert.equal(own.status, 'succeeded', 'the dump task is written as succeeded');
    assert.deepEqual(own.details, { Dump: { dump_uid: null } });
    assert.ok(Array.isArray(own.type.dumpCreation.keys) && own.type.dumpCreation.keys.length === 5);
    const first = taskLines[0];
    assert.deepEqual(first.type, { documentImport: { primary_key: null, method: 'ReplaceDocuments', documents_count: 3, allow_index_creation: true } });
    assert.deepEqual(first.details, { DocumentAdditionOrUpdate: { received_documents: 3, indexed_documents: 3 } });
    assert.equal('canceledBy' in first, false, 'null optional keys are left out');
    const key = entries.get('keys.jsonl')!.trim().split('\n').map((l) => JSON.parse(l)).find((k) => k.name === 'front');
    assert.deepEqual(Object.keys(key), ['description', 'name', 'uid', 'actions', 'indexes', 'expires_at', 'created_at', 'updated_at']);
    assert.equal(key.expires_at, '2040-01-01T00:00:00Z');

    restored = await startTestServer({ args: ['--import-dump', file] });
    const a = source.client;
    const b = restored.client;
    const indexesA = (await a.getIndexes()).results.map((i) => [i.uid, i.primaryKey, i.createdAt]);
    const indexesB = (await b.getIndexes()).results.map((i) => [i.uid, i.primaryKey, i.createdAt]);
    assert.deepEqual(indexesB, indexesA);
    for (const uid of ['movies', 'vec', 'empty']) {
      assert.deepEqual(await b.index(uid).getSettings(), await a.index(uid).getSettings(), `settings of ${uid}`);
      const docs = async (c: typeof a) => (await c.index(uid).getDocuments({ limit: 100, retrieveVectors: true })).results;
      assert.deepEqual(await docs(b), await docs(a), `documents of ${uid}`);
    }
    const keysA = (await a.getKeys({ limit: 100 })).results.sort((x, y) => x.uid.localeCompare(y.uid));
    const keysB = (await b.getKeys({ limit: 100 })).results.sort((x, y) => x.uid.localeCompare(y.uid));
    assert.deepEqual(keysB, keysA, 'same uids, so the same key values under the same master key');
    const tasksA = (await a.tasks.getTasks({ limit: 100 })).results.filter((t) => t.uid < task.uid);
    const tasksB = (await b.tasks.getTasks({ limit: 100 })).results.filter((t) => t.uid < task.uid);
    assert.deepEqual(tasksB, tasksA.map((t) => (t.type === 'documentDeletion' && !('originalFilter' in (t.details ?? {})) ? { ...t, details: { ...t.details, originalFilter: null } } : t)));
    // the restored instance keeps going: new tasks continue the uids, searches work
    const next = await b.index('movies').addDocuments([{ id: 4, title: 'Drama queen', genres: ['Drama'] }]).waitTask();
    assert.equal(next.uid, task.uid + 1);
    const hits = await b.index('movies').search('drama', { filter: 'genres = Drama' });
    assert.deepEqual(hits.hits.map((h) => h.id).sort(), [1, 3, 4]);
    const similar = await b.index('vec').searchSimilarDocuments({ id: 'a', embedder: 'manual' });
    assert.deepEqual(similar.hits.map((h) => h.id), ['b']);
  } finally {
    await source.close();
    await restored?.close();
    fs.rmSync(dumpDir, { recursive: true, force: true });
  }
});

test('enqueued document tasks travel with their payload and run after the import', async () => {
  const dumpDir = tmp('muninn-dumps-');
  const source = await startTestServer({ args: ['--dump-dir', dumpDir] });
  let restored: TestServer | null = null;
  try {
    await source.client.index('later').addDocuments([{ id: 1, v: 'one' }]).waitTask();
    // a long batch ahead keeps the next task enqueued while the dump runs (dumps go before index tasks)
    const docs = Array.from({ length: 20_000 }, (_, i) => ({ id: i, text: `word${i} lorem ipsum dolor sit amet` }));
    await source.client.index('big').addDocuments(docs);
    const pending = await source.client.index('later').updateDocuments([{ id: 1, w: 'two' }, { id: 2, v: 'three' }]);
    const dump = await source.client.createDump().waitTask();
    await source.client.tasks.waitForTask(pending.taskUid);
    const file = path.join(dumpDir, `${(dump.details as { dumpUid: string }).dumpUid}.dump`);
    const entries = tarEntries(file);
    const line = entries.get('tasks/queue.jsonl')!.trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.uid === pending.taskUid);
    // the task was still enqueued when the dump ran (unless the big batch ended before the dump was registered)
    if (line.status === 'enqueued') {
      assert.equal(entries.get(`tasks/update_files/${pending.taskUid}.jsonl`), '{"id":1,"w":"two"}\n{"id":2,"v":"three"}\n');
      assert.deepEqual(line.details, { DocumentAdditionOrUpdate: { received_documents: 2, indexed_documents: null } });
      assert.equal('startedAt' in line, false);
    }

    restored = await startTestServer({ args: ['--import-dump', file] });
    const done = await restored.client.tasks.waitForTask(pending.taskUid);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    const doc = await restored.client.index('later').getDocument(1);
    assert.deepEqual(doc, { id: 1, v: 'one', w: 'two' });
  } finally {
    await source.close();
    await restored?.close();
    fs.rmSync(dumpDir, { recursive: true, force: true });
  }
});

test('--import-dump follows the decision table of dumps-snapshots.md §3', async () => {
  const base = { masterKey: null, maxBatchedTasks: Infinity, maxBatchedBytes: Infinity, payloadSizeLimit: 100 * 1024 * 1024 } as const;
  const dir = tmp('muninn-import-');
  try {
    const missing = path.join(dir, 'nope.dump');
    const emptyDb = path.join(dir, 'empty');
    await assert.rejects(
      Instance.open({ ...base, dbPath: emptyDb, importDump: { path: missing, ignoreMissing: false, ignoreIfDbExists: false } }),
      (err) => err instanceof StartupError && err.message === `dump doesn't exist at "${missing}"`,
    );
    // a missing dump with --ignore-missing-dump: a normal start on a new database
    const started = await Instance.open({ ...base, dbPath: emptyDb, importDump: { path: missing, ignoreMissing: true, ignoreIfDbExists: false } });
    await started.close();
    // now the database exists
    const garbage = path.join(dir, 'garbage.dump');
    fs.writeFileSync(garbage, 'not a dump');
    await assert.rejects(
      Instance.open({ ...base, dbPath: emptyDb, importDump: { path: garbage, ignoreMissing: false, ignoreIfDbExists: false } }),
      (err) => err instanceof StartupError && err.message === `database already exists at "${fs.realpathSync(emptyDb)}", try to delete it or rename it`,
    );
    const kept = await Instance.open({ ...base, dbPath: emptyDb, importDump: { path: garbage, ignoreMissing: false, ignoreIfDbExists: true } });
    await kept.close();
    // a dump that cannot be read: the error, and no database left behind
    const fresh = path.join(dir, 'fresh');
    await assert.rejects(
      Instance.open({ ...base, dbPath: fresh, importDump: { path: garbage, ignoreMissing: false, ignoreIfDbExists: false } }),
      (err) => err instanceof StartupError && /the dump could not be (read|imported)/.test(err.message),
    );
    assert.equal(fs.existsSync(fresh), false, 'the database directory is removed after a failed import');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a canceled dump leaves no file', async () => {
  const dumpDir = tmp('muninn-dumps-');
  const source = await startTestServer({ args: ['--dump-dir', dumpDir] });
  try {
    const docs = Array.from({ length: 30_000 }, (_, i) => ({ id: i, text: `word${i} lorem ipsum` }));
    await source.client.index('big').addDocuments(docs).waitTask();
    const dump = await source.client.createDump();
    await source.client.tasks.cancelTasks({ uids: [dump.taskUid] }).waitTask();
    const task = await source.client.tasks.waitForTask(dump.taskUid);
    if (task.status === 'canceled') assert.deepEqual(fs.readdirSync(dumpDir), []);
    else assert.equal(task.status, 'succeeded');
    assert.equal(fs.readdirSync(dumpDir).filter((f) => f.startsWith('.tmp-')).length, 0, 'no staging file is left');
  } finally {
    await source.close();
    fs.rmSync(dumpDir, { recursive: true, force: true });
  }
});
