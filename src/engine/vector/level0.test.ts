import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEVEL0_STRIDE, Level0Table, NO_ROW, UNKNOWN } from './level0.ts';

const list = (...ids: number[]) => Uint32Array.from(ids);

test('rows: unknown until put, rewritten in place, none after a null, long lists apart', () => {
  const t = new Level0Table();
  assert.equal(t.at(7), UNKNOWN);
  assert.equal(t.links(7), undefined);
  const at = t.put(7, list(1, 2, 3));
  assert.equal(t.at(7), at);
  assert.deepEqual([...t.links(7)!], [1, 2, 3]);
  assert.equal(t.words[at], 4, 'the count + 1 leads the row');
  // a change rewrites the same row: no new row, nothing allocated
  assert.equal(t.put(7, list(9)), at);
  assert.deepEqual([...t.links(7)!], [9]);
  // its own view given back (a link-back reads, then writes the same node)
  assert.equal(t.put(7, t.links(7)!), at);
  assert.deepEqual([...t.links(7)!], [9]);
  // another node gets the next row, past the first
  const other = t.put(100_000, list(7));
  assert.equal(other, at + LEVEL0_STRIDE);
  assert.deepEqual([...t.links(100_000)!], [7]);
  // removed: known as none
  assert.equal(t.put(7, null), NO_ROW);
  assert.equal(t.at(7), NO_ROW);
  assert.equal(t.links(7), undefined);
  // a list longer than a row is kept apart, and a later short one takes a row again
  const long = Uint32Array.from({ length: LEVEL0_STRIDE }, (_, i) => i);
  assert.equal(t.put(8, long), NO_ROW);
  assert.deepEqual(t.links(8), long);
  assert.ok(t.put(8, list(5)) >= 0);
  assert.deepEqual([...t.links(8)!], [5]);
  assert.equal(t.size, 3);
});

test('the table grows and keeps its rows', () => {
  const t = new Level0Table();
  for (let n = 0; n < 5000; n++) t.put(n, list(n, n + 1));
  for (let n = 0; n < 5000; n++) assert.deepEqual([...t.links(n)!], [n, n + 1]);
});
