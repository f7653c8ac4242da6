// The cells of `_geojson` shapes and the queries over them, against brute force. Checks:
// 1. Morton ranges cover exactly the cells of a rectangle (bounded: a superset of them)
// 2. boxes wrap at the antimeridian; a part is filed at the finest level where it spans ≤ 2 × 2
//    cells, in cells its box meets; stored boxes are rounded outwards
// 3. polygon, box (across the antimeridian too) and circle queries through the cells equal a scan
//    of every shape, through additions, replacements and removals written by ShapeDelta
// 4. Meilisearch's countries: the Europe box gives its 17 countries in id order; the box between
//    Russia and Alaska gives Russia and the United States (Meilisearch adds Canada, see
//    docs/compat.md); a circle's polygon is inscribed in the circle
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GEOJSON_CELLS, GEOJSON_SHAPES } from '../index/facet-layout.ts';
import { Env } from '../store/index.ts';
import { rng } from '../random.fixtures.ts';
import { ShapeDelta, writeShapeDelta } from './geojson-delta.ts';
import { boxOf } from './geojson-geometry.ts';
import {
  cellKeyParts,
  cellReach,
  column,
  decodeCellEntries,
  encodeCellEntries,
  morton,
  mortonRanges,
  row,
  shapeCells,
  SHAPE_LEVELS,
  wrapBox,
} from './geojson-grid.ts';
import { queryRegion, regionMeetsShape, shapeDocids, type ShapeQuery } from './geojson-reader.ts';
import { encodeShape, parseGeoJsonField, shapeParts, type Shape } from './geojson.ts';
import { haversineMeters } from './geo-grid.ts';
import { fixturePath } from '../../../test/fixtures/paths.ts';

test('Morton ranges cover the cells of a rectangle', () => {
  const random = rng(5);
  for (let trial = 0; trial < 300; trial++) {
    const level = Math.floor(random() * 7);
    const n = 2 ** level;
    const c0 = Math.floor(random() * n);
    const c1 = Math.min(n - 1, c0 + Math.floor(random() * n));
    const r0 = Math.floor(random() * n);
    const r1 = Math.min(n - 1, r0 + Math.floor(random() * n));
    for (const max of [4, 32, 1e9]) {
      const ranges = mortonRanges(level, c0, c1, r0, r1, max);
      const covered = (m: number) => ranges.some(([a, b]) => m >= a && m < b);
      for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) {
        const inside = x >= c0 && x <= c1 && y >= r0 && y <= r1;
        if (inside) assert.ok(covered(morton(x, y)));
        else if (max === 1e9) assert.ok(!covered(morton(x, y)));
      }
      if (max === 32) assert.ok(ranges.length <= 4 * 32);
    }
  }
});

test('parts are filed at the finest level where they span at most 2 × 2 cells', () => {
  assert.deepEqual(wrapBox([10, -5, 20, 5]), [[10, -5, 20, 5]]);
  assert.deepEqual(wrapBox([170, -5, 190, 5]), [[170, -5, 180, 5], [-180, -5, -170, 5]]);
  assert.deepEqual(wrapBox([-190, -95, -170, 5]), [[170, -95, 180, 5], [-180, -95, -170, 5]]);
  assert.deepEqual(wrapBox([-500, 0, 500, 1]), [[-180, 0, 180, 1]]);
  const random = rng(6);
  for (let trial = 0; trial < 500; trial++) {
    const lng = random() * 360 - 180;
    const lat = random() * 170 - 85;
    const size = 10 ** (random() * 5 - 3);
    const shape = parseGeoJsonField({ type: 'LineString', coordinates: [[lng, lat], [lng + size, Math.min(89, lat + size / 2)]] }, 'x')!;
    const cells = shapeCells(shape);
    const box = boxOf(shape.coords);
    const pieces = wrapBox(box);
    const levels = new Set([...cells.keys()].map((k) => cellKeyParts(k)[0]));
    for (const [key, [w, s, e, n]] of cells) {
      const [level, cell] = cellKeyParts(key);
      // the cell meets the box filed in it
      const piece = pieces.find((p) => p[0] === w && p[2] === e)!;
      assert.ok(piece, 'a piece box');
      const x = [...Array(2 ** level).keys()].find((c) => morton(c, row(level, s)) === cell || morton(c, row(level, n)) === cell);
      assert.ok(x !== undefined && x >= column(level, w) && x <= column(level, e));
    }
    for (const level of levels) {
      const finer = SHAPE_LEVELS[SHAPE_LEVELS.indexOf(level) + 1];
      if (finer === undefined) continue;
      // one level finer, some piece spans more than 2 × 2 cells
      assert.ok(pieces.some(([w, s, e, n]) => column(finer, e) - column(finer, w) > 1 || row(finer, n) - row(finer, s) > 1));
    }
  }
  // stored boxes are rounded outwards to f32
  const entry = decodeCellEntries(encodeCellEntries(new Map([[7, [0.1, -0.1, 0.1, -0.1]]])));
  assert.equal(entry.count, 1);
  assert.equal(entry.ids[0], 7);
  assert.ok(entry.boxes[1]! < 0.1 && entry.boxes[2]! < -0.1 && entry.boxes[3]! > 0.1 && entry.boxes[4]! > -0.1);
  // a cell's reach holds every box filed in it
  for (const [key, [w, s, e, n]] of shapeCells(parseGeoJsonField({ type: 'LineString', coordinates: [[3.1, 50.6], [3.2, 50.7]] }, 'x')!)) {
    const [level, cell] = cellKeyParts(key);
    const [rw, rs, re, rn] = cellReach(level, cell);
    assert.ok(rw <= w && rs <= s && re >= e && rn >= n, `${level}`);
  }
});

function tables() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-geojson-'));
  const env = Env.open(dir);
  return { dir, env, geojsonShapes: env.table(GEOJSON_SHAPES), geojsonCells: env.table(GEOJSON_CELLS) };
}

function randomShape(random: () => number): unknown {
  const centers: [number, number][] = [[3.06, 50.63], [179.5, -17], [-179.8, 65], [0, 88], [139.7, 35.7]];
  const [clng, clat] = random() < 0.6 ? centers[Math.floor(random() * centers.length)]! : [random() * 360 - 180, random() * 160 - 80];
  const size = 10 ** (random() * 4 - 2.5);
  const at = (): [number, number] => {
    const lng = clng + (random() - 0.5) * size;
    return [lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng, Math.max(-90, Math.min(90, clat + (random() - 0.5) * size))];
  };
  const u = random();
  if (u < 0.3) return { type: 'Point', coordinates: at() };
  if (u < 0.45) return { type: 'MultiPoint', coordinates: [at(), at(), at()] };
  if (u < 0.6) return { type: 'LineString', coordinates: [at(), at(), at()] };
  // a star-shaped ring around the centre
  const k = 3 + Math.floor(random() * 8);
  const ring = Array.from({ length: k }, (_, i) => {
    const t = (2 * Math.PI * (i + random() * 0.8)) / k;
    const r = size * (0.2 + random() * 0.8);
    return [clng + r * Math.cos(t), Math.max(-89.9, Math.min(89.9, clat + r * Math.sin(t)))];
  });
  if (u < 0.9) return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
  return { type: 'Feature', properties: null, geometry: { type: 'MultiPolygon', coordinates: [[ring], [[at(), at(), at()]]] } };
}

function randomQuery(random: () => number): ShapeQuery {
  const centers: [number, number][] = [[50.63, 3.06], [-17, 179.5], [65, -179.8], [88, 0]];
  const [lat, lng] = random() < 0.7 ? centers[Math.floor(random() * centers.length)]! : [random() * 160 - 80, random() * 360 - 180];
  const size = 10 ** (random() * 3.5 - 2);
  const u = random();
  const clampLat = (x: number) => Math.max(-90, Math.min(90, x));
  const wrapLng = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
  if (u < 0.35) {
    const top = clampLat(lat + random() * size);
    const bottom = clampLat(lat - random() * size);
    return { kind: 'box', top, bottom, right: wrapLng(lng + random() * size), left: wrapLng(lng - random() * size) };
  }
  if (u < 0.65) return { kind: 'circle', lat, lng, meters: size * 111_000 * random(), resolution: 3 + Math.floor(random() * 200) };
  const k = 3 + Math.floor(random() * 6);
  const points = Array.from({ length: k }, (_, i) => {
    const t = (2 * Math.PI * i) / k;
    const r = size * (0.3 + random() * 0.7);
    return [clampLat(lat + r * Math.sin(t)), wrapLng(lng + r * Math.cos(t))] as [number, number];
  });
  return { kind: 'polygon', points };
}

test('a box query: the polygon of Meilisearch, its inner box inside it', () => {
  const random = rng(8);
  for (let trial = 0; trial < 300; trial++) {
    const bottom = random() * 170 - 85;
    const top = Math.min(90, bottom + random() * 40);
    const left = random() * 360 - 180;
    const right = random() < 0.2 ? left - random() * 20 : Math.min(180, left + random() * 200);
    const region = queryRegion({ kind: 'box', top, right, bottom, left });
    const width = right >= left ? right - left : right - left + 360;
    // the box's corners are the polygon's
    assert.ok(region.contains(right, top) && region.contains(right - width, bottom));
    // a low, wide box whose bottom arc rises above its top corners has none
    const inner = region.inner;
    if (inner === null) continue;
    // inside: its corners, its centre, and no edge of the area crosses it
    for (const [x, y] of [[inner[0], inner[1]], [inner[2], inner[3]], [inner[0], inner[3]], [inner[2], inner[1]], [(inner[0] + inner[2]) / 2, (inner[1] + inner[3]) / 2]] as const) {
      assert.ok(region.contains(x, y));
    }
    const r = region.ring;
    for (let i = 0; i < r.length; i += 2) {
      const j = (i + 2) % r.length;
      const midX = (r[i]! + r[j]!) / 2;
      const midY = (r[i + 1]! + r[j + 1]!) / 2;
      assert.ok(!(midX > inner[0] && midX < inner[2] && midY > inner[1] && midY < inner[3]));
    }
  }
});

test('queries through the cells equal a scan of every shape, through changes', () => {
  const t = tables();
  const random = rng(7);
  const shapes = new Map<number, Shape>();
  let nonEmpty = 0;
  try {
    for (const round of [600, 300, 200]) {
      t.env.write(() => {
        const delta = new ShapeDelta();
        for (let i = 0; i < round; i++) {
          const id = Math.floor(random() * 700);
          const old = shapes.get(id);
          if (old !== undefined) {
            delta.remove(id, old);
            t.geojsonShapes.remove(id);
            shapes.delete(id);
            if (random() < 0.3) continue;
          }
          const shape = parseGeoJsonField(randomShape(random), String(id));
          if (shape === undefined) continue;
          delta.add(id, shape);
          t.geojsonShapes.put(id, encodeShape(shape));
          shapes.set(id, shape);
        }
        writeShapeDelta(t.geojsonCells, delta);
      });
      for (let q = 0; q < 150; q++) {
        const query = randomQuery(random);
        const region = queryRegion(query);
        const expected = [...shapes].filter(([, s]) => regionMeetsShape(region, s)).map(([id]) => id).sort((a, b) => a - b);
        assert.deepEqual(shapeDocids(t, query).toArray(), expected, JSON.stringify(query));
        if (expected.length > 0) nonEmpty++;
      }
    }
    assert.ok(nonEmpty > 150, `queries finding shapes: ${nonEmpty} of 450`);
    // every cell entry belongs to a live shape
    for (const [, bytes] of t.geojsonCells.entries()) {
      const { count, ids } = decodeCellEntries(bytes);
      for (let i = 0; i < count; i++) assert.ok(shapes.has(ids[5 * i]!));
    }
    // removing everything empties the cells
    t.env.write(() => {
      const delta = new ShapeDelta();
      for (const [id, shape] of shapes) delta.remove(id, shape);
      writeShapeDelta(t.geojsonCells, delta);
    });
    assert.equal(t.geojsonCells.count(), 0);
  } finally {
    void t.env.close();
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
});

test('Meilisearch’s countries: the Europe box, the box between Russia and Alaska, a circle', () => {
  const docs = JSON.parse(fs.readFileSync(fixturePath('meili/countries-geojson.json'), 'utf8')) as {
    name: string;
    _geojson: unknown;
  }[];
  const t = tables();
  try {
    t.env.write(() => {
      const delta = new ShapeDelta();
      docs.forEach((d, id) => {
        const shape = parseGeoJsonField(d._geojson, d.name)!;
        delta.add(id, shape);
        t.geojsonShapes.put(id, encodeShape(shape));
      });
      writeShapeDelta(t.geojsonCells, delta);
    });
    const names = (q: ShapeQuery) => shapeDocids(t, q).toArray().map((id) => docs[id]!.name);
    assert.deepEqual(names({ kind: 'box', top: 50.53987503447863, right: 21.43443989912143, bottom: 43.76393151539099, left: 0.54979129195425 }), [
      'Austria', 'Belgium', 'Bosnia_and_Herzegovina', 'Switzerland', 'Czech_Republic', 'Germany', 'France', 'Croatia', 'Hungary',
      'Italy', 'Luxembourg', 'Netherlands', 'Poland', 'Romania', 'Republic_of_Serbia', 'Slovakia', 'Slovenia',
    ]);
    assert.deepEqual(names({ kind: 'box', top: 70, right: -148, bottom: 63, left: 152 }), ['Russia', 'United_States_of_America']);
    // 300 km around Lille: France, Belgium, the Netherlands, Luxembourg, Germany, the United Kingdom
    assert.deepEqual(names({ kind: 'circle', lat: 50.63, lng: 3.06, meters: 300_000, resolution: 125 }), [
      'Belgium', 'Germany', 'France', 'United_Kingdom', 'Luxembourg', 'Netherlands',
    ]);
    assert.deepEqual(names({ kind: 'polygon', points: [[48, 2], [49, 2], [49, 3]] }), ['France']);
  } finally {
    void t.env.close();
    fs.rmSync(t.dir, { recursive: true, force: true });
  }
  // the circle's polygon: its vertices are on the circle, its edges inside it
  const region = queryRegion({ kind: 'circle', lat: 45, lng: 179.9, meters: 50_000, resolution: 16 });
  for (let i = 0; i < region.ring.length; i += 2) {
    const lng = region.ring[i]! > 180 ? region.ring[i]! - 360 : region.ring[i]!;
    assert.ok(haversineMeters(45, 179.9, region.ring[i + 1]!, lng) <= 50_000 * (1 + 1e-4));
  }
  assert.ok(region.east > 180, 'unwrapped across the antimeridian');
  assert.ok([...shapeParts(parseGeoJsonField({ type: 'Point', coordinates: [-179.95, 45] }, 'p')!)].length === 1);
  assert.ok(regionMeetsShape(region, parseGeoJsonField({ type: 'Point', coordinates: [-179.95, 45] }, 'p')!));
});
