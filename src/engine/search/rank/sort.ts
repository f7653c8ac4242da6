// Sort rules (relevancy.md §7): `field:asc|desc` ranking rules and the `sort` parameter's
// criteria, over the facet values of the field; `_geoPoint(lat, lng):asc|desc` by distance.
//
//   field  buckets of equal value: numbers first (asc: increasing), then strings (normalized,
//          byte order), then one bucket of documents without a value. A multi-valued document
//          sits in the bucket of its best value for the direction (the first one met).
//   geo    nearest first (asc); documents within 1 m of a bucket's first document share it
//          (at most 1000); documents without `_geo` last.
//
// Large universes walk the field's values in order and intersect; small ones read each
// document's own values (cheaper than walking thousands of values for a handful of documents).
import { Bitmap } from '../../bitmap/index.ts';
import type { RankGraph } from './graph.ts';
import type { Bucket, SortDetail } from './rules.ts';

/** The facet values sorting reads (implemented by the facet index). */
export interface SortValues {
  fieldId(path: string): number | undefined;
  /** with `within`, a reader may skip the values none of those documents hold (callers still intersect) */
  numbers(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[number, Bitmap]>;
  strings(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[normalized: string, original: string, docids: Bitmap]>;
  docNumbers(fid: number, docid: number): readonly number[];
  docStrings(fid: number, docid: number): readonly string[];
  geoPoint(docid: number): [lat: number, lng: number] | undefined;
  /** nearest first (`asc`, the default) or farthest first (`desc`); ties in internal id order */
  geoNearest(lat: number, lng: number, within: Bitmap, order?: 'asc' | 'desc'): Iterable<[docid: number, meters: number]>;
}

export type SortCriterion = { kind: 'field'; field: string; asc: boolean } | { kind: 'geo'; lat: number; lng: number; asc: boolean };

/** Universes up to this size are sorted from each document's own values. */
const SMALL_UNIVERSE = 256;
/** Documents within this distance of a geo bucket's first document share the bucket. */
const GEO_TIE_METERS = 1;
const GEO_BUCKET_MAX = 1000;

export type SortRule = (universe: Bitmap, graph: RankGraph) => Iterable<Bucket>;

/** The rule of one sort criterion over `values`. */
export function sortRule(c: SortCriterion, values: SortValues | null): SortRule {
  return c.kind === 'field' ? (u, g) => fieldBuckets(u, g, c.field, c.asc, values) : (u, g) => geoBuckets(u, g, c, values);
}

function bucket(docids: Bitmap, graph: RankGraph, detail: SortDetail): Bucket {
  return { docids, score: { rule: detail.kind === 'field' ? 'sort' : 'geoSort', rank: 1, max: 1, sort: detail }, graph: () => graph };
}

function* fieldBuckets(universe: Bitmap, graph: RankGraph, field: string, asc: boolean, values: SortValues | null): Iterable<Bucket> {
  const detail = (value: number | string | null): SortDetail => ({ kind: 'field', field, asc, value });
  const fid = values?.fieldId(field);
  if (values === null || values === undefined || fid === undefined) {
    yield bucket(universe, graph, detail(null));
    return;
  }
  if (universe.size <= SMALL_UNIVERSE) {
    yield* smallFieldBuckets(universe, graph, fid, asc, values, detail);
    return;
  }
  const order = asc ? 'asc' : 'desc';
  let remaining = universe;
  // the values none of the universe holds would make empty buckets: the reader skips them (whole
  // groups of values at once), which matters when a few hundred documents are spread over many values
  for (const [n, ids] of values.numbers(fid, order, universe)) {
    const hit = Bitmap.and(ids, remaining);
    if (hit.isEmpty) continue;
    remaining = Bitmap.andNot(remaining, hit);
    yield bucket(hit, graph, detail(n));
    if (remaining.isEmpty) return;
  }
  for (const [normalized, , ids] of values.strings(fid, order, universe)) {
    const hit = Bitmap.and(ids, remaining);
    if (hit.isEmpty) continue;
    remaining = Bitmap.andNot(remaining, hit);
    yield bucket(hit, graph, detail(normalized));
    if (remaining.isEmpty) return;
  }
  yield bucket(remaining, graph, detail(null));
}

function* smallFieldBuckets(
  universe: Bitmap,
  graph: RankGraph,
  fid: number,
  asc: boolean,
  values: SortValues,
  detail: (value: number | string | null) => SortDetail,
): Iterable<Bucket> {
  const numbers = new Map<number, number[]>();
  const strings = new Map<string, number[]>();
  const missing: number[] = [];
  for (const id of universe) {
    const nums = values.docNumbers(fid, id);
    if (nums.length > 0) {
      const best = asc ? Math.min(...nums) : Math.max(...nums);
      push(numbers, best, id);
      continue;
    }
    const strs = values.docStrings(fid, id);
    if (strs.length > 0) {
      let best = strs[0]!;
      for (const s of strs) if (asc ? byteCompare(s, best) < 0 : byteCompare(s, best) > 0) best = s;
      push(strings, best, id);
      continue;
    }
    missing.push(id);
  }
  const dir = asc ? 1 : -1;
  for (const n of [...numbers.keys()].sort((a, b) => dir * (a - b))) yield bucket(Bitmap.from(numbers.get(n)!), graph, detail(n));
  for (const s of [...strings.keys()].sort((a, b) => dir * byteCompare(a, b))) yield bucket(Bitmap.from(strings.get(s)!), graph, detail(s));
  if (missing.length > 0) yield bucket(Bitmap.from(missing), graph, detail(null));
}

function push<K>(map: Map<K, number[]>, key: K, id: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [id]);
  else list.push(id);
}

const encoder = new TextEncoder();
/** UTF-8 byte order (JS string comparison is UTF-16 order). */
function byteCompare(a: string, b: string): number {
  if (a === b) return 0;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function* geoBuckets(universe: Bitmap, graph: RankGraph, c: Extract<SortCriterion, { kind: 'geo' }>, values: SortValues | null): Iterable<Bucket> {
  const detail = (docid: number | null, distance: number | null): SortDetail => ({
    kind: 'geo',
    lat: c.lat,
    lng: c.lng,
    asc: c.asc,
    point: docid === null ? null : (values?.geoPoint(docid) ?? null),
    distance,
  });
  if (values === null) {
    yield bucket(universe, graph, detail(null, null));
    return;
  }
  // desc is the exact reverse of the nearest-first walk (ties in decreasing id order), read lazily
  // from the farthest-first walk instead of materialising every document of the universe
  const ordered = c.asc ? values.geoNearest(c.lat, c.lng, universe) : tiesReversed(values.geoNearest(c.lat, c.lng, universe, 'desc'));
  const placed = new Bitmap();
  let current: number[] = [];
  let first: [number, number] | null = null;
  const flush = function* (): Iterable<Bucket> {
    if (first !== null && current.length > 0) yield bucket(Bitmap.from(current), graph, detail(first[0], first[1]));
    current = [];
    first = null;
  };
  for (const [id, meters] of ordered) {
    placed.add(id);
    if (first !== null && (Math.abs(meters - first[1]) > GEO_TIE_METERS || current.length >= GEO_BUCKET_MAX)) yield* flush();
    if (first === null) first = [id, meters];
    current.push(id);
  }
  yield* flush();
  const rest = Bitmap.andNot(universe, placed);
  if (!rest.isEmpty) yield bucket(rest, graph, detail(null, null));
}

/** A farthest-first walk (ties in increasing id order) with each run of equal distances reversed. */
function* tiesReversed(farthest: Iterable<[number, number]>): Iterable<[number, number]> {
  let run: [number, number][] = [];
  for (const entry of farthest) {
    if (run.length > 0 && entry[1] !== run[0]![1]) {
      for (let i = run.length - 1; i >= 0; i--) yield run[i]!;
      run = [];
    }
    run.push(entry);
  }
  for (let i = run.length - 1; i >= 0; i--) yield run[i]!;
}
