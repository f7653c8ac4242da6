// Value encodings of the facet tables. Checks:
// 1. ids written without a native bitmap are byte for byte CRoaring's portable serialization
//    (array and bitset containers, several containers, ids past 2^31)
// 2. document records, string entries and groups decode to what was encoded
// 3. ids read back from portable bytes and changed by signed operations equal the native bitmap's
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../bitmap/index.ts';
import { rng } from '../random.fixtures.ts';
import {
  applyIdOps,
  decodeIds,
  decodeGroupHeader,
  decodeStringEntry,
  docRecordField,
  encodeDocRecord,
  encodeGroup,
  encodeIds,
  encodeStringEntry,
  groupDocids,
} from './codec.ts';

test('encodeIds is CRoaring’s portable serialization', () => {
  const cases: number[][] = [
    [0],
    [5, 6, 7],
    [0, 1, 2, 65535, 65536, 200000],
    Array.from({ length: 5000 }, (_, i) => i * 3),
    Array.from({ length: 70000 }, (_, i) => i * 2 + 7),
    [2 ** 31, 2 ** 32 - 1],
  ];
  let seed = 1;
  cases.push([...new Set(Array.from({ length: 300 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)))].sort((a, b) => a - b));
  for (const ids of cases) {
    assert.deepEqual(Buffer.from(encodeIds(ids)), Buffer.from(Bitmap.from(ids).serialize('portable')), `${ids.length} ids`);
  }
});

test('records, string entries and groups round-trip', () => {
  const record = new Map([
    [3, { numbers: [-1.5, 2], strings: ['blue', 'red'], originals: [' Blue', 'red'] }],
    [70000, { numbers: [], strings: ['é'], originals: ['É'] }],
    [1, { numbers: [42], strings: [], originals: [] }],
  ]);
  const bytes = encodeDocRecord(record);
  for (const [fid, v] of record) assert.deepEqual(docRecordField(bytes, fid), v);
  assert.equal(docRecordField(bytes, 2), undefined);

  const entry = encodeStringEntry({ originId: 7, original: 'Ünïcode', docids: encodeIds([7, 9]) });
  const e = decodeStringEntry(entry);
  assert.deepEqual([e.originId, e.original, e.docids.toArray()], [7, 'Ünïcode', [7, 9]]);

  for (const right of [12.5, 'zèbre']) {
    const g = encodeGroup(4, right, encodeIds([1, 2, 3]));
    const h = decodeGroupHeader(g, typeof right === 'number');
    assert.deepEqual([h.size, h.right, groupDocids(g, h).toArray()], [4, right, [1, 2, 3]]);
  }
});

test('ids read from portable bytes and changed by operations, without native bitmaps', () => {
  const random = rng(5);
  for (let round = 0; round < 200; round++) {
    // sparse and dense containers (past 4,096 ids in one container), several containers
    const size = round % 10 === 0 ? 6000 : Math.floor(random() * 40);
    const span = round % 3 === 0 ? 70_000 : 9000;
    const start = new Set<number>();
    while (start.size < size) start.add(Math.floor(random() * span) + (round % 4 === 0 ? 2 ** 31 : 0));
    const ids = [...start].sort((a, b) => a - b);
    const bytes = Bitmap.from(ids).serialize('portable');
    assert.deepEqual(decodeIds(bytes), ids);
    assert.deepEqual(encodeIds(ids), Buffer.from(bytes));
    // short operation lists (a map) and long ones (a typed array by id)
    const ops = Array.from({ length: Math.floor(random() * (round % 2 === 0 ? 30 : 300)) }, () => {
      const id = random() < 0.5 && ids.length > 0 ? ids[Math.floor(random() * ids.length)]! : Math.floor(random() * span);
      return random() < 0.5 ? id : ~id;
    });
    const native = Bitmap.from(ids);
    for (const op of ops) {
      if (op >= 0) native.add(op);
      else native.remove(~op);
    }
    const got = applyIdOps(ids, ops);
    assert.deepEqual(got ?? ids, native.toArray(), `round ${round}`);
    if (got === null) assert.deepEqual(native.toArray(), ids);
  }
  assert.deepEqual(applyIdOps([1, 5], [6, 9]), [1, 5, 6, 9]);
  assert.equal(applyIdOps([1, 5], [5, ~7]), null);
  assert.equal(decodeIds(Bitmap.from([1, 2, 3, 4, 5]).serialize('portable'))!.length, 5);
});
