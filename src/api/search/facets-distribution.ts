// The values of one field in `facetDistribution`, and its `facetStats` (facets.md §2, §3), over
// the candidates of a search. Two algorithms, chosen by the number of candidates as milli does:
//
//   ≤ 3000 candidates  read each candidate's own values and count them (cheap for a few
//                      documents, whatever the number of distinct values)
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
  const originals = values.docOriginals === undefined ? null : new Map<string, string>();
  for (const docid of candidates) {
    for (const n of values.docNumbers(fid, docid)) numbers.set(n, (numbers.get(n) ?? 0) + 1);
    const own = values.docStrings(fid, docid);
    if (own.length === 0) continue;
    const spelled = originals === null ? null : values.docOriginals!(fid, docid);
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
  const first = Bitmap.and(docids, candidates).minimum();
  const i = values.docStrings(fid, first).indexOf(normalized);
  return i < 0 ? original : (values.docOriginals(fid, first)[i] ?? original);
}

/** The smallest and largest number of field `fid` among the candidates; null when none has a number. */
export function fieldStats(values: FacetValues, fid: number, candidates: Bitmap): FacetStats | null {
  if (candidates.size <= LINEAR_SCAN_MAX) {
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

function firstAmong(numbers: Iterable<[number, Bitmap]>, candidates: Bitmap): number | undefined {
  for (const [n, docids] of numbers) if (docids.intersects(candidates)) return n;
  return undefined;
}
