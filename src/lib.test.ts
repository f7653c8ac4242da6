// The embeddable library: the same API in-process, then over HTTP on request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Muninn } from './lib.ts';

test('Muninn answers the API in-process and over HTTP', async () => {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-lib-'));
  const muninn = await Muninn.open({ dbPath, masterKey: 'library-master-key' });
  try {
    const { status, body } = await muninn.request<{ taskUid: number }>('POST', '/indexes/movies/documents', [{ id: 1, title: 'Carol' }]);
    assert.equal(status, 202);
    const task = await muninn.waitForTask(body.taskUid);
    assert.equal(task.status, 'succeeded');
    assert.deepEqual((await muninn.request('GET', '/indexes/movies/documents/1')).body, { id: 1, title: 'Carol' });
    const missing = await muninn.request<{ code: string }>('GET', '/indexes/movies/documents/2');
    assert.deepEqual([missing.status, missing.body.code], [404, 'document_not_found']);
    const url = await muninn.listen({ port: 0 });
    const res = await fetch(`${url}/indexes/movies`, { headers: { authorization: 'Bearer library-master-key' } });
    assert.equal(((await res.json()) as { primaryKey: string }).primaryKey, 'id');
  } finally {
    await muninn.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
});
