// Filter evaluation equals a naive evaluation over all documents, for thousands of generated
// filters (issue 4): random documents with mixed-type fields (numbers, numeric strings, strings
// with case/accents/spaces, booleans, nulls, empty values, arrays, nested objects, missing
// fields, `_geo` points) and random filters using every operator under NOT/AND/OR, in the
// string and the JSON array forms. The evaluator runs over the in-memory reader (bitmaps,
// universes, short-circuits); the naive side decides each document on its own from its facet
// values and filters.md §4, without bitmaps. Seed: FILTER_SEED (printed on failure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter, parseFilterJson, type FilterNode, type Value } from '../parser/index.ts';
import { haversineMeters } from '../../facet/index.ts';
import { documentFacets, geoPoint, inGeoBox, MemoryFacetReader, type FieldFacets } from '../../facet/memory-reader.ts';
import { evaluateFilter } from './index.ts';
import type { Json } from '../../json.ts';

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.FILTER_SEED ?? 20240504);
const random = prng(SEED);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
const chance = (p: number) => random() < p;

const NUMBERS = [-2, -0.5, 0, 1, 1.5, 2, 10, 10.0, 42, 100, 1e6];
const NUMERIC_STRINGS = ['1', '10', '01', '1.0', ' 2 ', '-0.5', '1e1', '100'];
const WORDS = ['apple', 'Apple', 'APPLE', 'äpfel', 'Äpfel', '  banana ', 'Été', 'ete', 'b', 'B', 'a b', 'zebra', 'ﬁne', 'fine', '日本', 'x-y', 'true', 'null'];
const STRINGS = [...NUMERIC_STRINGS, ...WORDS, '', '  '];
const FIELDS = ['n', 's', 'm', 'tags', 'obj', 'obj.a', 'obj.b', 'obj.b.c', 'opt', 'missing'];

function scalar(): Json {
  switch (int(6)) {
    case 0:
    case 1:
      return pick(NUMBERS);
    case 2:
    case 3:
      return pick(STRINGS);
    case 4:
      return chance(0.5);
    default:
      return null;
  }
}

function mixed(depth: number): Json {
  const r = int(10);
  if (r < 6 || depth > 2) return scalar();
  if (r < 8) return Array.from({ length: int(4) }, () => mixed(depth + 1));
  return chance(0.3) ? {} : { c: mixed(depth + 1) };
}

function document(i: number): { [key: string]: Json } {
  const doc: { [key: string]: Json } = { id: i };
  if (chance(0.9)) doc.n = chance(0.85) ? pick(NUMBERS) : pick([null, [], pick(NUMERIC_STRINGS)]);
  if (chance(0.9)) doc.s = chance(0.85) ? pick(WORDS) : pick(['', '  ', null, [], {}]);
  if (chance(0.9)) doc.m = mixed(0);
  if (chance(0.8)) doc.tags = Array.from({ length: int(4) }, () => (chance(0.8) ? pick(STRINGS) : scalar()));
  if (chance(0.7)) {
    doc.obj = chance(0.1)
      ? {}
      : { a: mixed(1), ...(chance(0.6) ? { b: chance(0.5) ? { c: mixed(2) } : [{ c: scalar() }, { c: scalar() }, mixed(2)] } : {}) };
  }
  if (chance(0.3)) doc.opt = scalar();
  if (chance(0.5)) {
    const lat = -80 + random() * 160;
    const lng = -180 + random() * 360;
    doc._geo = chance(0.2) ? { lat: String(lat), lng: String(lng) } : { lat, lng };
  }
  return doc;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'TO', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'CONTAINS', 'STARTS', 'WITH']);

/** A value in filter syntax: bare when the grammar allows it, else quoted. */
function literal(text: string): string {
  if (/^[\p{L}\p{N}_.-]+$/u.test(text) && !KEYWORDS.has(text) && !text.startsWith('_geo') && chance(0.6)) return text;
  return chance(0.5) ? `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"` : `'${text.replace(/['\\]/g, (c) => `\\${c}`)}'`;
}

function anyValue(): string {
  return String(chance(0.5) ? pick(NUMBERS) : pick(STRINGS));
}

function condition(): string {
  const field = pick(FIELDS);
  const v = () => literal(anyValue());
  switch (int(17)) {
    case 0:
      return `${field} = ${v()}`;
    case 1:
      return `${field} != ${v()}`;
    case 2:
      return `${field} ${pick(['>', '>=', '<', '<='])} ${v()}`;
    case 3:
      return `${field} ${v()} TO ${v()}`;
    case 4:
      return `${field} IN [${Array.from({ length: int(4) }, v).join(', ')}]`;
    case 5:
      return `${field} NOT IN [${Array.from({ length: int(4) }, v).join(', ')}]`;
    case 6:
      return `${field} ${pick(['EXISTS', 'NOT EXISTS'])}`;
    case 7:
      return `${field} ${pick(['IS NULL', 'IS NOT NULL'])}`;
    case 8:
      return `${field} ${pick(['IS EMPTY', 'IS NOT EMPTY'])}`;
    case 9:
      return `${field} ${pick(['CONTAINS', 'NOT CONTAINS'])} ${literal(pick(['p', 'an', 'E', 'é', '1', '', ' b', 'tru']))}`;
    case 10:
      return `${field} ${pick(['STARTS WITH', 'NOT STARTS WITH'])} ${literal(pick(['a', 'Ap', 'äp', 'e', 'é', '1', '', '  b', 'ﬁ', 'fi']))}`;
    case 11:
      return `_geoRadius(${(-80 + random() * 160).toFixed(3)}, ${(-180 + random() * 360).toFixed(3)}, ${pick([0, 1000, 1e6, 5e6, 2e7])})`;
    case 12: {
      const top = -60 + random() * 150;
      const bottom = top - random() * Math.min(60, top + 90);
      return `_geoBoundingBox([${top.toFixed(2)}, ${(-180 + random() * 360).toFixed(2)}], [${bottom.toFixed(2)}, ${(-180 + random() * 360).toFixed(2)}])`;
    }
    default:
      return `${field} ${pick(['=', '!=', '<', '>='])} ${literal(pick(NUMERIC_STRINGS.concat(WORDS)))}`;
  }
}

function expression(depth: number): string {
  const r = int(10);
  if (depth >= 4 || r < 4) return condition();
  if (r < 5) return `NOT ${chance(0.5) ? `(${expression(depth + 1)})` : condition()}`;
  const glue = r < 8 ? ' AND ' : ' OR ';
  const parts = Array.from({ length: 2 + int(3) }, () => {
    const e = expression(depth + 1);
    return chance(0.5) || e.includes(' OR ') ? `(${e})` : e;
  });
  return parts.join(glue);
}

// ---- the naive side: one document at a time, from filters.md §4 ----

interface NaiveDocument {
  facets: Map<string, FieldFacets>;
  /** the fields of the whole index */
  known: Set<string>;
  geo: [number, number] | null;
}

const norm = (text: string) => text.trim().normalize('NFKD').toLowerCase();
const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

function equals(f: FieldFacets | undefined, v: Value): boolean {
  if (f === undefined) return false;
  return f.strings.has(norm(v.text)) || (v.number !== null && f.numbers.has(v.number));
}

function holds(node: FilterNode, doc: NaiveDocument): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((c) => holds(c, doc));
    case 'or':
      return node.children.some((c) => holds(c, doc));
    case 'not':
      return !holds(node.child, doc);
    case 'compare': {
      const f = doc.facets.get(node.field.text);
      const { op, value } = node;
      if (op === '=') return equals(f, value);
      // a field no document ever had matches nothing, even with != (milli: no field id → ∅)
      if (op === '!=') return doc.known.has(node.field.text) && !equals(f, value);
      if (f === undefined) return false;
      const sign = op.startsWith('>') ? 1 : -1;
      const strict = op.length === 1;
      const passes = (c: number) => (strict ? c * sign > 0 : c * sign >= 0);
      const target = norm(value.text);
      return (
        (value.number !== null && [...f.numbers].some((n) => passes(n - value.number!))) ||
        [...f.strings].some((s) => passes(bytes(s, target)))
      );
    }
    case 'range': {
      const f = doc.facets.get(node.field.text);
      if (f === undefined) return false;
      const { from, to } = node;
      const lo = norm(from.text);
      const hi = norm(to.text);
      return (
        (from.number !== null && to.number !== null && [...f.numbers].some((n) => n >= from.number! && n <= to.number!)) ||
        [...f.strings].some((s) => bytes(s, lo) >= 0 && bytes(s, hi) <= 0)
      );
    }
    case 'in':
      return node.values.some((v) => equals(doc.facets.get(node.field.text), v));
    case 'exists':
      return doc.facets.get(node.field.text)?.exists ?? false;
    case 'isNull':
      return doc.facets.get(node.field.text)?.isNull ?? false;
    case 'isEmpty':
      return doc.facets.get(node.field.text)?.isEmpty ?? false;
    case 'contains': {
      const part = norm(node.value.text);
      return [...(doc.facets.get(node.field.text)?.strings ?? [])].some((s) => s.includes(part));
    }
    case 'startsWith': {
      const f = doc.facets.get(node.field.text);
      const prefix = norm(node.value.text);
      if (prefix === '') return f?.exists ?? false;
      return [...(f?.strings ?? [])].some((s) => s.startsWith(prefix));
    }
    case 'geoRadius':
      return doc.geo !== null && haversineMeters(node.lat.value, node.lng.value, doc.geo[0], doc.geo[1]) <= node.radius.value + Number.EPSILON;
    case 'geoBoundingBox': {
      const [top, right] = node.topRight;
      const [bottom, left] = node.bottomLeft;
      return doc.geo !== null && inGeoBox(doc.geo, top.value, right.value, bottom.value, left.value);
    }
    default:
      throw new Error(`not generated: ${node.kind}`);
  }
}

test('evaluation equals the naive per-document evaluation for thousands of random filters', () => {
  const ids: number[] = [];
  const docs = Array.from({ length: 300 }, (_, i) => {
    ids.push(i * 3 + 7);
    return document(i);
  });
  const reader = new MemoryFacetReader(docs.map((d, i) => [ids[i]!, d] as const));
  const known = new Set<string>();
  const naive: NaiveDocument[] = docs.map((d) => {
    const facets = documentFacets(d);
    for (const field of facets.keys()) known.add(field);
    return { facets, known, geo: geoPoint(d) };
  });
  const scope = { reader, documents: reader.documents, access: () => ({ equality: true, comparison: true, rule: 0 }), geo: { points: true, shapes: false } };

  let nonTrivial = 0;
  const FILTERS = 3000;
  for (let round = 0; round < FILTERS; round++) {
    let node: FilterNode | null;
    let shown: string;
    if (chance(0.15)) {
      const json: (string | string[])[] = Array.from({ length: 1 + int(3) }, () =>
        chance(0.5) ? expression(2) : Array.from({ length: 1 + int(3) }, () => expression(3)),
      );
      shown = JSON.stringify(json);
      node = parseFilterJson(json);
    } else {
      shown = expression(0);
      node = parseFilter(shown);
    }
    assert.ok(node !== null, shown);
    const actual = evaluateFilter(node, scope).toArray();
    const expected = ids.filter((_, i) => holds(node, naive[i]!));
    if (expected.length > 0 && expected.length < ids.length) nonTrivial++;
    assert.deepEqual(actual, expected, `seed ${SEED}, filter #${round}: ${shown}`);
  }
  // the generator must produce selective filters, not only all-or-nothing ones
  assert.ok(nonTrivial > FILTERS / 3, `only ${nonTrivial} selective filters`);
});
