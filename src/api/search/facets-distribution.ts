// The values of one field in `facetDistribution`, and its `facetStats` (facets.md §2, §3), over
// the candidates of a search. Two algorithms, chosen by the number of candidates as milli does:
//
//   ≤ 3000 candidates  read each candidate's own values and count them (cheap for a few
//                      documents, whatever the number of distinct values); when the field has far
//                      fewer values than there are candidates, the same counts come from its values
//                      (one intersection cardinality each) and are ordered as this path orders them
//   more               walk the field's values in order, counting each value's documents among
//                      the candidates (one bitmap intersection cardinality per value; the reader
//                      may skip groups of values no candidate holds, as milli's facet levels do)
//
// Numbers come first, then strings fill the remaining `maxValuesPerFacet` slots. `alpha`: numbers
// ascending, strings by normalized bytes — except that the small-set path orders numbers by
// their text (milli keys them by their `to_string` in a BTreeMap: `"10"` before `"9"`). `count`:
// decreasing count, ties by decreasing value. Keys: numbers as Rust prints an f64, strings in the
// spelling of the first candidate holding the value.
import { Bitmap } from '../../engine/bitmap/index.ts';
import { formatRustFloat } from '../../engine/filter/parser/index.ts';
import type { FacetValuesSort } from '../settings/index.ts';
import { compareBytes, originalsOf, setKey, type FacetValues } from './facets-values.ts';

/** milli's `LINEAR_SCAN_CANDIDATES_THRESHOLD`: up to this many candidates, documents are read one by one. */
export const LINEAR_SCAN_MAX = 3000;

export interface DistributionOptions {
  order: FacetValuesSort;
  /** `faceting.maxValuesPerFacet` */
  max: number;
}

export interface FacetStats {
  min: number;
  max: number;
}

/** A value and the number of candidates holding it. */
type Counted<T> = [value: T, count: number];

interface DocValues {
  readonly numbers: readonly number[];
  readonly strings: readonly string[];
  readonly originals: readonly string[];
}

/** A reader that also gives a document's numbers, strings and their spellings from one read (the facet index's does). */
type DocValuesReader = FacetValues & {
  docValues?(fid: number, docid: number): DocValues;
  /** every field of a document from one read */
  docRecord?(docid: number): (fid: number) => DocValues;
  /** distinct values of a field */
  valueCount?(fid: number): number;
};

/**
 * A field with far fewer values than there are candidates: counting the candidates of each value
 * costs less than reading every candidate's values (not for `_geo.lat` / `_geo.lng`, whose values
 * are not kept in order).
 */
function fewValues(values: FacetValues, fid: number, candidates: Bitmap): boolean {
  const count = (values as DocValuesReader).valueCount?.(fid);
  return count !== undefined && count * 2 < candidates.size && !isGeoAxis(values, fid);
}

/**
 * `values` for the fields of one facet computation: each document's record is read once and kept
 * (the linear count of each field, its stats and the candidates' spellings read the same
 * documents). Use it for one computation only: it does not see later writes.
 */
export function readOnce<V extends FacetValues>(values: V): V {
  const docRecord = (values as DocValuesReader).docRecord?.bind(values);
  if (docRecord === undefined) return values;
  const records = new Map<number, (fid: number) => DocValues>();
  const record = (docid: number): ((fid: number) => DocValues) => {
    let r = records.get(docid);
    if (r === undefined) records.set(docid, (r = docRecord(docid)));
    return r;
  };
  const docValues = (fid: number, docid: number): DocValues => record(docid)(fid);
  return new Proxy(values, {
    get(target, key, receiver) {
      switch (key) {
        case 'docValues':
          return docValues;
        case 'docNumbers':
          return (fid: number, docid: number) => docValues(fid, docid).numbers;
        case 'docStrings':
          return (fid: number, docid: number) => docValues(fid, docid).strings;
        case 'docOriginals':
          return target.docOriginals === undefined ? undefined : (fid: number, docid: number) => docValues(fid, docid).originals;
      }
      const v = Reflect.get(target, key, receiver) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** The distribution of field `fid` over `candidates`: value key → number of candidates. */
export function fieldDistribution(values: FacetValues, fid: number, candidates: Bitmap, opts: DistributionOptions): Record<string, number> {
  const out = new Distribution(opts.max);
  if (candidates.size <= LINEAR_SCAN_MAX) fromDocuments(values, fid, candidates, opts.order, out);
  else if (opts.order === 'alpha') fromValuesInOrder(values, fid, candidates, out);
  else fromValuesByCount(values, fid, candidates, out);
  return out.entries;
}

/** The insertion-ordered result, capped (a number and a string with the same text share a key, as in milli's map). */
class Distribution {
  readonly entries: Record<string, number> = {};
  size = 0;
  constructor(readonly max: number) {}
  get room(): number {
    return Math.max(0, this.max - this.size);
  }
  put(key: string, count: number): void {
    if (!Object.prototype.hasOwnProperty.call(this.entries, key)) this.size++;
    setKey(this.entries, key, count);
  }
}

function fromDocuments(values: FacetValues, fid: number, candidates: Bitmap, order: FacetValuesSort, out: Distribution): void {
  const numbers = new Map<number, number>();
  const strings = new Map<string, number>();
  // the spelling of the first candidate holding each value, as milli shows it
  let originals = values.docOriginals === undefined ? null : new Map<string, string>();
  const oneRead = (values as DocValuesReader).docValues?.bind(values);
  // the same counts, from the field's values when it has far fewer of them than there are candidates
  const walked = fewValues(values, fid, candidates) ? new Map<string, StringValue>() : null;
  if (walked !== null) {
    for (const [n, docids] of values.numbers(fid, 'asc', candidates)) {
      const count = docids.andCardinality(candidates);
      if (count > 0) numbers.set(n, count);
    }
    for (const value of values.strings(fid, 'asc', candidates)) {
      const count = value[2].andCardinality(candidates);
      if (count > 0) {
        strings.set(value[0], count);
        walked.set(value[0], value);
      }
    }
  }
  for (const docid of walked === null ? candidates : []) {
    const all = oneRead?.(fid, docid);
    for (const n of all?.numbers ?? values.docNumbers(fid, docid)) numbers.set(n, (numbers.get(n) ?? 0) + 1);
    const own = all?.strings ?? values.docStrings(fid, docid);
    if (own.length === 0) continue;
    const spelled = originals === null ? null : (all?.originals ?? values.docOriginals!(fid, docid));
    own.forEach((s, i) => {
      const seen = strings.get(s);
      strings.set(s, (seen ?? 0) + 1);
      if (seen === undefined && spelled !== null) originals!.set(s, spelled[i] ?? s);
    });
  }
  let kept: Counted<string>[];
  if (order === 'alpha') {
    const texts: Counted<string>[] = [...numbers].map(([n, c]) => [formatRustFloat(n), c]);
    texts.sort((a, b) => compareBytes(a[0], b[0]));
    for (const [text, count] of texts.slice(0, out.room)) out.put(text, count);
    kept = [...strings].sort((a, b) => compareBytes(a[0], b[0])).slice(0, out.room);
  } else {
    const byCount = [...numbers].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    for (const [n, count] of byCount.slice(0, out.room)) out.put(formatRustFloat(n), count);
    kept = [...strings].sort((a, b) => b[1] - a[1] || compareBytes(b[0], a[0])).slice(0, out.room);
  }
  if (walked !== null && originals !== null) originals = new Map(kept.map(([n]) => [n, candidateSpelling(values, fid, walked.get(n)!, candidates)]));
  const spelling = originals ?? originalsOf(values, fid, kept.map(([n]) => n));
  for (const [n, count] of kept) out.put(spelling.get(n) ?? n, count);
}

function fromValuesInOrder(values: FacetValues, fid: number, candidates: Bitmap, out: Distribution): void {
  for (const [n, docids] of values.numbers(fid, 'asc', candidates)) {
    if (out.room === 0) return;
    const count = docids.andCardinality(candidates);
    if (count > 0) out.put(formatRustFloat(n), count);
  }
  for (const [n, original, docids] of values.strings(fid, 'asc', candidates)) {
    if (out.room === 0) return;
    const count = docids.andCardinality(candidates);
    if (count > 0) out.put(candidateSpelling(values, fid, [n, original, docids], candidates), count);
  }
}

function fromValuesByCount(values: FacetValues, fid: number, candidates: Bitmap, out: Distribution): void {
  if (out.room === 0) return;
  const numbers: Counted<number>[] = [];
  for (const [n, docids] of values.numbers(fid, 'asc', candidates)) {
    const count = docids.andCardinality(candidates);
    if (count > 0) numbers.push([n, count]);
  }
  numbers.sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  for (const [n, count] of numbers.slice(0, out.room)) out.put(formatRustFloat(n), count);
  if (out.room === 0) return;
  const strings: [value: StringValue, count: number][] = [];
  for (const value of values.strings(fid, 'asc', candidates)) {
    const count = value[2].andCardinality(candidates);
    if (count > 0) strings.push([value, count]);
  }
  strings.sort((a, b) => b[1] - a[1] || compareBytes(b[0][0], a[0][0]));
  for (const [value, count] of strings.slice(0, out.room)) out.put(candidateSpelling(values, fid, value, candidates), count);
}

type StringValue = [normalized: string, original: string, docids: Bitmap];

/**
 * The spelling of the first candidate holding the value, as milli shows it (the reader's own
 * spelling is the first document's, candidate or not); the reader's when it has no per-document spellings.
 */
function candidateSpelling(values: FacetValues, fid: number, [normalized, original, docids]: StringValue, candidates: Bitmap): string {
  if (values.docOriginals === undefined) return original;
  const min = docids.minimum();
  const first = candidates.has(min) ? min : Bitmap.and(docids, candidates).minimum();
  const all = (values as DocValuesReader).docValues?.(fid, first);
  const i = (all?.strings ?? values.docStrings(fid, first)).indexOf(normalized);
  return i < 0 ? original : ((all?.originals ?? values.docOriginals(fid, first))[i] ?? original);
}

/** The smallest and largest number of field `fid` among the candidates; null when none has a number. */
export function fieldStats(values: FacetValues, fid: number, candidates: Bitmap): FacetStats | null {
  if (candidates.size <= LINEAR_SCAN_MAX && !fewValues(values, fid, candidates)) {
    // a field without any number has no stats: one look at its values instead of a read per
    // candidate (not for `_geo.lat` / `_geo.lng`, whose values are not kept in order)
    if (!isGeoAxis(values, fid) && isEmpty(values.numbers(fid, 'asc'))) return null;
    let min = Infinity;
    let max = -Infinity;
    for (const docid of candidates) {
      for (const n of values.docNumbers(fid, docid)) {
        if (n < min) min = n;
        if (n > max) max = n;
      }
    }
    return min <= max ? { min, max } : null;
  }
  const min = firstAmong(values.numbers(fid, 'asc', candidates), candidates);
  if (min === undefined) return null;
  return { min, max: firstAmong(values.numbers(fid, 'desc', candidates), candidates)! };
}

const isGeoAxis = (values: FacetValues, fid: number): boolean => values.fieldId('_geo.lat') === fid || values.fieldId('_geo.lng') === fid;

function isEmpty(items: Iterable<unknown>): boolean {
  for (const _ of items) return false;
  return true;
}

function firstAmong(numbers: Iterable<[number, Bitmap]>, candidates: Bitmap): number | undefined {
  for (const [n, docids] of numbers) if (docids.intersects(candidates)) return n;
  return undefined;
}
