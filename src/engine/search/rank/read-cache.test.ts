// The shared read cache of an index generation. Properties checked:
// 1. a key is loaded once while it stays cached
// 2. past the byte budget the least recently used entries go (a hit refreshes an entry)
// 3. the estimate counts a bitmap's native size: a big bitmap weighs more than a small one
// 4. a value bigger than the whole budget is returned but not kept
// 5. a long run of hits and misses matches a plain LRU list
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../../bitmap/index.ts';
import { ReadCache } from './read-cache.ts';

function counting(cache: ReadCache): { get(key: string, make?: () => Bitmap): Bitmap; loads: string[] } {
  const loads: string[] = [];
  return {
    loads,
    get: (key, make = () => new Bitmap([1, 2, 3])) =>
      cache.get(key, () => {
        loads.push(key);
        return make();
      }),
  };
}

test('a cached key is loaded once', () => {
  const c = counting(new ReadCache());
  const first = c.get('w\u0000paris');
  assert.equal(c.get('w\u0000paris'), first);
  assert.deepEqual(c.loads, ['w\u0000paris']);
});

test('past the budget the least recently used entries are dropped', () => {
  const probe = new ReadCache();
  probe.get('a', () => new Bitmap([1, 2, 3]));
  const entry = probe.bytes;
  const cache = new ReadCache(entry * 3);
  const c = counting(cache);
  c.get('a');
  c.get('b');
  c.get('c');
  c.get('a'); // refreshes a: b is now the oldest
  c.get('d');
  assert.equal(cache.size, 3);
  assert.ok(cache.bytes <= entry * 3);
  c.get('a');
  c.get('c');
  c.get('d');
  assert.deepEqual(c.loads, ['a', 'b', 'c', 'd']);
  c.get('b');
  assert.deepEqual(c.loads, ['a', 'b', 'c', 'd', 'b']);
});

test('the estimate follows the native size of bitmaps', () => {
  const small = new ReadCache();
  small.get('k', () => new Bitmap([7]));
  const big = new ReadCache();
  big.get('k', () => {
    const b = new Bitmap();
    for (let i = 0; i < 200_000; i += 3) b.add(i);
    return b;
  });
  assert.ok(big.bytes > small.bytes + 20_000, `${big.bytes} vs ${small.bytes}`);
  const maps = new ReadCache();
  maps.get('f', () => new Map([[0, new Bitmap([1])], [1, new Bitmap([2])]]));
  assert.ok(maps.bytes > small.bytes);
});

test('a value bigger than the budget is returned without being kept', () => {
  const cache = new ReadCache(64);
  const c = counting(cache);
  const v = c.get('x');
  assert.deepEqual(v.toArray(), [1, 2, 3]);
  assert.equal(cache.size, 0);
  c.get('x');
  assert.deepEqual(c.loads, ['x', 'x']);
});

test('many hits and evictions keep exactly the most recently used entries (against a list model)', () => {
  const probe = new ReadCache();
  probe.get('k00', () => new Bitmap([1]));
  const entry = probe.bytes;
  const cache = new ReadCache(entry * 8);
  const model: string[] = []; // most recent last
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let loads = 0;
  let modelLoads = 0;
  for (let i = 0; i < 20_000; i++) {
    const key = `k${String(Math.floor(rand() * 20)).padStart(2, '0')}`;
    cache.get(key, () => {
      loads++;
      return new Bitmap([1]);
    });
    const at = model.indexOf(key);
    if (at >= 0) model.splice(at, 1);
    else {
      modelLoads++;
      if (model.length === 8) model.shift();
    }
    model.push(key);
  }
  assert.equal(loads, modelLoads);
  assert.equal(cache.size, 8);
  for (const key of model) cache.get(key, () => assert.fail(`${key} should be cached`));
});
