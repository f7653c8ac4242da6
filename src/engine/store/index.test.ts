// The `msgpack-keys` value codec: user-chosen keys survive (msgpack renames `__proto__` when it
// reads), and values a table held as plain msgpack before stay readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Env, table } from './index.ts';

test('msgpack-keys keeps `__proto__` and U+0000 keys, and bytes; plain msgpack values read as they are', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-store-'));
  try {
    const env = Env.open(dir);
    const legacy = env.table(table<number, Record<string, unknown>>('t', 'uint32', 'msgpack', 'test'));
    env.write(() => legacy.put(1, { a: 1 }));
    const keyed = env.table(table<number, Record<string, unknown>>('t', 'uint32', 'msgpack-keys', 'test'));
    const value = JSON.parse('{"__proto__":{"x":1},"\\u0000a":2,"b":[1,{"__proto__":null}]}') as Record<string, unknown>;
    env.write(() => keyed.put(2, { ...value, bytes: new Uint8Array([1, 2]) }));
    assert.deepEqual(keyed.get(1), { a: 1 });
    const back = keyed.get(2)!;
    assert.deepEqual(Object.keys(back), ['__proto__', '\u0000a', 'b', 'bytes']);
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.deepEqual([...(back.bytes as Uint8Array)], [1, 2]);
    delete back.bytes;
    assert.equal(JSON.stringify(back), '{"__proto__":{"x":1},"\\u0000a":2,"b":[1,{"__proto__":null}]}');
    assert.deepEqual([...keyed.entries()].map(([k]) => k), [1, 2]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('copyTo writes a consistent, compacted copy that opens as an environment', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-store-'));
  try {
    const env = Env.open(path.join(dir, 'live'));
    const t = env.table(table<number, string>('t', 'uint32', 'string', 'test'));
    env.write(() => {
      for (let i = 0; i < 2000; i++) t.put(i, `value ${i} `.repeat(20));
    });
    env.write(() => {
      for (let i = 0; i < 1800; i++) t.remove(i);
    });
    await env.copyTo(path.join(dir, 'copy'), true);
    assert.ok(fs.statSync(path.join(dir, 'copy', 'data.mdb')).size < fs.statSync(path.join(dir, 'live', 'data.mdb')).size, 'free pages are dropped');
    const copy = Env.open(path.join(dir, 'copy'));
    const c = copy.table(table<number, string>('t', 'uint32', 'string', 'test'));
    assert.equal(c.count(), 200);
    assert.equal(c.get(1999), 'value 1999 '.repeat(20));
    await copy.close();
    await env.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
