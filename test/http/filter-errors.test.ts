// Filter errors through the official client, compared as whole bodies (status, code, type,
// link, message with its column line) with filters.md §1, §5–8, documents.md §4–5 and
// stats-health.md §5. Properties checked:
// 1. parse errors answer the route's code (search and facet search `invalid_search_filter`,
//    documents routes `invalid_document_filter`), never prefixed, quoting the original text
// 2. a filter of the wrong JSON type, on each route
// 3. not filterable: with and without filterable attributes, with patterns, a rule matched
//    without filter features, a field in a branch never evaluated; search quotes the
//    re-serialized filter with the index prefix, the documents routes the original text; a
//    delete-by-filter task fails with the prefix
// 4. filterable features: `filter.comparison: false` refuses `>` and `TO`, `filter.equality:
//    false` refuses `=`, `!=`, `IN` (reported as `=`), and both follow settings updates
// 5. `CONTAINS` without the `containsFilter` feature: `feature_not_enabled`, no prefix
// 6. geo: bad latitude / longitude / non-finite numbers, top below bottom, arity and form
//    errors, reserved `_geo…` names, geo filters on an index where `_geo` is not filterable
// 7. nesting too deep
// 8. delete by filter: missing, empty, mistyped and malformed filters answered at once
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MeilisearchApiError } from 'meilisearch';
import { startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;
/** filterable: object rules, string rules and `_geo` */
let uid: string;
/** no filterable attributes */
let bare: string;

const RULES = [
  { attributePatterns: ['eq*'] },
  { attributePatterns: ['cmp'], features: { filter: { equality: false, comparison: true } } },
  { attributePatterns: ['off'], features: { facetSearch: true, filter: { equality: false, comparison: false } } },
  { attributePatterns: ['release_*'], features: { filter: { comparison: true } } },
  'title',
  '_geo',
];
const PATTERNS = 'Available filterable attribute patterns are: `_geo`, `cmp`, `eq*`, `release_*`, `title`.';
const NONE = 'This index does not have configured filterable attributes.';

const DOCS = [
  { id: 1, title: 'Glass', eqa: 1, cmp: 5, off: 'x', release_year: 2001, doggo: 'bernese', _geo: { lat: 45, lng: 9 } },
  { id: 2, title: 'Plate', eqa: 2, cmp: 7, off: 'y', release_year: 1999, doggo: 'kefir', _geo: { lat: 46, lng: 10 } },
];

before(async () => {
  t = await startTestServer();
  uid = uniqueIndex('filter_err');
  bare = uniqueIndex('filter_err_bare');
  await t.client.createIndex(uid, { primaryKey: 'id' }).waitTask();
  await t.client.createIndex(bare, { primaryKey: 'id' }).waitTask();
  await t.client.index(uid).updateSettings({ filterableAttributes: RULES as never }).waitTask();
  for (const index of [uid, bare]) {
    const task = await t.client.index(index).addDocuments(DOCS).waitTask();
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
  }
});
after(async () => {
  await t?.close();
});

interface ErrorBody {
  message: string;
  code: string;
  type: string;
  link: string;
}

const body = (code: string, message: string): ErrorBody => ({
  message,
  code,
  type: 'invalid_request',
  link: `https://docs.meilisearch.com/errors#${code}`,
});

/** The status and body of the API error a client call fails with. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; body: ErrorBody }> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof MeilisearchApiError, `expected an API error, got ${String(err)}`);
    return { status: err.response.status, body: err.cause as unknown as ErrorBody };
  }
  assert.fail('expected an error');
}

async function expectError(promise: Promise<unknown>, code: string, message: string): Promise<void> {
  assert.deepEqual(await failure(promise), { status: 400, body: body(code, message) });
}

const search = (filter: unknown, index = uid) => t.client.index(index).search('', { filter: filter as string });
const fetchDocs = (filter: unknown, index = uid) => t.client.index(index).getDocuments({ filter: filter as string });
const facetSearch = (filter: unknown, index = uid) => t.client.index(index).searchForFacetValues({ facetName: 'title', filter: filter as string });

const OPS =
  'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const RESERVED_GEO = (name: string) =>
  `\`${name}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` or \`_geoBoundingBox([latitude, longitude], [latitude, longitude])\` built-in rules to filter on \`_geo\` coordinates.`;
const GEO_RADIUS = 'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.';
const GEO_BOX = 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.';
const GEO_POLYGON = "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.";
const DEPTH = 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';
const CONTAINS_GATE =
  'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763';
const parens = (n: number) => `${'('.repeat(n)}x = 1${')'.repeat(n)}`;

/** [filter, diagnostic + column line] of parse errors: the same on every route. */
const SYNTAX: [string, string][] = [
  ['title & Glass', `${OPS} at \`title & Glass\`.\n1:14 title & Glass`],
  ['title = Glass XOR title = Glass', 'Found unexpected characters at the end of the filter: `XOR title = Glass`. You probably forgot an `OR` or an `AND` rule.\n15:32 title = Glass XOR title = Glass'],
  ['title = Glass OR', `${OPS} but instead got nothing.\n17:17 title = Glass OR`],
  ['title =', 'Was expecting a value but instead got nothing.\n8:8 title ='],
  ['title = )', 'Was expecting a value but instead got nothing.\n9:9 title = )'],
  ['title = 🐻', 'Was expecting a value but instead got `🐻`.\n9:10 title = 🐻'],
  ['title = AND', 'Was expecting a value but instead got `AND`, which is a reserved keyword. To use `AND` as a field name or a value, surround it by quotes.\n9:12 title = AND'],
  ['(title = Glass', 'Expression `(title = Glass` is missing the following closing delimiter: `)`.\n1:15 (title = Glass'],
  ['title IN Glass', 'Expected `[` after `IN` keyword.\n10:15 title IN Glass'],
  ['title IN [Glass, Plate', 'Expected matching `]` after the list of field names given to `IN[`\n23:23 title IN [Glass, Plate'],
  ['title IN [Glass, > 2]', 'Expected only comma-separated field names inside `IN[..]` but instead found `> 2]`.\n18:22 title IN [Glass, > 2]'],
  ['title = "a\\q"', 'Malformed value: `a\\\\q`.\n10:13 title = "a\\q"'],
  ['_geo = Glass', `${RESERVED_GEO('_geo')}\n1:13 _geo = Glass`],
  ['_geoDistance = Glass', `${RESERVED_GEO('_geoDistance')}\n1:21 _geoDistance = Glass`],
  ['_geoPoint = Glass', `${RESERVED_GEO('_geoPoint')}\n1:18 _geoPoint = Glass`],
  ['title = _geoRadius(1, 2, 3)', "The `_geoRadius` filter is an operation and can't be used as a value.\n9:28 title = _geoRadius(1, 2, 3)"],
  ['_geoRadius(1, 2)', 'Was expecting 3 or 4 arguments for `_geoRadius`, but instead found 2.\n17:17 _geoRadius(1, 2)'],
  ['_geoRadius(a, 2, 3)', `${GEO_RADIUS}\n12:20 _geoRadius(a, 2, 3)`],
  ['_geoBoundingBox(1.0, 1.0)', `${GEO_BOX}\n17:26 _geoBoundingBox(1.0, 1.0)`],
  ['_geoBoundingBox([1, 2, 3], [3, 4])', 'Was expecting 2 coordinates but instead found 3.\n18:19 _geoBoundingBox([1, 2, 3], [3, 4])'],
  ['_geoPolygon(1,2,3)', `${GEO_POLYGON}\n13:19 _geoPolygon(1,2,3)`],
  ['_geoPolygon([1,2],[3,4])', 'The `_geoPolygon` filter expects at least 3 points but only 2 were specified\n22:23 _geoPolygon([1,2],[3,4])'],
  [parens(50), `${DEPTH}\n38:106 ${parens(50)}`],
];

describe('parse errors', () => {
  test('search: invalid_search_filter with the original text', async () => {
    for (const [filter, message] of SYNTAX) await expectError(search(filter), 'invalid_search_filter', message);
    // each string of the array form is parsed on its own
    await expectError(search(['title = Glass', ['eqa = 1', 'title =']]), 'invalid_search_filter', 'Was expecting a value but instead got nothing.\n8:8 title =');
  });

  test('documents fetch, browse and delete: invalid_document_filter', async () => {
    const index = t.client.index(uid);
    for (const [filter, message] of SYNTAX) {
      await expectError(fetchDocs(filter), 'invalid_document_filter', message);
      await expectError(index.deleteDocuments({ filter }), 'invalid_document_filter', message);
      const browse = await t.fetch('GET', `/indexes/${uid}/documents?filter=${encodeURIComponent(filter)}`);
      assert.deepEqual(browse, { ...browse, status: 400, body: body('invalid_document_filter', message) });
    }
  });

  test('GET search: invalid_search_filter', async () => {
    for (const [filter, message] of SYNTAX) {
      const res = await t.fetch('GET', `/indexes/${uid}/search?filter=${encodeURIComponent(filter)}`);
      assert.deepEqual({ status: res.status, body: res.body }, { status: 400, body: body('invalid_search_filter', message) });
    }
  });

  test('facet search: invalid_search_filter', async () => {
    for (const [filter, message] of SYNTAX.slice(0, 4)) await expectError(facetSearch(filter), 'invalid_search_filter', message);
  });
});

describe('the JSON type of the filter', () => {
  const CASES: [unknown, string][] = [
    [true, 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.'],
    [12, 'Invalid syntax for the filter parameter: `expected String, Array, found: 12`.'],
    [{ a: 1 }, 'Invalid syntax for the filter parameter: `expected String, Array, found: {"a":1}`.'],
    [['title = Glass', 12], 'Invalid syntax for the filter parameter: `expected String, [String], found: 12`.'],
    [[null], 'Invalid syntax for the filter parameter: `expected String, [String], found: null`.'],
    [[['title = Glass', 2]], 'Invalid syntax for the filter parameter: `expected String, found: 2`.'],
    [[[['title = Glass']]], 'Invalid syntax for the filter parameter: `expected String, found: ["title = Glass"]`.'],
  ];

  test('on every route', async () => {
    for (const [filter, message] of CASES) {
      await expectError(search(filter), 'invalid_search_filter', message);
      await expectError(facetSearch(filter), 'invalid_search_filter', message);
      await expectError(fetchDocs(filter), 'invalid_document_filter', message);
      await expectError(t.client.index(uid).deleteDocuments({ filter: filter as string }), 'invalid_document_filter', message);
    }
    // GET routes: the query string is JSON when it parses as JSON
    const browse = await t.fetch('GET', `/indexes/${uid}/documents?filter=true`);
    assert.deepEqual({ status: browse.status, body: browse.body }, { status: 400, body: body('invalid_document_filter', CASES[0]![1]) });
    const get = await t.fetch('GET', `/indexes/${uid}/search?filter=${encodeURIComponent('[["title = Glass",2]]')}`);
    assert.deepEqual({ status: get.status, body: get.body }, { status: 400, body: body('invalid_search_filter', CASES[5]![1]) });
  });
});

describe('attributes that are not filterable', () => {
  test('search quotes the re-serialized filter, with the index prefix', async () => {
    await expectError(search('nope = 1'), 'invalid_search_filter', `Index \`${uid}\`: Attribute \`nope\` is not filterable. ${PATTERNS}\n2:6 "nope" = "1"`);
    await expectError(search('many = Glass', bare), 'invalid_search_filter', `Index \`${bare}\`: Attribute \`many\` is not filterable. ${NONE}\n2:6 "many" = "Glass"`);
    // the first rule matching `off` enables no filter feature
    await expectError(search('off = x'), 'invalid_search_filter', `Index \`${uid}\`: Attribute \`off\` is not filterable. ${PATTERNS}\n2:5 "off" = "x"`);
    // patterns: `release_*` covers `release_year`, not `releases`; `eq*` covers `eqa`
    await expectError(search('releases = 1'), 'invalid_search_filter', `Index \`${uid}\`: Attribute \`releases\` is not filterable. ${PATTERNS}\n2:10 "releases" = "1"`);
    assert.equal((await search('release_year = 2001 AND eqa = 1')).hits.length, 1);
    // the facet search quotes the filter as sent, without the prefix (Meilisearch 1.50)
    await expectError(facetSearch('nope = 1'), 'invalid_search_filter', `Attribute \`nope\` is not filterable. ${PATTERNS}\n1:5 nope = 1`);
  });

  test('documents routes quote the original text, without prefix', async () => {
    await expectError(fetchDocs('nope = 1'), 'invalid_document_filter', `Attribute \`nope\` is not filterable. ${PATTERNS}\n1:5 nope = 1`);
    await expectError(fetchDocs('dog = 1', bare), 'invalid_document_filter', `Attribute \`dog\` is not filterable. ${NONE}\n1:4 dog = 1`);
    // every field is checked, also in a branch that is never evaluated
    await expectError(fetchDocs('title = Glass OR nope EXISTS'), 'invalid_document_filter', `Attribute \`nope\` is not filterable. ${PATTERNS}\n18:22 title = Glass OR nope EXISTS`);
    await expectError(fetchDocs('title = nothing AND nope EXISTS'), 'invalid_document_filter', `Attribute \`nope\` is not filterable. ${PATTERNS}\n21:25 title = nothing AND nope EXISTS`);
    const browse = await t.fetch('GET', `/indexes/${bare}/documents?filter=${encodeURIComponent('dog = 1')}`);
    assert.equal(browse.status, 400);
    assert.deepEqual(browse.body, body('invalid_document_filter', `Attribute \`dog\` is not filterable. ${NONE}\n1:4 dog = 1`));
  });

  test('delete by filter: the task fails, with the index prefix', async () => {
    for (const [index, filter, tail] of [
      [bare, 'doggo = bernese', `${NONE}\n1:6 doggo = bernese`],
      [uid, 'doggo = bernese', `${PATTERNS}\n1:6 doggo = bernese`],
    ] as const) {
      const task = await t.client.index(index).deleteDocuments({ filter }).waitTask();
      assert.equal(task.status, 'failed');
      assert.deepEqual(task.error, body('invalid_document_filter', `Index \`${index}\`: Attribute \`doggo\` is not filterable. ${tail}`));
      assert.deepEqual(task.details, { providedIds: 0, deletedDocuments: 0, originalFilter: '"doggo = bernese"' });
    }
    assert.equal((await t.client.index(bare).getDocuments()).total, 2);
  });
});

/** milli's operator-not-allowed message (filters.md §8). */
function notAllowed(operator: string, field: string, rule: number, allowed: string, feature: string): string {
  return [
    `Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.`,
    `  - Note: allowed operators: ${allowed}.`,
    `  - Note: field \`${field}\` matched rule #${rule} in \`filterableAttributes\``,
    `  - Hint: enable ${feature} in rule #${rule} by modifying the features.filter object`,
    `  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before rule #${rule}`,
  ].join('\n');
}
const EQUALITY_ONLY = 'OR, AND, NOT, =, !=, IN, IS EMPTY, IS NULL, EXISTS';
const COMPARISON_ONLY = 'OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS';

describe('filterable features', () => {
  test('comparison off refuses ranges; equality off refuses =, != and IN', async () => {
    const prefix = `Index \`${uid}\`: `;
    // rule #0 `eq*` has the default features: equality only
    await expectError(search('eqa > 1'), 'invalid_search_filter', prefix + notAllowed('>', 'eqa', 0, EQUALITY_ONLY, 'comparison'));
    await expectError(search('eqa 1 TO 2'), 'invalid_search_filter', prefix + notAllowed('TO', 'eqa', 0, EQUALITY_ONLY, 'comparison'));
    await expectError(fetchDocs('eqa <= 1'), 'invalid_document_filter', notAllowed('<=', 'eqa', 0, EQUALITY_ONLY, 'comparison'));
    // rule #1 `cmp`: comparison only
    await expectError(search('cmp = 5'), 'invalid_search_filter', prefix + notAllowed('=', 'cmp', 1, COMPARISON_ONLY, 'equality'));
    await expectError(search('cmp != 5'), 'invalid_search_filter', prefix + notAllowed('!=', 'cmp', 1, COMPARISON_ONLY, 'equality'));
    await expectError(search('cmp IN [5, 7]'), 'invalid_search_filter', prefix + notAllowed('=', 'cmp', 1, COMPARISON_ONLY, 'equality'));
    await expectError(search('cmp NOT IN [5]'), 'invalid_search_filter', prefix + notAllowed('=', 'cmp', 1, COMPARISON_ONLY, 'equality'));
    // what each rule allows
    const ids = async (filter: string) => (await search(filter)).hits.map((h) => h.id).sort();
    assert.deepEqual(await ids('eqa = 1 OR eqa IN [2]'), [1, 2]);
    assert.deepEqual(await ids('eqa != 1 AND eqa EXISTS AND eqa IS NOT NULL AND eqa IS NOT EMPTY'), [2]);
    assert.deepEqual(await ids('cmp > 5'), [2]);
    assert.deepEqual(await ids('cmp 5 TO 6 AND cmp EXISTS'), [1]);
    // an operator error on the documents routes and in a delete task
    const task = await t.client.index(uid).deleteDocuments({ filter: 'cmp = 5' }).waitTask();
    assert.equal(task.status, 'failed');
    assert.deepEqual(task.error, body('invalid_document_filter', prefix + notAllowed('=', 'cmp', 1, COMPARISON_ONLY, 'equality')));
  });

  test('the features follow settings updates', async () => {
    const index = t.client.index(uid);
    const prefix = `Index \`${uid}\`: `;
    const withRelease = (filter: { equality: boolean; comparison: boolean }) =>
      index.updateFilterableAttributes(RULES.map((r) => (typeof r === 'object' && r.attributePatterns[0] === 'release_*' ? { attributePatterns: ['release_*'], features: { filter } } : r)) as never).waitTask();
    try {
      assert.equal((await search('release_year > 2000')).hits.length, 1);
      await withRelease({ equality: true, comparison: false });
      await expectError(search('release_year > 2000'), 'invalid_search_filter', prefix + notAllowed('>', 'release_year', 3, EQUALITY_ONLY, 'comparison'));
      assert.equal((await search('release_year = 2001')).hits.length, 1);
      await withRelease({ equality: false, comparison: true });
      await expectError(search('release_year = 2001'), 'invalid_search_filter', prefix + notAllowed('=', 'release_year', 3, COMPARISON_ONLY, 'equality'));
      assert.equal((await search('release_year >= 2001')).hits.length, 1);
      // neither: not filterable any more, and gone from the patterns
      await withRelease({ equality: false, comparison: false });
      await expectError(
        search('release_year EXISTS'),
        'invalid_search_filter',
        `${prefix}Attribute \`release_year\` is not filterable. Available filterable attribute patterns are: \`_geo\`, \`cmp\`, \`eq*\`, \`title\`.\n2:14 "release_year" EXISTS`,
      );
    } finally {
      const task = await index.updateFilterableAttributes(RULES as never).waitTask();
      assert.equal(task.status, 'succeeded');
    }
  });
});

describe('CONTAINS without the containsFilter feature', () => {
  test('feature_not_enabled on every route, quoting the keyword', async () => {
    assert.equal((await t.client.getExperimentalFeatures()).containsFilter, false);
    const message = `${CONTAINS_GATE}\n7:15 title CONTAINS las`;
    await expectError(search('title CONTAINS las'), 'feature_not_enabled', message);
    await expectError(facetSearch('title CONTAINS las'), 'feature_not_enabled', message);
    await expectError(fetchDocs('title CONTAINS las'), 'feature_not_enabled', message);
    await expectError(t.client.index(uid).deleteDocuments({ filter: 'title CONTAINS las' }), 'feature_not_enabled', message);
    await expectError(search('title = Glass OR title NOT CONTAINS las'), 'feature_not_enabled', `${CONTAINS_GATE}\n28:36 title = Glass OR title NOT CONTAINS las`);
    await expectError(search(['title = Glass', ['title CONTAINS las']]), 'feature_not_enabled', `${CONTAINS_GATE}\n7:15 title CONTAINS las`);
    // with the feature on, the facet search takes it too
    await t.client.updateExperimentalFeatures({ containsFilter: true });
    try {
      await facetSearch('title CONTAINS las');
    } finally {
      await t.client.updateExperimentalFeatures({ containsFilter: false });
    }
  });
});

describe('geo filter errors', () => {
  const LAT = (v: string) => `Bad latitude \`${v}\`. Latitude must be contained between -90 and 90 degrees.`;
  const LNG = (v: string, hint: string) => `Bad longitude \`${v}\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`${hint}\` instead.`;

  test('coordinates out of range or not finite', async () => {
    const cases: [string, string][] = [
      ['_geoRadius(-100, 150, 10)', `${LAT('-100')}\n12:16 _geoRadius(-100, 150, 10)`],
      ['_geoRadius(42, 250, 10)', `${LNG('250', '-110')}\n16:19 _geoRadius(42, 250, 10)`],
      ['_geoRadius(42, -181, 10)', `${LNG('-181', '179')}\n16:20 _geoRadius(42, -181, 10)`],
      ['_geoRadius(1e400, 0, 10)', 'Non finite floats are not supported\n12:17 _geoRadius(1e400, 0, 10)'],
      ['_geoBoundingBox([100, 0], [0, 0])', `${LAT('100')}\n18:21 _geoBoundingBox([100, 0], [0, 0])`],
      ['_geoBoundingBox([10, 0], [0, 200])', `${LNG('200', '-160')}\n30:33 _geoBoundingBox([10, 0], [0, 200])`],
    ];
    for (const [filter, message] of cases) {
      await expectError(search(filter), 'invalid_search_filter', `Index \`${uid}\`: ${message}`);
      await expectError(fetchDocs(filter), 'invalid_document_filter', message);
    }
    // the top latitude below the bottom one
    const { status, body: got } = await failure(search('_geoBoundingBox([-30, 170], [0, -170])'));
    assert.equal(status, 400);
    assert.equal(got.code, 'invalid_search_filter');
    assert.ok(got.message.startsWith(`Index \`${uid}\`: The top latitude \`-30\` is below the bottom latitude \`0\`.\n`), got.message);
  });

  test('geo filters where `_geo` / `_geojson` is not filterable', async () => {
    await expectError(
      search('_geoRadius(42, 150, 10)', bare),
      'invalid_search_filter',
      `Index \`${bare}\`: Attribute \`_geo/_geojson\` is not filterable. ${NONE}\n12:14 _geoRadius(42, 150, 10)`,
    );
    await expectError(
      fetchDocs('_geoBoundingBox([1, 2], [0, 1])', bare),
      'invalid_document_filter',
      `Attribute \`_geo/_geojson\` is not filterable. ${NONE}\n18:19 _geoBoundingBox([1, 2], [0, 1])`,
    );
    // `_geoPolygon` needs `_geojson`, `_geo` is not enough
    await expectError(
      fetchDocs('_geoPolygon([0, 0], [0, 1], [1, 1])'),
      'invalid_document_filter',
      `Attribute \`_geojson\` is not filterable. ${PATTERNS}\n14:15 _geoPolygon([0, 0], [0, 1], [1, 1])`,
    );
  });
});

describe('delete by filter: refused at once', () => {
  test('missing and empty filters', async () => {
    const missing = await t.fetch('POST', `/indexes/${uid}/documents/delete`, { body: {} });
    assert.deepEqual({ status: missing.status, body: missing.body }, { status: 400, body: body('missing_document_filter', 'Missing field `filter`') });
    for (const filter of ['', []]) {
      await expectError(t.client.index(uid).deleteDocuments({ filter }), 'invalid_document_filter', 'Sending an empty filter is forbidden.');
    }
    assert.equal((await t.client.index(uid).getDocuments()).total, 2);
  });
});
