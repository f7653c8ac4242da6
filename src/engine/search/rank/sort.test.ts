// Sort rules over facet values (relevancy.md §7). Properties checked:
// 1. numbers (in direction order), then strings (byte order), then documents without a value
// 2. a multi-valued document sits in the bucket of its best value for the direction
// 3. the small-universe path (per-document values) and the value-walk path agree
// 4. geo: nearest first, documents without a point last; desc reverses the distance order
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bitmap } from '../../bitmap/index.ts';
import type { RankGraph } from './graph.ts';
import { sortRule, type SortValues } from './sort.ts';

type Value = number | string;
/** A fake facet index over `docs[id]` = the values of field `f`, and `points[id]`. */
function fake(docs: Value[][], points: ([number, number] | undefined)[] = []): SortValues {
  const byValue = <T extends Value>(kind: 'number' | 'string') => {
    const map = new Map<T, number[]>();
    docs.forEach((vals, id) => {
      for (const v of vals) if (typeof v === kind) map.set(v as T, [...(map.get(v as T) ?? []), id]);
    });
    return map;
  };
  const cmp = (a: Value, b: Value) => (typeof a === 'number' ? a - (b as number) : Buffer.compare(Buffer.from(a), Buffer.from(b as string)));
  return {
    fieldId: (p) => (p === 'f' ? 0 : undefined),
    *numbers(_fid, order) {
      const entries = [...byValue<number>('number')].sort((a, b) => cmp(a[0], b[0]));
      if (order === 'desc') entries.reverse();
      for (const [v, ids] of entries) yield [v, Bitmap.from(ids)];
    },
    *strings(_fid, order) {
      const entries = [...byValue<string>('string')].sort((a, b) => cmp(a[0], b[0]));
      if (order === 'desc') entries.reverse();
      for (const [v, ids] of entries) yield [v, v, Bitmap.from(ids)];
    },
    docNumbers: (_fid, id) => (docs[id] ?? []).filter((v): v is number => typeof v === 'number'),
    docStrings: (_fid, id) => (docs[id] ?? []).filter((v): v is string => typeof v === 'string'),
    geoPoint: (id) => points[id],
    *geoNearest(lat, lng, within, order = 'asc') {
      const d = (p: [number, number]) => Math.hypot(p[0] - lat, p[1] - lng) * 1000;
      const list = [...within].filter((id) => points[id] !== undefined).map((id) => [id, d(points[id]!)] as [number, number]);
      list.sort((a, b) => (order === 'asc' ? a[1] - b[1] : b[1] - a[1]));
      yield* list;
    },
  };
}

const GRAPH = {} as RankGraph;
const order = (values: SortValues, asc: boolean, universe: Bitmap) =>
  [...sortRule({ kind: 'field', field: 'f', asc }, values)(universe, GRAPH)].map((b) => b.docids.toArray());

test('numbers, then strings, then missing; multi-valued documents at their best value', () => {
  //            0      1        2      3    4          5
  const docs = [[3], ['b'], [10, 1], [], ['a', 20], ['B']];
  const values = fake(docs);
  const all = Bitmap.from([0, 1, 2, 3, 4, 5]);
  assert.deepEqual(order(values, true, all), [[2], [0], [4], [5], [1], [3]]);
  assert.deepEqual(order(values, false, all), [[4], [2], [0], [1], [5], [3]]);
});

test('the value walk and the per-document path agree', () => {
  const docs: Value[][] = Array.from({ length: 600 }, (_, i) => (i % 7 === 0 ? [] : i % 5 === 0 ? [`s${i % 13}`] : [i % 17, (i * 7) % 23]));
  const values = fake(docs);
  const big = Bitmap.from(docs.map((_, i) => i));
  const walked = order(values, true, big);
  // split into small universes: each bucket of the walk, sorted on its own, stays one bucket
  for (const bucket of walked) assert.deepEqual(order(values, true, Bitmap.from(bucket)), [bucket]);
  // a small universe gets the same relative order as the walk
  const small = Bitmap.from([3, 10, 14, 21, 25, 50, 70, 99]);
  const expected = walked.map((b) => b.filter((id) => small.has(id))).filter((b) => b.length > 0);
  assert.deepEqual(order(values, true, small), expected);
});

test('geo sort', () => {
  const points: ([number, number] | undefined)[] = [[1, 1], undefined, [0, 0.5], [3, 3]];
  const values = fake([[], [], [], []], points);
  const run = (asc: boolean) => [...sortRule({ kind: 'geo', lat: 0, lng: 0, asc }, values)(Bitmap.from([0, 1, 2, 3]), GRAPH)].map((b) => b.docids.toArray());
  assert.deepEqual(run(true), [[2], [0], [3], [1]]);
  assert.deepEqual(run(false), [[3], [0], [2], [1]]);
});
