import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError, toApiError } from '../errors/index.ts';
import { KeyStore } from '../../auth/key-store.ts';
import { ACTIONS } from '../../auth/actions.ts';
import {
  apiKeyAlreadyExists,
  apiKeyNotFound,
  keyListView,
  keyView,
  parseCreateKey,
  parseKeyDate,
  parseListKeysQuery,
  parseUpdateKey,
} from './index.ts';

const NOW = Date.UTC(2026, 0, 5, 10, 0, 0) * 1000; // 2026-01-05T10:00:00Z in µs
const us = (iso: string) => Date.parse(iso) * 1000;

function throwsApi(fn: () => unknown, code: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.message, message);
    return true;
  });
}

const base = { indexes: ['products'], actions: ['documents.add'], expiresAt: null };
const EXPIRES_MSG = (raw: string) =>
  `Invalid value at \`.expiresAt\`: \`${raw}\` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n`;
const INDEX_MSG = (path: string, raw: string) =>
  `Invalid value at \`${path}\`: \`${raw}\` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).`;
const CREATE_FIELDS_LIST = '`description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`';

test('parseCreateKey: the reference example', () => {
  const input = parseCreateKey(
    { description: 'Indexing API key', indexes: ['products'], actions: ['documents.add'], expiresAt: '2050-11-13' },
    NOW,
  );
  assert.deepEqual(input, {
    uid: undefined,
    name: null,
    description: 'Indexing API key',
    actions: ['documents.add'],
    indexes: ['products'],
    expiresAt: us('2050-11-13T00:00:00Z'),
  });
});

test('parseCreateKey: optional fields, uid forms, echo of actions', () => {
  const input = parseCreateKey(
    {
      name: 'n',
      description: null,
      uid: '4BC0887A0E414F3B935D0C451DCEE9C8',
      actions: ['search', 'search', '*.get', 'documents.*'],
      indexes: ['*', 'prod*', 'dog'],
      expiresAt: null,
    },
    NOW,
  );
  assert.equal(input.uid, '4bc0887a-0e41-4f3b-935d-0c451dcee9c8');
  assert.equal(input.name, 'n');
  assert.equal(input.description, null);
  assert.deepEqual(input.actions, ['search', 'search', '*.get', 'documents.*']);
  assert.deepEqual(input.indexes, ['*', 'prod*', 'dog']);
  assert.equal(input.expiresAt, null);
  // every action is accepted, empty lists too
  assert.deepEqual(parseCreateKey({ actions: [...ACTIONS], indexes: ['*'], expiresAt: null }, NOW).actions, [...ACTIONS]);
  assert.deepEqual(parseCreateKey({ actions: [], indexes: [], expiresAt: null }, NOW).indexes, []);
});

test('expiresAt formats', () => {
  const midnight = us('2050-11-13T00:00:00Z');
  assert.equal(midnight, 2_551_910_400_000_000);
  const cases: [string, number][] = [
    ['2050-11-13T00:00:00Z', midnight],
    ['2050-11-13t00:00:00z', midnight],
    ['2050-11-13T01:30:00+01:30', midnight],
    ['2050-11-12T22:00:00-02:00', midnight],
    ['2050-11-13T00:00:00.123456789Z', midnight + 123_456],
    ['2050-11-13T00:00:00.5Z', midnight + 500_000],
    ['2050-11-13T00:00:00', midnight],
    ['2050-11-13 00:00:00', midnight],
    ['2050-11-13', midnight],
    ['2048-02-29', us('2048-02-29T00:00:00Z')],
    ['9999-12-31T23:59:59Z', us('9999-12-31T23:59:59Z')],
  ];
  for (const [raw, expected] of cases) {
    assert.equal(parseKeyDate(raw), expected, raw);
    assert.equal(parseCreateKey({ ...base, expiresAt: raw }, NOW).expiresAt, expected, raw);
  }
  for (const bad of [
    '2050-11-13T00:00:00.Z',
    '2050-11-13T00:00Z',
    '2050-11-13T00:00:00+0100',
    '2050-13-01',
    '2050-02-29',
    '2050-11-31',
    '2050-11-13T24:00:00',
    '2050-11-13T00:60:00',
    '2050-11-13T00:00:60',
    '2050-11-13T00:00:00+24:00',
    '2050-1-13',
    '50-11-13',
    '2050/11/13',
    '2050-11-13 00:00:00Z',
    '2050-11-13T00:00:00.123',
    ' 2050-11-13',
    'doggo',
    '',
  ]) {
    assert.equal(parseKeyDate(bad), null, bad);
  }
});

test('expiresAt errors', () => {
  for (const raw of ['doggo', '2050-13-01', '2020-11-13', '2026-01-05T10:00:00Z', '2026-01-05']) {
    throwsApi(() => parseCreateKey({ ...base, expiresAt: raw }, NOW), 'invalid_api_key_expires_at', EXPIRES_MSG(raw));
  }
  assert.ok(EXPIRES_MSG('x').endsWith('.\n'));
  // just after now is accepted
  assert.equal(parseCreateKey({ ...base, expiresAt: '2026-01-05T10:00:00.000001Z' }, NOW).expiresAt, NOW + 1);
  throwsApi(
    () => parseCreateKey({ ...base, expiresAt: 12 }, NOW),
    'invalid_api_key_expires_at',
    'Invalid value type at `.expiresAt`: expected a string, but found a positive integer: `12`',
  );
  throwsApi(
    () => parseCreateKey({ ...base, expiresAt: ['2050-11-13'] }, NOW),
    'invalid_api_key_expires_at',
    'Invalid value type at `.expiresAt`: expected a string, but found an array: `["2050-11-13"]`',
  );
});

test('parseCreateKey: validation messages', () => {
  const cases: [unknown, string, string][] = [
    ['hello', 'bad_request', 'Invalid value type: expected an object, but found a string: `"hello"`'],
    [[], 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`'],
    [null, 'bad_request', 'Invalid value type: expected an object, but found null'],
    [{}, 'missing_api_key_actions', 'Missing field `actions`'],
    [{ indexes: ['*'], expiresAt: null }, 'missing_api_key_actions', 'Missing field `actions`'],
    [{ actions: ['*'], expiresAt: null }, 'missing_api_key_indexes', 'Missing field `indexes`'],
    [{ actions: ['*'], indexes: ['*'] }, 'missing_api_key_expires_at', 'Missing field `expiresAt`'],
    [{ ...base, actions: 'search' }, 'invalid_api_key_actions', 'Invalid value type at `.actions`: expected an array, but found a string: `"search"`'],
    [{ ...base, actions: null }, 'invalid_api_key_actions', 'Invalid value type at `.actions`: expected an array, but found null'],
    [{ ...base, actions: ['search', 1] }, 'invalid_api_key_actions', 'Invalid value type at `.actions[1]`: expected a string, but found a positive integer: `1`'],
    [
      { ...base, actions: ['doc.add'] },
      'invalid_api_key_actions',
      `Unknown value \`doc.add\` at \`.actions[0]\`: expected one of ${ACTIONS.map((a) => `\`${a}\``).join(', ')}`,
    ],
    [{ ...base, indexes: 'products' }, 'invalid_api_key_indexes', 'Invalid value type at `.indexes`: expected an array, but found a string: `"products"`'],
    [{ ...base, indexes: [13] }, 'invalid_api_key_indexes', 'Invalid value type at `.indexes[0]`: expected a string, but found a positive integer: `13`'],
    [{ ...base, indexes: ['products', 'pr*d'] }, 'invalid_api_key_indexes', INDEX_MSG('.indexes[1]', 'pr*d')],
    [{ ...base, indexes: [''] }, 'invalid_api_key_indexes', INDEX_MSG('.indexes[0]', '')],
    [{ ...base, indexes: ['**'] }, 'invalid_api_key_indexes', INDEX_MSG('.indexes[0]', '**')],
    [{ ...base, indexes: ['a b'] }, 'invalid_api_key_indexes', INDEX_MSG('.indexes[0]', 'a b')],
    [{ ...base, name: 13 }, 'invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found a positive integer: `13`'],
    [{ ...base, description: { a: 1 } }, 'invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found an object: `{"a":1}`'],
    [{ ...base, uid: 'foo' }, 'invalid_api_key_uid', 'Invalid value at `.uid`: invalid character: found `o` at 1'],
    [{ ...base, uid: 'aaaaabbbbbccc' }, 'invalid_api_key_uid', 'Invalid value at `.uid`: invalid length: found 13'],
    [{ ...base, uid: 13 }, 'invalid_api_key_uid', 'Invalid value type at `.uid`: expected a string, but found a positive integer: `13`'],
    [{ ...base, uid: null }, 'invalid_api_key_uid', 'Invalid value type at `.uid`: expected a string, but found null'],
    [{ ...base, doggo: 1 }, 'bad_request', `Unknown field \`doggo\`: expected one of ${CREATE_FIELDS_LIST}`],
    [{ ...base, expires_at: null }, 'bad_request', `Unknown field \`expires_at\`: did you mean \`expiresAt\`? expected one of ${CREATE_FIELDS_LIST}`],
  ];
  for (const [body, code, message] of cases) {
    throwsApi(() => parseCreateKey(body, NOW), code, message);
  }
});

test('parseCreateKey: the first problem in payload order wins, then missing fields', () => {
  // an unknown field before a bad value
  throwsApi(() => parseCreateKey({ doggo: 1, actions: ['nope'], indexes: ['*'], expiresAt: null }, NOW), 'bad_request', `Unknown field \`doggo\`: expected one of ${CREATE_FIELDS_LIST}`);
  // a bad value before an unknown field
  throwsApi(
    () => parseCreateKey({ actions: ['nope'], doggo: 1, indexes: ['*'], expiresAt: null }, NOW),
    'invalid_api_key_actions',
    `Unknown value \`nope\` at \`.actions[0]\`: expected one of ${ACTIONS.map((a) => `\`${a}\``).join(', ')}`,
  );
  // a bad value before a missing field
  throwsApi(() => parseCreateKey({ expiresAt: 'doggo' }, NOW), 'invalid_api_key_expires_at', EXPIRES_MSG('doggo'));
  throwsApi(() => parseCreateKey({ uid: 'foo' }, NOW), 'invalid_api_key_uid', 'Invalid value at `.uid`: invalid character: found `o` at 1');
  // missing fields in declaration order whatever the payload order
  throwsApi(() => parseCreateKey({ expiresAt: null }, NOW), 'missing_api_key_actions', 'Missing field `actions`');
});

test('parseCreateKey: index-scoped keys cannot hold global actions', () => {
  const msg = (a: string) =>
    `cannot create index-scoped API key with global action \`"${a}"\`\n  - Hint: remove action \`"${a}"\` from the action list, or remove \`indexes\` to make the key global`;
  throwsApi(() => parseCreateKey({ actions: ['search', 'version'], indexes: ['products'], expiresAt: null }, NOW), 'index_scoped_api_key_with_global_action', msg('version'));
  throwsApi(() => parseCreateKey({ actions: ['keys.get', 'version'], indexes: ['prod*'], expiresAt: null }, NOW), 'index_scoped_api_key_with_global_action', msg('keys.get'));
  throwsApi(() => parseCreateKey({ actions: ['tasks.compact'], indexes: ['a'], expiresAt: null }, NOW), 'index_scoped_api_key_with_global_action', msg('tasks.compact'));
  assert.equal(new ApiError('index_scoped_api_key_with_global_action', 'x').status, 400);
  // allowed: global indexes, no indexes, non-global actions, `*` and `*.get`
  parseCreateKey({ actions: ['version'], indexes: ['*'], expiresAt: null }, NOW);
  parseCreateKey({ actions: ['version'], indexes: [], expiresAt: null }, NOW);
  parseCreateKey({ actions: ['version'], indexes: ['*', 'products'], expiresAt: null }, NOW);
  parseCreateKey({ actions: ['*', '*.get', 'search', 'tasks.*', 'indexes.compact'], indexes: ['products'], expiresAt: null }, NOW);
});

test('parseUpdateKey', () => {
  assert.deepEqual(parseUpdateKey({}), {});
  assert.deepEqual(parseUpdateKey({ name: 'a', description: null }), { name: 'a', description: null });
  assert.deepEqual(parseUpdateKey({ description: 'd' }), { description: 'd' });
  const fields = '`description`, `name`';
  const cases: [unknown, string, string][] = [
    ['hello', 'bad_request', 'Invalid value type: expected an object, but found a string: `"hello"`'],
    [{ name: 1 }, 'invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found a positive integer: `1`'],
    [{ description: [] }, 'invalid_api_key_description', 'Invalid value type at `.description`: expected a string, but found an array: `[]`'],
    [{ uid: 'x' }, 'immutable_api_key_uid', `Immutable field \`uid\`: expected one of ${fields}`],
    [{ actions: [] }, 'immutable_api_key_actions', `Immutable field \`actions\`: expected one of ${fields}`],
    [{ indexes: [] }, 'immutable_api_key_indexes', `Immutable field \`indexes\`: expected one of ${fields}`],
    [{ expiresAt: null }, 'immutable_api_key_expires_at', `Immutable field \`expiresAt\`: expected one of ${fields}`],
    [{ createdAt: null }, 'immutable_api_key_created_at', `Immutable field \`createdAt\`: expected one of ${fields}`],
    [{ updatedAt: null }, 'immutable_api_key_updated_at', `Immutable field \`updatedAt\`: expected one of ${fields}`],
    [{ doggo: 1 }, 'bad_request', `Unknown field \`doggo\`: expected one of ${fields}`],
    [{ name: 1, uid: 'x' }, 'invalid_api_key_name', 'Invalid value type at `.name`: expected a string, but found a positive integer: `1`'],
    [{ uid: 'x', name: 1 }, 'immutable_api_key_uid', `Immutable field \`uid\`: expected one of ${fields}`],
  ];
  for (const [body, code, message] of cases) throwsApi(() => parseUpdateKey(body), code, message);
});

test('parseListKeysQuery', () => {
  assert.deepEqual(parseListKeysQuery({}), { offset: 0, limit: 20 });
  assert.deepEqual(parseListKeysQuery({ offset: '2', limit: '0' }), { offset: 2, limit: 0 });
  throwsApi(() => parseListKeysQuery({ offset: 'x' }), 'invalid_api_key_offset', 'Invalid value in parameter `offset`: could not parse `x` as a positive integer');
  throwsApi(() => parseListKeysQuery({ limit: '-1' }), 'invalid_api_key_limit', 'Invalid value in parameter `limit`: could not parse `-1` as a positive integer');
  throwsApi(() => parseListKeysQuery({ doggo: '1' }), 'bad_request', 'Unknown parameter `doggo`: expected one of `offset`, `limit`');
});

test('errors: 404 and 409 (auth errors as the API answers them)', () => {
  const nf = toApiError(apiKeyNotFound('doggo'));
  assert.equal(nf.code, 'api_key_not_found');
  assert.equal(nf.status, 404);
  assert.equal(nf.message, 'API key `doggo` not found.');
  const ex = toApiError(apiKeyAlreadyExists('4bc0887a-0e41-4f3b-935d-0c451dcee9c8'));
  assert.equal(ex.code, 'api_key_already_exists');
  assert.equal(ex.status, 409);
  assert.equal(ex.message, '`uid` field value `4bc0887a-0e41-4f3b-935d-0c451dcee9c8` is already an existing API key.');
});

test('keyView and keyListView over a real store', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-keyview-'));
  const store = KeyStore.open(dir, 'MASTER_KEY');
  try {
    const input = parseCreateKey(
      {
        uid: '4bc0887a-0e41-4f3b-935d-0c451dcee9c8',
        description: 'Indexing API key',
        indexes: ['products'],
        actions: ['search', 'documents.add'],
        expiresAt: '2050-11-13',
      },
      NOW,
    );
    const key = await store.create(input);
    const view = keyView(key, store.keyValue(key.uid));
    assert.deepEqual(Object.keys(view), ['name', 'description', 'key', 'uid', 'actions', 'indexes', 'expiresAt', 'createdAt', 'updatedAt']);
    assert.equal(view.name, null);
    assert.equal(view.description, 'Indexing API key');
    assert.equal(view.key, 'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c');
    assert.equal(view.uid, '4bc0887a-0e41-4f3b-935d-0c451dcee9c8');
    assert.deepEqual(view.actions, ['search', 'documents.add']);
    assert.deepEqual(view.indexes, ['products']);
    assert.equal(view.expiresAt, '2050-11-13T00:00:00Z');
    assert.match(view.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/);
    assert.equal(view.createdAt, view.updatedAt);

    const q = parseListKeysQuery({ limit: '2' });
    const list = keyListView(store.list(q.offset, q.limit), q, (u) => store.keyValue(u));
    assert.deepEqual(Object.keys(list), ['results', 'offset', 'limit', 'total']);
    assert.equal(list.offset, 0);
    assert.equal(list.limit, 2);
    assert.equal(list.total, 5);
    assert.deepEqual(list.results.map((k) => k.name), [null, 'Default Search API Key']);
    assert.equal(list.results[1]!.expiresAt, null);
    assert.equal(list.results[1]!.key.length, 64);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
