// `_geojson` values: what is read, what is refused and how, and the stored form. Checks:
// 1. every GeoJSON type becomes its parts (points, lines, exterior rings; holes ignored;
//    collections and features flattened; null geometries of a collection skipped)
// 2. rings: closed or not alike, degenerate ones become lines or points; edges densified
// 3. null and empty collections have no shape
// 4. refused values: the message names the document and the JSON path (table)
// 5. encode/decode round trip
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineError } from '../errors.ts';
import { decodeShape, encodeShape, geoJsonShapeOf, parseGeoJsonField, shapeParts, type Shape } from './geojson.ts';

const parse = (value: unknown) => parseGeoJsonField(value, '7');
const kinds = (shape: Shape | undefined) => (shape === undefined ? [] : [...shapeParts(shape)].map(([kind, from, to]) => `${kind}:${(to - from) / 2}`));

test('every type becomes its parts', () => {
  assert.deepEqual(kinds(parse({ type: 'Point', coordinates: [1, 2, 30] })), ['point:1']);
  assert.deepEqual([...parse({ type: 'Point', coordinates: [1, 2] })!.coords], [1, 2]);
  assert.deepEqual(kinds(parse({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] })), ['point:1', 'point:1']);
  assert.deepEqual(kinds(parse({ type: 'LineString', coordinates: [[0, 0], [0, 1], [0, 2]] })), ['line:3']);
  assert.deepEqual(kinds(parse({ type: 'MultiLineString', coordinates: [[[0, 0], [0, 1]], [[1, 1], [1, 1]]] })), ['point:1', 'line:2']);
  const square = [[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]];
  const hole = [[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.2]];
  assert.deepEqual(kinds(parse({ type: 'Polygon', coordinates: [square, hole] })), [`ring:${parse({ type: 'Polygon', coordinates: [square] })!.coords.length / 2}`]);
  assert.deepEqual(kinds(parse({ type: 'MultiPolygon', coordinates: [[square], [], [[[5, 5]]]] })).length, 2);
  const collection = {
    type: 'GeometryCollection',
    geometries: [
      { type: 'Point', coordinates: [1, 1] },
      { type: 'GeometryCollection', geometries: [{ type: 'LineString', coordinates: [[0, 0], [0, 3]] }] },
    ],
  };
  assert.deepEqual(kinds(parse(collection)), ['point:1', 'line:2']);
  assert.deepEqual(kinds(parse({ type: 'Feature', properties: { a: 1 }, id: 'x', geometry: collection })), ['point:1', 'line:2']);
  const features = {
    type: 'FeatureCollection',
    features: [
      { type: 'Feature', geometry: null, properties: null },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [4.23914, 48.382893] }, properties: {} },
    ],
  };
  assert.deepEqual(kinds(parse(features)), ['point:1']);
});

test('rings: closed or open alike, degenerate ones shrink, edges densified', () => {
  const open = parse({ type: 'Polygon', coordinates: [[[0, 40], [10, 40], [10, 50], [0, 50]]] })!;
  const closed = parse({ type: 'Polygon', coordinates: [[[0, 40], [10, 40], [10, 50], [0, 50], [0, 40]]] })!;
  assert.deepEqual(closed, open);
  // the 10° edges along parallels are cut (they bulge towards the pole), the meridians are not
  assert.ok(open.coords.length / 2 > 20);
  assert.deepEqual(kinds(parse({ type: 'Polygon', coordinates: [[[1, 1], [1, 1], [1, 1], [1, 1]]] })), ['point:1']);
  assert.deepEqual(kinds(parse({ type: 'Polygon', coordinates: [[[1, 0], [2, 0], [1, 0]]] })), ['line:2']);
});

test('null and empty values have no shape', () => {
  assert.equal(parse(null), undefined);
  assert.equal(parse({ type: 'MultiPoint', coordinates: [] }), undefined);
  assert.equal(parse({ type: 'Polygon', coordinates: [] }), undefined);
  assert.equal(parse({ type: 'FeatureCollection', features: [] }), undefined);
  assert.equal(parse({ type: 'GeometryCollection', geometries: [] }), undefined);
  assert.equal(geoJsonShapeOf({ type: 'Point' }), undefined);
});

const PREFIX = 'The `_geojson` field in the document with the id: `"7"` is not valid GeoJSON: ';
const GEOMETRIES = '`Point`, `MultiPoint`, `LineString`, `MultiLineString`, `Polygon`, `MultiPolygon` or `GeometryCollection`';
const ALL = '`Point`, `MultiPoint`, `LineString`, `MultiLineString`, `Polygon`, `MultiPolygon`, `GeometryCollection`, `Feature` or `FeatureCollection`';

const refused: [unknown, string][] = [
  [5, '`_geojson` must be an object, found `5`'],
  [[1, 2], '`_geojson` must be an object, found `[1,2]`'],
  ['POINT(1 2)', '`_geojson` must be an object, found `"POINT(1 2)"`'],
  [{}, '`_geojson.type` is missing'],
  [{ type: 5 }, '`_geojson.type` must be a string, found `5`'],
  [{ type: 'Circle', coordinates: [1, 2] }, `\`_geojson.type\` is \`Circle\`, expected ${ALL}`],
  [{ type: 'Point' }, '`_geojson.coordinates` is missing'],
  [{ type: 'Point', coordinates: [1] }, '`_geojson.coordinates` must be a position (an array of two or more numbers: longitude, latitude), found `[1]`'],
  [{ type: 'Point', coordinates: ['1', '2'] }, '`_geojson.coordinates` must be a position (an array of two or more numbers: longitude, latitude), found `["1","2"]`'],
  [{ type: 'LineString', coordinates: 5 }, '`_geojson.coordinates` must be an array, found `5`'],
  [
    { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]], [[0, 0], [1]]] },
    '`_geojson.coordinates[1][1]` must be a position (an array of two or more numbers: longitude, latitude), found `[1]`',
  ],
  [{ type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1]]], [5]] }, '`_geojson.coordinates[1][0]` must be an array, found `5`'],
  [{ type: 'Feature' }, '`_geojson.geometry` is missing'],
  [{ type: 'Feature', geometry: null }, '`_geojson.geometry` is null: a Feature without a geometry has no shape'],
  [{ type: 'Feature', geometry: [1, 2] }, '`_geojson.geometry` must be an object or null, found `[1,2]`'],
  [{ type: 'Feature', geometry: { type: 'Feature' } }, `\`_geojson.geometry.type\` is \`Feature\`, expected ${GEOMETRIES}`],
  [{ type: 'Feature', properties: 5, geometry: null }, '`_geojson.properties` must be an object or null, found `5`'],
  [{ type: 'Feature', id: true, geometry: null }, '`_geojson.id` must be a string or a number, found `true`'],
  [{ type: 'FeatureCollection' }, '`_geojson.features` is missing'],
  [{ type: 'FeatureCollection', features: [{ type: 'Point', coordinates: [1, 2] }] }, '`_geojson.features[0].type` is `Point`, expected `Feature`'],
  [{ type: 'FeatureCollection', features: [null] }, '`_geojson.features[0]` must be an object, found `null`'],
  [
    { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }, { type: 'LineString', coordinates: [[0, 0], 'x'] }] },
    '`_geojson.geometries[1].coordinates[1]` must be a position (an array of two or more numbers: longitude, latitude), found `"x"`',
  ],
  [{ type: 'Point', coordinates: [1, 2], bbox: 'all' }, '`_geojson.bbox` must be an array of numbers, found `"all"`'],
  [
    { type: 'Point', coordinates: [Array.from({ length: 40 }, (_, i) => i)] },
    `\`_geojson.coordinates\` must be a position (an array of two or more numbers: longitude, latitude), found \`${JSON.stringify([Array.from({ length: 40 }, (_, i) => i)]).slice(0, 77)}...\``,
  ],
];

test('refused values name the document and the path', () => {
  for (const [value, detail] of refused) {
    assert.throws(
      () => parse(value),
      (err: unknown) => {
        assert.ok(err instanceof EngineError);
        assert.equal(err.kind, 'invalid_document_geojson_field');
        assert.equal(err.message, `${PREFIX}${detail}.`);
        return true;
      },
      JSON.stringify(value),
    );
  }
  assert.throws(() => parseGeoJsonField(5, 'doc-1'), /in the document with the id: `"doc-1"`/);
});

test('a shape survives encoding', () => {
  const values = [
    { type: 'Point', coordinates: [1.5, -2.25] },
    {
      type: 'GeometryCollection',
      geometries: [
        { type: 'MultiPoint', coordinates: [[1, 2], [3, 4], [5, 6]] },
        { type: 'LineString', coordinates: [[170, 0], [-170, 5]] },
        { type: 'MultiPolygon', coordinates: [[[[0, 0], [30, 0], [30, 30], [0, 0]]], [[[-10, -10], [-5, -10], [-5, -5]]]] },
      ],
    },
  ];
  for (const value of values) {
    const shape = parse(value)!;
    const back = decodeShape(encodeShape(shape));
    assert.deepEqual(back, shape);
    assert.deepEqual(kinds(back), kinds(shape));
  }
});
