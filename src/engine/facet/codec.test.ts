// Value encodings of the facet tables. Checks:
// 1. ids written without a native bitmap are byte for byte CRoaring's portable serialization
//    (array and bitset containers, several containers, ids past 2^31)
// 2. document records, string entries and groups decode to what was encoded
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../bitmap/index.ts';
import {
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
