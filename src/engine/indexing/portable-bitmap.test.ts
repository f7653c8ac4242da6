// Portable roaring bytes written from sorted ids. Properties checked:
// 1. the bytes are those of the native serialisation of a bitmap of the same ids, for one id,
//    sparse and dense containers, the 4096/4097 array/bitset boundary and ids up to 2^31 − 1
// 2. a sub-range of a larger array is encoded on its own, and the scratch is reused safely
// 3. postings values: up to four ids as raw u32s, more as portable bytes; both decode, fold into a
//    union and come back from a native bitmap the same; portable values of one id still read
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap, PostingsUnion, SMALL_IDS, bitmapBytes, bitmapFrom, postingsBytes, postingsFrom, smallBytes } from '../bitmap/index.ts';
import { ByteScratch, encodePostings, encodeSortedIds } from './portable-bitmap.ts';
import { rng } from '../random.fixtures.ts';


const sorted = (ids: Iterable<number>) => Uint32Array.from([...new Set(ids)].sort((a, b) => a - b));

test('bytes equal the native portable serialisation', () => {
  const rand = rng(7);
  const scratch = new ByteScratch();
  const cases: Uint32Array[] = [
    sorted([0]),
    sorted([65535]),
    sorted([65536]),
    sorted([2 ** 31 - 1]),
    sorted(Array.from({ length: 4096 }, (_, i) => i * 3)),
    sorted(Array.from({ length: 4097 }, (_, i) => i * 3)),
    sorted(Array.from({ length: 65536 }, (_, i) => i)),
    sorted(Array.from({ length: 200_000 }, (_, i) => i * 2)),
  ];
  for (let i = 0; i < 40; i++) {
    const n = 1 + Math.floor(rand() * 20_000);
    const range = [100, 70_000, 1_000_000, 2 ** 31 - 1][i % 4]!;
    cases.push(sorted(Array.from({ length: n }, () => Math.floor(rand() * range))));
  }
  for (const ids of cases) {
    const mine = encodeSortedIds(ids, 0, ids.length, scratch);
    assert.deepEqual(Buffer.from(mine), Buffer.from(bitmapBytes(new Bitmap(ids))), `${ids.length} ids up to ${ids[ids.length - 1]}`);
  }
});

test('a sub-range is encoded on its own; the scratch is reused', () => {
  const scratch = new ByteScratch();
  const ids = Int32Array.from([1, 5, 9, 70_000, 70_001, 200_000]);
  const a = Buffer.from(encodeSortedIds(ids, 1, 5, scratch));
  const b = encodeSortedIds(ids, 5, 6, scratch);
  assert.deepEqual(bitmapFrom(a).toArray(), [5, 9, 70_000, 70_001]);
  assert.deepEqual(bitmapFrom(b).toArray(), [200_000]);
});

test('postings values: up to four ids raw, more as portable bytes; both decode and fold', () => {
  const scratch = new ByteScratch();
  for (const ids of [[7], [0, 70_000], [1, 2, 3, 4_000_000_000], [1, 2, 3, 4, 5], Array.from({ length: 5000 }, (_, i) => i * 3)]) {
    const bytes = Buffer.from(encodePostings(Uint32Array.from(ids), 0, ids.length, scratch));
    assert.equal(bytes.length, ids.length <= SMALL_IDS ? ids.length * 4 : Buffer.from(new Bitmap(ids).serialize('portable')).length);
    assert.deepEqual(postingsFrom(bytes).toArray(), ids);
    assert.deepEqual(Buffer.from(postingsBytes(new Bitmap(ids))), bytes);
    const union = new PostingsUnion();
    union.add(bytes);
    union.add(smallBytes([1_000_000]));
    union.add(new Bitmap([3_000_000]).serialize('portable'));
    assert.deepEqual(union.result().toArray(), [...ids, 1_000_000, 3_000_000].sort((a, b) => a - b));
  }
  // portable bytes written before (one id: 18 bytes) still read back
  assert.deepEqual(postingsFrom(new Bitmap([9]).serialize('portable')).toArray(), [9]);
  assert.equal(postingsFrom(undefined).size, 0);
});
