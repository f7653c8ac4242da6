// Hits of a search response (search.md §7): the retrieved fields, `_vectors`, `_geoDistance`,
// then `_formatted`, `_matchesPosition`, `_rankingScore`, `_rankingScoreDetails`. Field names
// resolve like milli's field ids: a name counts only if the index knows that exact path.
import { setKey, swapRemove } from '../../engine/json.ts';
import { selectFields } from '../../engine/index/fields.ts';
import type { Tokenizer } from '../../engine/tokenizer/index.ts';
import { isFacetedBy, matchPatterns, type LocalizedAttributesRule } from '../settings/index.ts';
import { findMatches, formatText, matchBounds, type FormatOptions, type MatchBounds, type Markers, type TextMatches } from './format.ts';
import type { MatchingWords } from './matching-words.ts';
import { parseRustFloat } from './query-get.ts';
import type { SearchQuery } from './query-types.ts';

/** One ranked document as the search core returns it. */
export interface EngineHit {
  /** The stored document. */
  document: Record<string, unknown>;
  /** Global ranking score (needed with `showRankingScore`; 1.0 when absent). */
  score?: number;
  /** `_rankingScoreDetails` as relevancy.md §8 shapes it. */
  scoreDetails?: Record<string, unknown>;
  /** With `retrieveVectors`: `{ [embedder]: { embeddings, regenerate } }`, merged into `_vectors`. */
  vectors?: Record<string, unknown>;
}

/** The core's answer: the page of ranked documents and what the query matched. */
export interface EngineResult {
  hits: readonly EngineHit[];
  matchingWords: MatchingWords;
}

/** Index state the hits depend on. */
export interface HitContext {
  /** Every field path of the index (parents and nested paths), in field-id (first-seen) order. */
  fields: readonly string[];
  /** The setting; `null` or `["*"]` = every field. */
  displayedAttributes: readonly string[] | null;
  localizedAttributes?: readonly LocalizedAttributesRule[] | null;
  /** The index tokenizer (separators, dictionary) WITHOUT stop words, as milli formats with. */
  tokenizer: Tokenizer;
}

export type SearchHit = Record<string, unknown>;

/** What every hit of a query shares: resolved field sets and format options. */
export interface HitPlan {
  /** Displayed fields, in field-id order: what `_matchesPosition` covers. */
  displayed: string[];
  /** Retrieved fields (`_vectors` aside), in field-id order. */
  retrieve: string[];
  /** Fields of `_formatted` (highlighted, cropped or retrieved), in field-id order. */
  formatted: string[];
  /** Only the entries that highlight or crop, in field-id order (merged per leaf). */
  formatting: [string, FormatOptions][];
  /** `retrieveVectors`, whatever `displayedAttributes` lists. */
  vectors: boolean;
  /** The origin of `_geoDistance` (first `_geoPoint(lat, lng)` of `sort`). */
  geoPoint: [number, number] | null;
}

const VECTORS = '_vectors';
const notVectors = (f: string) => f !== VECTORS && !f.startsWith('_vectors.');

/** Resolves the field selections and per-field format options of a query (milli `HitMaker::new`). */
export function planHits(q: SearchQuery, ctx: HitContext): HitPlan {
  const shown = ctx.displayedAttributes;
  const shownSet = new Set(shown ?? ['*']);
  // paths inside `_vectors` are not fields of their own (Meilisearch does not flatten it)
  const fields = ctx.fields.filter((f) => !f.startsWith('_vectors.'));
  const displayed = shownSet.has('*') ? fields : fields.filter((f) => shownSet.has(f));
  const isDisplayed = new Set(displayed);
  const wanted = q.attributesToRetrieve === null ? null : new Set(q.attributesToRetrieve);
  const retrieve = wanted === null || wanted.has('*') ? displayed : displayed.filter((f) => wanted.has(f));
  const options = new Map<string, FormatOptions>();
  const option = (f: string) => options.get(f) ?? options.set(f, { highlight: false, crop: null }).get(f)!;
  const highlight = q.attributesToHighlight ?? [];
  for (const f of highlight.includes('*') ? displayed : highlight.filter((f) => isDisplayed.has(f))) {
    option(f).highlight = true;
  }
  for (const entry of q.attributesToCrop ?? []) {
    const colon = entry.lastIndexOf(':');
    const name = colon === -1 ? entry : entry.slice(0, colon);
    const len = colon === -1 ? q.cropLength : cropLength(entry.slice(colon + 1), q.cropLength);
    if (name === '*') for (const f of displayed) option(f).crop = len;
    else if (isDisplayed.has(name)) option(name).crop = len;
  }
  // a document's `_vectors` holds only the entries of embedders that are not configured (the
  // others live outside the document): `_formatted` and `_matchesPosition` treat it as any other
  // field, as Meilisearch does; the hit's own `_vectors` follows `retrieveVectors` (`addVectors`)
  if (options.size > 0) for (const f of retrieve) option(f);
  const formatted = fields.filter((f) => options.has(f));
  return {
    displayed,
    retrieve: retrieve.filter(notVectors),
    formatted,
    formatting: formatted.map((f) => [f, options.get(f)!] as [string, FormatOptions]).filter(([, o]) => o.highlight || o.crop !== null),
    // `displayedAttributes` does not hide it (Meilisearch 1.50; the reference says it does)
    vectors: q.retrieveVectors,
    geoPoint: geoPoint(q.sort),
  };
}

function cropLength(raw: string, fallback: number): number {
  return /^\+?\d+$/.test(raw) ? Number(raw) : fallback;
}

/** Builds the hits of a response page. */
export function buildHits(q: SearchQuery, result: EngineResult, ctx: HitContext): SearchHit[] {
  const plan = planHits(q, ctx);
  const tokenizers = new Map<string, Tokenizer>();
  const tokenizerFor = (locales: readonly string[] | null): Tokenizer => {
    if (locales === null) return ctx.tokenizer;
    const key = locales.join(',');
    let t = tokenizers.get(key);
    if (t === undefined) tokenizers.set(key, (t = ctx.tokenizer.withLocales(locales)));
    return t;
  };
  const env: LeafEnv = {
    q, plan, words: result.matchingWords, tokenizerFor,
    markers: { preTag: q.highlightPreTag, postTag: q.highlightPostTag, cropMarker: q.cropMarker },
    rules: ctx.localizedAttributes ?? [],
  };
  return result.hits.map((hit) => buildHit(hit, ctx, env));
}

interface LeafEnv {
  q: SearchQuery;
  plan: HitPlan;
  words: MatchingWords;
  markers: Markers;
  rules: readonly LocalizedAttributesRule[];
  tokenizerFor: (locales: readonly string[] | null) => Tokenizer;
}

function buildHit(hit: EngineHit, ctx: HitContext, env: LeafEnv): SearchHit {
  const { q, plan } = env;
  // with `retrieveVectors` the document's `_vectors` is read in place, then moved last
  const out: SearchHit = selectFields(hit.document, plan.vectors ? [...plan.retrieve, VECTORS] : plan.retrieve, ctx.fields);
  if (plan.vectors) addVectors(out, hit);
  if (plan.geoPoint !== null) addGeoDistance(out, plan.geoPoint);
  if (q.showMatchesPosition || plan.formatted.length > 0) {
    const selectors = q.showMatchesPosition ? plan.displayed : plan.formatted;
    const base = selectFields(hit.document, selectors, ctx.fields);
    const positions = new Map<string, MatchBounds[]>();
    const mapped = mapLeaves(base, plan.displayed, '', [], (key, indices, value) => formatLeaf(key, indices, value, env, positions));
    if (plan.formatted.length > 0) {
      const formatted = selectFields(mapped, plan.formatted, ctx.fields);
      if (Object.keys(formatted).length > 0) out._formatted = formatted;
    }
    if (q.showMatchesPosition) {
      const sorted: Record<string, MatchBounds[]> = {};
      for (const key of [...positions.keys()].sort(byteOrder)) setKey(sorted, key, positions.get(key)!);
      out._matchesPosition = sorted;
    }
  }
  if (q.showRankingScore) out._rankingScore = hit.score ?? 1;
  if (q.showRankingScoreDetails) out._rankingScoreDetails = hit.scoreDetails ?? {};
  return out;
}

/** Formats one leaf and records its match bounds (milli `format_value`). */
function formatLeaf(
  key: string, indices: readonly number[], value: unknown, env: LeafEnv, positions: Map<string, MatchBounds[]>,
): unknown {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') text = numberText(value);
  else return value;
  let format: FormatOptions | null = null;
  for (const [name, o] of env.plan.formatting) {
    if (!isFacetedBy(name, key) && !isFacetedBy(key, name)) continue;
    format = format === null ? { ...o } : { highlight: format.highlight || o.highlight, crop: format.crop ?? o.crop };
  }
  const compute = env.q.showMatchesPosition;
  if (!compute && (format === null || (env.words.isEmpty && format.crop === null))) return text;
  const locales = env.q.locales ?? env.rules.find((r) => matchPatterns(r.attributePatterns, key) === 'match')?.locales ?? null;
  const found: TextMatches = findMatches(text, env.tokenizerFor(locales), env.words);
  if (compute) {
    const bounds = matchBounds(found, indices);
    // one entry per path: a later array element with matches replaces an earlier one (milli)
    if (bounds.length > 0) positions.set(key, bounds);
  }
  return format === null ? text : formatText(found, format, env.markers);
}

/** serde_json's rendering of a number (`1e+21` → `1e21`). */
export function numberText(n: number): string {
  return String(n).replace('e+', 'e');
}

type LeafFn = (key: string, indices: readonly number[], value: unknown) => unknown;

/** `contained_in(selector, key)`: the selector is the key or a path below it. */
function containedIn(selector: string, key: string): boolean {
  return selector === key || (selector.length > key.length + 1 && selector.startsWith(key) && selector[key.length] === '.');
}

/** A copy of `obj` where the selected leaves went through `fn` (permissive-json-pointer `map_leaf_values`). */
function mapLeaves(
  obj: Record<string, unknown>, selectors: readonly string[], base: string, indices: readonly number[], fn: LeafFn,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) {
    const key = base === '' ? k : `${base}.${k}`;
    const v = obj[k];
    const visit = selectors.some((s) => containedIn(s, key) || containedIn(key, s));
    setKey(out, k, visit ? mapValue(v, selectors, key, indices, fn) : v);
  }
  return out;
}

function mapValue(v: unknown, selectors: readonly string[], key: string, indices: readonly number[], fn: LeafFn): unknown {
  if (Array.isArray(v)) return v.map((item, i) => mapValue(item, selectors, key, [...indices, i], fn));
  if (v !== null && typeof v === 'object') return mapLeaves(v as Record<string, unknown>, selectors, key, indices, fn);
  return fn(key, indices, v);
}

function byteOrder(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}

/**
 * `_vectors` with `retrieveVectors`: the document's own `_vectors` object plus the embeddings,
 * appended last (serde_json's `swap_remove` moves the last field into its old place).
 */
function addVectors(out: SearchHit, hit: EngineHit): void {
  const own = hit.document[VECTORS];
  const isObject = own !== null && typeof own === 'object' && !Array.isArray(own);
  const vectors: Record<string, unknown> = isObject ? { ...(own as Record<string, unknown>) } : {};
  Object.assign(vectors, hit.vectors ?? {});
  if (Object.prototype.hasOwnProperty.call(out, VECTORS)) swapRemove(out, VECTORS);
  out[VECTORS] = vectors;
}

const GEO_POINT = /_geoPoint\(\s*([0-9.\-]+)\s*,\s*([0-9.\-]+)\s*\)/;

function geoPoint(sort: readonly string[] | null): [number, number] | null {
  for (const s of sort ?? []) {
    const m = GEO_POINT.exec(s);
    if (m === null) continue;
    const lat = parseRustFloat(m[1]!);
    const lng = parseRustFloat(m[2]!);
    return lat === null || lng === null ? null : [lat, lng];
  }
  return null;
}

/** `_geoDistance` in meters when the retrieved `_geo` has a usable `lat` and `lng` (search.md §6). */
function addGeoDistance(out: SearchHit, [lat1, lng1]: [number, number]): void {
  const geo = out._geo as Record<string, unknown> | null | undefined;
  if (geo === null || typeof geo !== 'object') return;
  const coord = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? parseRustFloat(v) : null);
  const lat2 = coord(geo.lat);
  const lng2 = coord(geo.lng);
  if (lat2 === null || lng2 === null) return;
  out._geoDistance = Math.round(haversine(lat1, lng1, lat2, lng2));
}

/** Great-circle distance in meters on a sphere of radius 6 371 000 m. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 6371000 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}
