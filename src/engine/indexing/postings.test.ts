// Pending changes of one table (postings.ts). Properties checked:
// 1. postings group per key in arrival order; a repeat of a key's last posting is dropped
//    (one document naming a key twice), any other repeat is kept
// 2. chunk groups map documents to ids, skip unknown ones (−1) and keep two versions of one id
// 3. merging appends another delta's postings after this one's, growth keeps every key
// 4. clear forgets keys and postings
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Postings } from './postings.ts';

function byKey(p: Postings): Record<string, number[]> {
  const g = p.grouped();
  const out: Record<string, number[]> = {};
  for (let k = 0; k < g.keyA.length; k++) out[`${g.keyA[k]},${g.keyB[k]}`] = [...g.ids.subarray(g.start[k]!, g.start[k + 1]!)];
  return out;
}

test('postings group per key; repeats of the last posting are dropped', () => {
  const p = new Postings(4, 4);
  p.append(1, 2, 5);
  p.append(1, 2, 5);
  p.append(3, 0, 5);
  p.append(1, 2, ~5);
  p.append(1, 2, 5);
  p.append(2 ** 31 + 7, 2 ** 32 - 1, 0);
  assert.deepEqual(byKey(p), { '1,2': [5, ~5, 5], '3,0': [5], [`${2 ** 31 + 7},${2 ** 32 - 1}`]: [0] });
  assert.equal(p.keys, 3);
  assert.equal(p.length, 5);
});

test('chunk groups map documents to ids', () => {
  const p = new Postings();
  const docs = Int32Array.from([0, 1, 2, 3]);
  const idOf = Int32Array.from([10, -1, 12, 10]);
  p.appendGroup(4, 1, docs, 0, 4, idOf);
  p.appendGroup(5, 1, docs, 1, 2, idOf);
  // after a group, a document's own posting is never taken for a repeat
  p.append(4, 1, 10);
  assert.deepEqual(byKey(p), { '4,1': [10, 12, 10, 10] });
});

test('merge appends after this delta, across growth; clear forgets', () => {
  const a = new Postings(2, 2);
  const b = new Postings(2, 2);
  for (let i = 0; i < 1000; i++) a.append(i, 0, i);
  for (let i = 500; i < 1500; i++) b.append(i, 0, ~i);
  a.merge(b);
  const g = byKey(a);
  assert.equal(Object.keys(g).length, 1500);
  assert.deepEqual(g['0,0'], [0]);
  assert.deepEqual(g['700,0'], [700, ~700]);
  assert.deepEqual(g['1200,0'], [~1200]);
  a.clear();
  assert.equal(a.keys, 0);
  assert.deepEqual(byKey(a), {});
  a.append(3, 3, 3);
  assert.deepEqual(byKey(a), { '3,3': [3] });
});
