import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuthError } from './errors.ts';
import { KeyStore } from './key-store.ts';
import {
  AuthContext,
  Authorizer,
  MSG_INVALID_API_KEY,
  MSG_MISSING_AUTHORIZATION_HEADER,
  MSG_MISSING_MASTER_KEY,
  metricsNeedsAllIndexes,
  type AuthRequest,
} from './authorize.ts';
import type { TenantGrant, TenantTokenVerifier } from './tenant-token.ts';
import { anyPatternMatches } from './index-pattern.ts';

const MASTER = 'MASTER_KEY';
const T0 = 2_000_000_000_000_000; // µs
let now = T0 - 10;

let dirWith: string;
let dirWithout: string;
let store: KeyStore;
let storeNoMaster: KeyStore;
let auth: Authorizer;
let open: Authorizer;
const v: Record<string, string> = {};
const uid: Record<string, string> = {};

function grant(keyUid: string, patterns: string[]): TenantGrant {
  return {
    keyUid,
    indexPatterns: patterns,
    allIndexes: patterns.includes('*'),
    canSeeIndex: (i) => anyPatternMatches(patterns, i),
  };
}

const tenantTokens: TenantTokenVerifier = (token, keys) => {
  assert.ok(keys instanceof KeyStore);
  if (token === 'jwt-all-dog') return grant(uid.all!, ['dog']);
  if (token === 'jwt-dog-star') return grant(uid.dog!, ['*']);
  if (token === 'jwt-dog-dog') return grant(uid.dog!, ['dog']);
  if (token === 'jwt-unknown-parent') return grant('11111111-1111-1111-1111-111111111111', ['*']);
  if (token === 'jwt-expired-parent') return grant(uid.expired!, ['*']);
  if (token === 'jwt-bad') throw new AuthError('invalid_api_key', 'Could not decode tenant token, InvalidSignature.');
  return null;
};

before(async () => {
  dirWith = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-authz-'));
  dirWithout = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-authz-open-'));
  store = KeyStore.open(dirWith, MASTER);
  storeNoMaster = KeyStore.open(dirWithout, null);
  const defs: Record<string, { actions: string[]; indexes: string[]; expiresAt?: number }> = {
    all: { actions: ['*'], indexes: ['*'] },
    dog: { actions: ['search'], indexes: ['dog'] },
    prefix: { actions: ['documents.*'], indexes: ['prod*', 'cat'] },
    expired: { actions: ['*'], indexes: ['*'], expiresAt: T0 },
    empty: { actions: ['*'], indexes: [] },
    readonly: { actions: ['*.get', 'keys.get'], indexes: ['*'] },
    creator: { actions: ['indexes.create', 'documents.add'], indexes: ['a*'] },
    scopedAll: { actions: ['*'], indexes: ['dog'] },
    scopedRead: { actions: ['*.get'], indexes: ['do*'] },
    starAmong: { actions: ['*'], indexes: ['dog', '*'] },
  };
  for (const [name, d] of Object.entries(defs)) {
    const k = await store.create({ name, description: null, actions: d.actions, indexes: d.indexes, expiresAt: d.expiresAt ?? null });
    uid[name] = k.uid;
    v[name] = store.keyValue(k.uid);
  }
  const gone = await store.create({ name: 'gone', description: null, actions: ['*'], indexes: ['*'], expiresAt: null });
  v.gone = store.keyValue(gone.uid);
  await store.delete(gone.uid);
  auth = new Authorizer({ masterKey: MASTER, keys: store, tenantTokens, now: () => now });
  open = new Authorizer({ masterKey: null, keys: storeNoMaster, tenantTokens });
});

after(async () => {
  await store.close();
  await storeNoMaster.close();
  fs.rmSync(dirWith, { recursive: true, force: true });
  fs.rmSync(dirWithout, { recursive: true, force: true });
});

type Expect = { via: string; key?: string } | { code: string; message: string };
interface Row {
  name: string;
  noMaster?: boolean;
  header: string | undefined | (() => string);
  action: string;
  index?: string;
  keysRoute?: boolean;
  at?: number;
  expect: Expect;
}

const MISSING_HEADER = { code: 'missing_authorization_header', message: MSG_MISSING_AUTHORIZATION_HEADER };
const INVALID = { code: 'invalid_api_key', message: MSG_INVALID_API_KEY };
const NO_MASTER = { code: 'missing_master_key', message: MSG_MISSING_MASTER_KEY };
const bearer = (name: string) => () => `Bearer ${v[name]}`;

const rows: Row[] = [
  // 1. header parsing
  { name: 'Basic scheme', header: 'Basic abc', action: 'search', expect: MISSING_HEADER },
  { name: 'lower-case bearer', header: `bearer ${MASTER}`, action: 'search', expect: MISSING_HEADER },
  { name: 'empty header', header: '', action: 'search', expect: MISSING_HEADER },
  { name: 'non-ASCII header', header: 'Bearer é', action: 'search', expect: MISSING_HEADER },
  { name: 'Bearer without token', header: 'Bearer', action: 'search', expect: INVALID },
  { name: 'Basic scheme, no master key', noMaster: true, header: 'Basic abc', action: 'search', expect: MISSING_HEADER },
  { name: 'Bearer without token, no master key', noMaster: true, header: 'Bearer', action: 'search', expect: INVALID },
  // 2. no master key
  { name: 'no master key, no header', noMaster: true, header: undefined, action: 'documents.add', index: 'dog', expect: { via: 'open' } },
  { name: 'no master key, any token', noMaster: true, header: 'Bearer whatever', action: 'settings.update', index: 'dog', expect: { via: 'open' } },
  { name: 'no master key, keys route without header', noMaster: true, header: undefined, action: 'keys.get', keysRoute: true, expect: NO_MASTER },
  { name: 'no master key, keys action implies the keys route', noMaster: true, header: undefined, action: 'keys.update', expect: NO_MASTER },
  { name: 'no master key, keys route with token', noMaster: true, header: 'Bearer whatever', action: 'keys.create', keysRoute: true, expect: NO_MASTER },
  // 3. master key
  { name: 'master key', header: `Bearer ${MASTER}`, action: 'documents.add', index: 'anything', expect: { via: 'master' } },
  { name: 'master key on keys route', header: `Bearer ${MASTER}`, action: 'keys.delete', keysRoute: true, expect: { via: 'master' } },
  { name: 'master key with trailing space', header: `Bearer ${MASTER} `, action: 'search', expect: INVALID },
  { name: 'master key with two spaces', header: `Bearer  ${MASTER}`, action: 'search', expect: INVALID },
  // 5. key lookup
  { name: 'no header with master key', header: undefined, action: 'search', expect: MISSING_HEADER },
  { name: 'no header on an index route', header: undefined, action: 'search', index: 'dog', expect: MISSING_HEADER },
  { name: 'empty token', header: 'Bearer ', action: 'search', expect: INVALID },
  { name: 'unknown token', header: 'Bearer abc', action: 'search', expect: INVALID },
  { name: 'deleted key', header: bearer('gone'), action: 'search', expect: INVALID },
  { name: 'all key', header: bearer('all'), action: 'documents.add', index: 'x', expect: { via: 'key', key: 'all' } },
  { name: 'all key, upper-case hex', header: () => `Bearer ${v.all!.toUpperCase()}`, action: 'keys.get', keysRoute: true, expect: { via: 'key', key: 'all' } },
  { name: 'all key on keys route', header: bearer('all'), action: 'keys.create', keysRoute: true, expect: { via: 'key', key: 'all' } },
  // 6. index scope
  { name: 'scoped key, allowed index', header: bearer('dog'), action: 'search', index: 'dog', expect: { via: 'key', key: 'dog' } },
  {
    name: 'scoped key, other index',
    header: bearer('dog'),
    action: 'search',
    index: 'cat',
    expect: { code: 'invalid_api_key', message: 'The API key cannot acces the index `cat`, authorized indexes are ["dog"].' },
  },
  {
    name: 'index check comes before the action check',
    header: bearer('dog'),
    action: 'documents.add',
    index: 'cat',
    expect: { code: 'invalid_api_key', message: 'The API key cannot acces the index `cat`, authorized indexes are ["dog"].' },
  },
  { name: 'prefix pattern', header: bearer('prefix'), action: 'documents.add', index: 'products', expect: { via: 'key', key: 'prefix' } },
  { name: 'exact pattern', header: bearer('prefix'), action: 'documents.delete', index: 'cat', expect: { via: 'key', key: 'prefix' } },
  {
    name: 'prefix pattern miss (sorted list)',
    header: bearer('prefix'),
    action: 'documents.get',
    index: 'pro',
    expect: { code: 'invalid_api_key', message: 'The API key cannot acces the index `pro`, authorized indexes are ["cat", "prod*"].' },
  },
  {
    name: 'empty indexes, index route',
    header: bearer('empty'),
    action: 'search',
    index: 'dog',
    expect: { code: 'invalid_api_key', message: 'The API key cannot acces the index `dog`, authorized indexes are [].' },
  },
  // 7. action and expiry
  { name: 'scoped key, missing action', header: bearer('dog'), action: 'documents.add', index: 'dog', expect: INVALID },
  { name: 'scoped key, no index in route', header: bearer('dog'), action: 'search', expect: { via: 'key', key: 'dog' } },
  { name: 'scoped key, global route it lacks', header: bearer('dog'), action: 'tasks.get', expect: INVALID },
  { name: 'empty indexes, no index in route', header: bearer('empty'), action: 'tasks.get', expect: INVALID },
  { name: 'documents.* key on the edit route', header: bearer('prefix'), action: 'documents.*', index: 'products', expect: INVALID },
  { name: '* key on the edit route', header: bearer('all'), action: 'documents.*', index: 'products', expect: { via: 'key', key: 'all' } },
  { name: 'read-only: keys.get', header: bearer('readonly'), action: 'keys.get', keysRoute: true, expect: { via: 'key', key: 'readonly' } },
  { name: 'read-only: keys.create', header: bearer('readonly'), action: 'keys.create', keysRoute: true, expect: INVALID },
  { name: 'read-only: search', header: bearer('readonly'), action: 'search', index: 'x', expect: { via: 'key', key: 'readonly' } },
  { name: 'read-only: fields.post', header: bearer('readonly'), action: 'fields.post', index: 'x', expect: { via: 'key', key: 'readonly' } },
  { name: 'read-only: chatCompletions', header: bearer('readonly'), action: 'chatCompletions', expect: INVALID },
  { name: 'read-only: documents.add', header: bearer('readonly'), action: 'documents.add', index: 'x', expect: INVALID },
  // global actions need a key on every index, whatever its actions
  { name: 'scoped * key: keys.create', header: bearer('scopedAll'), action: 'keys.create', keysRoute: true, expect: INVALID },
  { name: 'scoped * key: keys.get', header: bearer('scopedAll'), action: 'keys.get', keysRoute: true, expect: INVALID },
  { name: 'scoped * key: version', header: bearer('scopedAll'), action: 'version', expect: INVALID },
  { name: 'scoped * key: experimental.update', header: bearer('scopedAll'), action: 'experimental.update', expect: INVALID },
  { name: 'scoped * key: metrics.get', header: bearer('scopedAll'), action: 'metrics.get', expect: INVALID },
  { name: 'scoped * key: tasks.get filters itself', header: bearer('scopedAll'), action: 'tasks.get', expect: { via: 'key', key: 'scopedAll' } },
  { name: 'scoped * key: indexes.swap checks itself', header: bearer('scopedAll'), action: 'indexes.swap', expect: { via: 'key', key: 'scopedAll' } },
  { name: 'scoped *.get key: version', header: bearer('scopedRead'), action: 'version', expect: INVALID },
  { name: 'scoped *.get key: experimental.get', header: bearer('scopedRead'), action: 'experimental.get', expect: INVALID },
  { name: 'scoped *.get key: stats.get', header: bearer('scopedRead'), action: 'stats.get', expect: { via: 'key', key: 'scopedRead' } },
  { name: '* among the indexes: version', header: bearer('starAmong'), action: 'version', expect: { via: 'key', key: 'starAmong' } },
  { name: '* among the indexes: keys.delete', header: bearer('starAmong'), action: 'keys.delete', keysRoute: true, expect: { via: 'key', key: 'starAmong' } },
  { name: 'not yet expired', header: bearer('expired'), action: 'search', at: T0 - 1, expect: { via: 'key', key: 'expired' } },
  { name: 'expired at expiresAt', header: bearer('expired'), action: 'search', at: T0, expect: INVALID },
  { name: 'expired', header: bearer('expired'), action: 'search', index: 'x', at: T0 + 1, expect: INVALID },
  // 4. tenant tokens (hook)
  { name: 'tenant token', header: 'Bearer jwt-all-dog', action: 'search', index: 'dog', expect: { via: 'tenant', key: 'all' } },
  { name: 'tenant token for chat', header: 'Bearer jwt-all-dog', action: 'chatCompletions', expect: { via: 'tenant', key: 'all' } },
  {
    name: 'tenant token, index outside its rules',
    header: 'Bearer jwt-all-dog',
    action: 'search',
    index: 'cat',
    expect: { code: 'invalid_api_key', message: 'The provided tenant token cannot acces the index `cat`, allowed indexes are ["dog"].' },
  },
  {
    name: 'tenant token, index outside the parent key',
    header: 'Bearer jwt-dog-star',
    action: 'search',
    index: 'cat',
    expect: { code: 'invalid_api_key', message: 'The API key used to generate this tenant token cannot acces the index `cat`.' },
  },
  { name: 'tenant token on a non-search route', header: 'Bearer jwt-all-dog', action: 'documents.get', index: 'dog', expect: INVALID },
  { name: 'tenant token with unknown parent', header: 'Bearer jwt-unknown-parent', action: 'search', index: 'dog', expect: INVALID },
  { name: 'tenant token with expired parent', header: 'Bearer jwt-expired-parent', action: 'search', index: 'dog', at: T0 + 1, expect: INVALID },
  {
    name: 'invalid tenant token',
    header: 'Bearer jwt-bad',
    action: 'search',
    index: 'dog',
    expect: { code: 'invalid_api_key', message: 'Could not decode tenant token, InvalidSignature.' },
  },
  { name: 'not a tenant token falls back to keys', header: bearer('dog'), action: 'search', index: 'dog', expect: { via: 'key', key: 'dog' } },
];

for (const row of rows) {
  test(`authorize: ${row.name}`, () => {
    now = row.at ?? T0 - 10;
    const req: AuthRequest = {
      authorization: typeof row.header === 'function' ? row.header() : row.header,
      action: row.action,
      indexUid: row.index ?? null,
      keysRoute: row.keysRoute ?? false,
    };
    const authorizer = row.noMaster ? open : auth;
    if ('code' in row.expect) {
      const { code, message } = row.expect;
      assert.throws(
        () => authorizer.authorize(req),
        (err: unknown) => {
          assert.ok(err instanceof AuthError, String(err));
          assert.equal(err.kind, code);
          assert.equal(err.message, message);
          return true;
        },
      );
    } else {
      const ctx = authorizer.authorize(req);
      assert.ok(ctx instanceof AuthContext);
      assert.equal(ctx.via, row.expect.via);
      assert.equal(ctx.keyUid, row.expect.key ? uid[row.expect.key] : null);
    }
  });
}

// Their statuses (401, 403) come from api/errors: see api/errors/index.test.ts.
test('auth errors carry the kind Meilisearch answers with', () => {
  now = T0 - 10;
  const kind = (req: AuthRequest, a = auth) => {
    try {
      a.authorize(req);
    } catch (err) {
      assert.ok(err instanceof AuthError, String(err));
      return err.kind;
    }
    return null;
  };
  assert.equal(kind({ authorization: undefined, action: 'search', keysRoute: false }), 'missing_authorization_header');
  assert.equal(kind({ authorization: 'Bearer nope', action: 'search', keysRoute: false }), 'invalid_api_key');
  assert.equal(kind({ authorization: undefined, action: 'keys.get', keysRoute: true }, open), 'missing_master_key');
  assert.equal(metricsNeedsAllIndexes().kind, 'invalid_api_key');
  assert.equal(
    metricsNeedsAllIndexes().message,
    'The provided API key is invalid. The API key for the `/metrics` route must allow access to all indexes.',
  );
});

test('AuthContext: index visibility for list filtering', () => {
  now = T0 - 10;
  const ctx = (header: string, action = 'search') => auth.authorize({ authorization: header, action, keysRoute: false });

  const master = ctx(`Bearer ${MASTER}`);
  assert.equal(master.allIndexes, true);
  assert.equal(master.canSeeIndex('anything'), true);
  assert.equal(master.canCreateIndex('anything'), true);
  assert.equal(master.keyIndexes, null);

  const openCtx = open.authorize({ authorization: undefined, action: 'search', keysRoute: false });
  assert.equal(openCtx.allIndexes, true);
  assert.equal(openCtx.canSeeIndex('x'), true);

  const all = ctx(`Bearer ${v.all}`);
  assert.equal(all.allIndexes, true);
  assert.equal(all.canCreateIndex('zzz'), true);

  const prefix = ctx(`Bearer ${v.prefix}`, 'documents.get');
  assert.equal(prefix.allIndexes, false);
  assert.equal(prefix.canSeeIndex('products'), true);
  assert.equal(prefix.canSeeIndex('cat'), true);
  assert.equal(prefix.canSeeIndex('cats'), false);
  assert.equal(prefix.canCreateIndex('products'), false);
  assert.deepEqual(prefix.keyIndexes, ['prod*', 'cat']);

  const creator = ctx(`Bearer ${v.creator}`, 'documents.add');
  assert.equal(creator.canCreateIndex('abc'), true);
  assert.equal(creator.canCreateIndex('bcd'), false);

  const tenant = ctx('Bearer jwt-all-dog');
  assert.equal(tenant.via, 'tenant');
  assert.equal(tenant.allIndexes, false);
  assert.equal(tenant.canSeeIndex('dog'), true);
  assert.equal(tenant.canSeeIndex('cat'), false);
  assert.ok(tenant.tenant);

  const tenantScopedKey = ctx('Bearer jwt-dog-star');
  assert.equal(tenantScopedKey.allIndexes, false);
  assert.equal(tenantScopedKey.canSeeIndex('dog'), true);
  assert.equal(tenantScopedKey.canSeeIndex('cat'), false);

  const both = ctx('Bearer jwt-dog-dog');
  assert.equal(both.canSeeIndex('dog'), true);
});

test('key changes are seen by the authorizer at once', async () => {
  now = T0 - 10;
  const k = await store.create({ name: 'late', description: null, actions: ['version'], indexes: ['*'], expiresAt: null });
  const req: AuthRequest = { authorization: `Bearer ${store.keyValue(k.uid)}`, action: 'version', keysRoute: false };
  assert.equal(auth.authorize(req).keyUid, k.uid);
  await store.delete(k.uid);
  assert.throws(() => auth.authorize(req), (err: unknown) => err instanceof AuthError && err.kind === 'invalid_api_key');
});
