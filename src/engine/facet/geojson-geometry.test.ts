// Geometry of `_geojson` shapes against brute force. Checks:
// 1. convex figures (integer vertices, so that they often touch, share edges or vertices): an area
//    meets a ring or a line exactly when no separating axis exists (closed sets)
// 2. random star-shaped (non-convex) rings: point containment equals a winding-number scan with
//    an explicit boundary test; meeting a ring or a line equals an all-pairs scan (no bands)
// 3. `containsBox` never claims a box that a sample of its points contradicts, and finds boxes
//    well inside
// 4. densified arcs lie on their great circle, stay within the tolerance of it, and leave
//    meridians and the equator alone; longitudes are unwrapped across the antimeridian; a ring
//    around a pole is closed along it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from '../random.fixtures.ts';
import { appendArc, densifyLine, densifyRing, frameShifts, Region, ringContains, segmentsMeet, TOLERANCE, unwrap } from './geojson-geometry.ts';

type Pt = [number, number];

function hull(points: Pt[]): Pt[] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Pt, a: Pt, b: Pt) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list: Pt[]) => {
    const out: Pt[] = [];
    for (const q of list) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  const h = [...half(p), ...half([...p].reverse())];
  return h.length === 0 ? [p[0]!] : h;
}

/** Closed convex sets (polygons, segments, points) meet: no axis separates them. */
function separatingAxisMeet(a: Pt[], b: Pt[]): boolean {
  const axes: Pt[] = [];
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i]!;
      const q = poly[(i + 1) % poly.length]!;
      if (p[0] !== q[0] || p[1] !== q[1]) axes.push([q[1] - p[1], p[0] - q[0]], [q[0] - p[0], q[1] - p[1]]);
    }
  }
  // two points: the axis joining them
  axes.push([b[0]![0] - a[0]![0], b[0]![1] - a[0]![1]]);
  for (const [ax, ay] of axes) {
    const proj = (poly: Pt[]) => poly.map(([x, y]) => x * ax + y * ay);
    const pa = proj(a);
    const pb = proj(b);
    if (Math.max(...pa) < Math.min(...pb) || Math.max(...pb) < Math.min(...pa)) return false;
  }
  return true;
}

const flat = (ps: Pt[]) => ps.flat();

test('convex figures: an area meets a ring or a line exactly when no axis separates them', () => {
  const random = rng(1);
  const int = (n: number) => Math.floor(random() * n);
  let met = 0;
  for (let trial = 0; trial < 4000; trial++) {
    const a = hull(Array.from({ length: 3 + int(5) }, () => [int(9), int(9)] as Pt));
    const b = hull(Array.from({ length: 1 + int(5) }, () => [int(9), int(9)] as Pt));
    const region = new Region(flat(a));
    const kind = b.length === 1 ? 'point' : b.length === 2 ? 'line' : 'ring';
    const expected = separatingAxisMeet(a, b);
    assert.equal(region.meetsPart(kind, flat(b), 0, 2 * b.length, 0), expected, `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
    if (expected) met++;
  }
  assert.ok(met > 1000 && met < 3500, `a mix of outcomes (${met})`);
});

function starRing(random: () => number, cx: number, cy: number, size: number): Pt[] {
  const n = 3 + Math.floor(random() * 12);
  const angles = Array.from({ length: n }, () => random() * 2 * Math.PI).sort((x, y) => x - y);
  return angles.map((t) => {
    const r = size * (0.2 + random());
    return [Math.round((cx + r * Math.cos(t)) * 4) / 4, Math.round((cy + r * Math.sin(t)) * 4) / 4];
  });
}

function windingContains(ring: Pt[], [px, py]: Pt): boolean {
  for (let i = 0; i < ring.length; i++) {
    if (segmentsMeet(px, py, px, py, ...ring[i]!, ...ring[(i + 1) % ring.length]!)) return true;
  }
  let winding = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[(i + 1) % ring.length]!;
    const side = (bx - ax) * (py - ay) - (px - ax) * (by - ay);
    if (ay <= py && by > py && side > 0) winding++;
    else if (ay > py && by <= py && side < 0) winding--;
  }
  return winding !== 0;
}

function allPairsMeet(area: Pt[], figure: Pt[], closed: boolean): boolean {
  const edges = closed ? figure.length : figure.length - 1;
  for (let i = 0; i < edges; i++) {
    for (let j = 0; j < area.length; j++) {
      if (segmentsMeet(...figure[i]!, ...figure[(i + 1) % figure.length]!, ...area[j]!, ...area[(j + 1) % area.length]!)) return true;
    }
  }
  if (ringContains(flat(area), 0, 2 * area.length, 0, ...figure[0]!)) return true;
  return closed && ringContains(flat(figure), 0, 2 * figure.length, 0, ...area[0]!);
}

test('star-shaped rings: containment and meeting equal scans of every edge', () => {
  const random = rng(2);
  for (let trial = 0; trial < 600; trial++) {
    const area = starRing(random, 0, 0, 5);
    const region = new Region(flat(area));
    for (let k = 0; k < 40; k++) {
      // quarter-degree points: many on edges and vertices
      const p: Pt = [Math.round((random() * 14 - 7) * 4) / 4, Math.round((random() * 14 - 7) * 4) / 4];
      const simple = (() => {
        for (let i = 0; i < area.length; i++) for (let j = i + 2; j < area.length; j++) {
          if ((j + 1) % area.length === i) continue;
          if (segmentsMeet(...area[i]!, ...area[i + 1]!, ...area[j]!, ...area[(j + 1) % area.length]!)) return false;
        }
        return true;
      })();
      // even-odd and winding agree on simple rings
      if (simple) assert.equal(region.contains(...p), windingContains(area, p), `${JSON.stringify(area)} ${p}`);
      assert.equal(region.contains(...p), ringContains(flat(area), 0, 2 * area.length, 0, ...p));
    }
    const figure = starRing(random, random() * 12 - 6, random() * 12 - 6, 1 + random() * 4);
    assert.equal(region.meetsPart('ring', flat(figure), 0, 2 * figure.length, 0), allPairsMeet(area, figure, true));
    assert.equal(region.meetsPart('line', flat(figure), 0, 2 * figure.length, 0), allPairsMeet(area, figure, false));
  }
});

test('containsBox is never wrong and finds boxes well inside', () => {
  const random = rng(3);
  let found = 0;
  for (let trial = 0; trial < 1500; trial++) {
    const area = starRing(random, 0, 0, 6);
    const region = new Region(flat(area));
    const w = random() * 10 - 5;
    const s = random() * 10 - 5;
    const e = w + random() * 2;
    const n = s + random() * 2;
    if (!region.containsBox(w, s, e, n)) continue;
    found++;
    for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) {
      assert.ok(windingContains(area, [w + ((e - w) * i) / 8, s + ((n - s) * j) / 8]) || region.contains(w + ((e - w) * i) / 8, s + ((n - s) * j) / 8));
    }
  }
  assert.ok(found > 50, `boxes found inside (${found})`);
  const square = new Region([0, 0, 10, 0, 10, 10, 0, 10]);
  assert.equal(square.containsBox(1, 1, 9, 9), true);
  assert.equal(square.containsBox(-1, 1, 9, 9), false);
  // a notch reaching into the box
  const notched = new Region([0, 0, 10, 0, 10, 10, 5, 5, 0, 10]);
  assert.equal(notched.containsBox(1, 1, 9, 9), false);
  assert.equal(notched.containsBox(1, 1, 9, 4), true);
});

const RAD = Math.PI / 180;
const unit = (lng: number, lat: number) => [Math.cos(lat * RAD) * Math.cos(lng * RAD), Math.cos(lat * RAD) * Math.sin(lng * RAD), Math.sin(lat * RAD)];

test('densified arcs follow their great circle within the tolerance', () => {
  const random = rng(4);
  for (let trial = 0; trial < 300; trial++) {
    const lng0 = random() * 360 - 180;
    const lat0 = random() * 140 - 70;
    const lng1 = unwrap(lng0 + (random() - 0.5) * 120, lng0);
    const lat1 = random() * 140 - 70;
    const out: number[] = [lng0, lat0];
    appendArc(out, lng0, lat0, lng1, lat1);
    assert.deepEqual(out.slice(-2), [lng1, lat1]);
    const [ax, ay, az] = unit(lng0, lat0);
    const [bx, by, bz] = unit(lng1, lat1);
    const normal = [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx];
    const len = Math.hypot(...normal);
    for (let i = 0; i < out.length; i += 2) {
      const v = unit(out[i]!, out[i + 1]!);
      assert.ok(Math.abs((v[0]! * normal[0]! + v[1]! * normal[1]! + v[2]! * normal[2]!) / len) < 1e-9, 'on the great circle');
      if (i > 0) assert.ok(Math.abs(out[i]! - out[i - 2]!) <= 180, 'unwrapped');
    }
    // every chord's midpoint is within the tolerance of the arc's midpoint
    for (let i = 2; i < out.length; i += 2) {
      const u = unit(out[i - 2]!, out[i - 1]!);
      const v = unit(out[i]!, out[i + 1]!);
      const m = [u[0]! + v[0]!, u[1]! + v[1]!, u[2]! + v[2]!];
      const latM = Math.atan2(m[2]!, Math.hypot(m[0]!, m[1]!)) / RAD;
      const lngM = unwrap(Math.atan2(m[1]!, m[0]!) / RAD, out[i - 2]!);
      assert.ok(Math.abs(latM - (out[i - 1]! + out[i + 1]!) / 2) <= TOLERANCE * 1.01);
      assert.ok(Math.abs(lngM - (out[i - 2]! + out[i]!) / 2) <= TOLERANCE * 1.01);
    }
    assert.ok(out.length / 2 < 3000);
  }
  // meridians and the equator are great circles already
  assert.deepEqual(densifyLine([10, -40, 10, 60]), [10, -40, 10, 60]);
  assert.deepEqual(densifyLine([-30, 0, 60, 0]), [-30, 0, 60, 0]);
  // a parallel bulges towards the pole: the Europe box of Meilisearch's test reaches 51° at its middle
  const top = densifyLine([21.43443989912143, 50.53987503447863, 0.54979129195425, 50.53987503447863]);
  const highest = Math.max(...top.filter((_, i) => i % 2 === 1));
  assert.ok(highest > 50.99 && highest < 51.01, String(highest));
  assert.ok(TOLERANCE < 1e-4);
});

test('longitudes are unwrapped across the antimeridian, rings around a pole closed along it', () => {
  assert.deepEqual(densifyLine([170, 0, -170, 0]), [170, 0, 190, 0]);
  assert.deepEqual(densifyLine([-170, 0, 170, 0]), [-170, 0, -190, 0]);
  // a box across the antimeridian: west 170, east 190
  const ring = densifyRing([170, -10, -170, -10, -170, 10, 170, 10]);
  const region = new Region(ring);
  assert.ok(region.west >= 170 - 1e-9 && region.east <= 190 + 1e-9);
  assert.equal(region.contains(180, 0), true);
  assert.equal(region.contains(175, 0), true);
  assert.deepEqual(frameShifts(-180, -175, region.west, region.east), [360]);
  // Antarctica-like: a ring along -80° from -180 to 180, then down to the pole
  const around = densifyRing([-180, -80, -90, -80, 0, -80, 90, -80, 180, -80, 180, -90, -180, -90]);
  const antarctica = new Region(around);
  assert.equal(antarctica.contains(0, -85), true);
  assert.equal(antarctica.contains(0, -70), false);
  assert.equal(antarctica.south, -90);
  // a ring going once around the north pole without touching it
  const cap = densifyRing([0, 80, 90, 80, 180, 80, -90, 80]);
  const capRegion = new Region(cap);
  assert.equal(capRegion.north, 90);
  assert.equal(capRegion.contains(45, 89), true);
  assert.equal(capRegion.contains(45, 70), false);
});
