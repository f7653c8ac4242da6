// Tenant tokens through the Authorizer with a real key store (tenant-token.ts). Checks:
// 1. a verified token is cached per token string (bounded), `exp` is checked on every request
// 2. the parent key is re-checked on every request: deleted, expired, lacking `search`, other indexes
// 3. tokens are only tried on search routes; elsewhere they are unknown API keys
// 4. authorizeSearch (per-index decision for multi-search) and the rule filter of the context
// 5. a cached verification costs well under 0.1 ms per request
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuthError } from './errors.ts';
import { Authorizer, authorizeSearch, AuthContext, MSG_INVALID_API_KEY, type AuthRequest } from './authorize.ts';
import { KeyStore } from './key-store.ts';
import { createTenantTokenVerifier } from './tenant-token.ts';

const MASTER = 'MASTER_KEY_0123456789';
const S = 1_000_000; // µs per second
const T0 = 2_000_000_000 * S;
let now = T0;
let dir: string;
let store: KeyStore;
let auth: Authorizer;
const uid: Record<string, string> = {};

function token(keyName: string, claims: Record<string, unknown>, alg: 'HS256' | 'HS384' | 'HS512' = 'HS256'): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const keyUid = uid[keyName] ?? keyName;
  const message = `${enc({ alg, typ: 'JWT' })}.${enc({ apiKeyUid: keyUid, ...claims })}`;
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg];
  return `${message}.${crypto.createHmac(hash, store.keyValue(keyUid)).update(message).digest('base64url')}`;
}

const search = (t: string, indexUid: string | null = 'sales', action = 'search'): AuthRequest => ({
  authorization: `Bearer ${t}`,
  action,
  indexUid,
  keysRoute: false,
});

function rejects(req: AuthRequest, message: string | RegExp): void {
  assert.throws(
    () => auth.authorize(req),
    (err: unknown) => {
      assert.ok(err instanceof AuthError, String(err));
      assert.equal(err.kind, 'invalid_api_key');
      if (typeof message === 'string') assert.equal(err.message, message);
      else assert.match(err.message, message);
      return true;
    },
  );
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-tenant-'));
  store = KeyStore.open(dir, MASTER);
  const defs: Record<string, { actions: string[]; indexes: string[]; expiresAt?: number }> = {
    all: { actions: ['*'], indexes: ['*'] },
    search: { actions: ['search'], indexes: ['*'] },
    sales: { actions: ['search'], indexes: ['sales'] },
    noSearch: { actions: ['documents.get', 'indexes.*'], indexes: ['*'] },
    expiring: { actions: ['search'], indexes: ['*'], expiresAt: T0 + 10 * S },
    doomed: { actions: ['search'], indexes: ['*'] },
  };
  for (const [name, d] of Object.entries(defs)) {
    const k = await store.create({ name, description: null, actions: d.actions, indexes: d.indexes, expiresAt: d.expiresAt ?? null });
    uid[name] = k.uid;
  }
  auth = new Authorizer({ masterKey: MASTER, keys: store, now: () => now });
});

after(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a valid token authorizes searches on the indexes of its rules', () => {
  now = T0;
  for (const alg of ['HS256', 'HS384', 'HS512'] as const) {
    const ctx = auth.authorize(search(token('search', { searchRules: ['sal*'] }, alg)));
    assert.equal(ctx.via, 'tenant');
    assert.equal(ctx.keyUid, uid.search);
    assert.equal(ctx.allIndexes, false);
    assert.ok(ctx.canSeeIndex('sales') && !ctx.canSeeIndex('movies'));
  }
  rejects(search(token('search', { searchRules: { sal: null, movies: {} } })), 'The provided tenant token cannot acces the index `sales`, allowed indexes are ["movies", "sal"].');
  rejects(search(token('sales', { searchRules: ['*'] }), 'movies'), 'The API key used to generate this tenant token cannot acces the index `movies`.');
  // routes without an index in the path (multi-search) check each index later
  assert.equal(auth.authorize(search(token('sales', { searchRules: ['*'] }), null)).via, 'tenant');
});

test('rule filters reach the context and authorizeSearch', () => {
  now = T0;
  const ctx = auth.authorize(search(token('all', { searchRules: { '*': { filter: 'a = 1' }, sales: { filter: ['b = 2'] }, 'mov*': null } })));
  assert.deepEqual(ctx.searchRuleFilter('sales'), ['b = 2']);
  assert.equal(ctx.searchRuleFilter('other'), 'a = 1');
  assert.equal(ctx.searchRuleFilter('movies'), null);
  assert.deepEqual(authorizeSearch(ctx, 'sales'), { allowed: true, filter: ['b = 2'] });
  assert.deepEqual(authorizeSearch(ctx, 'movies'), { allowed: true, filter: null });
  const scoped = auth.authorize(search(token('sales', { searchRules: { '*': { filter: 'x = 1' } } }), null));
  assert.deepEqual(authorizeSearch(scoped, 'sales'), { allowed: true, filter: 'x = 1' });
  assert.deepEqual(authorizeSearch(scoped, 'movies'), { allowed: false, filter: null }, 'the parent key does not cover it');
  const list = auth.authorize(search(token('all', { searchRules: ['sales'] }), null));
  assert.deepEqual(authorizeSearch(list, 'movies'), { allowed: false, filter: null });
  const plain = auth.authorize(search(store.keyValue(uid.sales!)));
  assert.deepEqual(authorizeSearch(plain, 'sales'), { allowed: true, filter: null });
  assert.deepEqual(authorizeSearch(plain, 'movies'), { allowed: false, filter: null });
  assert.deepEqual(authorizeSearch(AuthContext.MASTER, 'x'), { allowed: true, filter: null });
  assert.equal(AuthContext.OPEN.searchRuleFilter('x'), null);
});

test('exp is checked on every request, after the signature', () => {
  const t = token('search', { searchRules: ['*'], exp: 2_000_000_100 });
  now = T0 + 100 * S + 999_999; // 2000000100.999… s: not past exp
  assert.equal(auth.authorize(search(t)).via, 'tenant');
  now = T0 + 101 * S;
  rejects(search(t), 'Tenant token expired. Was valid up to `2000000100` and we\'re now `2000000101`.');
  now = T0;
  assert.equal(auth.authorize(search(t)).via, 'tenant');
  rejects(search(token('search', { searchRules: ['*'], exp: -1 })), /^Tenant token expired\. Was valid up to `-1` and we're now `2000000000`\.$/);
  const forged = token('search', { searchRules: ['*'], exp: 1 }).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  rejects(search(forged), /^Could not decode tenant token, (InvalidSignature|Base64 error: .*)\.$/);
});

test('the parent key is checked on every request', async () => {
  now = T0;
  const t = token('doomed', { searchRules: ['*'] });
  assert.equal(auth.authorize(search(t)).via, 'tenant');
  await store.delete(uid.doomed!);
  rejects(search(t), MSG_INVALID_API_KEY);

  const e = token('expiring', { searchRules: ['*'] });
  now = T0 + 10 * S - 1;
  assert.equal(auth.authorize(search(e)).via, 'tenant');
  now = T0 + 10 * S;
  rejects(search(e), MSG_INVALID_API_KEY);

  now = T0;
  rejects(search(token('noSearch', { searchRules: ['*'] })), MSG_INVALID_API_KEY);
  rejects(search(token('11111111-1111-1111-1111-111111111111', { searchRules: ['*'] })), MSG_INVALID_API_KEY);
  // signed with another key's value
  const [h, c] = token('search', { searchRules: ['*'] }).split('.');
  const wrong = crypto.createHmac('sha256', store.keyValue(uid.all!)).update(`${h}.${c}`).digest('base64url');
  rejects(search(`${h}.${c}.${wrong}`), 'Could not decode tenant token, InvalidSignature.');
});

test('tenant tokens only on search routes', () => {
  now = T0;
  const t = token('all', { searchRules: ['*'] });
  for (const action of ['documents.get', 'documents.add', 'indexes.get', 'settings.update', 'tasks.get', 'keys.get']) {
    rejects(search(t, 'sales', action), MSG_INVALID_API_KEY);
  }
  // a malformed token is decoded (and refused) only where tenant tokens are accepted
  rejects(search('e30.e30.x'), 'Could not decode tenant token, JSON error: missing field `alg` at line 1 column 2.');
  rejects(search('e30.e30.x', 'sales', 'documents.get'), MSG_INVALID_API_KEY);
  rejects(search('x.y'), MSG_INVALID_API_KEY);
  assert.equal(auth.authorize(search(t, 'sales', 'chatCompletions')).via, 'tenant');
  // API keys still work on search routes
  assert.equal(auth.authorize(search(store.keyValue(uid.search!))).via, 'key');
  assert.equal(auth.authorize(search(MASTER)).via, 'master');
});

test('verified tokens are cached per token string, within a bound', () => {
  now = T0;
  let derivations = 0;
  const keys = { keyValue: (u: string) => (derivations++, store.keyValue(u)) } as unknown as KeyStore;
  const verify = createTenantTokenVerifier({ now: () => now, cacheSize: 2 });
  const [a, b, c] = ['a', 'b', 'c'].map((n) => token('all', { searchRules: [n] }));
  const grant = verify(a!, keys);
  assert.equal(verify(a!, keys), grant);
  assert.equal(derivations, 1);
  verify(b!, keys);
  verify(a!, keys); // a is now the most recent
  verify(c!, keys); // evicts b
  assert.equal(derivations, 3);
  verify(a!, keys);
  assert.equal(derivations, 3);
  verify(b!, keys);
  assert.equal(derivations, 4);
  // another key store (another master key) starts afresh
  verify(a!, { keyValue: (u: string) => (derivations++, store.keyValue(u)) } as unknown as KeyStore);
  assert.equal(derivations, 5);
  // invalid tokens are not cached, and the not-a-JWT answer costs no derivation
  assert.throws(() => verify(`${a!.slice(0, -2)}AA`, keys));
  assert.equal(verify('not-a-token', keys), null);
});

test('a cached verification costs well under 0.1 ms per request', () => {
  now = T0;
  const req = search(token('all', { searchRules: { '*': { filter: 'a = 1' } }, exp: 2_100_000_000 }));
  auth.authorize(req);
  const n = 20_000;
  const started = performance.now();
  for (let k = 0; k < n; k++) auth.authorize(req);
  const perRequest = (performance.now() - started) / n;
  assert.ok(perRequest < 0.1, `${perRequest} ms`);
});
