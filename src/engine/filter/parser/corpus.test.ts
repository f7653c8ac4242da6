// The filter corpus: good expressions with their AST, bad ones with Meilisearch's exact message
// (diagnostic + `start:end filter` line). Cases marked `// upstream` are filter-parser's own
// snapshot tests (crates/filter-parser/src/lib.rs, `parse`, `parse_escaped` and `error`) and
// Meilisearch's HTTP tests (tests/search/errors.rs), copied with their expected text.
//
// The AST is printed the way filter-parser's `Display` prints its `FilterCondition` (so upstream
// snapshots compare as they are): `{field} = {value}`, `AND[a, b, ]`, `NOT (x)`,
// `{f} IN[{a}, ]`, `{f} {from} TO {to}`, `_geoRadius({lat}, {lng}, {r})`,
// `_vectors."embedder".fragments."name" EXISTS`, `_foreign({f}, x)`. Spans and numbers are
// checked separately at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter, type FilterNode, type GeoNumber, type Token } from './index.ts';

function show(node: FilterNode): string {
  const t = (token: Token): string => `{${token.text}}`;
  const list = (nodes: FilterNode[]): string => nodes.map((n) => `${show(n)}, `).join('');
  const pair = ([lat, lng]: readonly [GeoNumber, GeoNumber]): string => `[${t(lat)}, ${t(lng)}]`;
  switch (node.kind) {
    case 'and':
      return `AND[${list(node.children)}]`;
    case 'or':
      return `OR[${list(node.children)}]`;
    case 'not':
      return `NOT (${show(node.child)})`;
    case 'compare':
      return `${t(node.field)} ${node.op} ${t(node.value)}`;
    case 'range':
      return `${t(node.field)} ${t(node.from)} TO ${t(node.to)}`;
    case 'in':
      return `${t(node.field)} IN[${node.values.map((v) => `${t(v)}, `).join('')}]`;
    case 'exists':
      return `${t(node.field)} EXISTS`;
    case 'isNull':
      return `${t(node.field)} IS NULL`;
    case 'isEmpty':
      return `${t(node.field)} IS EMPTY`;
    case 'contains':
      return `${t(node.field)} CONTAINS ${t(node.value)}`;
    case 'startsWith':
      return `${t(node.field)} STARTS WITH ${t(node.value)}`;
    case 'geoRadius': {
      const args = [node.lat, node.lng, node.radius, ...(node.resolution ? [node.resolution] : [])];
      return `_geoRadius(${args.map(t).join(', ')})`;
    }
    case 'geoBoundingBox':
      return `_geoBoundingBox(${pair(node.topRight)}, ${pair(node.bottomLeft)})`;
    case 'geoPolygon':
      return `_geoPolygon([${node.points.map((p) => `${pair(p)}, `).join('')}])`;
    case 'vectorExists': {
      let out = '_vectors';
      if (node.embedder) out += `.${rustDebug(node.embedder.text)}`;
      if (node.subset === 'fragment') out += `.fragments.${rustDebug(node.fragment!.text)}`;
      else if (node.subset !== 'all') out += `.${node.subset}`;
      return `${out} EXISTS`;
    }
    case 'foreign':
      return `_foreign(${t(node.field)}, ${show(node.filter)})`;
  }
}

/** Rust's `{:?}` of a string (enough of it for the corpus). */
function rustDebug(text: string): string {
  const escapes: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '"': '\\"', '\\': '\\\\' };
  return `"${Array.from(text, (c) => escapes[c] ?? c).join('')}"`;
}

function errorOf(expression: string): string {
  try {
    parseFilter(expression);
  } catch (e) {
    return (e as Error).message;
  }
  return '<no error>';
}

const OPS =
  'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const RESERVED_GEO = (name: string): string =>
  `\`${name}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` or \`_geoBoundingBox([latitude, longitude], [latitude, longitude])\` built-in rules to filter on \`_geo\` coordinates.`;
const DEPTH =
  'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';
const GEO_RADIUS =
  'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.';
const GEO_BOX =
  'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.';
const GEO_POLYGON =
  "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.";
const KEYWORD_VALUE = (word: string): string =>
  `Was expecting a value but instead got \`${word}\`, which is a reserved keyword. To use \`${word}\` as a field name or a value, surround it by quotes.`;
const VECTOR_OPERATION = 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.';
const FOREIGN = (found: string): string =>
  `Was expecting a field name and an condition inside \`_foreign(..)\` filter but instead found \`${found}\`.`;
const parens = (n: number): string => `${'('.repeat(n)}x = 1${')'.repeat(n)}`;
const nots = (n: number): string => `${'NOT '.repeat(n)}x = 1`;

/** [expression, printed AST]. */
const GOOD: [string, string][] = [
  // equality and quoting (upstream)
  ['channel = Ponce', '{channel} = {Ponce}'],
  ['subscribers = 12', '{subscribers} = {12}'],
  ["channel = 'Mister Mv'", '{channel} = {Mister Mv}'],
  ['channel = "Mister Mv"', '{channel} = {Mister Mv}'],
  ["'dog race' = Borzoi", '{dog race} = {Borzoi}'],
  ['"dog race" = Chusky', '{dog race} = {Chusky}'],
  ['"dog race" = "Bernese Mountain"', '{dog race} = {Bernese Mountain}'],
  ["'dog race' = 'Bernese Mountain'", '{dog race} = {Bernese Mountain}'],
  ['"dog race" = \'Bernese Mountain\'', '{dog race} = {Bernese Mountain}'],
  // IN (upstream)
  ['colour IN[]', '{colour} IN[]'],
  ['colour IN[green]', '{colour} IN[{green}, ]'],
  ['colour IN[green,]', '{colour} IN[{green}, ]'],
  ['colour NOT IN[green,blue]', 'NOT ({colour} IN[{green}, {blue}, ])'],
  [' colour IN [  green , blue , ]', '{colour} IN[{green}, {blue}, ]'],
  [' colour IN [green, blue]  AND color = green ', 'AND[{colour} IN[{green}, {blue}, ], {color} = {green}, ]'],
  ['NOT (colour IN [green, blue])  AND color = green ', 'AND[NOT ({colour} IN[{green}, {blue}, ]), {color} = {green}, ]'],
  [
    'x = 1 OR NOT (colour IN [green, blue]  OR color = green) ',
    'OR[{x} = {1}, NOT (OR[{colour} IN[{green}, {blue}, ], {color} = {green}, ]), ]',
  ],
  [' colour = green ', '{colour} = {green}'],
  [' (colour = green OR colour = red) ', 'OR[{colour} = {green}, {colour} = {red}, ]'],
  [' colour NOT  IN [green, blue] ', 'NOT ({colour} IN[{green}, {blue}, ])'],
  [' colour IN [green, blue] ', '{colour} IN[{green}, {blue}, ]'],
  // comparisons (upstream)
  ['channel != ponce', '{channel} != {ponce}'],
  ['NOT channel = ponce', 'NOT ({channel} = {ponce})'],
  ['subscribers < 1000', '{subscribers} < {1000}'],
  ['subscribers > 1000', '{subscribers} > {1000}'],
  ['subscribers <= 1000', '{subscribers} <= {1000}'],
  ['subscribers >= 1000', '{subscribers} >= {1000}'],
  ['subscribers 100 TO 1000', '{subscribers} {100} TO {1000}'],
  ['NOT subscribers < 1000', 'NOT ({subscribers} < {1000})'],
  ['NOT subscribers 100 TO 1000', 'NOT ({subscribers} {100} TO {1000})'],
  // IS NULL / IS EMPTY (upstream)
  ['subscribers IS NULL', '{subscribers} IS NULL'],
  ['NOT subscribers IS NULL', 'NOT ({subscribers} IS NULL)'],
  ['subscribers IS NOT NULL', 'NOT ({subscribers} IS NULL)'],
  ['NOT subscribers IS NOT NULL', '{subscribers} IS NULL'],
  ['subscribers  IS   NOT   NULL', 'NOT ({subscribers} IS NULL)'],
  ['subscribers IS EMPTY', '{subscribers} IS EMPTY'],
  ['NOT subscribers IS EMPTY', 'NOT ({subscribers} IS EMPTY)'],
  ['subscribers IS NOT EMPTY', 'NOT ({subscribers} IS EMPTY)'],
  ['NOT subscribers IS NOT EMPTY', '{subscribers} IS EMPTY'],
  ['subscribers  IS   NOT   EMPTY', 'NOT ({subscribers} IS EMPTY)'],
  // vector filters (upstream)
  ['_vectors EXISTS', '_vectors EXISTS'],
  ['_vectors.embedderName EXISTS', '_vectors."embedderName" EXISTS'],
  ['_vectors.embedderName.documentTemplate EXISTS', '_vectors."embedderName".documentTemplate EXISTS'],
  ['_vectors.embedderName.regenerate EXISTS', '_vectors."embedderName".regenerate EXISTS'],
  ['_vectors.embedderName.userProvided EXISTS', '_vectors."embedderName".userProvided EXISTS'],
  [
    '_vectors.embedderName.fragments.fragmentName EXISTS',
    '_vectors."embedderName".fragments."fragmentName" EXISTS',
  ],
  [
    '  _vectors.embedderName.fragments.fragmentName   EXISTS',
    '_vectors."embedderName".fragments."fragmentName" EXISTS',
  ],
  ['NOT _vectors EXISTS', 'NOT (_vectors EXISTS)'],
  [' NOT  _vectors   EXISTS', 'NOT (_vectors EXISTS)'],
  ['  _vectors  NOT  EXISTS', 'NOT (_vectors EXISTS)'],
  [
    '_vectors." valid.name  ".fragments."also.. valid! " EXISTS',
    '_vectors." valid.name  ".fragments."also.. valid! " EXISTS',
  ],
  ['_vectors."\n\t\r\\"" EXISTS', '_vectors."\\n\\t\\r\\"" EXISTS'],
  // EXISTS (upstream)
  ['subscribers EXISTS', '{subscribers} EXISTS'],
  ['NOT subscribers EXISTS', 'NOT ({subscribers} EXISTS)'],
  ['subscribers NOT EXISTS', 'NOT ({subscribers} EXISTS)'],
  ['NOT subscribers NOT EXISTS', '{subscribers} EXISTS'],
  ['subscribers NOT   EXISTS', 'NOT ({subscribers} EXISTS)'],
  // CONTAINS / STARTS WITH (upstream)
  ["subscribers CONTAINS 'hello'", '{subscribers} CONTAINS {hello}'],
  ["NOT subscribers CONTAINS 'hello'", 'NOT ({subscribers} CONTAINS {hello})'],
  ['subscribers NOT CONTAINS hello', 'NOT ({subscribers} CONTAINS {hello})'],
  ["NOT subscribers NOT CONTAINS 'hello'", '{subscribers} CONTAINS {hello}'],
  ["subscribers NOT   CONTAINS 'hello'", 'NOT ({subscribers} CONTAINS {hello})'],
  ["subscribers STARTS WITH 'hel'", '{subscribers} STARTS WITH {hel}'],
  ["NOT subscribers STARTS WITH 'hel'", 'NOT ({subscribers} STARTS WITH {hel})'],
  ['subscribers NOT STARTS WITH hel', 'NOT ({subscribers} STARTS WITH {hel})'],
  ["NOT subscribers NOT STARTS WITH 'hel'", '{subscribers} STARTS WITH {hel}'],
  ["subscribers NOT   STARTS WITH 'hel'", 'NOT ({subscribers} STARTS WITH {hel})'],
  // NOT folding (upstream)
  ['NOT NOT NOT NOT x = 5', '{x} = {5}'],
  ['NOT NOT (NOT NOT x = 5)', '{x} = {5}'],
  // geo (upstream)
  ['_geoRadius(12, 13, 14)', '_geoRadius({12}, {13}, {14})'],
  ['NOT _geoRadius(12, 13, 14)', 'NOT (_geoRadius({12}, {13}, {14}))'],
  ['_geoRadius(12,13,14)', '_geoRadius({12}, {13}, {14})'],
  ['_geoRadius(12,13,14,1000)', '_geoRadius({12}, {13}, {14}, {1000})'],
  ['_geoBoundingBox([12, 13], [14, 15])', '_geoBoundingBox([{12}, {13}], [{14}, {15}])'],
  ['NOT _geoBoundingBox([12, 13], [14, 15])', 'NOT (_geoBoundingBox([{12}, {13}], [{14}, {15}]))'],
  ['_geoBoundingBox([12,13],[14,15])', '_geoBoundingBox([{12}, {13}], [{14}, {15}])'],
  ['_geoPolygon([12, 13], [14, 15], [16, 17])', '_geoPolygon([[{12}, {13}], [{14}, {15}], [{16}, {17}], ])'],
  [
    '_geoPolygon([12, 13], [14, 15], [-1.2,2939.2], [1,1])',
    '_geoPolygon([[{12}, {13}], [{14}, {15}], [{-1.2}, {2939.2}], [{1}, {1}], ])',
  ],
  // precedence (upstream): NOT > AND > OR
  [
    "channel = ponce AND 'dog race' != 'bernese mountain'",
    'AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ]',
  ],
  [
    "channel = ponce OR 'dog race' != 'bernese mountain'",
    'OR[{channel} = {ponce}, {dog race} != {bernese mountain}, ]',
  ],
  [
    "channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000",
    'OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, ]',
  ],
  [
    "channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000 OR colour = red OR colour = blue AND size = 7",
    'OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, {colour} = {red}, AND[{colour} = {blue}, {size} = {7}, ], ]',
  ],
  // parentheses (upstream)
  [
    "channel = ponce AND ( 'dog race' != 'bernese mountain' OR subscribers > 1000 )",
    'AND[{channel} = {ponce}, OR[{dog race} != {bernese mountain}, {subscribers} > {1000}, ], ]',
  ],
  [
    "(channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000) AND _geoRadius(12, 13, 14)",
    'AND[OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, ], _geoRadius({12}, {13}, {14}), ]',
  ],
  // depth (upstream: the deepest accepted)
  [parens(36), '{x} = {1}'],
  [nots(147), 'NOT ({x} = {1})'],
  // confusing keywords (upstream)
  ['NOT "OR" EXISTS AND "EXISTS" NOT EXISTS', 'AND[NOT ({OR} EXISTS), NOT ({EXISTS} EXISTS), ]'],
  // _foreign (upstream)
  ['_foreign(channel, subscribers = 1000)', '_foreign({channel}, {subscribers} = {1000})'],
  [
    '_foreign(channel, channel = ponce AND subscribers > 1000)',
    '_foreign({channel}, AND[{channel} = {ponce}, {subscribers} > {1000}, ])',
  ],
  [
    "_foreign(channel, channel = ponce AND ( 'dog race' != 'bernese mountain' OR subscribers > 1000 ))",
    '_foreign({channel}, AND[{channel} = {ponce}, OR[{dog race} != {bernese mountain}, {subscribers} > {1000}, ], ])',
  ],
  // escapes (upstream parse_escaped, then milli tests/#2380)
  ["title = 'foo\\\\'", '{title} = {foo\\}'],
  ["title = 'foo\\\\\\\\'", '{title} = {foo\\\\}'],
  ["title = 'foo\\\\\\\\\\\\'", '{title} = {foo\\\\\\}'],
  ["title = 'foo\\\\\\\\\\\\\\\\'", '{title} = {foo\\\\\\\\}'],
  ["title = 'foo\\x20\\n\\t\\\"\\'\"'", '{title} = {foo \n\t"\'"}'],
  ["monitor_diagonal = '27\" to 30\\''", '{monitor_diagonal} = {27" to 30\'}'],
  ['monitor_diagonal = "27\' to 30\'" ', "{monitor_diagonal} = {27' to 30'}"],
  ['monitor_diagonal = "27\\" to 30\\"" ', '{monitor_diagonal} = {27" to 30"}'],
  ['x = "I\'m \\"super\\" tamo"', '{x} = {I\'m "super" tamo}'],
  ['x = "Hello \\\\\\"world\\\\\\""', '{x} = {Hello \\"world\\"}'],
  ['x = "\\u0041\\u{1F600}\\101\\x42\\/\\v"', '{x} = {A😀AB/\v}'],
  ["x = ''", '{x} = {}'],
  ['x = ""', '{x} = {}'],
  ['x = "a\'b" AND y = \'a"b\'', 'AND[{x} = {a\'b}, {y} = {a"b}, ]'],
  // operators need no spaces; words
  ['color=blue', '{color} = {blue}'],
  ['price>=10', '{price} >= {10}'],
  ['a!=b', '{a} != {b}'],
  ['a<b', '{a} < {b}'],
  ['doggos.age > 2', '{doggos.age} > {2}'],
  ['x = -1.5e3', '{x} = {-1.5e3}'],
  ['.private-field_x = I-love-kebab', '{.private-field_x} = {I-love-kebab}'],
  ['café = 名前', '{café} = {名前}'],
  ['x =\u00a0 1', '{x} = {1}'],
  ['x = 1\nAND\ty = 2', 'AND[{x} = {1}, {y} = {2}, ]'],
  // keywords are whole, case-sensitive words
  ['NOT(x = 1)', 'NOT ({x} = {1})'],
  ['x = 1 AND(y = 2)', 'AND[{x} = {1}, {y} = {2}, ]'],
  ['NOTE = 1', '{NOTE} = {1}'],
  ['ORDER = and', '{ORDER} = {and}'],
  ['x = not OR y = in', 'OR[{x} = {not}, {y} = {in}, ]'],
  ['x IN ["AND", \'OR\', TOO]', '{x} IN[{AND}, {OR}, {TOO}, ]'],
  ['"NOT" = "IN"', '{NOT} = {IN}'],
  // nom prefix tags: `CONTAINSfoo` is `CONTAINS foo`
  ['x CONTAINSfoo', '{x} CONTAINS {foo}'],
  ["x STARTS WITH ''", '{x} STARTS WITH {}'],
  ["x NOT CONTAINS 'a b'", 'NOT ({x} CONTAINS {a b})'],
  ['x 1 TO 2 AND y -5 TO -1', 'AND[{x} {1} TO {2}, {y} {-5} TO {-1}, ]'],
  ["x 'a' TO \"z\"", '{x} {a} TO {z}'],
  // precedence and nesting
  ['a = 1 OR b = 2 AND c = 3', 'OR[{a} = {1}, AND[{b} = {2}, {c} = {3}, ], ]'],
  ['NOT a = 1 AND b = 2', 'AND[NOT ({a} = {1}), {b} = {2}, ]'],
  ['NOT (a = 1 AND b = 2)', 'NOT (AND[{a} = {1}, {b} = {2}, ])'],
  ['(a = 1 OR b = 2) AND c = 3', 'AND[OR[{a} = {1}, {b} = {2}, ], {c} = {3}, ]'],
  ['a = 1 AND b = 2 AND c = 3', 'AND[{a} = {1}, {b} = {2}, {c} = {3}, ]'],
  ['a = 1 AND (b = 2 AND c = 3)', 'AND[{a} = {1}, AND[{b} = {2}, {c} = {3}, ], ]'],
  ['((a = 1))', '{a} = {1}'],
  ['NOT NOT NOT a EXISTS', 'NOT ({a} EXISTS)'],
  ['NOT a NOT IN [1]', '{a} IN[{1}, ]'],
  // geo forms
  ['_geoRadius( 1 , 2 , 3 )', '_geoRadius({1}, {2}, {3})'],
  ['_geoRadius(1e3, -.5, +2.)', '_geoRadius({1e3}, {-.5}, {+2.})'],
  ['  _geoRadius(45.472735, 9.184019, 2000)', '_geoRadius({45.472735}, {9.184019}, {2000})'],
  ['_geoBoundingBox( [ 45.49 , 9.23 ] , [ 45.44 , 9.16 ] )', '_geoBoundingBox([{45.49}, {9.23}], [{45.44}, {9.16}])'],
  ['_geoPolygon([1,2],[3,4],[5,6],)', '_geoPolygon([[{1}, {2}], [{3}, {4}], [{5}, {6}], ])'],
  ['_geoPolygon([1,2],[3,4],[5,6] , )', '_geoPolygon([[{1}, {2}], [{3}, {4}], [{5}, {6}], ])'],
  ['_geoRadius(1, 2, 3)AND x = 1', 'AND[_geoRadius({1}, {2}, {3}), {x} = {1}, ]'],
  // words that only look reserved
  ['_geo.lat = 1', '{_geo.lat} = {1}'],
  ['_geography = 1', '{_geography} = {1}'],
  ['_geoRadiusX = 1', '{_geoRadiusX} = {1}'],
  ['_geoPolygon2 EXISTS', '{_geoPolygon2} EXISTS'],
  ['_foreign = 1', '{_foreign} = {1}'],
  ['_vectors = 1', '{_vectors} = {1}'],
  ['_vectors.a IS NULL', '{_vectors.a} IS NULL'],
  ['_vectorsX EXISTS', '{_vectorsX} EXISTS'],
  ['_shard IN [a, b]', '{_shard} IN[{a}, {b}, ]'],
  // vector variants
  ["_vectors.'my embedder'.fragments.'a b' NOT EXISTS", 'NOT (_vectors."my embedder".fragments."a b" EXISTS)'],
  ['_vectors.e-1_x EXISTS OR x = 1', 'OR[_vectors."e-1_x" EXISTS, {x} = {1}, ]'],
  // _foreign nesting
  ['_foreign(author, _foreign(publisher, country = fr))', '_foreign({author}, _foreign({publisher}, {country} = {fr}))'],
  ['x = 1 AND NOT _foreign( "a b" , y EXISTS )', 'AND[{x} = {1}, NOT (_foreign({a b}, {y} EXISTS)), ]'],
];

/** [expression, full error message]. */
const BAD: [string, string][] = [
  // upstream `error` snapshots
  ['channel = Ponce = 12', 'Found unexpected characters at the end of the filter: `= 12`. You probably forgot an `OR` or an `AND` rule.\n17:21 channel = Ponce = 12'],
  ['channel =    ', 'Was expecting a value but instead got nothing.\n14:14 channel =    '],
  ['channel = 🐻', 'Was expecting a value but instead got `🐻`.\n11:12 channel = 🐻'],
  ['channel = 🐻 AND followers < 100', 'Was expecting a value but instead got `🐻`.\n11:12 channel = 🐻 AND followers < 100'],
  ["'OR'", `${OPS} at \`\\'OR\\'\`.\n1:5 'OR'`],
  ['OR', `${KEYWORD_VALUE('OR')}\n1:3 OR`],
  ['channel Ponce', `${OPS} at \`channel Ponce\`.\n1:14 channel Ponce`],
  ['channel = Ponce OR', `${OPS} but instead got nothing.\n19:19 channel = Ponce OR`],
  ['_geoRadius', `${GEO_RADIUS}\n11:11 _geoRadius`],
  ['_geoRadius = 12', `${GEO_RADIUS}\n11:16 _geoRadius = 12`],
  ['_geoBoundingBox', `${GEO_BOX}\n16:16 _geoBoundingBox`],
  ['_geoBoundingBox = 12', `${GEO_BOX}\n16:21 _geoBoundingBox = 12`],
  ['_geoBoundingBox(1.0, 1.0)', `${GEO_BOX}\n17:26 _geoBoundingBox(1.0, 1.0)`],
  ['_geoPolygon([1,2,3])', 'The `_geoPolygon` filter expects at least 3 points but only 1 were specified\n18:19 _geoPolygon([1,2,3])'],
  ['_geoPolygon(1,2,3)', `${GEO_POLYGON}\n13:19 _geoPolygon(1,2,3)`],
  ['_geoPolygon([1,2],[1,2],[1,2,3])', 'Was expecting 2 coordinates but instead found 3.\n26:27 _geoPolygon([1,2],[1,2],[1,2,3])'],
  ['_geoPolygon([1,2],[1,2,3])', 'The `_geoPolygon` filter expects at least 3 points but only 2 were specified\n24:25 _geoPolygon([1,2],[1,2,3])'],
  ['_geoPolygon(1)', `${GEO_POLYGON}\n13:15 _geoPolygon(1)`],
  ['_geoPolygon([1,2)', `${GEO_POLYGON}\n17:18 _geoPolygon([1,2)`],
  ['_geoPoint(12, 13, 14)', `${RESERVED_GEO('_geoPoint')}\n1:22 _geoPoint(12, 13, 14)`],
  ['position <= _geoPoint(12, 13, 14)', `${RESERVED_GEO('_geoPoint')}\n13:34 position <= _geoPoint(12, 13, 14)`],
  ['_geoDistance(12, 13, 14)', `${RESERVED_GEO('_geoDistance')}\n1:25 _geoDistance(12, 13, 14)`],
  ['position <= _geoDistance(12, 13, 14)', `${RESERVED_GEO('_geoDistance')}\n13:37 position <= _geoDistance(12, 13, 14)`],
  ['_geo(12, 13, 14)', `${RESERVED_GEO('_geo')}\n1:17 _geo(12, 13, 14)`],
  ['position <= _geo(12, 13, 14)', `${RESERVED_GEO('_geo')}\n13:29 position <= _geo(12, 13, 14)`],
  ['position <= _geoRadius(12, 13, 14)', "The `_geoRadius` filter is an operation and can't be used as a value.\n13:35 position <= _geoRadius(12, 13, 14)"],
  ["channel = 'ponce", "Expression `\\'ponce` is missing the following closing delimiter: `'`.\n11:17 channel = 'ponce"],
  ['channel = "ponce', 'Expression `\\"ponce` is missing the following closing delimiter: `"`.\n11:17 channel = "ponce'],
  ['channel = mv OR (followers >= 1000', 'Expression `(followers >= 1000` is missing the following closing delimiter: `)`.\n17:35 channel = mv OR (followers >= 1000'],
  ['channel = mv OR followers >= 1000)', 'Found unexpected characters at the end of the filter: `)`. You probably forgot an `OR` or an `AND` rule.\n34:35 channel = mv OR followers >= 1000)'],
  ['colour NOT EXIST', `${OPS} at \`colour NOT EXIST\`.\n1:17 colour NOT EXIST`],
  ['subscribers 100 TO1000', `${OPS} at \`subscribers 100 TO1000\`.\n1:23 subscribers 100 TO1000`],
  ["channel = ponce ORdog != 'bernese mountain'", "Found unexpected characters at the end of the filter: `ORdog != \\'bernese mountain\\'`. You probably forgot an `OR` or an `AND` rule.\n17:44 channel = ponce ORdog != 'bernese mountain'"],
  ['name = "\\x"', 'The filter is incomplete and requires Unknown additional bytes to be parsed.\n1:12 name = "\\x"'],
  ['colour IN blue, green]', 'Expected `[` after `IN` keyword.\n11:23 colour IN blue, green]'],
  ["colour IN [blue, green, 'blue' > 2]", 'Expected only comma-separated field names inside `IN[..]` but instead found `> 2]`.\n32:36 colour IN [blue, green, \'blue\' > 2]'],
  ['colour IN [blue, green, AND]', 'Expected only comma-separated field names inside `IN[..]` but instead found `AND]`.\n25:29 colour IN [blue, green, AND]'],
  ['colour IN [blue, green', 'Expected matching `]` after the list of field names given to `IN[`\n23:23 colour IN [blue, green'],
  ["colour IN ['blue, green", "Expression `\\'blue, green` is missing the following closing delimiter: `'`.\n12:24 colour IN ['blue, green"],
  ['x = EXISTS', `${KEYWORD_VALUE('EXISTS')}\n5:11 x = EXISTS`],
  ['AND = 8', `${KEYWORD_VALUE('AND')}\n1:4 AND = 8`],
  [parens(50), `${DEPTH}\n38:106 ${parens(50)}`],
  [nots(199), `${DEPTH}\n597:802 ${nots(199)}`],
  ['_vectors _vectors EXISTS', `${VECTOR_OPERATION}\n10:25 _vectors _vectors EXISTS`],
  ['_vectors. embedderName EXISTS', 'Was expecting embedder name but found nothing.\n10:11 _vectors. embedderName EXISTS'],
  ['_vectors .embedderName EXISTS', `${VECTOR_OPERATION}\n10:30 _vectors .embedderName EXISTS`],
  ['_vectors.embedderName. EXISTS', 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.\n22:23 _vectors.embedderName. EXISTS'],
  ['_vectors."embedderName EXISTS', 'The quotes in one of the values are inconsistent.\n10:30 _vectors."embedderName EXISTS'],
  ['_vectors."embedderNam"e EXISTS', 'The vector filter has leftover tokens.\n23:31 _vectors."embedderNam"e EXISTS'],
  ['_vectors.embedderName.documentTemplate. EXISTS', 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.\n39:40 _vectors.embedderName.documentTemplate. EXISTS'],
  ['_vectors.embedderName.fragments EXISTS', 'The vector filter is missing a fragment name.\n32:39 _vectors.embedderName.fragments EXISTS'],
  ['_vectors.embedderName.fragments. EXISTS', "The vector filter's fragment name is invalid.\n33:40 _vectors.embedderName.fragments. EXISTS"],
  ['_vectors.embedderName.fragments.test test EXISTS', `${VECTOR_OPERATION}\n38:49 _vectors.embedderName.fragments.test test EXISTS`],
  ['_vectors.embedderName.fragments. test EXISTS', "The vector filter's fragment name is invalid.\n33:45 _vectors.embedderName.fragments. test EXISTS"],
  ['_vectors.embedderName .fragments. test EXISTS', `${VECTOR_OPERATION}\n23:46 _vectors.embedderName .fragments. test EXISTS`],
  ['_vectors.embedderName .fragments.test EXISTS', `${VECTOR_OPERATION}\n23:45 _vectors.embedderName .fragments.test EXISTS`],
  ['_vectors.embedderName.fargments.test EXISTS', 'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `fargments`. Did you mean `fragments`?\n23:32 _vectors.embedderName.fargments.test EXISTS'],
  ['_vectors.embedderName."userProvided" EXISTS', 'Was expecting this part to be unquoted.\n24:36 _vectors.embedderName."userProvided" EXISTS'],
  ['_vectors.embedderName.userProvided.fragments.test EXISTS', 'Vector filter can only accept one of `fragments`, `userProvided`, `documentTemplate` or `regenerate`, but found both `userProvided` and `fragments`.\n36:45 _vectors.embedderName.userProvided.fragments.test EXISTS'],
  ['NOT OR EXISTS AND EXISTS NOT EXISTS', `${KEYWORD_VALUE('OR')}\n5:7 NOT OR EXISTS AND EXISTS NOT EXISTS`],
  ['value NULL', `${OPS} at \`value NULL\`.\n1:11 value NULL`],
  ['value NOT NULL', `${OPS} at \`value NOT NULL\`.\n1:15 value NOT NULL`],
  ['value EMPTY', `${OPS} at \`value EMPTY\`.\n1:12 value EMPTY`],
  ['value NOT EMPTY', `${OPS} at \`value NOT EMPTY\`.\n1:16 value NOT EMPTY`],
  ['value IS', `${OPS} at \`value IS\`.\n1:9 value IS`],
  ['value IS NOT', `${OPS} at \`value IS NOT\`.\n1:13 value IS NOT`],
  ['value IS EXISTS', `${OPS} at \`value IS EXISTS\`.\n1:16 value IS EXISTS`],
  ['value IS NOT EXISTS', `${OPS} at \`value IS NOT EXISTS\`.\n1:20 value IS NOT EXISTS`],
  // upstream HTTP tests (tests/search/errors.rs)
  ['title & Glass', `${OPS} at \`title & Glass\`.\n1:14 title & Glass`],
  ['title = Glass XOR title = Glass', 'Found unexpected characters at the end of the filter: `XOR title = Glass`. You probably forgot an `OR` or an `AND` rule.\n15:32 title = Glass XOR title = Glass'],
  ['_geo = Glass', `${RESERVED_GEO('_geo')}\n1:13 _geo = Glass`],
  ['_geoDistance = Glass', `${RESERVED_GEO('_geoDistance')}\n1:21 _geoDistance = Glass`],
  ['_geoPoint = Glass', `${RESERVED_GEO('_geoPoint')}\n1:18 _geoPoint = Glass`],
  // nothing eaten after EXISTS / NULL / `)` of a geo function
  ['x EXISTS ', 'Found unexpected characters at the end of the filter: ` `. You probably forgot an `OR` or an `AND` rule.\n9:10 x EXISTS '],
  ['x IS NULL ', 'Found unexpected characters at the end of the filter: ` `. You probably forgot an `OR` or an `AND` rule.\n10:11 x IS NULL '],
  ['_geoRadius(1, 2, 3) ', 'Found unexpected characters at the end of the filter: ` `. You probably forgot an `OR` or an `AND` rule.\n20:21 _geoRadius(1, 2, 3) '],
  ['x IS NULLABLE', 'Found unexpected characters at the end of the filter: `ABLE`. You probably forgot an `OR` or an `AND` rule.\n10:14 x IS NULLABLE'],
  // keywords are case-sensitive
  ['x = 1 and y = 2', 'Found unexpected characters at the end of the filter: `and y = 2`. You probably forgot an `OR` or an `AND` rule.\n7:16 x = 1 and y = 2'],
  ['x exists', `${OPS} at \`x exists\`.\n1:9 x exists`],
  ['x STARTS  WITH y', `${OPS} at \`x STARTS  WITH y\`.\n1:17 x STARTS  WITH y`],
  ['x in [1]', `${OPS} at \`x in [1]\`.\n1:9 x in [1]`],
  // missing operands
  ['x = 1 AND', `${OPS} but instead got nothing.\n10:10 x = 1 AND`],
  ['x = 1 AND ', `${OPS} but instead got nothing.\n11:11 x = 1 AND `],
  ['NOT', `${OPS} but instead got nothing.\n4:4 NOT`],
  ['NOT = 1', `${OPS} at \`= 1\`.\n5:8 NOT = 1`],
  ['()', `${OPS} at \`)\`.\n2:3 ()`],
  ['x = 1 OR OR y = 2', `${KEYWORD_VALUE('OR')}\n10:12 x = 1 OR OR y = 2`],
  ['x 1 TO', `${OPS} at \`x 1 TO\`.\n1:7 x 1 TO`],
  ['x 1 TO ', 'Was expecting a value but instead got nothing.\n8:8 x 1 TO '],
  ['x 1 TO AND', `${KEYWORD_VALUE('AND')}\n8:11 x 1 TO AND`],
  ['x CONTAINS', 'Was expecting a value but instead got nothing.\n11:11 x CONTAINS'],
  ['x STARTS WITH (', 'Was expecting a value but instead got nothing.\n15:15 x STARTS WITH ('],
  ['x > = 1', 'Was expecting a value but instead got nothing.\n5:5 x > = 1'],
  ['x = a b', 'Found unexpected characters at the end of the filter: `b`. You probably forgot an `OR` or an `AND` rule.\n7:8 x = a b'],
  ['x = "a" "b"', 'Found unexpected characters at the end of the filter: `\\"b\\"`. You probably forgot an `OR` or an `AND` rule.\n9:12 x = "a" "b"'],
  ['x = y)', 'Found unexpected characters at the end of the filter: `)`. You probably forgot an `OR` or an `AND` rule.\n6:7 x = y)'],
  ['(x = 1', 'Expression `(x = 1` is missing the following closing delimiter: `)`.\n1:7 (x = 1'],
  ['  (x = 1 y', 'Expression `  (x = 1 y` is missing the following closing delimiter: `)`.\n1:11   (x = 1 y'],
  ["price 'abc", "Expression `\\'abc` is missing the following closing delimiter: `'`.\n7:11 price 'abc"],
  // IN
  ['x NOT IN a', 'Expected `[` after `IN` keyword.\n10:11 x NOT IN a'],
  ['x IN', 'Expected `[` after `IN` keyword.\n5:5 x IN'],
  ['x IN [a b]', 'Expected only comma-separated field names inside `IN[..]` but instead found `b]`.\n9:11 x IN [a b]'],
  ['x IN [a,,b]', 'Expected only comma-separated field names inside `IN[..]` but instead found `,b]`.\n9:12 x IN [a,,b]'],
  ['x IN [AND]', 'Expected only comma-separated field names inside `IN[..]` but instead found `AND]`.\n7:11 x IN [AND]'],
  ['x IN [a, "b]', 'Expression `\\"b]` is missing the following closing delimiter: `"`.\n10:13 x IN [a, "b]'],
  // escapes
  ['x = "\\q"', 'Malformed value: `\\\\q`.\n6:8 x = "\\q"'],
  ['x = "\\u{110000}"', 'Malformed value: `\\\\u{110000}`.\n6:16 x = "\\u{110000}"'],
  ['x = "\\uD800"', 'Malformed value: `\\\\uD800`.\n6:12 x = "\\uD800"'],
  ['x = "\\u{zz}"', 'Found an invalid escaped sequence number: `\\\\u{zz}`.\n6:12 x = "\\u{zz}"'],
  ['x = "\\xZZ"', 'Found an invalid escaped sequence number: `\\\\xZZ`.\n6:10 x = "\\xZZ"'],
  ['x = "abc\\', 'Malformed value: `abc\\\\`.\n6:10 x = "abc\\'],
  ['x = "\\u12"', 'The filter is incomplete and requires Unknown additional bytes to be parsed.\n1:11 x = "\\u12"'],
  ['"\\q" = 1', `${OPS} at \`\\"\\\\q\\" = 1\`.\n1:9 "\\q" = 1`],
  ['x = "a\\"', 'Expression `\\"a\\\\\\"` is missing the following closing delimiter: `"`.\n5:9 x = "a\\"'],
  // geo syntax
  ['_geoRadius(1, 2)', 'Was expecting 3 or 4 arguments for `_geoRadius`, but instead found 2.\n17:17 _geoRadius(1, 2)'],
  ['_geoRadius(1, 2, 3, 4, 5) AND x = 1', 'Was expecting 3 or 4 arguments for `_geoRadius`, but instead found 5.\n26:36 _geoRadius(1, 2, 3, 4, 5) AND x = 1'],
  ['_geoRadius(1,2,3,)', `${GEO_RADIUS}\n17:19 _geoRadius(1,2,3,)`],
  ['_geoRadius(a, 2, 3)', `${GEO_RADIUS}\n12:20 _geoRadius(a, 2, 3)`],
  ['_geoRadius(1e, 2, 3)', `${GEO_RADIUS}\n14:21 _geoRadius(1e, 2, 3)`],
  ['_geoRadius (1, 2, 3)', `${GEO_RADIUS}\n11:21 _geoRadius (1, 2, 3)`],
  ['_geoBoundingBox([1, 2], [3, 4], [5, 6])', `${GEO_BOX}\n40:40 _geoBoundingBox([1, 2], [3, 4], [5, 6])`],
  ['_geoBoundingBox([1, 2, 3], [3, 4])', 'Was expecting 2 coordinates but instead found 3.\n18:19 _geoBoundingBox([1, 2, 3], [3, 4])'],
  ['_geoBoundingBox([1, 2], [3])', 'Was expecting 2 coordinates but instead found 1.\n26:27 _geoBoundingBox([1, 2], [3])'],
  ['_geoBoundingBox([1, 2], [3, 4],)', `${GEO_BOX}\n31:33 _geoBoundingBox([1, 2], [3, 4],)`],
  ['_geoPolygon([1,2],[3,4])', 'The `_geoPolygon` filter expects at least 3 points but only 2 were specified\n22:23 _geoPolygon([1,2],[3,4])'],
  ['_geoPolygon', `${GEO_POLYGON}\n12:12 _geoPolygon`],
  ['x = _geoBoundingBox([1,2],[3,4])', "The `_geoBoundingBox` filter is an operation and can't be used as a value.\n5:33 x = _geoBoundingBox([1,2],[3,4])"],
  ['_geoRadius = 1', `${GEO_RADIUS}\n11:15 _geoRadius = 1`],
  ['x IN [_geoRadius]', "The `_geoRadius` filter is an operation and can't be used as a value.\n7:18 x IN [_geoRadius]"],
  ['_geoPointer = 1', `${RESERVED_GEO('_geoPoint')}\n1:16 _geoPointer = 1`],
  ['x = _geo', `${RESERVED_GEO('_geo')}\n5:9 x = _geo`],
  ['x = 1 OR _geo EXISTS', `${RESERVED_GEO('_geo')}\n10:21 x = 1 OR _geo EXISTS`],
  // vector filters
  ['_vectors', `${OPS} at \`_vectors\`.\n1:9 _vectors`],
  ['_vectors.', "The vector filter's embedder name is invalid.\n10:10 _vectors."],
  ['_vectors 1 TO 2', `${VECTOR_OPERATION}\n10:16 _vectors 1 TO 2`],
  ['_vectors.e CONTAINS x', `${VECTOR_OPERATION}\n12:22 _vectors.e CONTAINS x`],
  ['_vectors.e.regenerateX EXISTS', 'The vector filter has leftover tokens.\n22:30 _vectors.e.regenerateX EXISTS'],
  ['_vectors.e.userProvided.regenerate EXISTS', 'Vector filter can only accept one of `fragments`, `userProvided`, `documentTemplate` or `regenerate`, but found both `userProvided` and `regenerate`.\n25:35 _vectors.e.userProvided.regenerate EXISTS'],
  ['_vectors.e.fragments.f.x EXISTS', 'Vector filter can only accept one of `fragments`, `userProvided`, `documentTemplate` or `regenerate`, but found both `fragments` and `x`.\n24:25 _vectors.e.fragments.f.x EXISTS'],
  ['_vectors.e.foo EXISTS', 'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `foo`.\n12:15 _vectors.e.foo EXISTS'],
  ['_vectors.e.regenrate EXISTS', 'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `regenrate`. Did you mean `regenerate`?\n12:21 _vectors.e.regenrate EXISTS'],
  ['_vectors.e."abc" EXISTS', 'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `abc`.\n13:16 _vectors.e."abc" EXISTS'],
  ['_vectors.🐻 EXISTS', "The vector filter's embedder name is invalid.\n10:18 _vectors.🐻 EXISTS"],
  // _foreign: errors blame the inner fragment and print the filter from `_foreign` on
  ['_foreign(a b)', `${FOREIGN('b)')}\n12:14 _foreign(a b)`],
  ['x = 1 AND _foreign(a, b = )', `${FOREIGN('')}\n27:27 _foreign(a, b = )`],
  ['_foreign(a, b = 1', `${FOREIGN('')}\n18:18 _foreign(a, b = 1`],
  ['_foreign', `${FOREIGN('')}\n9:9 _foreign`],
  ['x = 1 OR  _foreign (a, b = 1)', `${FOREIGN(' (a, b = 1)')}\n19:30 _foreign (a, b = 1)`],
  ['  _foreign (a, b = 1)', `${FOREIGN(' (a, b = 1)')}\n11:22   _foreign (a, b = 1)`],
  ['_foreign(a, b = "\\x")', 'The filter is incomplete and requires Unknown additional bytes to be parsed.\n1:22 _foreign(a, b = "\\x")'],
  // depth
  [parens(37), `${DEPTH}\n38:80 ${parens(37)}`],
  [nots(148), `${DEPTH}\n593:598 ${nots(148)}`],
  // columns count code points on the current line; fragments are escape_debug'ed
  ['x = 1\nAND y =', 'Was expecting a value but instead got nothing.\n8:8 x = 1\nAND y ='],
  ['x = 1 \u0007', 'Found unexpected characters at the end of the filter: `\\u{7}`. You probably forgot an `OR` or an `AND` rule.\n7:8 x = 1 \u0007'],
  ['x\u00a0= 1', `${OPS} at \`x\\u{a0}= 1\`.\n1:6 x\u00a0= 1`],
  // a bad field is a recoverable error: the primary blames all of it
  ['😀 = 1 AND 😀', `${OPS} at \`😀 = 1 AND 😀\`.\n1:12 😀 = 1 AND 😀`],
  ['x = 1 AND 😀', `${OPS} at \`😀\`.\n11:12 x = 1 AND 😀`],
  ['名前 = 1 AND x =', 'Was expecting a value but instead got nothing.\n15:15 名前 = 1 AND x ='],
];

/** The cases whose result differs from the expected one (all of them, to see every mismatch). */
function mismatches(cases: [string, string][], run: (expression: string) => string): string[][] {
  return cases
    .map(([expression, expected]) => [expression, expected, run(expression)])
    .filter(([, expected, actual]) => expected !== actual);
}

test(`corpus: ${GOOD.length} good expressions give their AST`, () => {
  assert.deepEqual(
    mismatches(GOOD, (expression) => {
      try {
        const node = parseFilter(expression);
        return node === null ? '<no filter>' : show(node);
      } catch (e) {
        return (e as Error).message;
      }
    }),
    [],
  );
});

test(`corpus: ${BAD.length} bad expressions give Meilisearch's message`, () => {
  assert.deepEqual(mismatches(BAD, errorOf), []);
});

test('blank filters are no filter', () => {
  for (const blank of ['', ' ', '  \n\t ', '\u00a0\u2003']) assert.equal(parseFilter(blank), null);
  // a BOM is not whitespace for Rust's trim
  assert.match(errorOf('\ufeff'), /^Was expecting an operation/);
});

test('a flat OR of 14 361 conditions parses (milli filter_depth)', () => {
  const big = Array.from({ length: 14361 }, (_, i) => `account_ids=${i + 1}`).join(' OR ');
  const node = parseFilter(big);
  assert.ok(node !== null && node.kind === 'or' && node.children.length === 14361);
});

/** `text@start:end` for a token, code point offsets. */
function at(token: Token): string {
  return `${token.text}@${token.span.start}:${token.span.end}`;
}

test('spans: tokens point at their fragment, quoted values at their inside', () => {
  const cmp = parseFilter(`"dog race" = 'Bernese Mountain'`);
  assert.ok(cmp?.kind === 'compare');
  assert.deepEqual([at(cmp.field), at(cmp.value)], ['dog race@1:9', 'Bernese Mountain@14:30']);

  // `𝒳` is one code point (two UTF-16 units)
  const range = parseFilter('𝒳 1 TO 5');
  assert.ok(range?.kind === 'range');
  assert.deepEqual([at(range.field), at(range.from), at(range.to)], ['𝒳@0:1', '1@2:3', '5@7:8']);

  const not = parseFilter('  tags NOT IN [a , "b c"]');
  assert.ok(not?.kind === 'not' && not.child.kind === 'in');
  assert.deepEqual([not.child.field, ...not.child.values].map(at), ['tags@2:6', 'a@15:16', 'b c@20:23']);

  const contains = parseFilter('doggo NOT CONTAINS kefir');
  assert.ok(contains?.kind === 'not' && contains.child.kind === 'contains');
  assert.deepEqual([contains.child.keyword.start, contains.child.keyword.end], [10, 18]);

  const radius = parseFilter('_geoRadius( 1.5 ,-2,3 , 4)');
  assert.ok(radius?.kind === 'geoRadius');
  assert.deepEqual(
    [radius.lat, radius.lng, radius.radius, radius.resolution!].map(at),
    ['1.5@12:15', '-2@17:19', '3@20:21', '4@24:25'],
  );

  const vectors = parseFilter(`_vectors."a.b".fragments.c EXISTS`);
  assert.ok(vectors?.kind === 'vectorExists');
  assert.deepEqual([vectors.field, vectors.embedder!, vectors.fragment!].map(at), [
    '_vectors@0:8',
    'a.b@10:13',
    'c@25:26',
  ]);

  // inside `_foreign(…)` spans still count from the start of the filter, but print from `_foreign`
  const foreign = parseFilter('x = 1 AND _foreign(a, b = 2)');
  assert.ok(foreign?.kind === 'and' && foreign.children[1]!.kind === 'foreign');
  const inner = foreign.children[1].filter;
  assert.ok(inner.kind === 'compare');
  assert.equal(at(inner.field), 'b@22:23');
  assert.equal(inner.field.span.source.shown, '_foreign(a, b = 2)');
  assert.equal(foreign.children[0]!.kind === 'compare' && foreign.children[0].field.span.source.shown, 'x = 1 AND _foreign(a, b = 2)');
});

test('values carry the finite f64 they parse to with Rust grammar', () => {
  const numbers = (expression: string): (number | null)[] => {
    const node = parseFilter(expression);
    assert.ok(node?.kind === 'in');
    return node.values.map((v) => v.number);
  };
  assert.deepEqual(numbers('x IN [10, 10.0, -1.5e3, "+7", .5, 5., "12", 1_000, 0x10, inf, NaN, 1e999, abc, "", " 1"]'), [
    10, 10, -1500, 7, 0.5, 5, 12, null, null, null, null, null, null, null, null,
  ]);
  const geo = parseFilter('_geoRadius(1e400, -0, 3)');
  assert.ok(geo?.kind === 'geoRadius');
  assert.deepEqual([geo.lat.value, Object.is(geo.lng.value, -0), geo.radius.value], [Infinity, true, 3]);
});
