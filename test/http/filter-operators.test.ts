// Every filter operator through the official client, on a small hand-made index whose answers
// are worked out by hand from filters.md §3–4 (and checked against a naive haversine /
// point-in-box computation for the geo filters, §6). Properties checked:
// 1. `=` / `!=` on numbers, numeric strings, strings (normalized: case, trim, NFKD, no accent
//    folding), booleans (`true`/`false` match booleans and the strings), multi-valued arrays,
//    nested objects under dot paths; `!=` includes documents without the field
// 2. `>`, `>=`, `<`, `<=`: numeric range ∪ byte-wise range of the string values; `TO` inclusive,
//    numeric part only when both bounds are numbers, reversed bounds select nothing
// 3. `EXISTS`, `IS NULL`, `IS EMPTY` and their negations (null / `""` / `[]` / `{}` at the
//    field's own level), `IN [...]` / `NOT IN`, filterable fields the index never saw
// 4. `NOT`, `AND`, `OR`, precedence (NOT > AND > OR), parentheses, quoting (single, double,
//    escapes, quoted field names and keywords), operators without spaces
// 5. the JSON forms: arrays (AND) of strings and inner arrays (OR), blank and empty parts
// 6. `CONTAINS` / `NOT CONTAINS` with the `containsFilter` experimental feature;
//    `STARTS WITH` / `NOT STARTS WITH` (not gated in 1.50, filters.md §4)
// 7. `_geoRadius` (with and without resolution, across the antimeridian) and
//    `_geoBoundingBox` (including a box crossing the antimeridian), numeric-string coordinates
// 8. filtered searches with sort (numbers, strings, missing last; arrays by their best value),
//    distinct and facet distribution
// 9. the same filters on GET search and documents browse (raw text and JSON in the query
//    string), documents fetch (also with `ids`), delete by filter (task details) and facet search
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

type Doc = Record<string, unknown> & { id: number };

const DOCS: Doc[] = [
  { id: 1, n: 10, s: 'Apple', b: true, tags: ['red', 'green'], v: 'x', obj: { x: 1, y: 'Alpha', deep: { z: 'Zed' } }, _geo: { lat: 48.8566, lng: 2.3522 } },
  { id: 2, n: 10.5, s: 'banana', b: false, tags: ['Blue'], v: null, obj: { x: 2, y: 'beta' }, _geo: { lat: 51.5074, lng: -0.1278 } },
  { id: 3, n: '10', s: 'cherry', b: 'true', tags: [], v: '', obj: { x: '2' }, _geo: { lat: '45.4642', lng: '9.19' } },
  { id: 4, n: 2.5, s: 'apple pie', b: 'FALSE', tags: ['red'], v: [], obj: {}, _geo: { lat: 40.7128, lng: -74.006 } },
  { id: 5, n: -3, s: '  APPLE ', b: null, tags: ['green', ['nested', 'red']], v: {}, obj: null, _geo: { lat: -33.8688, lng: 151.2093 } },
  { id: 6, n: 'abc', s: 'Éclair', tags: 'red', v: 0, obj: { y: ['Alpha', 'gamma'] }, _geo: { lat: 35.6762, lng: 139.6503 } },
  { id: 7, n: null, s: 'AND', tags: null, v: false, people: [{ name: 'Ann', age: 31 }, { name: 'Bob', age: 45 }], _geo: { lat: 64.1466, lng: -21.9426 } },
  { id: 8, n: [1, 20], s: `it's "quoted"`, tags: ['a b', 'c'], v: 'Y', people: [{ name: 'bob' }], _geo: { lat: -17.7134, lng: 178.065 } },
  { id: 9 },
  { id: 10, n: '9', s: 'back\\slash', people: { name: 'Cy', age: 5 }, _geo: { lat: -16.5, lng: -179.9 } },
];
const ALL = DOCS.map((d) => d.id);
const allBut = (...ids: number[]) => ALL.filter((id) => !ids.includes(id));
const FILTERABLE = ['n', 's', 'b', 'tags', 'v', 'obj', 'people', 'ghost', '_geo'];

let t: TestServer;
let uid: string;

before(async () => {
  t = await startTestServer();
  uid = uniqueIndex('filter_ops');
  await t.client.createIndex(uid, { primaryKey: 'id' }).waitTask();
  const index = t.client.index(uid);
  await index.updateSettings({ filterableAttributes: FILTERABLE, sortableAttributes: ['n'] }).waitTask();
  const task = await index.addDocuments(DOCS).waitTask();
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
});
after(async () => {
  await t?.close();
});

const sorted = (ids: unknown[]) => (ids as number[]).slice().sort((a, b) => a - b);

/** The ids of the documents a search with this filter returns, sorted. */
async function hits(filter: unknown, index = uid): Promise<number[]> {
  const res = await t.client.index(index).search('', { filter: filter as string, limit: 100, attributesToRetrieve: ['id'] });
  assert.equal(res.estimatedTotalHits, res.hits.length);
  return sorted(res.hits.map((h) => h.id));
}

/** Checks [filter, expected ids] pairs, reporting every mismatch at once. */
async function expectAll(cases: [unknown, number[]][], index = uid): Promise<void> {
  const wrong: string[] = [];
  for (const [filter, expected] of cases) {
    const got = await hits(filter, index);
    if (JSON.stringify(got) !== JSON.stringify(sorted(expected))) {
      wrong.push(`${JSON.stringify(filter)}: got [${got}], expected [${sorted(expected)}]`);
    }
  }
  assert.deepEqual(wrong, []);
}

describe('comparison operators', () => {
  test('= and != on numbers, numeric strings and strings', async () => {
    await expectAll([
      // a number matches numbers and the numeric string spelled the same way
      ['n = 10', [1, 3]],
      ['n = 10.0', [1]],
      ['n = 1e1', [1]],
      ['n = -3', [5]],
      ['n = abc', [6]],
      ['n = 9', [10]],
      // multi-valued: any value
      ['n = 20', [8]],
      ['n = 1 AND n = 20', [8]],
      // != is the complement, documents without the field included
      ['n != 10', allBut(1, 3)],
      ['n != 20', allBut(8)],
      ['v != x', allBut(1)],
      // normalization: case, surrounding spaces, NFKD; accents are not folded
      ['s = apple', [1, 5]],
      ['s = APPLE', [1, 5]],
      ["s = '  apple  '", [1, 5]],
      ['s = "Apple Pie"', [4]],
      ['s = éclair', [6]],
      ['s = ÉCLAIR', [6]],
      ['s = eclair', []],
      ['s != apple', allBut(1, 5)],
      // the empty string is no string value
      ["v = ''", []],
      ["s = ''", []],
    ]);
  });

  test('booleans are the strings "true" and "false"', async () => {
    await expectAll([
      ['b = true', [1, 3]],
      ['b = TRUE', [1, 3]],
      ['b = false', [2, 4]],
      ['b = "False"', [2, 4]],
      ['b != false', allBut(2, 4)],
      ['b IN [true, false]', [1, 2, 3, 4]],
      ['v = false', [7]],
      ['v = 0', [6]],
    ]);
  });

  test('> >= < <= on numbers and lexicographic strings', async () => {
    await expectAll([
      // numbers > 9, and the strings after "9" byte-wise ("abc"; "10" is before "9")
      ['n > 9', [1, 2, 6, 8]],
      ['n >= 9', [1, 2, 6, 8, 10]],
      ['n >= 10', [1, 2, 3, 6, 8, 10]],
      ['n > 10', [2, 6, 8, 10]],
      ['n < 2.5', [3, 5, 8]],
      ['n <= 2.5', [3, 4, 5, 8]],
      ['n < 0', [5]],
      ['n>=10', [1, 2, 3, 6, 8, 10]],
      // strings only
      ['s > b', [2, 3, 6, 8, 10]],
      ['s >= banana', [2, 3, 6, 8]],
      ['s < apple', [7]],
      ['s <= APPLE', [1, 5, 7]],
      ['n > abc', []],
      // nested fields
      ['obj.x > 1', [2, 3]],
      ['people.age > 30', [7]],
    ]);
  });

  test('TO ranges are inclusive', async () => {
    await expectAll([
      ['n 1 TO 10', [1, 3, 4, 8]],
      ['n 2.5 TO 10.5', [1, 2, 4]],
      ['n 10 TO 1', []],
      // a bound that is not a number: the string part only
      ['n a TO b', [6]],
      ['n 9 TO abc', [6, 10]],
      ['s apple TO banana', [1, 2, 4, 5, 10]],
      ['s banana TO apple', []],
      ['obj.x 1 TO 2', [1, 2, 3]],
      ['people.age 5 TO 31', [7, 10]],
      ['NOT n 1 TO 10', allBut(1, 3, 4, 8)],
    ]);
  });
});

describe('existence, null, empty and lists', () => {
  test('EXISTS, IS NULL, IS EMPTY and their negations', async () => {
    await expectAll([
      ['n EXISTS', allBut(9)],
      ['n NOT EXISTS', [9]],
      ['v EXISTS', [1, 2, 3, 4, 5, 6, 7, 8]],
      ['v NOT EXISTS', [9, 10]],
      ['n IS NULL', [7]],
      ['n IS NOT NULL', allBut(7)],
      ['v IS NULL', [2]],
      ['b IS NULL', [5]],
      ['tags IS NULL', [7]],
      ['obj IS NULL', [5]],
      ['v IS EMPTY', [3, 4, 5]],
      ['v IS NOT EMPTY', allBut(3, 4, 5)],
      ['tags IS EMPTY', [3]],
      ['tags IS NOT EMPTY', allBut(3)],
      ['obj IS EMPTY', [4]],
      // parents of nested fields exist, whatever their value
      ['obj EXISTS', [1, 2, 3, 4, 5, 6]],
      ['obj.deep EXISTS', [1]],
      ['obj.x EXISTS', [1, 2, 3]],
      ['obj.y NOT EXISTS', allBut(1, 2, 6)],
      ['people EXISTS', [7, 8, 10]],
    ]);
  });

  test('IN and NOT IN', async () => {
    await expectAll([
      ['n IN [10, 2.5, abc]', [1, 3, 4, 6]],
      ['n NOT IN [10, 2.5, abc]', allBut(1, 3, 4, 6)],
      ['n IN []', []],
      ['n NOT IN []', ALL],
      ["s IN [APPLE, 'apple pie', \"AND\",]", [1, 4, 5, 7]],
      ['s NOT IN [apple]', allBut(1, 5)],
      ['tags IN [blue, c]', [2, 8]],
      ['tags NOT IN [red]', allBut(1, 4, 5, 6)],
    ]);
  });

  test('arrays, nested arrays and nested objects', async () => {
    await expectAll([
      ['tags = red', [1, 4, 5, 6]],
      ['tags = nested', [5]],
      ['tags = BLUE', [2]],
      ["tags = 'a b'", [8]],
      ['tags != red', allBut(1, 4, 5, 6)],
      ['tags = red AND tags = green', [1, 5]],
      ['obj.x = 2', [2, 3]],
      ['obj.y = ALPHA', [1, 6]],
      ['obj.y = gamma', [6]],
      ['obj.deep.z = zed', [1]],
      ['people.name = BOB', [7, 8]],
      ['people.name = cy', [10]],
      ['people.name = ann AND people.age = 45', [7]],
    ]);
  });

  test('a filterable field the index never saw matches nothing', async () => {
    await expectAll([
      ['ghost = 1', []],
      ['ghost EXISTS', []],
      ['ghost 1 TO 2', []],
      ['ghost NOT EXISTS', ALL],
      ['NOT ghost = 1', ALL],
      ['ghost = 1 OR s = banana', [2]],
    ]);
  });
});

describe('logic, quoting and JSON forms', () => {
  test('NOT, AND, OR, precedence and parentheses', async () => {
    await expectAll([
      ['s = apple OR s = banana', [1, 2, 5]],
      ['s = apple AND tags = red', [1, 5]],
      // AND binds tighter than OR, NOT tighter than AND
      ['s = apple OR s = banana AND n > 10', [1, 2, 5]],
      ['(s = apple OR s = banana) AND n > 10', [2]],
      ['s = apple AND NOT tags = green OR s = cherry', [3]],
      ['NOT s = apple AND tags = red', [4, 6]],
      ['NOT (s = apple AND tags = red)', allBut(1, 5)],
      ['NOT NOT s = apple', [1, 5]],
      ['NOT (NOT (s = apple))', [1, 5]],
      ['NOT s = apple OR NOT s = banana', ALL],
      ['( s = apple ) AND ( ( tags = green ) )', [1, 5]],
      ['s = apple AND (tags = red OR (b = true AND n = 10))', [1, 5]],
      ['(b = true OR b = false) AND NOT (n > 9 OR n < 2.5)', [4]],
    ]);
  });

  test('quotes, escapes and quoted field names', async () => {
    await expectAll([
      ["s = 'it\\'s \"quoted\"'", [8]],
      ['s = "it\'s \\"quoted\\""', [8]],
      ['s = "back\\\\slash"', [10]],
      ["s = 'back\\\\slash'", [10]],
      ['s = "\\u{C9}CLAIR"', [6]],
      // keywords as values must be quoted
      ['s = "AND"', [7]],
      ["s = 'AND'", [7]],
      // field names follow the value rules
      ['"s" = apple', [1, 5]],
      ["'obj.y' = alpha", [1, 6]],
      ["'tags' IN ['a b']", [8]],
      // no spaces around the operator
      ['s=apple', [1, 5]],
      ['s!=apple', allBut(1, 5)],
    ]);
  });

  test('array forms: AND across, OR inside inner arrays', async () => {
    await expectAll([
      [['tags = red', 'b = true'], [1]],
      [[['s = banana', 's = cherry'], 'v EXISTS'], [2, 3]],
      [[['tags = blue', 'tags = c', 'b = true'], ['n > 10']], [2, 8]],
      [[['s = apple'], ['tags = red']], [1, 5]],
      [['', 's = apple'], [1, 5]],
      [[[], 's = apple'], [1, 5]],
      [[['', 's = banana']], [2]],
      [[], ALL],
      [[[]], ALL],
      ['', ALL],
      ['   ', ALL],
      [null, ALL],
    ]);
  });
});

describe('CONTAINS and STARTS WITH', () => {
  test('STARTS WITH without the experimental feature', async () => {
    await expectAll([
      ['s STARTS WITH app', [1, 4, 5]],
      ['s STARTS WITH B', [2, 10]],
      ['s STARTS WITH É', [6]],
      ['s STARTS WITH e', [6]],
      ['s NOT STARTS WITH app', allBut(1, 4, 5)],
      ["s STARTS WITH ''", allBut(9)],
      ['tags STARTS WITH gr', [1, 5]],
      ['n STARTS WITH 1', [3]],
    ]);
  });

  test('CONTAINS with the containsFilter feature', async () => {
    await t.client.updateExperimentalFeatures({ containsFilter: true });
    try {
      await expectAll([
        ['s CONTAINS pl', [1, 4, 5]],
        ['s CONTAINS "E P"', [4]],
        ['s NOT CONTAINS pl', allBut(1, 4, 5)],
        ['s CONTAINS quoted', [8]],
        ['tags CONTAINS ee', [1, 5]],
        ['n CONTAINS 1', [3]],
        ['s CONTAINS pl AND NOT s STARTS WITH a', []],
        ['s CONTAINS an OR tags CONTAINS lu', [2, 7]],
      ]);
    } finally {
      await t.client.updateExperimentalFeatures({ containsFilter: false });
    }
  });
});

// ---- geo ---------------------------------------------------------------------------------

const EARTH_RADIUS_M = 6_371_000;
const rad = (deg: number) => (deg * Math.PI) / 180;

function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
}

function pointOf(doc: Doc): [number, number] | null {
  const geo = doc._geo as { lat: number | string; lng: number | string } | undefined;
  return geo === undefined ? null : [Number(geo.lat), Number(geo.lng)];
}

function naiveRadius(lat: number, lng: number, meters: number): number[] {
  return DOCS.filter((d) => {
    const p = pointOf(d);
    return p !== null && haversine(lat, lng, p[0], p[1]) <= meters;
  }).map((d) => d.id);
}

function naiveBox(top: number, right: number, bottom: number, left: number): number[] {
  return DOCS.filter((d) => {
    const p = pointOf(d);
    if (p === null || p[0] < bottom || p[0] > top) return false;
    return right >= left ? p[1] >= left && p[1] <= right : p[1] >= left || p[1] <= right;
  }).map((d) => d.id);
}

describe('geo filters', () => {
  test('_geoRadius against a naive haversine', async () => {
    const circles: [number, number, number][] = [
      [48.8566, 2.3522, 0],
      [48.8566, 2.3522, 400_000],
      [48.8566, 2.3522, 1_000_000],
      [45.4777599, 9.1967508, 700_000],
      [-17, 179.5, 300_000],
      [0, 0, 20_000_000],
      [35, 140, 5_000_000],
      [90, 0, 3_000_000],
    ];
    // hand-checked answers of a few of them
    assert.deepEqual(naiveRadius(48.8566, 2.3522, 400_000), [1, 2]);
    assert.deepEqual(naiveRadius(48.8566, 2.3522, 1_000_000), [1, 2, 3]);
    assert.deepEqual(naiveRadius(-17, 179.5, 300_000), [8, 10]);
    await expectAll(circles.map(([lat, lng, r]) => [`_geoRadius(${lat}, ${lng}, ${r})`, naiveRadius(lat, lng, r)]));
    await expectAll([
      // the resolution only shapes `_geojson` circles
      ['_geoRadius(48.8566, 2.3522, 400000, 10)', [1, 2]],
      ['_geoRadius(48.8566, 2.3522, 400000) AND s = apple', [1]],
      ['NOT _geoRadius(48.8566, 2.3522, 1000000)', allBut(1, 2, 3)],
      ['_geoRadius(-17, 179.5, 300000) OR _geoRadius(64, -22, 100000)', [7, 8, 10]],
    ]);
  });

  test('_geoBoundingBox against a naive point-in-box', async () => {
    const boxes: [number, number, number, number][] = [
      [52, 10, 45, -1],
      [90, 180, -90, -180],
      [0, -170, -30, 170], // crosses the antimeridian
      [60, 150, 30, 130],
      [48.8566, 2.3522, 48.8566, 2.3522], // a single point, bounds inclusive
      [10, 10, 10, 10],
    ];
    assert.deepEqual(naiveBox(52, 10, 45, -1), [1, 2, 3]);
    assert.deepEqual(naiveBox(0, -170, -30, 170), [8, 10]);
    await expectAll(boxes.map(([top, right, bottom, left]) => [`_geoBoundingBox([${top}, ${right}], [${bottom}, ${left}])`, naiveBox(top, right, bottom, left)]));
    await expectAll([
      ['_geoBoundingBox([52, 10], [45, -1]) AND NOT _geoRadius(48.8566, 2.3522, 100000)', [2, 3]],
      ['NOT _geoBoundingBox([90, 180], [-90, -180])', [9]],
    ]);
  });
});

describe('filters with sort, distinct and facets', () => {
  const search = (filter: string, extra: Record<string, unknown>) =>
    t.client.index(uid).search('', { filter, limit: 100, attributesToRetrieve: ['id'], ...extra });

  test('sort orders the filtered documents (relevancy.md §7)', async () => {
    const order = async (filter: string, sort: string) => (await search(filter, { sort: [sort] })).hits.map((h) => h.id);
    // numbers, then strings byte-wise, then documents without a value; arrays by their best value
    assert.deepEqual(await order('n EXISTS', 'n:asc'), [5, 8, 4, 1, 2, 3, 10, 6, 7]);
    assert.deepEqual(await order('n EXISTS', 'n:desc'), [8, 2, 1, 4, 5, 6, 10, 3, 7]);
    assert.deepEqual(await order('n > 9', 'n:asc'), [8, 1, 2, 6]);
    assert.deepEqual(await order('n IN [20, 10.5, abc] OR n NOT EXISTS', 'n:desc'), [8, 2, 6, 9]);
  });

  test('distinct applies to the filtered documents (search.md §9.1)', async () => {
    const distinct = async (filter: string) => sorted((await search(filter, { distinct: 'tags' })).hits.map((h) => h.id));
    const tagged = 'tags EXISTS AND tags IS NOT EMPTY AND tags IS NOT NULL';
    assert.deepEqual(await hits(tagged), [1, 2, 4, 5, 6, 8]);
    // 1 (red, green) excludes 4, 5 and 6, which share red or green with it
    assert.deepEqual(await distinct(tagged), [1, 2, 8]);
    assert.deepEqual(await distinct(`NOT s = apple AND ${tagged}`), [2, 4, 8]);
  });

  test('facet distribution counts the filtered documents (facets.md §2)', async () => {
    const res = await search('s = apple', { facets: ['tags', 'b'] });
    assert.deepEqual(res.facetDistribution, { b: { true: 1 }, tags: { green: 2, nested: 1, red: 2 } });
    const geo = await search('_geoRadius(48.8566, 2.3522, 1000000)', { facets: ['b'] });
    assert.deepEqual(geo.facetDistribution, { b: { false: 1, true: 2 } });
  });
});

// ---- the other routes that take a filter --------------------------------------------------

describe('filters on the documents and facet search routes', () => {
  const FILTERS: [unknown, number[]][] = [
    ['s = apple', [1, 5]],
    ['n > 9 AND NOT n EXISTS', []],
    ['v IS EMPTY OR v IS NULL', [2, 3, 4, 5]],
    [[['tags = blue', 'tags = c', 'b = true'], ['n > 10']], [2, 8]],
    ['_geoBoundingBox([0, -170], [-30, 170])', [8, 10]],
    ['tags NOT IN [red] AND n != 10', [2, 7, 8, 9, 10]],
  ];

  test('POST /documents/fetch', async () => {
    const index = t.client.index(uid);
    for (const [filter, expected] of FILTERS) {
      const res = await index.getDocuments({ filter: filter as string, fields: ['id'], limit: 100 });
      assert.deepEqual(sorted(res.results.map((d) => d.id)), expected, JSON.stringify(filter));
      assert.equal(res.total, expected.length);
    }
  });

  test('GET /documents?filter= as text or JSON', async () => {
    for (const [filter, expected] of FILTERS) {
      const text = typeof filter === 'string' ? filter : JSON.stringify(filter);
      const res = await t.fetch('GET', `/indexes/${uid}/documents?fields=id&limit=100&filter=${encodeURIComponent(text)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(sorted(res.body.results.map((d: Doc) => d.id)), expected, text);
      assert.equal(res.body.total, expected.length);
    }
  });

  test('GET /search?filter= as text or JSON', async () => {
    for (const [filter, expected] of [...FILTERS, ['"s = apple"', [1, 5]] as [unknown, number[]]]) {
      const text = typeof filter === 'string' ? filter : JSON.stringify(filter);
      const res = await t.fetch('GET', `/indexes/${uid}/search?attributesToRetrieve=id&limit=100&filter=${encodeURIComponent(text)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(sorted(res.body.hits.map((d: Doc) => d.id)), expected, text);
    }
  });

  test('POST /documents/fetch with ids and a filter', async () => {
    const res = await t.client.index(uid).getDocuments({ ids: [1, 2, 3, 5, 42], filter: 's = apple OR s = cherry', fields: ['id'] });
    assert.deepEqual(sorted(res.results.map((d) => d.id)), [1, 3, 5]);
    assert.equal(res.total, 3);
  });

  test('POST /documents/delete by filter', async () => {
    const del = uniqueIndex('filter_ops_del');
    await t.client.createIndex(del, { primaryKey: 'id' }).waitTask();
    const index = t.client.index(del);
    await index.updateSettings({ filterableAttributes: FILTERABLE }).waitTask();
    await index.addDocuments(DOCS).waitTask();
    const remaining = async () => sorted((await index.getDocuments({ fields: ['id'], limit: 100 })).results.map((d) => d.id));

    const first = await index.deleteDocuments({ filter: [['s = apple', 'n IS NULL']] }).waitTask();
    assert.equal(first.status, 'succeeded', JSON.stringify(first.error));
    assert.equal(first.type, 'documentDeletion');
    assert.deepEqual(first.details, { providedIds: 0, deletedDocuments: 3, originalFilter: '[["s = apple","n IS NULL"]]' });
    assert.deepEqual(await remaining(), [2, 3, 4, 6, 8, 9, 10]);

    const second = await index.deleteDocuments({ filter: '_geoRadius(-17, 179.5, 300000) OR b = TRUE' }).waitTask();
    assert.deepEqual(second.details, { providedIds: 0, deletedDocuments: 3, originalFilter: '"_geoRadius(-17, 179.5, 300000) OR b = TRUE"' });
    assert.deepEqual(await remaining(), [2, 4, 6, 9]);

    const none = await index.deleteDocuments({ filter: 'tags = nothing' }).waitTask();
    assert.equal(none.status, 'succeeded');
    assert.deepEqual(none.details, { providedIds: 0, deletedDocuments: 0, originalFilter: '"tags = nothing"' });

    const rest = await index.deleteDocuments({ filter: 'v NOT EXISTS OR v EXISTS' }).waitTask();
    assert.deepEqual(rest.details, { providedIds: 0, deletedDocuments: 4, originalFilter: '"v NOT EXISTS OR v EXISTS"' });
    assert.deepEqual(await remaining(), []);
  });

  test('facet search restricted by a filter', async () => {
    const index = t.client.index(uid);
    const facet = async (filter: unknown, facetQuery?: string) =>
      (await index.searchForFacetValues({ facetName: 'tags', filter: filter as string, ...(facetQuery === undefined ? {} : { facetQuery }) })).facetHits;
    assert.deepEqual(await facet('s = apple'), [
      { value: 'green', count: 2 },
      { value: 'nested', count: 1 },
      { value: 'red', count: 2 },
    ]);
    assert.deepEqual(await facet('s = apple', 're'), [{ value: 'red', count: 2 }]);
    assert.deepEqual(await facet(['b EXISTS', ['b = true', 'tags = blue']]), [
      { value: 'Blue', count: 1 },
      { value: 'green', count: 1 },
      { value: 'red', count: 1 },
    ]);
    assert.deepEqual(await facet('NOT tags EXISTS'), []);
    assert.deepEqual(await facet('_geoRadius(-17, 179.5, 300000)'), [
      { value: 'a b', count: 1 },
      { value: 'c', count: 1 },
    ]);
  });
});
