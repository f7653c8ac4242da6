// Facet search matching (facets.md §4.6–8): which string values of a facet a `facetQuery`
// finds, and how the hits are collected.
//
//   values ─► lossy form (lowercase, marks stripped…, as charabia's lossy normalizers; cached per
//   index generation and field, sorted like milli's facet FST) ─► query matcher ─► counts among
//   the candidates ─► collector (`alpha`: the first `max` in order; `count`: the best `max`)
//
// The query matches a value when a prefix of the value's lossy form is within the typo budget of
// the query's lossy form (Levenshtein with adjacent transpositions, on characters, as milli's
// prefix DFA): "Jane" finds "Jane Austen", "Austen" does not.
import type { Bitmap } from '../../engine/bitmap/index.ts';
import { Tokenizer } from '../../engine/tokenizer/index.ts';
import { compareBytes, type FacetValues } from './facets-values.ts';

/** How the query may differ from the start of a value. */
export type FacetQueryMatch = { kind: 'prefix'; typos: number } | { kind: 'exact' };

/** A facet search hit: a value in its original spelling and its number of candidates. */
export interface FacetHit {
  value: string;
  count: number;
}

const plain = new Tokenizer();

/** The lossy normalization of a facet query or value (the `locales` of the request apply to the query). */
export function lossyFacetString(text: string, tokenizer: Tokenizer = plain): string {
  return tokenizer.normalize(text);
}

/** A predicate telling whether `value` (lossy form) matches `query` (lossy form). */
export function facetQueryMatcher(query: string, match: FacetQueryMatch): (value: string) => boolean {
  if (match.kind === 'exact') return (value) => value === query;
  if (match.typos === 0) return (value) => value.startsWith(query);
  const q = Array.from(query, (c) => c.codePointAt(0)!);
  const budget = match.typos;
  // the empty prefix is close enough: every value matches
  if (q.length <= budget) return () => true;
  const m = q.length;
  let before = new Int32Array(m + 1);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  return (value) => {
    for (let j = 0; j <= m; j++) prev[j] = j;
    let prevMin = 0;
    let last = -1;
    let i = 0;
    for (const ch of value) {
      i++;
      const c = ch.codePointAt(0)!;
      cur[0] = i;
      let rowMin = i;
      for (let j = 1; j <= m; j++) {
        const qj = q[j - 1]!;
        let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (c === qj ? 0 : 1));
        // adjacent transposition: ...ab against ...ba
        if (i > 1 && j > 1 && c === q[j - 2] && last === qj) d = Math.min(d, before[j - 2]! + 1);
        cur[j] = d;
        if (d < rowMin) rowMin = d;
      }
      if (cur[m]! <= budget) return true;
      // every later cell grows from this row or, by a transposition, from the previous one
      if (rowMin > budget && prevMin > budget) return false;
      prevMin = rowMin;
      last = c;
      [before, prev, cur] = [prev, cur, before];
    }
    return false;
  };
}

/** One string value of a field with its lossy form, in milli's facet FST order. */
interface LossyValue {
  lossy: string;
  normalized: string;
  original: string;
}

/** Lossy forms of each field's values, per owner (the search state of one index generation). */
const lossyCache = new WeakMap<object, Map<number, LossyValue[]>>();

/** The string values of `fid` sorted by lossy form, then normalized form. */
function lossyValues(values: FacetValues, fid: number, owner: object): LossyValue[] {
  let fields = lossyCache.get(owner);
  if (fields === undefined) lossyCache.set(owner, (fields = new Map()));
  let list = fields.get(fid);
  if (list === undefined) {
    list = [];
    for (const [normalized, original] of values.strings(fid, 'asc')) list.push({ lossy: lossyFacetString(normalized), normalized, original });
    list.sort((a, b) => compareBytes(a.lossy, b.lossy) || compareBytes(a.normalized, b.normalized));
    fields.set(fid, list);
  }
  return list;
}

export interface FacetHitsRequest {
  values: FacetValues;
  /** what the lossy forms of the values are cached with: an object living as long as `values` stays valid */
  cacheOwner: object;
  fid: number;
  candidates: Bitmap;
  /** the lossy query and how it matches; null: every value */
  query: { text: string; match: FacetQueryMatch } | null;
  order: 'alpha' | 'count';
  max: number;
}

/** The facet hits of a facet search over its candidates. */
export function facetHits(req: FacetHitsRequest): FacetHit[] {
  const { values, fid, candidates } = req;
  const hits = req.order === 'alpha' ? new InOrderHits(req.max) : new BestHits(req.max);
  if (req.query === null) {
    for (const [, original, docids] of values.strings(fid, 'asc')) {
      const count = docids.andCardinality(candidates);
      if (count > 0 && !hits.add({ value: original, count })) break;
    }
  } else {
    const matches = facetQueryMatcher(req.query.text, req.query.match);
    for (const v of lossyValues(values, fid, req.cacheOwner)) {
      if (!matches(v.lossy)) continue;
      const count = values.stringEquals(fid, v.normalized).andCardinality(candidates);
      if (count > 0 && !hits.add({ value: v.original, count })) break;
    }
  }
  return hits.sorted();
}

/** `alpha`: the first `max` hits in value order. */
class InOrderHits {
  readonly #hits: FacetHit[] = [];
  constructor(readonly max: number) {}
  /** false once full */
  add(hit: FacetHit): boolean {
    if (this.#hits.length >= this.max) return false;
    this.#hits.push(hit);
    return this.#hits.length < this.max;
  }
  sorted(): FacetHit[] {
    return this.#hits;
  }
}

/** (count, value) order of milli's `FacetValueHit`. */
const byCountThenValue = (a: FacetHit, b: FacetHit) => a.count - b.count || compareBytes(a.value, b.value);

/**
 * `count`: the best `max` hits by count. Like milli's bounded heap, a new hit replaces the worst
 * kept one when its count is at least as high, so among equal counts the later values win.
 */
class BestHits {
  /** ascending (count, value): the worst first */
  readonly #hits: FacetHit[] = [];
  constructor(readonly max: number) {}
  add(hit: FacetHit): boolean {
    if (this.max === 0) return false;
    if (this.#hits.length === this.max) {
      if (this.#hits[0]!.count > hit.count) return true;
      this.#hits.shift();
    }
    let lo = 0;
    let hi = this.#hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byCountThenValue(this.#hits[mid]!, hit) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.#hits.splice(lo, 0, hit);
    return true;
  }
  sorted(): FacetHit[] {
    return [...this.#hits].reverse();
  }
}
