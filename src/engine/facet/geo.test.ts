// Geo points and grid against brute force. Checks:
// 1. the distance is milli's (geoutils haversine, 6 371 000 m, millimetres): search.md's example
// 2. the grid: Morton cells nest (children of m are 16m … 16m+15) and bounds contain their points
// 3. radius and bounding box (antimeridian crossing, poles, degenerate boxes, out-of-range points)
//    equal a scan of the points, after additions, moves and deletions
// 4. the nearest-first and farthest-first walks yield every point of `within` in distance order
//    (ties by id), from the direct path (small `within`) and the cell walk alike
// 5. `_geo.lat` / `_geo.lng` behave as number facets (ranges, equality, exists, ordered values,
//    document values), answered from the geo tables
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bitmap } from '../bitmap/index.ts';
import { Index } from '../index/index.ts';
import { defaultFacetConfig } from './config.ts';
import { cellBounds, cellOf, cellsOf, GRID_LEVELS, haversineMeters, LEAF_LEVEL } from './geo-grid.ts';
import { facetReader } from './reader.ts';
import { FacetIndexWriter } from './writer.ts';
import { rng } from '../random.fixtures.ts';

test('distance is milli’s haversine in meters', () => {
  assert.equal(Math.round(haversineMeters(45.4777599, 9.1967508, 34.0522, -118.2437)), 9714063);
  assert.equal(haversineMeters(10, 20, 10, 20), 0);
  assert.equal(haversineMeters(0, 0, 0, 180), Math.round(Math.PI * 6371e3 * 1000) / 1000);
});

test('grid cells nest and contain their points', () => {
  const random = rng(3);
  for (let i = 0; i < 2000; i++) {
    const lat = random() * 180 - 90;
    const lng = random() * 360 - 180;
    const cells = cellsOf(lat, lng);
    assert.equal(cells[cells.length - 1], cellOf(LEAF_LEVEL, lat, lng));
    for (let l = 0; l < GRID_LEVELS.length; l++) {
      const b = cellBounds(GRID_LEVELS[l]!, cells[l]!);
      assert.ok(lat >= b.south && lat <= b.north && lng >= b.west && lng <= b.east);
      if (l > 0) assert.equal(Math.floor(cells[l]! / 16), cells[l - 1]);
    }
  }
  assert.deepEqual(cellBounds(16, cellOf(16, 90, 180)), { south: 90 - 180 / 65536, north: 90, west: 180 - 360 / 65536, east: 180 });
  assert.deepEqual(cellBounds(4, cellOf(4, -90, -180)), { south: -90, north: -90 + 180 / 16, west: -180, east: -180 + 360 / 16 });
});

test('radius, box and nearest equal brute force through additions, moves and deletions', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-geo-'));
  const index = Index.open(dir, { primaryKey: 'id', now: 1 });
  const config = defaultFacetConfig({ filterable: [{ field: '_geo' }], sortable: ['_geo'], geo: true });
  const fids = new Map([['_geo.lat', 0], ['_geo.lng', 1]]);
  const random = rng(11);
  const points = new Map<number, [number, number]>();
  // clusters (Lille, Tokyo, the antimeridian, the north pole) plus uniform points and a few out of range
  const centers: [number, number][] = [[50.63, 3.06], [35.68, 139.69], [-17, 179.9], [89.9, 0]];
  const randomPoint = (): [number, number] => {
    const u = random();
    if (u < 0.01) return [random() * 400 - 200, random() * 720 - 360];
    if (u < 0.5) {
      const [clat, clng] = centers[Math.floor(random() * centers.length)]!;
      const lng = clng + (random() - 0.5) * 2;
      return [Math.max(-90, Math.min(90, clat + (random() - 0.5) * 2)), lng > 180 ? lng - 360 : lng];
    }
    return [random() * 180 - 90, random() * 360 - 180];
  };
  try {
    for (const size of [3000, 200, 50]) {
      index.env.write(() => {
        const w = new FacetIndexWriter(index, config, (p) => fids.get(p)!);
        w.beginTask();
        for (let i = 0; i < size; i++) {
          const id = Math.floor(random() * 3500);
          const old = points.get(id);
          if (old) w.removeDocument(id, { _geo: { lat: old[0], lng: old[1] } });
          if (old && random() < 0.3) {
            points.delete(id);
            continue;
          }
          const p = randomPoint();
          w.addDocument(id, { _geo: { lat: p[0], lng: p[1] } }, String(id));
          points.set(id, p);
        }
        w.save();
        index.setMain('fieldsOrder', ['_geo', '_geo.lat', '_geo.lng']);
        index.setMain('generation', index.generation() + 1);
      });
      const r = facetReader(index);
      for (const [id, p] of points) assert.deepEqual(r.geoPoint(id), p);
      const scan = (keep: (p: [number, number]) => boolean) => [...points].filter(([, p]) => keep(p)).map(([id]) => id).sort((a, b) => a - b);
      for (let q = 0; q < 40; q++) {
        const [lat, lng] = q < 8 ? centers[q % 4]! : randomPoint().map((v, i) => Math.max(i ? -180 : -90, Math.min(i ? 180 : 90, v))) as [number, number];
        const meters = [1000, 100_000, 1_000_000, 5_000_000, 15_000_000, 25_000_000][q % 6]!;
        assert.deepEqual(r.geoRadius(lat, lng, meters).toArray(), scan((p) => haversineMeters(lat, lng, p[0], p[1]) <= meters), `radius ${lat},${lng} ${meters}`);
        const a = random() * 180 - 90;
        const b = random() * 180 - 90;
        const left = random() * 360 - 180;
        const right = random() < 0.8 ? random() * 360 - 180 : left;
        const [top, bottom] = [Math.max(a, b), Math.min(a, b)];
        const inBox = (p: [number, number]) => p[0] >= bottom && p[0] <= top && (right < left ? p[1] >= left || p[1] <= right : p[1] >= left && p[1] <= right);
        assert.deepEqual(r.geoBox(top, right, bottom, left).toArray(), scan(inBox), `box ${top},${right},${bottom},${left}`);
      }
      assert.deepEqual(r.geoBox(90, 180, -90, -180).toArray(), scan((p) => p[0] >= -90 && p[0] <= 90 && p[1] >= -180 && p[1] <= 180));
      // `_geo.lat` (axis 0) and `_geo.lng` (axis 1) as number facets
      for (const axis of [0, 1] as const) {
        const fid = r.fieldId(axis === 0 ? '_geo.lat' : '_geo.lng')!;
        assert.deepEqual(r.exists(fid).toArray(), scan(() => true));
        const some = [...points.values()][Math.floor(random() * points.size)]![axis];
        assert.deepEqual(r.numberEquals(fid, some).toArray(), scan((p) => p[axis] === some));
        for (let q = 0; q < 20; q++) {
          const span = axis === 0 ? 90 : 180;
          const lo = random() < 0.2 ? null : { value: q < 5 ? some : (random() * 2 - 1) * span * 1.1, inclusive: random() < 0.5 };
          const hi = random() < 0.2 ? null : { value: (random() * 2 - 1) * span * 1.1, inclusive: random() < 0.5 };
          const keep = (v: number) => (lo === null || (lo.inclusive ? v >= lo.value : v > lo.value)) && (hi === null || (hi.inclusive ? v <= hi.value : v < hi.value));
          assert.deepEqual(r.numberRange(fid, lo, hi).toArray(), scan((p) => keep(p[axis])), `axis ${axis} ${JSON.stringify([lo, hi])}`);
        }
        const within = Bitmap.from([...points.keys()].filter(() => random() < 0.1));
        const values = [...r.numbers(fid, 'desc', within)];
        const expected = [...new Set([...within].map((id) => points.get(id)![axis]))].sort((a, b) => b - a);
        assert.deepEqual(values.map(([v]) => v), expected);
        for (const [v, d] of values.slice(0, 5)) assert.deepEqual(d.toArray(), [...within].filter((id) => points.get(id)![axis] === v));
        const [id, p] = [...points][0]!;
        assert.deepEqual(r.docNumbers(fid, id), [p[axis]]);
      }
      for (const within of [Bitmap.from([...points.keys()]), Bitmap.from([...points.keys()].filter(() => random() < 0.05)), Bitmap.from([...points.keys()].filter(() => random() < 0.5))]) {
        for (const order of ['asc', 'desc'] as const) {
          const [lat, lng] = centers[Math.floor(random() * 4)]!;
          const expected = [...within]
            .filter((id) => points.has(id))
            .map((id) => [id, haversineMeters(lat, lng, ...points.get(id)!)] as [number, number])
            .sort((x, y) => (order === 'asc' ? x[1] - y[1] : y[1] - x[1]) || x[0] - y[0]);
          // the walk is lazy: take the first 150, and everything when `within` is small
          const got: [number, number][] = [];
          for (const hit of r.geoNearest(lat, lng, within, order)) if (got.push(hit) >= 150 && within.size > 500) break;
          assert.deepEqual(got, expected.slice(0, got.length), `${order} within ${within.size}`);
          assert.equal(got.length, Math.min(expected.length, within.size > 500 ? 150 : Infinity));
        }
      }
    }
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a bulk load into an empty grid writes the cells the general path writes', async () => {
  const config = defaultFacetConfig({ filterable: [{ field: '_geo' }], geo: true });
  const random = rng(21);
  // clustered points (shared cells at every level), out-of-range ones, ids out of order
  const docs: [number, Record<string, unknown>][] = Array.from({ length: 3000 }, (_, i) => {
    const u = random();
    const lat = u < 0.02 ? 120 : 50 + random() * (u < 0.5 ? 0.2 : 20);
    const lng = u < 0.02 ? 3 : 3 + random() * (u < 0.5 ? 0.2 : 40);
    return [(i * 7919) % 3001, { _geo: { lat, lng } }];
  });
  const cells = async (extra: boolean): Promise<[string, string][]> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-geo-bulk-'));
    const index = Index.open(dir, { primaryKey: 'id', now: 1 });
    try {
      index.env.write(() => {
        const w = new FacetIndexWriter(index, config, (p) => (p === '_geo.lat' ? 0 : 1));
        w.beginTask();
        // a document added then removed: the general path (a removal among the operations)
        if (extra) {
          w.addDocument(5000, { _geo: { lat: 1, lng: 1 } }, '5000');
          w.removeDocument(5000, { _geo: { lat: 1, lng: 1 } });
        }
        for (const [id, doc] of docs) w.addDocument(id, doc, String(id));
        w.save();
      });
      return [...index.facets.geoCells.entries()].map(([k, v]) => [JSON.stringify(k), Buffer.from(v).toString('hex')]);
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const bulk = await cells(false);
  assert.ok(bulk.length > 100);
  assert.deepEqual(bulk, await cells(true));
});
