import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuthError } from './errors.ts';
import { DEFAULT_KEYS, KeyStore, deriveKeyValue } from './key-store.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REF_UID = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';
const REF_VALUE = 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-keys-'));
}

async function withStore(masterKey: string | null, fn: (store: KeyStore, dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  const store = KeyStore.open(dir, masterKey);
  try {
    await fn(store, dir);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function rejectsWith(code: string, message: string) {
  return (err: unknown) => {
    assert.ok(err instanceof AuthError, String(err));
    assert.equal(err.kind, code);
    assert.equal(err.message, message);
    return true;
  };
}

const newKey = (over: Partial<Parameters<KeyStore['create']>[0]> = {}) => ({
  name: null,
  description: null,
  actions: ['search'],
  indexes: ['*'],
  expiresAt: null,
  ...over,
});

test('key derivation: reference example', async () => {
  assert.equal(deriveKeyValue('MASTER_KEY', REF_UID), REF_VALUE);
  await withStore('MASTER_KEY', async (store) => {
    assert.equal(store.keyValue(REF_UID), REF_VALUE);
  });
  await withStore(null, async (store) => {
    assert.equal(store.keyValue(REF_UID), '');
  });
});

test('default keys: created once, exact contents, newest first', async () => {
  await withStore('MASTER_KEY', async (store, dir) => {
    const { results, total } = store.list(0, 20);
    assert.equal(total, 4);
    assert.deepEqual(
      results.map((k) => k.name),
      ['Default Search API Key', 'Default Admin API Key', 'Default Read-Only Admin API Key', 'Default Chat API Key'],
    );
    const byName = new Map(results.map((k) => [k.name, k]));
    for (const def of DEFAULT_KEYS) {
      const k = byName.get(def.name)!;
      assert.equal(k.description, def.description);
      assert.deepEqual(k.actions, def.actions);
      assert.deepEqual(k.indexes, ['*']);
      assert.equal(k.expiresAt, null);
      assert.equal(k.createdAt, k.updatedAt);
      assert.match(k.uid, UUID_V4);
    }
    assert.deepEqual(byName.get('Default Chat API Key')!.actions, ['chatCompletions', 'search']);
    assert.deepEqual(byName.get('Default Read-Only Admin API Key')!.actions, ['*.get', 'keys.get']);
    assert.deepEqual(byName.get('Default Admin API Key')!.actions, ['*']);
    assert.equal(byName.get('Default Admin API Key')!.description, 'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend');

    // reopening does not add keys; uids survive, values follow the master key
    const uids = results.map((k) => k.uid);
    await store.close();
    const again = KeyStore.open(dir, 'OTHER_MASTER_KEY_');
    try {
      assert.deepEqual(again.list(0, 20).results.map((k) => k.uid), uids);
      assert.equal(again.keyValue(uids[0]!), deriveKeyValue('OTHER_MASTER_KEY_', uids[0]!));
      assert.notEqual(again.keyValue(uids[0]!), deriveKeyValue('MASTER_KEY', uids[0]!));
    } finally {
      await again.close();
    }
  });
});

test('default keys are also created without a master key', async () => {
  await withStore(null, async (store) => {
    assert.equal(store.list(0, 20).total, 4);
    assert.equal(store.uidForToken(store.keyValue(store.all()[0]!.uid)), null);
  });
});

test('create / get / list / update / delete, durable across reopen', async () => {
  const dir = tempDir();
  let store = KeyStore.open(dir, 'MASTER_KEY');
  try {
    const created = await store.create(newKey({ uid: REF_UID, description: 'Indexing API key', actions: ['documents.add'], indexes: ['products'], expiresAt: 2_551_910_400_000_000 }));
    assert.equal(created.uid, REF_UID);
    assert.equal(created.description, 'Indexing API key');
    assert.equal(created.name, null);
    assert.equal(created.createdAt, created.updatedAt);
    assert.ok(Object.isFrozen(created));

    // lookup by uid, by value, by upper-case value
    assert.equal(store.get(REF_UID), created);
    assert.equal(store.get(REF_VALUE), created);
    assert.equal(store.get(REF_VALUE.toUpperCase()), created);
    assert.equal(store.get(REF_UID.toUpperCase()), created);
    assert.equal(store.get(REF_UID.replace(/-/g, '')), created);
    assert.equal(store.uidForToken(REF_VALUE), REF_UID);
    assert.equal(store.uidForToken(REF_VALUE.toUpperCase()), REF_UID);
    assert.equal(store.uidForToken(REF_VALUE.slice(0, 62)), null);
    assert.equal(store.uidForToken(REF_VALUE + '00'), null);
    assert.equal(store.uidForToken('z'.repeat(64)), null);
    assert.equal(store.uidForToken(''), null);
    assert.equal(store.resolve(REF_VALUE), REF_UID);
    assert.equal(store.resolve('11111111-1111-1111-1111-111111111111'), null);

    // newest first
    const page = store.list(0, 2);
    assert.equal(page.total, 5);
    assert.deepEqual(page.results.map((k) => k.uid), [REF_UID, store.list(1, 1).results[0]!.uid]);
    assert.equal(page.results[1]!.name, 'Default Search API Key');
    assert.deepEqual(store.list(4, 20).results.map((k) => k.name), ['Default Chat API Key']);
    assert.deepEqual(store.list(10, 20).results, []);
    assert.equal(store.list(0, 0).results.length, 0);

    // 409
    await assert.rejects(store.create(newKey({ uid: REF_UID })), rejectsWith('api_key_already_exists', '`uid` field value `4bc0887a-0e41-4f3b-935d-0c451dcee9c8` is already an existing API key.'));
    assert.equal(store.list(0, 20).total, 5);

    // random uid
    const random = await store.create(newKey({ name: 'r' }));
    assert.match(random.uid, UUID_V4);
    assert.equal(store.list(0, 1).results[0]!.uid, random.uid);

    // update: absent unchanged, null clears, updatedAt refreshed even when empty
    const u1 = await store.update(REF_VALUE, { name: 'renamed' });
    assert.equal(u1.name, 'renamed');
    assert.equal(u1.description, 'Indexing API key');
    assert.ok(u1.updatedAt > created.updatedAt);
    assert.equal(u1.createdAt, created.createdAt);
    const u2 = await store.update(REF_UID, { description: null });
    assert.equal(u2.description, null);
    assert.equal(u2.name, 'renamed');
    const u3 = await store.update(REF_UID, {});
    assert.ok(u3.updatedAt > u2.updatedAt);
    assert.deepEqual(u3.actions, ['documents.add']);

    // durable
    await store.close();
    store = KeyStore.open(dir, 'MASTER_KEY');
    const reread = store.get(REF_UID);
    assert.equal(reread.name, 'renamed');
    assert.equal(reread.expiresAt, 2_551_910_400_000_000);
    assert.equal(reread.updatedAt, u3.updatedAt);

    // delete
    await store.delete(REF_VALUE);
    assert.equal(store.find(REF_UID), null);
    assert.equal(store.uidForToken(REF_VALUE), null);
    assert.equal(store.list(0, 20).total, 5);
    await assert.rejects(store.delete(REF_UID), rejectsWith('api_key_not_found', `API key \`${REF_UID}\` not found.`));
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('not found messages: uid in canonical form, anything else as given', async () => {
  await withStore('MASTER_KEY', async (store) => {
    assert.throws(() => store.get('4BC0887A0E414F3B935D0C451DCEE9C8'), rejectsWith('api_key_not_found', `API key \`${REF_UID}\` not found.`));
    assert.throws(() => store.get('doggo'), rejectsWith('api_key_not_found', 'API key `doggo` not found.'));
    assert.throws(() => store.get(REF_VALUE), rejectsWith('api_key_not_found', `API key \`${REF_VALUE}\` not found.`));
    await assert.rejects(store.update('doggo', { name: 'x' }), rejectsWith('api_key_not_found', 'API key `doggo` not found.'));
  });
});

test('replaceAll swaps every key', async () => {
  await withStore('MASTER_KEY', async (store) => {
    const imported = {
      uid: REF_UID,
      name: 'imported',
      description: null,
      actions: ['search'],
      indexes: ['*'],
      expiresAt: null,
      createdAt: 1_000_000,
      updatedAt: 2_000_000,
    };
    await store.replaceAll([imported]);
    assert.deepEqual(store.all().map((k) => ({ ...k, actions: [...k.actions], indexes: [...k.indexes] })), [imported]);
    assert.equal(store.uidForToken(REF_VALUE), REF_UID);
  });
});

test('a key value is found in constant time per request, whatever the number of keys', async () => {
  await withStore('MASTER_KEY', async (store) => {
    const keys = Array.from({ length: 5000 }, () => {
      const uid = crypto.randomUUID();
      return { uid, name: null, description: null, actions: ['search'], indexes: ['*'], expiresAt: null, createdAt: 1, updatedAt: 1 };
    });
    await store.replaceAll(keys);
    const last = keys[keys.length - 1]!.uid;
    const value = store.keyValue(last);
    assert.equal(store.uidForToken(value), last);
    const n = 20_000;
    const started = performance.now();
    for (let i = 0; i < n; i++) store.uidForToken(value);
    const perLookup = (performance.now() - started) / n;
    assert.ok(perLookup < 0.02, `${perLookup} ms per lookup among 5,000 keys`);
    // a deleted key is unknown as soon as `delete` returns
    await store.delete(last);
    assert.equal(store.uidForToken(value), null);
    assert.equal(store.find(last), null);
  });
});
