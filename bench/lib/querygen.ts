// Generated query sets with known items (the documents a query was made from), seeded.
import { fieldText, fold, prefixOf, Rng, STOP_WORDS, typo, type Doc } from './text.ts';
import type { QuerySpec } from './search-bench.ts';

/** ids per exact (folded, whitespace-normalised) field text: every document a known-item query may rightly find */
export function idsByText(docs: readonly Doc[], field: string, primaryKey: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const d of docs) {
    const key = normText(fieldText(d[field]));
    const list = map.get(key);
    if (list) list.push(String(d[primaryKey]));
    else map.set(key, [String(d[primaryKey])]);
  }
  return map;
}

const normText = (s: string): string => fold(s).replace(/\s+/g, ' ').trim();
const WORD = /[^\p{L}\p{N}]+/u;

export interface TitleQueryOptions {
  n: number;
  seed: number;
  limit: number;
  /** share of queries with one typo in their longest word of 5+ characters */
  typoRate: number;
  /** share of queries cut short: the first k words, the last of them reduced to a prefix */
  prefixRate: number;
  /** keep only titles with this many words at most (e.g. 2 for city names) */
  maxWords?: number;
}

/**
 * Known-item queries from a title-like field (movie titles, game titles, city names): lower-cased,
 * then left clean, given one typo (two for a word of 9+ characters, a tenth of the time), or cut to a
 * prefix. `expected` holds every document whose field has the same text as the source.
 */
export function titleQueries(docs: readonly Doc[], field: string, primaryKey: string, o: TitleQueryOptions): QuerySpec[] {
  const rng = new Rng(o.seed);
  const byText = idsByText(docs, field, primaryKey);
  const pool = docs.filter((d) => {
    const words = fieldText(d[field]).trim().split(/\s+/).filter((w) => w !== '');
    return words.length > 0 && (o.maxWords === undefined || words.length <= o.maxWords);
  });
  const out: QuerySpec[] = [];
  for (let guard = 0; out.length < o.n && guard < o.n * 20; guard++) {
    const source = fieldText(rng.pick(pool)[field]);
    const words = source.toLowerCase().trim().split(/\s+/);
    const roll = rng.next();
    let q: string;
    if (roll < o.typoRate) {
      const candidates = words.map((w, i) => [w, i] as const).filter(([w]) => [...w].length >= 5);
      if (candidates.length === 0) continue; // nothing long enough to misspell: draw again
      const [w, i] = candidates.reduce((a, b) => ([...b[0]].length > [...a[0]].length ? b : a));
      let bad = typo(w, rng);
      if ([...w].length >= 9 && rng.next() < 0.1) bad = typo(bad, rng);
      words[i] = bad;
      q = words.join(' ');
    } else if (roll < o.typoRate + o.prefixRate) {
      const k = 1 + rng.int(words.length);
      const kept = words.slice(0, k);
      const cut = prefixOf(kept[k - 1]!);
      if (k === words.length && cut === kept[k - 1]) continue; // would be the full title
      kept[k - 1] = cut;
      q = kept.join(' ');
    } else {
      q = words.join(' ');
    }
    out.push({ q, limit: o.limit, expected: byText.get(normText(source)) ?? [] });
  }
  return out;
}

export interface WordQueryOptions {
  n: number;
  seed: number;
  limit: number;
  typoRate: number;
  /** share of queries whose last word is reduced to a prefix */
  prefixRate: number;
  /** every query this many words long (default: 1, 2 or 3, 40/35/25 %) */
  words?: number;
  /**
   * the documents a query may rightly find, from its source document and its words before any
   * typo or cut; default: every document whose field has the same text as the source
   */
  expected?: (source: Doc, words: readonly string[]) => string[];
}

/** true when the folded tokens of `text` contain `words` (folded) as a consecutive run */
export function containsRun(text: string, words: readonly string[]): boolean {
  const tokens = fold(text).split(WORD);
  const want = words.map(fold);
  outer: for (let i = 0; i + want.length <= tokens.length; i++) {
    for (let j = 0; j < want.length; j++) if (tokens[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Known-item queries drawn from a text field: 1, 2 or 3 consecutive words (40/35/25 %) of a random
 * document, every word of 3+ letters, no digits, not a stop word; then a typo in one word of 5+
 * characters and/or the last word cut to a prefix.
 */
export function wordQueries(docs: readonly Doc[], field: string, primaryKey: string, o: WordQueryOptions): QuerySpec[] {
  const rng = new Rng(o.seed);
  const byText = o.expected ? null : idsByText(docs, field, primaryKey);
  const ok = (w: string) => [...w].length >= 3 && !/\p{N}/u.test(w) && !STOP_WORDS.has(fold(w));
  const out: QuerySpec[] = [];
  for (let guard = 0; out.length < o.n && guard < o.n * 50; guard++) {
    const source = rng.pick(docs);
    const text = fieldText(source[field]);
    const tokens = text.toLowerCase().split(WORD).filter((t) => t !== '');
    const roll = rng.next();
    const len = o.words ?? (roll < 0.4 ? 1 : roll < 0.75 ? 2 : 3);
    if (tokens.length < len) continue;
    let words: string[] | null = null;
    for (let t = 0; t < 30 && !words; t++) {
      const start = rng.int(tokens.length - len + 1);
      const cand = tokens.slice(start, start + len);
      if (cand.every(ok)) words = cand;
    }
    if (!words) continue;
    const expected = o.expected ? o.expected(source, [...words]) : (byText!.get(normText(text)) ?? []);
    if (rng.next() < o.typoRate) {
      const long = words.map((w, i) => [w, i] as const).filter(([w]) => [...w].length >= 5);
      if (long.length > 0) {
        const [w, i] = rng.pick(long);
        words[i] = typo(w, rng);
      }
    }
    if (rng.next() < o.prefixRate) words[words.length - 1] = prefixOf(words[words.length - 1]!);
    out.push({ q: words.join(' '), limit: o.limit, expected });
  }
  return out;
}

/** `queries` repeated `rounds` times, in order: a timed stream for small fixed query sets. */
export function repeated(count: number, rounds: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < rounds; r++) for (let i = 0; i < count; i++) out.push(i);
  return out;
}
