// Geo argument checks at evaluation time (milli facet/filter/tests.rs `geo_radius_error`,
// `geo_bounding_box_error`):
// 1. Bad latitudes and longitudes quote the number, its span, and a longitude hint.
// 2. Checks run in milli's order: radius lat → lng → radius → resolution; bounding box top
//    lat, right lng, bottom lat, left lng, then top below bottom (blaming the left longitude).
// 3. Non-finite numbers and out-of-range resolutions are refused; good arguments come back as
//    numbers (resolution 125 by default, truncated otherwise).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  geoBoundingBoxArgs,
  geoPolygonPoints,
  geoRadiusArgs,
  parseFilter,
  type GeoBoundingBoxNode,
  type GeoPolygonNode,
  type GeoRadiusNode,
} from './index.ts';

const radius = (text: string): GeoRadiusNode => parseFilter(text) as GeoRadiusNode;
const box = (text: string): GeoBoundingBoxNode => parseFilter(text) as GeoBoundingBoxNode;
const polygon = (text: string): GeoPolygonNode => parseFilter(text) as GeoPolygonNode;

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    return (e as Error).message;
  }
  return '<no error>';
}

const LAT = (v: string): string => `Bad latitude \`${v}\`. Latitude must be contained between -90 and 90 degrees.`;
const LNG = (v: string, hint: string): string =>
  `Bad longitude \`${v}\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`${hint}\` instead.`;

test('1. _geoRadius coordinates (upstream)', () => {
  const cases: [string, string][] = [
    ['_geoRadius(-100, 150, 10)', `${LAT('-100')}\n12:16 _geoRadius(-100, 150, 10)`],
    ['_geoRadius(-90.0000001, 150, 10)', `${LAT('-90.0000001')}\n12:23 _geoRadius(-90.0000001, 150, 10)`],
    ['_geoRadius(-10, 250, 10)', `${LNG('250', '-110')}\n17:20 _geoRadius(-10, 250, 10)`],
    ['_geoRadius(-10, 180.000001, 10)', `${LNG('180.000001', '-179.999999')}\n17:27 _geoRadius(-10, 180.000001, 10)`],
  ];
  for (const [filter, expected] of cases) assert.equal(messageOf(() => geoRadiusArgs(radius(filter))), expected);
});

test('1. _geoBoundingBox coordinates (upstream)', () => {
  const cases: [string, string][] = [
    ['_geoBoundingBox([-90.0000001, 150], [30, 10])', `${LAT('-90.0000001')}\n18:29 _geoBoundingBox([-90.0000001, 150], [30, 10])`],
    ['_geoBoundingBox([90.0000001, 150], [30, 10])', `${LAT('90.0000001')}\n18:28 _geoBoundingBox([90.0000001, 150], [30, 10])`],
    ['_geoBoundingBox([30, 10], [-90.0000001, 150])', `${LAT('-90.0000001')}\n28:39 _geoBoundingBox([30, 10], [-90.0000001, 150])`],
    ['_geoBoundingBox([30, 10], [90.0000001, 150])', `${LAT('90.0000001')}\n28:38 _geoBoundingBox([30, 10], [90.0000001, 150])`],
    ['_geoBoundingBox([-10, 180.000001], [30, 10])', `${LNG('180.000001', '-179.999999')}\n23:33 _geoBoundingBox([-10, 180.000001], [30, 10])`],
    ['_geoBoundingBox([-10, -180.000001], [30, 10])', `${LNG('-180.000001', '179.999999')}\n23:34 _geoBoundingBox([-10, -180.000001], [30, 10])`],
    ['_geoBoundingBox([30, 10], [-10, -180.000001])', `${LNG('-180.000001', '179.999999')}\n33:44 _geoBoundingBox([30, 10], [-10, -180.000001])`],
    ['_geoBoundingBox([30, 10], [-10, 180.000001])', `${LNG('180.000001', '-179.999999')}\n33:43 _geoBoundingBox([30, 10], [-10, 180.000001])`],
  ];
  for (const [filter, expected] of cases) assert.equal(messageOf(() => geoBoundingBoxArgs(box(filter))), expected);
});

test('2. check order and the top-below-bottom error', () => {
  // latitude first even when the longitude is also wrong
  assert.match(messageOf(() => geoRadiusArgs(radius('_geoRadius(100, 500, 1)'))), /^Bad latitude `100`/);
  // a bad radius only matters once the point is fine
  assert.match(messageOf(() => geoRadiusArgs(radius('_geoRadius(100, 0, 1e999)'))), /^Bad latitude/);
  assert.equal(
    messageOf(() => geoRadiusArgs(radius('_geoRadius(1, 0, 1e999)'))),
    'Non finite floats are not supported\n18:23 _geoRadius(1, 0, 1e999)',
  );
  // every number is parsed before any range check
  assert.equal(
    messageOf(() => geoBoundingBoxArgs(box('_geoBoundingBox([100, 0], [1, 1e999])'))),
    'Non finite floats are not supported\n31:36 _geoBoundingBox([100, 0], [1, 1e999])',
  );
  assert.equal(
    messageOf(() => geoBoundingBoxArgs(box('_geoBoundingBox([10, 20], [30, 5])'))),
    'The top latitude `10` is below the bottom latitude `30`.\n32:33 _geoBoundingBox([10, 20], [30, 5])',
  );
  assert.equal(
    messageOf(() => geoPolygonPoints(polygon('_geoPolygon([1, 2], [3, 400], [95, 6])'))),
    `${LNG('400', '40')}\n25:28 _geoPolygon([1, 2], [3, 400], [95, 6])`,
  );
  assert.equal(
    messageOf(() => geoRadiusArgs(radius('_geoRadius(1e-7, 0, 1e21, 2)'))),
    'Invalid resolution `2`. Resolution must be between 3 and 1000.\n27:28 _geoRadius(1e-7, 0, 1e21, 2)',
  );
  assert.equal(
    messageOf(() => geoRadiusArgs(radius('_geoRadius(0, 0, 1, -5)'))),
    'Invalid resolution `0`. Resolution must be between 3 and 1000.\n21:23 _geoRadius(0, 0, 1, -5)',
  );
  assert.equal(
    messageOf(() => geoRadiusArgs(radius('_geoRadius(0, 0, 1, 1e30)'))),
    'Invalid resolution `18446744073709551615`. Resolution must be between 3 and 1000.\n21:25 _geoRadius(0, 0, 1, 1e30)',
  );
  assert.equal(
    messageOf(() => geoRadiusArgs(radius('_geoRadius(1e300, 0, 1)'))),
    `${LAT(`1${'0'.repeat(300)}`)}\n12:17 _geoRadius(1e300, 0, 1)`,
  );
  assert.equal(
    messageOf(() => geoRadiusArgs(radius('_geoRadius(0, -540, 1)'))),
    `${LNG('-540', '-180')}\n15:19 _geoRadius(0, -540, 1)`,
  );
});

test('3. good arguments', () => {
  assert.deepEqual(geoRadiusArgs(radius('_geoRadius(45.472735, 9.184019, 2000)')), {
    lat: 45.472735,
    lng: 9.184019,
    radius: 2000,
    resolution: 125,
  });
  assert.equal(geoRadiusArgs(radius('_geoRadius(-90, 180, 0, 999.9)')).resolution, 999);
  assert.deepEqual(geoBoundingBoxArgs(box('_geoBoundingBox([45.49, -170], [45.44, 170])')), {
    top: 45.49,
    right: -170,
    bottom: 45.44,
    left: 170,
  });
  assert.deepEqual(geoPolygonPoints(polygon('_geoPolygon([1, 2], [3, 4], [5, 6])')), [
    [1, 2],
    [3, 4],
    [5, 6],
  ]);
});
