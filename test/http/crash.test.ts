// Crash safety: the server is killed with SIGKILL in the middle of a large batch, restarted
// on the same data directory, and must have lost no acknowledged task, re-run the
// interrupted batch to success, and hold every document exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'crash-test-master-key';

async function start(dbPath: string, args: string[] = []): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--master-key', KEY, '--no-analytics', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /Server listening on:\s+"(http:\/\/[^"]+)"/.exec(err);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
  return { proc, url };
}

async function api(url: string, method: string, p: string, body?: string, type = 'application/json'): Promise<any> {
  const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': type } : {}) }, ...(body ? { body } : {}) });
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

/** Waits for every acknowledged task to succeed: none may be lost or fail after the restart. */
async function allSucceed(url: string, acknowledged: readonly number[]): Promise<void> {
  for (const uid of acknowledged) {
    for (;;) {
      const task = await api(url, 'GET', `/tasks/${uid}`);
      assert.notEqual(task.code, 'task_not_found', `acknowledged task ${uid} was lost`);
      if (task.status === 'succeeded') break;
      assert.ok(task.status === 'enqueued' || task.status === 'processing', `task ${uid} is ${task.status}: ${JSON.stringify(task.error)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

test('SIGKILL during a batch loses no acknowledged task and duplicates no document', { timeout: 120_000 }, async () => {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-crash-'));
  try {
    let { proc, url } = await start(dbPath);
    const payloads = 6;
    const perPayload = 40_000;
    const acknowledged: number[] = [];
    for (let p = 0; p < payloads; p++) {
      const lines: string[] = [];
      for (let i = 0; i < perPayload; i++) lines.push(JSON.stringify({ id: p * perPayload + i, name: `doc ${i}`, payload: p }));
      const task = await api(url, 'POST', '/indexes/crash/documents?primaryKey=id', lines.join('\n'), 'application/x-ndjson');
      acknowledged.push(task.taskUid);
    }
    // kill while the scheduler is busy with the payloads
    let sawProcessing = false;
    for (let i = 0; i < 500 && !sawProcessing; i++) {
      const processing = await api(url, 'GET', '/tasks?statuses=processing');
      sawProcessing = processing.results.length > 0;
      if (!sawProcessing) await new Promise((r) => setTimeout(r, 5));
    }
    assert.ok(sawProcessing, 'the kill must land while a batch is processing');
    const succeededBefore = (await api(url, 'GET', '/tasks?statuses=succeeded&indexUids=crash')).total;
    assert.ok(succeededBefore < payloads, 'some acknowledged tasks must still be unfinished at the kill');
    proc.kill('SIGKILL');
    await new Promise((r) => proc.once('exit', r));

    ({ proc, url } = await start(dbPath));
    try {
      await allSucceed(url, acknowledged);
      const stats = await api(url, 'GET', '/indexes/crash/stats');
      assert.equal(stats.numberOfDocuments, payloads * perPayload);
      const last = await api(url, 'GET', `/indexes/crash/documents/${payloads * perPayload - 1}`);
      assert.deepEqual(last, { id: payloads * perPayload - 1, name: `doc ${perPayload - 1}`, payload: payloads - 1 });
      const page = await api(url, 'GET', '/indexes/crash/documents?limit=1&offset=0');
      assert.equal(page.total, payloads * perPayload);
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
  } finally {
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

test('SIGKILL while vectors are indexed: every acknowledged vector is found after the restart', { timeout: 120_000 }, async () => {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-crash-vectors-'));
  const dims = 16;
  const vector = (i: number) => Array.from({ length: dims }, (_, d) => Math.sin(i * 0.37 + d * 1.7) + Math.cos(i * 0.11 * (d + 1)));
  try {
    let { proc, url } = await start(dbPath);
    const settings = await api(url, 'PATCH', '/indexes/crashv/settings', JSON.stringify({ embedders: { e: { source: 'userProvided', dimensions: dims } } }));
    const acknowledged: number[] = [settings.taskUid];
    const payloads = 4;
    const perPayload = 4000;
    for (let p = 0; p < payloads; p++) {
      const lines: string[] = [];
      for (let i = 0; i < perPayload; i++) lines.push(JSON.stringify({ id: p * perPayload + i, _vectors: { e: vector(p * perPayload + i) } }));
      acknowledged.push((await api(url, 'POST', '/indexes/crashv/documents?primaryKey=id', lines.join('\n'), 'application/x-ndjson')).taskUid);
    }
    let sawProcessing = false;
    for (let i = 0; i < 500 && !sawProcessing; i++) {
      const processing = await api(url, 'GET', '/tasks?statuses=processing&types=documentAdditionOrUpdate');
      sawProcessing = processing.results.length > 0;
      if (!sawProcessing) await new Promise((r) => setTimeout(r, 5));
    }
    assert.ok(sawProcessing, 'the kill must land while vectors are indexed');
    proc.kill('SIGKILL');
    await new Promise((r) => proc.once('exit', r));

    ({ proc, url } = await start(dbPath));
    try {
      await allSucceed(url, acknowledged);
      const total = payloads * perPayload;
      const stats = await api(url, 'GET', '/indexes/crashv/stats');
      assert.equal(stats.numberOfEmbeddings, total);
      assert.equal(stats.numberOfEmbeddedDocuments, total);
      for (const id of [0, 1, perPayload - 1, perPayload, 2 * perPayload + 17, total - 1]) {
        const res = await api(url, 'POST', '/indexes/crashv/search', JSON.stringify({ vector: vector(id), hybrid: { embedder: 'e' }, limit: 1 }));
        assert.deepEqual(res.hits, [{ id }], `document ${id} is its own nearest`);
      }
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
  } finally {
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});

/** True when a gzip tar reads to its end and holds `entry`. */
function completeArchive(file: string, entry: string): boolean {
  try {
    const data = zlib.gunzipSync(fs.readFileSync(file));
    return data.includes(Buffer.from(entry));
  } catch {
    return false;
  }
}

test('SIGKILL while a dump and a snapshot are written leaves no partial file in sight, and both run again', { timeout: 120_000 }, async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-crash-dump-'));
  const dbPath = path.join(root, 'db');
  const dumps = path.join(root, 'dumps');
  const snapshots = path.join(root, 'snapshots');
  const args = ['--dump-dir', dumps, '--snapshot-dir', snapshots];
  const visible = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith('.')) : []);
  try {
    let { proc, url } = await start(dbPath, args);
    const lines: string[] = [];
    for (let i = 0; i < 60_000; i++) lines.push(JSON.stringify({ id: i, text: `document ${i} about lorem ipsum`, n: i % 97 }));
    const add = await api(url, 'POST', '/indexes/big/documents', lines.join('\n'), 'application/x-ndjson');
    await allSucceed(url, [add.taskUid]);
    const acknowledged: number[] = [];
    for (let round = 0; round < 3; round++) {
      // the first round is killed in the snapshot (it goes first), the others in the dump
      if (round === 0) acknowledged.push((await api(url, 'POST', '/snapshots')).taskUid);
      else await allSucceed(url, acknowledged.slice(0, 1));
      acknowledged.push((await api(url, 'POST', '/dumps')).taskUid);
      await new Promise((r) => setTimeout(r, 100 + round * 150));
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
      for (const f of visible(dumps)) assert.ok(completeArchive(path.join(dumps, f), 'metadata.json'), `${f} is a whole dump`);
      for (const f of visible(snapshots)) assert.ok(completeArchive(path.join(snapshots, f), 'VERSION'), `${f} is a whole snapshot`);
      ({ proc, url } = await start(dbPath, args));
    }
    try {
      await allSucceed(url, acknowledged);
      assert.ok(visible(dumps).length >= 1 && visible(dumps).every((f) => completeArchive(path.join(dumps, f), 'metadata.json')));
      assert.deepEqual(visible(snapshots), ['db.snapshot']);
      assert.equal(fs.readdirSync(snapshots).filter((f) => f.startsWith('.tmp-')).length, 0, 'the last snapshot removed what the killed ones left');
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
