// Query terms → documents, over the search tables of one index (docs/decisions/0002), with
// per-search caches: every table key is read at most once per search.
//
//   word          word-docids (normal set) ∪ exact-word-docids (exact set)
//   restricted    with `attributesToSearchOn`, ∪ word-fid-docids over the allowed fields instead
//   phrase        ∩ of word-pair-proximity-docids over the word pairs of each window of ≤ 3
//                 words (a pair k words apart: proximity 1..k), stop words (`null`) skipped
//   term subset   ∪ of the words and phrases of the kept typo groups
//   prefix        a prefix term of at most `prefixPostings` characters: its own postings (key
//                 `\u0001prefix` in the word, field and position tables), every completion at once;
//                 longer prefixes (and indexes without prefix postings) read their ≤ 1000 completions
import { Bitmap, PostingsUnion } from '../../bitmap/index.ts';
import type { Index } from '../../index/index.ts';
import type { PostingsTable } from '../../index/postings-table.ts';
import type { PhraseWords, QueryTerm, WordDerivation, WordSets } from '../query/index.ts';
import { prefixKey } from '../../index/prefix-keys.ts';
import { ReadCache } from './read-cache.ts';

/** A query term restricted to some of its typo groups (bit j = `derivations[j]`). */
export interface TermSubset {
  readonly term: QueryTerm;
  readonly mask: number;
}

export const ALL_TYPOS = 0b111;

const PHRASE_WINDOW = 3;
const EMPTY = new Bitmap();

export class Resolver {
  readonly #index: Index;
  /** searchable field ids a word may match in (`attributesToSearchOn`); null = every field */
  readonly #fids: readonly number[] | null;
  readonly #cache: ReadCache;
  /** restricted word reads depend on the fields: not shared */
  readonly #restrictedWords = new Map<string, Bitmap>();
  readonly #subsets = new Map<QueryTerm, (Bitmap | undefined)[]>();
  /** chunks of ids the postings use (decision 0006): with one, each key is a single read */
  readonly #chunks: number;
  /** longest prefix with postings of its own (0: none) */
  readonly #prefixLength: number;

  /** `cache`: reads shared with other searches of the same index generation. */
  constructor(index: Index, fids: readonly number[] | null, cache: ReadCache = new ReadCache()) {
    this.#index = index;
    this.#chunks = index.postingsChunks();
    this.#prefixLength = index.prefixPostings();
    this.#fids = fids;
    this.#cache = cache;
  }

  /** Documents of a word in the word sets the derivation reads. */
  word(word: string, sets: WordSets): Bitmap {
    if (sets.words && sets.exactWords) return Bitmap.or(this.#word(word, false), this.#word(word, true));
    if (sets.words) return this.#word(word, false);
    if (sets.exactWords) return this.#word(word, true);
    return EMPTY;
  }

  /** Documents containing `word` in either word set (negative words, exact words). */
  anyWord(word: string): Bitmap {
    return this.word(word, BOTH);
  }

  #word(word: string, exact: boolean): Bitmap {
    if (this.#fids !== null) {
      // the fid table holds normal and exact words alike: read it once, for the normal side
      if (exact) return EMPTY;
      let ids = this.#restrictedWords.get(word);
      if (ids === undefined) this.#restrictedWords.set(word, (ids = this.#restricted(word)));
      return ids;
    }
    return this.#stored(word, exact);
  }

  /** A word's (or a prefix key's) documents in one word table, whatever fields the search is restricted to. */
  #stored(word: string, exact: boolean): Bitmap {
    const table = exact ? this.#index.search.exactWords : this.#index.search.words;
    return this.#cache.get(`${exact ? 'e' : 'w'}\u0000${word}`, () => table.docids([word], this.#chunks));
  }

  /** The prefix a term's completions come from when that prefix has postings of its own, else null. */
  prefixOf(term: QueryTerm): string | null {
    if (this.#prefixLength === 0 || !term.isPrefix) return null;
    let n = 0;
    for (const _ of term.original) if (++n > this.#prefixLength) return null;
    return n === 0 ? null : term.original;
  }

  #restricted(word: string): Bitmap {
    const byFid = this.fids(word);
    const out = new Bitmap();
    for (const fid of this.#fids!) {
      const ids = byFid.get(fid);
      if (ids !== undefined) out.orInPlace(ids);
    }
    return out;
  }

  /** Documents where `second` follows `first` at exactly `proximity` (1–3) positions. */
  pair(proximity: number, first: string, second: string): Bitmap {
    return this.#cache.get(`p${proximity}\u0000${first}\u0000${second}`, () =>
      this.#index.search.wordPairProximity.docids([proximity, first, second], this.#chunks),
    );
  }

  /** Documents where some word starting with `prefix` follows `first` at exactly `proximity` positions. */
  pairPrefix(proximity: number, first: string, prefix: string): Bitmap {
    return this.#cache.get(`q${proximity}\u0000${first}\u0000${prefix}`, () => {
      const table = this.#index.search.wordPairProximity;
      const union = new PostingsUnion();
      for (const [, bytes] of table.values({ start: [proximity, first, prefix], end: [proximity, first, `${prefix}\uffff`] }, this.#chunks)) union.add(bytes);
      return union.result();
    });
  }

  /** Documents where the phrase's words appear consecutively (stop words: any one word). */
  phrase(words: PhraseWords): Bitmap {
    const key = `${this.#fids === null ? 'P' : 'R'}\u0000${words.map((w) => w ?? '\u0001').join('\u0000')}`;
    if (this.#fids !== null) return this.#phrase(words);
    return this.#cache.get(key, () => this.#phrase(words));
  }

  #phrase(words: PhraseWords): Bitmap {
    const present = words.filter((w): w is string => w !== null);
    if (present.length === 0) return EMPTY;
    if (present.length === 1) return this.anyWord(present[0]!);
    let out: Bitmap | null = null;
    const windows = words.length <= PHRASE_WINDOW ? [words] : slidingWindows(words, PHRASE_WINDOW);
    for (const win of windows) {
      for (let i = 0; i < win.length; i++) {
        const left = win[i];
        if (left === null || left === undefined) continue;
        for (let j = i + 1; j < win.length; j++) {
          const right = win[j];
          if (right === null || right === undefined) continue;
          const gap = j - i;
          const ids = gap === 1 ? this.pair(1, left, right).clone() : new Bitmap();
          if (gap > 1) for (let p = 1; p <= gap; p++) ids.orInPlace(this.pair(p, left, right));
          if (out === null) out = ids;
          else out.andInPlace(ids);
          if (out.isEmpty) return out;
        }
      }
    }
    if (out !== null && this.#fids !== null) for (const w of present) out.andInPlace(this.anyWord(w));
    return out ?? EMPTY;
  }

  /** Documents of a term restricted to the typo groups of `mask`. */
  subset(s: TermSubset): Bitmap {
    let byMask = this.#subsets.get(s.term);
    if (byMask === undefined) this.#subsets.set(s.term, (byMask = []));
    let ids = byMask[s.mask];
    if (ids === undefined) {
      const load = () => {
        const out = new Bitmap();
        for (let g = 0; g < 3; g++) {
          if ((s.mask & (1 << g)) === 0) continue;
          const group = s.term.derivations[g];
          const completions: WordDerivation[] = [];
          for (const d of group.words) {
            if (d.kind === 'prefix' && this.#fids === null) completions.push(d);
            else out.orInPlace(this.word(d.word, d.sets));
          }
          if (completions.length > 0) {
            const prefix = this.prefixOf(s.term);
            out.orInPlace(prefix !== null ? this.#stored(prefixKey(prefix), false) : this.completions(completions));
          }
          for (const p of group.phrases) out.orInPlace(this.phrase(p.words));
        }
        return out;
      };
      ids = this.shared(`s\u0000${subsetKey(s)}`, load);
      byMask[s.mask] = ids;
    }
    return ids;
  }

  /**
   * A value derived from the tables alone (no per-search input), shared with the other searches
   * of this index generation; computed afresh when the search is restricted to some fields.
   */
  shared<T>(key: string, load: () => T): T {
    return this.#fids === null ? this.#cache.get(key, load) : load();
  }

  /** Documents containing the term exactly as typed (exactness): the word, n-gram or phrase itself. */
  exact(term: QueryTerm): Bitmap {
    if (term.isPhrase) return this.phrase(term.words);
    const original = term.derivations[0].words.find((d) => d.kind === 'original');
    return original === undefined ? EMPTY : this.word(original.word, original.sets);
  }

  /**
   * Documents of a prefix term's completions (`list`: in key order, as derived), read by one range
   * scan per word table and chunk over [first, last] instead of one read per completion: a short prefix
   * has up to 1000 of them, mostly rare words. Words of the range that are not completions (none
   * while the word sets match the tables) are skipped.
   */
  completions(list: readonly WordDerivation[]): Bitmap {
    const first = list[0]!.word;
    const last = list[list.length - 1]!.word;
    return this.#cache.get(`W\u0000${first}\u0000${last}\u0000${list.length}`, () => {
      const normal = new Set<string>();
      const exact = new Set<string>();
      for (const d of list) {
        if (d.sets.words) normal.add(d.word);
        if (d.sets.exactWords) exact.add(d.word);
      }
      const union = new PostingsUnion();
      for (const [table, words] of [[this.#index.search.words, normal], [this.#index.search.exactWords, exact]] as const) {
        if (words.size === 0) continue;
        for (const [[word], bytes] of table.values({ start: [first], end: [last, MAX_KEY_NUMBER] }, this.#chunks)) {
          if (words.has(word)) union.add(bytes);
        }
      }
      return union.result();
    });
  }

  /**
   * Field id → documents with one of `words` (completions, in key order) in that field: one range
   * scan per chunk; with `prefix` (`prefixOf`), that prefix's own postings instead.
   */
  completionFids(words: readonly string[], prefix: string | null = null): Map<number, Bitmap> {
    if (prefix !== null) return this.fids(prefixKey(prefix));
    return this.#cache.get(`F\u0000${words[0]}\u0000${words[words.length - 1]}\u0000${words.length}`, () =>
      this.#byRange(this.#index.search.wordFid, words),
    );
  }

  /**
   * Bucketed position → documents with one of `words` (completions, in key order) there: one range
   * scan per chunk; with `prefix` (`prefixOf`), that prefix's own postings instead.
   */
  completionPositions(words: readonly string[], prefix: string | null = null): Map<number, Bitmap> {
    if (prefix !== null) return this.positions(prefixKey(prefix));
    return this.#cache.get(`O\u0000${words[0]}\u0000${words[words.length - 1]}\u0000${words.length}`, () =>
      this.#byRange(this.#index.search.wordPosition, words),
    );
  }

  /** Second key part → union over `words` (in key order) of (word, part)'s documents, over every chunk. */
  #byRange(table: PostingsTable<[string, number]>, words: readonly string[]): Map<number, Bitmap> {
    const wanted = new Set(words);
    const unions = new Map<number, PostingsUnion>();
    const range = { start: [words[0]!], end: [words[words.length - 1]!, MAX_KEY_NUMBER] };
    for (const [[word, part], bytes] of table.values(range, this.#chunks)) {
      if (!wanted.has(word)) continue;
      let union = unions.get(part);
      if (union === undefined) unions.set(part, (union = new PostingsUnion()));
      union.add(bytes);
    }
    const map = new Map<number, Bitmap>();
    for (const [part, union] of unions) map.set(part, union.result());
    return map;
  }

  /** Field id → documents with `word` in that field. */
  fids(word: string): Map<number, Bitmap> {
    return this.#cache.get(`f\u0000${word}`, () => {
      return this.#byRange(this.#index.search.wordFid, [word]);
    });
  }

  /** Bucketed position → documents with `word` at that position (in any field). */
  positions(word: string): Map<number, Bitmap> {
    return this.#cache.get(`o\u0000${word}`, () => {
      return this.#byRange(this.#index.search.wordPosition, [word]);
    });
  }

  /** Documents with exactly `count` words in field `fid` (fields of ≤ 30 words). */
  wordCount(fid: number, count: number): Bitmap {
    return this.#cache.get(`c${fid}\u0000${count}`, () => this.#index.search.fidWordCount.docids([fid, count], this.#chunks));
  }
}

/** Identifies a term subset by what its derivations depend on (the index words and settings are fixed per generation). */
export function subsetKey(s: TermSubset): string {
  const t = s.term;
  return `${t.kind}\u0000${t.isPrefix ? 1 : 0}${t.maxTypos}${s.mask}\u0000${t.words.map((w) => w ?? '\u0001').join('\u0000')}`;
}

const BOTH: WordSets = { words: true, exactWords: true };
const MAX_KEY_NUMBER = 2 ** 32;

function slidingWindows<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i + size <= items.length; i++) out.push(items.slice(i, i + size));
  return out;
}

/** The derivations of a subset's kept typo groups. */
function* keptGroups(s: TermSubset) {
  for (let g = 0; g < 3; g++) if ((s.mask & (1 << g)) !== 0) yield s.term.derivations[g];
}

/** A subset's single words apart from its prefix completions, and the completions (in key order). */
export function subsetWordsAndCompletions(s: TermSubset): { words: string[]; completions: string[] } {
  const words: string[] = [];
  const completions: string[] = [];
  for (const group of keptGroups(s)) for (const d of group.words) (d.kind === 'prefix' ? completions : words).push(d.word);
  return { words, completions };
}

/** The phrases of a subset's kept groups. */
export function subsetPhrases(s: TermSubset): PhraseWords[] {
  return [...keptGroups(s)].flatMap((group) => group.phrases.map((p) => p.words));
}
