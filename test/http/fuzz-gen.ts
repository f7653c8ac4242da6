// Seeded generator of hostile requests for fuzz.test.ts: request bodies are written as raw JSON
// text (so that `1e400`, `-0`, lone surrogate escapes, duplicate keys, 100,000 levels and invalid
// UTF-8 can be sent), shaped like each route's body, then broken on purpose:
//   - a known field gets a value of another kind, an absurd number, a deep or huge value;
//   - unknown fields (`__proto__`, `constructor`, near-misses of known names) are added;
//   - the text is truncated, a byte is changed, invalid UTF-8 is inserted;
//   - the Content-Type is missing, unparsable or another type; the body is empty.
// Everything derives from one seed (mulberry32), so a failing seed replays exactly.

import { rng } from '../../src/engine/random.fixtures.ts';

export type Rng = () => number;

/** The shared mulberry32 fixture: [0, 1). */
export const makeRng = (seed: number): Rng => rng(seed);

export class Gen {
  /** false: a request meant to be valid (plausible values, no damage); true: anything goes */
  hostile = true;
  /**
   * true while documents are generated: no 5000-element arrays. With `proximityPrecision:
   * byAttribute` Muninn indexes every pair of words of a field (n², docs/compat.md), and one such
   * array would take a minute: the fuzz run would measure that, not find errors.
   */
  inDocument = false;
  constructor(readonly rng: Rng) {}
  int(n: number): number {
    return Math.floor(this.rng() * n);
  }
  chance(p: number): boolean {
    return this.rng() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** Some of the items, in order. */
  some<T>(items: readonly T[], p = 0.3): T[] {
    return items.filter(() => this.chance(p));
  }
}

/** Field names the fuzz index has, and a few it does not. */
export const FIELDS = ['id', 'title', 'genre', 'year', 'price', 'tags', 'nested.a', 'nested', '_geo', 'missing', '*'];

const NUMBERS = ['0', '1', '-1', '42', '3.5', '-0', '1.0', '1e2', '1E+2', '1e308', '1e400', '-1e400', '1e-400', '9007199254740993', '18446744073709551615', '18446744073709551616', '-9223372036854775809', '0.0001'];
const STRING_PARTS = ['a', 'foo', ' ', 'the', 'drama', 'Title', '=', '!=', '>', ' AND ', ' OR ', 'NOT ', ' TO ', ' IN ', '[', ']', '(', ')', "'", '"', '\\', ',', ':', '*', '_geoRadius(1, 2, 3)', '_geo', 'é', '日本語', '😀', 'مرحبا', 'e\u0301', '\u200b', '\u2028', '\ufeff', '\u0000', '\t', '\n', 'genre', 'year', 'id', '.', '..'];
const RAW_STRINGS = ['"\\ud800"', '"\\udc00"', '"x\\ud800y"', '"\\ud800\\u0041"', '"\\ud83d\\ude00"', '"\\u0000"', '""', '"\\/\\b\\f\\n\\r\\t"'];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'a.b', '\\ud800', 'Q', 'LIMIT', 'filtre', 'qq'];

export const nest = (n: number, open = '[', close = ']'): string => open.repeat(n) + close.repeat(n);

export function randomString(g: Gen): string {
  const n = g.int(6);
  let s = '';
  for (let i = 0; i < n; i++) s += g.pick(STRING_PARTS);
  return s;
}

/** A JSON string literal, sometimes with escapes JSON.stringify would not write. */
export function str(g: Gen, s?: string): string {
  if (s === undefined && g.hostile && g.chance(0.1)) return g.pick(RAW_STRINGS);
  return JSON.stringify(s ?? randomString(g));
}

/** Any JSON value, weighted towards the ones that break things. */
export function weird(g: Gen, depth = 0): string {
  const k = g.int(depth > 2 ? 5 : 10);
  switch (k) {
    case 0:
      return g.pick(['null', 'true', 'false']);
    case 1:
    case 2:
      return g.pick(NUMBERS);
    case 3:
    case 4:
      return str(g);
    case 5:
      return `[${Array.from({ length: g.int(4) }, () => weird(g, depth + 1)).join(',')}]`;
    case 6:
      return `{${Array.from({ length: g.int(3) }, () => `${str(g, g.pick([...FIELDS, ...ODD_KEYS]))}:${weird(g, depth + 1)}`).join(',')}}`;
    case 7: {
      const n = g.pick([126, 127, 128, 129, 1000, 100_000]);
      return g.chance(0.5) ? nest(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    }
    case 8:
      return g.inDocument || g.chance(0.5) ? JSON.stringify('x'.repeat(g.pick([1000, 100_000]))) : `[${Array.from({ length: 5000 }, (_, i) => i).join(',')}]`;
    default:
      return `[${str(g, g.pick(FIELDS))}]`;
  }
}

/** A plausible value for a field, or (30%) a weird one. */
export type Shape = (g: Gen) => string;

export const S = {
  string: (values?: readonly string[]): Shape => (g) => str(g, values && (!g.hostile || g.chance(0.7)) ? g.pick(values) : undefined),
  strings: (values: readonly string[] = FIELDS): Shape => (g) => `[${g.some(values, 0.4).map((v) => str(g, v)).join(',')}]`,
  uint: (g: Gen) => g.pick(['0', '1', '2', '10', '20', '1000', '4294967296']),
  bool: (g: Gen) => g.pick(['true', 'false']),
  float: (g: Gen) => g.pick(['0', '0.5', '1', '1.0', '-0.1', '1.1']),
  filter: (g: Gen) => g.pick([
    str(g, 'genre = drama'), str(g, 'year > 2000 AND genre != comedy'), str(g, randomString(g)),
    `[${str(g, 'genre = drama')}, [${str(g, 'year = 1')}, ${str(g, 'year = 2')}]]`, str(g, '_geoRadius(45, 7, 1000)'), 'null',
  ]),
  object: (fields: Record<string, Shape>, required: readonly string[] = []): Shape => (g) => objectOf(g, fields, required),
  array: (item: Shape, max = 3): Shape => (g) => `[${Array.from({ length: g.int(max + 1) }, () => item(g)).join(',')}]`,
  oneOf: (...shapes: Shape[]): Shape => (g) => g.pick(shapes)(g),
  raw: (...texts: string[]): Shape => (g) => g.pick(texts),
};

/**
 * An object with some of the known fields (plausible or weird values), sometimes odd extra keys;
 * the `required` ones are always there in a request meant to be valid.
 */
export function objectOf(g: Gen, fields: Record<string, Shape>, required: readonly string[] = []): string {
  const members: string[] = [];
  for (const [name, shape] of Object.entries(fields)) {
    const wanted = !g.hostile && required.includes(name);
    if (!wanted && !g.chance(g.hostile ? 0.35 : 0.2)) continue;
    members.push(`${JSON.stringify(name)}:${!g.hostile || g.chance(0.7) ? shape(g) : weird(g)}`);
  }
  if (g.hostile && g.chance(0.15)) members.push(`${str(g, g.pick(ODD_KEYS))}:${weird(g)}`);
  if (g.hostile && g.chance(0.05) && members.length > 0) members.push(members[0]!); // a duplicate key
  return `{${members.join(',')}}`;
}

/** A search body's fields (search.md), shared by search, multi-search queries and facet search. */
export const SEARCH: Record<string, Shape> = {
  q: S.string(['drama', 'the', 'Title', '日本', '']),
  offset: S.uint,
  limit: S.uint,
  page: S.uint,
  hitsPerPage: S.uint,
  attributesToRetrieve: S.strings(),
  attributesToCrop: S.strings(['title', 'title:2', '*', 'genre:0']),
  cropLength: S.uint,
  cropMarker: S.string(['…', '']),
  attributesToHighlight: S.strings(),
  highlightPreTag: S.string(['<em>', '']),
  highlightPostTag: S.string(['</em>']),
  showMatchesPosition: S.bool,
  filter: S.filter,
  sort: S.strings(['year:asc', 'price:desc', 'title:asc', '_geoPoint(45, 7):asc', 'year']),
  distinct: S.string(['genre', 'year', 'missing']),
  facets: S.strings(['genre', 'year', '*', 'missing']),
  matchingStrategy: S.string(['last', 'all', 'frequency', 'first']),
  attributesToSearchOn: S.strings(),
  rankingScoreThreshold: S.float,
  locales: S.strings(['fra', 'jpn', 'eng', 'xx']),
  retrieveVectors: S.bool,
  showRankingScore: S.bool,
  showRankingScoreDetails: S.bool,
  showPerformanceDetails: S.bool,
  hybrid: S.object({ embedder: S.string(['default']), semanticRatio: S.float }),
  vector: S.array(S.float),
};

const RANKING_RULES = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'year:asc', 'price:desc', 'attributeRank', 'wordPosition'];

/** Each setting (settings.md) and a plausible value. */
export const SETTINGS: Record<string, Shape> = {
  displayedAttributes: S.strings(),
  searchableAttributes: S.strings(),
  filterableAttributes: S.oneOf(S.strings(), S.array(S.object({ attributePatterns: S.strings(), features: S.object({ facetSearch: S.bool, filter: S.object({ equality: S.bool, comparison: S.bool }) }) }), 2)),
  sortableAttributes: S.strings(),
  rankingRules: S.strings(RANKING_RULES),
  stopWords: S.strings(['the', 'a', 'of', '']),
  nonSeparatorTokens: S.strings(['@', '#', '-']),
  separatorTokens: S.strings(['&', '|', ' ']),
  dictionary: S.strings(['J. R. R.', 'C++']),
  synonyms: (g) => `{${g.some(['movie', 'film', '__proto__', 'constructor', 'the'], 0.4).map((w) => `${JSON.stringify(w)}:${S.strings(['cinema', 'picture', ''])(g)}`).join(',')}}`,
  distinctAttribute: S.string(['genre', 'year']),
  proximityPrecision: S.string(['byWord', 'byAttribute', 'byLetter']),
  typoTolerance: S.object({ enabled: S.bool, minWordSizeForTypos: S.object({ oneTypo: S.uint, twoTypos: S.uint }), disableOnWords: S.strings(['x']), disableOnAttributes: S.strings(), disableOnNumbers: S.bool }),
  faceting: S.object({ maxValuesPerFacet: S.uint, sortFacetValuesBy: (g) => `{${g.some(['*', 'genre', '__proto__'], 0.5).map((f) => `${JSON.stringify(f)}:${str(g, g.pick(['alpha', 'count', 'size']))}`).join(',')}}` }),
  pagination: S.object({ maxTotalHits: S.uint }),
  embedders: (g) => `{${g.some(['default', '__proto__'], 0.5).map((n) => `${JSON.stringify(n)}:${objectOf(g, { source: S.string(['userProvided', 'rest', 'openAi', 'huggingFace', 'ollama']), dimensions: S.uint, headers: S.object({ ['__proto__']: S.string(), 'x-a': S.string() }) })}`).join(',')}}`,
  searchCutoffMs: S.uint,
  localizedAttributes: S.array(S.object({ attributePatterns: S.strings(), locales: S.strings(['fra', 'jpn']) }), 2),
  facetSearch: S.bool,
  prefixSearch: S.string(['indexingTime', 'disabled']),
  foreignKeys: S.array(S.object({ fieldName: S.string(['genre']), foreignIndexUid: S.string(['fuzz_b']) }), 1),
  chat: S.object({ description: S.string() }),
  vectorStoreBackend: S.string(['stable', 'experimental']),
};

/** A document as sent: an id (valid, invalid or missing) and some fields. */
export function document(g: Gen): string {
  const fields: Record<string, Shape> = {
    title: S.string(['Drama night', 'The Title']),
    genre: S.string(['drama', 'comedy']),
    year: S.raw('1999', '2010', '"2001"', '1e400', '-0'),
    price: S.raw('9.5', '0', '1e308'),
    tags: S.strings(['a', 'b']),
    nested: S.object({ a: S.string(), ['__proto__']: S.string() }),
    _geo: S.object({ lat: S.raw('45', '"45"', '1000', '1e400'), lng: S.raw('7', 'null') }),
    ['__proto__']: S.string(),
  };
  const body = objectOf(g, fields).slice(1, -1);
  const id = g.chance(0.85) ? `"id":${g.pick(['1', '2', '3', '"x-1"', '"new_9"', '"bad id!"', '-1', '1.5', '18446744073709551616', 'null', '[1]', JSON.stringify('a'.repeat(600))])}` : '';
  return `{${[id, body].filter((p) => p !== '').join(',')}}`;
}

/** A documents payload: JSON array (or one object), NDJSON or CSV, with its Content-Type. */
export function documentsPayload(g: Gen): { contentType: string; text: string } {
  g.inDocument = true;
  const docs = Array.from({ length: 1 + g.int(4) }, () => document(g));
  g.inDocument = false;
  const kind = g.int(10);
  if (kind < 6) return { contentType: 'application/json', text: g.chance(0.15) ? docs[0]! : `[${docs.join(',')}]` };
  if (kind < 8) return { contentType: 'application/x-ndjson', text: docs.join('\n') + '\n' };
  const rows = Array.from({ length: 1 + g.int(3) }, () => [g.pick(['1', '2', 'x y', '', '"a,b"']), randomString(g).replace(/\n/g, ' '), g.pick(['1999', 'abc', '1e400', ''])].join(','));
  return { contentType: 'text/csv', text: [g.pick(['id,title,year:number', 'id,title,year', 'id,,', '"id'])].concat(rows).join('\n') + '\n' };
}

/** Byte-level damage to a body that was (mostly) well-formed. */
export function damage(g: Gen, body: Buffer): Buffer {
  switch (g.int(5)) {
    case 0:
      return body.subarray(0, g.int(body.length + 1)); // truncated
    case 1: {
      const at = g.int(body.length + 1); // invalid UTF-8 somewhere
      return Buffer.concat([body.subarray(0, at), Buffer.from(g.pick([[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0x80], [0xf0, 0x9f, 0x98]])), body.subarray(at)]);
    }
    case 2: {
      const copy = Buffer.from(body); // one byte replaced
      if (copy.length > 0) copy[g.int(copy.length)] = g.pick([0x22, 0x5c, 0x7b, 0x5d, 0x2c, 0x00, 0x0a, 0x20, 0x80]);
      return copy;
    }
    case 3:
      return Buffer.concat([Buffer.from(g.pick(['\ufeff', ' ', '\n', '[', '{'])), body]);
    default:
      return Buffer.concat([body, Buffer.from(g.pick([',', '}', ' x', '\n{}', '\u0000']))]);
  }
}

/** A Content-Type header: mostly right, sometimes missing, unparsable or another type. */
export function contentType(g: Gen, right: string): string | undefined {
  if (!g.hostile || g.chance(0.88)) return g.chance(0.1) ? `${right}; charset=utf-8` : right;
  return g.pick([undefined, '', ';;;', 'application/', 'text/plain', 'application/json ; x=y', 'application/json;;', 'multipart/form-data; boundary=x', 'application/x-ndjson', 'text/csv', '\u00e9/json', 'application/vnd.api+json']);
}

/** A query string for the task routes (`/tasks/cancel`, `DELETE /tasks`), usually valid-looking. */
export function tasksQuery(g: Gen): string {
  const params: [string, () => string][] = [
    ['uids', () => g.pick(['0', '1,2', '999999', 'x', '-1', '1.5', '18446744073709551616', '*', ''])],
    ['batchUids', () => g.pick(['0', 'a', '*'])],
    ['statuses', () => g.pick(['succeeded', 'failed', 'enqueued', 'canceled,processing', 'nope', '*'])],
    ['types', () => g.pick(['documentAdditionOrUpdate', 'settingsUpdate', 'bogus', '*'])],
    ['indexUids', () => g.pick(['fuzz_a', 'fuzz_zzz', 'bad uid', '*'])],
    ['canceledBy', () => g.pick(['0', 'x'])],
    ['afterEnqueuedAt', () => g.pick(['2024-01-01', '2024-01-01T00:00:00Z', 'yesterday', '99999-01-01'])],
    ['beforeFinishedAt', () => g.pick(['2999-01-01', 'x'])],
    [g.pick(['limit', 'from', 'reverse', 'unknown', '__proto__']), () => g.pick(['1', 'x', 'true'])],
  ];
  const chosen = g.some(params, 0.3);
  return chosen.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v())}`).join('&');
}
