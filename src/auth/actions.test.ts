import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACTIONS, GLOBAL_ACTIONS, READ_ACTIONS, WILDCARDS, expandActions, isAction, isGlobalAction, isKeysAction } from './actions.ts';

test('action list: 58 actions in declaration order', () => {
  assert.equal(ACTIONS.length, 58);
  assert.deepEqual(ACTIONS.slice(0, 6), ['*', 'search', 'documents.*', 'documents.add', 'documents.get', 'documents.delete']);
  assert.equal(ACTIONS[44], '*.get');
  assert.equal(ACTIONS[ACTIONS.length - 1], 'dynamicSearchRules.*');
  assert.equal(new Set(ACTIONS).size, ACTIONS.length);
  assert.ok(isAction('keys.get'));
  assert.ok(!isAction('keys.*'));
  assert.ok(!isAction('doc.add'));
});

test('every wildcard expands only to known actions', () => {
  for (const [w, granted] of Object.entries(WILDCARDS)) {
    assert.ok(isAction(w), w);
    for (const g of granted) assert.ok(isAction(g), `${w} -> ${g}`);
  }
  for (const g of GLOBAL_ACTIONS) assert.ok(isAction(g), g);
  for (const r of READ_ACTIONS) assert.ok(isAction(r), r);
});

test('`*` grants everything except the literal `*.get`, including literal `documents.*` and keys actions', () => {
  const all = expandActions(['*']);
  assert.ok(!all.has('*.get'));
  for (const a of ACTIONS) if (a !== '*.get') assert.ok(all.has(a), a);
  assert.ok(all.has('documents.*'));
  assert.ok(all.has('keys.delete'));
  assert.ok(all.has('chatCompletions'));
});

test('`*.get` grants read actions only, not keys.get nor chatCompletions', () => {
  const read = expandActions(['*.get']);
  assert.deepEqual([...read].sort(), [...READ_ACTIONS].sort());
  assert.ok(read.has('fields.post'));
  assert.ok(read.has('search'));
  assert.ok(!read.has('keys.get'));
  assert.ok(!read.has('chatCompletions'));
  assert.ok(!read.has('documents.add'));
});

test('category wildcards grant their concrete actions but not themselves', () => {
  const cases: [string, string[]][] = [
    ['documents.*', ['documents.add', 'documents.get', 'documents.delete']],
    ['indexes.*', ['indexes.create', 'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap', 'indexes.compact']],
    ['tasks.*', ['tasks.get', 'tasks.delete', 'tasks.cancel', 'tasks.compact']],
    ['settings.*', ['settings.get', 'settings.update']],
    ['stats.*', ['stats.get']],
    ['metrics.*', ['metrics.get']],
    ['dumps.*', ['dumps.create']],
    ['snapshots.*', ['snapshots.create']],
    ['chats.*', ['chats.get', 'chats.delete']],
    ['chatsSettings.*', ['chatsSettings.get', 'chatsSettings.update']],
    ['webhooks.*', ['webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create']],
    ['dynamicSearchRules.*', ['dynamicSearchRules.get', 'dynamicSearchRules.create', 'dynamicSearchRules.update', 'dynamicSearchRules.delete']],
  ];
  for (const [w, expected] of cases) {
    const got = expandActions([w]);
    assert.deepEqual([...got].sort(), [...expected].sort(), w);
    assert.ok(!got.has(w), `${w} does not grant itself`);
  }
});

test('concrete actions are kept, sets are unioned', () => {
  assert.deepEqual([...expandActions(['search', 'documents.add', 'search'])].sort(), ['documents.add', 'search']);
  assert.deepEqual([...expandActions(['stats.*', 'version'])].sort(), ['stats.get', 'version']);
  assert.deepEqual([...expandActions([])], []);
  assert.deepEqual([...expandActions(['constructor'])], ['constructor']);
});

test('global actions and keys actions', () => {
  assert.ok(isGlobalAction('version'));
  assert.ok(isGlobalAction('tasks.compact'));
  assert.ok(isGlobalAction('webhooks.*'));
  assert.ok(!isGlobalAction('*'));
  assert.ok(!isGlobalAction('*.get'));
  assert.ok(!isGlobalAction('search'));
  assert.ok(!isGlobalAction('tasks.get'));
  assert.ok(!isGlobalAction('indexes.compact'));
  assert.equal(GLOBAL_ACTIONS.length, 33);
  assert.ok(isKeysAction('keys.create') && isKeysAction('keys.get') && isKeysAction('keys.update') && isKeysAction('keys.delete'));
  assert.ok(!isKeysAction('search'));
});
