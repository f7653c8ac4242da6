// Field paths and field selection (documents.md §3).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPaths, selectFields } from './fields.ts';

test('fieldPaths lists parents and children once', () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ id: 1, title: 'a' }, ['id', 'title']],
    [{ id: 1, _geo: { lat: 1, lng: 2 } }, ['id', '_geo', '_geo.lat', '_geo.lng']],
    [{ doggos: [{ name: 'b', age: 2 }, { name: 'c', age: 4 }] }, ['doggos', 'doggos.name', 'doggos.age']],
    [{ 'content.truc': 1, content: { truc: 2 } }, ['content.truc', 'content']],
    [{ a: [1, 2, { b: [{ c: 1 }, { c: 2 }] }] }, ['a', 'a.b', 'a.b.c']],
    [{ a: null, b: [] }, ['a', 'b']],
  ];
  for (const [doc, expected] of cases) assert.deepEqual([...fieldPaths(doc)].sort(), [...expected].sort(), JSON.stringify(doc));
});

test('selectFields keeps parents, prunes children, follows the index order', () => {
  const doc = { id: 1, content: { truc: 'foobar', machin: 'bidule' }, title: 't' };
  assert.deepEqual(selectFields(doc, ['content.truc']), { content: { truc: 'foobar' } });
  assert.deepEqual(selectFields(doc, ['content']), { content: { truc: 'foobar', machin: 'bidule' } });
  assert.deepEqual(selectFields({ 'content.truc': 'foobar' }, ['content.truc']), { 'content.truc': 'foobar' });
  assert.deepEqual(selectFields({ 'content.truc': 'foobar' }, ['content']), {});
  assert.deepEqual(Object.keys(selectFields(doc, ['title', 'id'], ['title', 'id', 'content'])), ['title', 'id']);
  assert.deepEqual(selectFields(doc, []), {});
  assert.deepEqual(selectFields({ d: [{ n: 'a', x: 1 }, { x: 2 }] }, ['d.n']), { d: [{ n: 'a' }] });
});
