// Public shapes of the query pipeline: parsed query → derived terms → query graph.
// (relevancy.md §2, search.md §8; milli `search/new/query_term/*`, `query_graph.rs`.)

import type { WordSet } from '../../words/index.ts';

/** Index settings that shape the terms of a query (already normalised). */
export interface QueryConfig {
  typos: {
    enabled: boolean;
    /** `minWordSizeForTypos.oneTypo`: characters needed for 1 typo. */
    oneTypo: number;
    /** `minWordSizeForTypos.twoTypos`: characters needed for 2 typos. */
    twoTypos: number;
    /** `disableOnWords`, normalised: these words (and n-grams) get no typo. */
    disableOnWords: ReadonlySet<string>;
  };
  /** The `prefixSearch` setting is not `"disabled"`. */
  prefixSearch: boolean;
  /** Normalised key (words joined by ' ') → alternatives, each a list of normalised words. */
  synonyms: ReadonlyMap<string, readonly string[][]>;
  /** Stop words (normalised): dropped from synonym alternatives, as milli stores synonyms. */
  stopWords: ReadonlySet<string>;
}

/** What term derivation reads from the index (implemented over the index tables). */
export interface WordSource {
  /** Words of normal attributes (typo, prefix and exact matches). */
  words: WordSet;
  /** Words of exact attributes / exact numbers: only the typed word matches them. */
  exactWords: WordSet;
  /** Documents where `left` is immediately followed by `right` (pair proximity 1); 0 when none. */
  pairCount(left: string, right: string): number;
}

/** Query word positions `[start, end]` (a hard separator adds 7 extra, like documents). */
export type Positions = readonly [start: number, end: number];

/** Indexes of the original query terms a term covers: `[first, last]` (n-grams cover several). */
export type TermSpan = readonly [first: number, last: number];

/** A phrase: normalised words in order, `null` standing for a stop word (any one word position). */
export type PhraseWords = readonly (string | null)[];

/** One positive term of the query as typed. */
export interface ParsedTerm {
  readonly kind: 'word' | 'phrase';
  /** `word`: its normalised form (one entry); `phrase`: its words, `null` for stop words. */
  readonly words: PhraseWords;
  readonly positions: Positions;
  /**
   * The word is the last token of the query (nothing after it, not even a space): a prefix term
   * when the `prefixSearch` setting allows it (deriveTerms decides). Always false for phrases.
   */
  readonly isPrefix: boolean;
}

/** The query after tokenization: positive terms (at most 10), negative words and phrases. */
export interface ParsedQuery {
  readonly terms: readonly ParsedTerm[];
  /** `-word`: normalised words whose documents are excluded (exact match, either word set). */
  readonly negativeWords: readonly string[];
  /** `-"a phrase"`: phrases whose documents are excluded. */
  readonly negativePhrases: readonly PhraseWords[];
}

/**
 * Which index tables a single-word derivation is looked up in: `words` → word-docids,
 * `exactWords` → exact-word-docids. Only the typed word of a (non-n-gram) term and single-word
 * synonyms read the exact table; every other derivation reads word-docids only.
 */
export interface WordSets {
  readonly words: boolean;
  readonly exactWords: boolean;
}

/** A single-word derivation of a term. */
export interface WordDerivation {
  readonly word: string;
  /** `original`: the typed word (or n-gram concatenation) itself. */
  readonly kind: 'original' | 'prefix' | 'synonym' | 'typo';
  readonly sets: WordSets;
}

/** A multi-word derivation: words that must appear consecutively. */
export interface PhraseDerivation {
  readonly words: PhraseWords;
  /** `phrase`: the quoted phrase itself; `synonym`: a multi-word synonym; `split`: `l r` of a split word. */
  readonly kind: 'phrase' | 'synonym' | 'split';
}

/** The derivations of one typo cost. */
export interface TypoGroup {
  readonly words: readonly WordDerivation[];
  readonly phrases: readonly PhraseDerivation[];
}

/** A derived term: an original query term or a 2-/3-gram of consecutive word terms. */
export interface QueryTerm {
  readonly kind: 'word' | 'phrase' | 'ngram';
  readonly isPhrase: boolean;
  /** Original query terms covered (`[i, i]` for a term, `[i, i + n − 1]` for an n-gram). */
  readonly span: TermSpan;
  readonly positions: Positions;
  /** The typed word, the n-gram concatenation, or the phrase's words joined by spaces. */
  readonly original: string;
  /** The original word(s): `[word]`, the n-gram's component words, or the phrase's words. */
  readonly words: PhraseWords;
  readonly isPrefix: boolean;
  /**
   * Typos allowed (0..2) for the typo derivations (n-grams: typos(concat) − (n − 1)).
   * Split words cost 1 but exist whatever this is (milli `max_typo_cost` is 1 for a
   * non-phrase term allowed 0 typos).
   */
  readonly maxTypos: 0 | 1 | 2;
  /**
   * Derivations by typo cost: `[0]` the word itself (if indexed), prefix completions (≤ 1000),
   * synonyms (single-word ones as words, others as phrases), the phrase of a phrase term;
   * `[1]` one-typo words (≤ 150) and the best split; `[2]` two-typo words (≤ 50).
   */
  readonly derivations: readonly [TypoGroup, TypoGroup, TypoGroup];
}

/**
 * One query term and everything it matched, for highlighting: structurally the `LocatedTerm`
 * of `api/search/matching-words.ts` (engine code cannot import it).
 */
export interface LocatedTerm {
  /** Query word positions `[first, last]`. */
  readonly ids: readonly [first: number, last: number];
  readonly words: readonly string[];
  readonly phrases?: readonly (readonly (string | null)[])[];
  readonly isPrefix: boolean;
  /** Characters (code points) of the term as typed (n-grams: the concatenation). */
  readonly originalCharCount?: number;
}

/** Everything the ranking and highlighting need from the query. */
export interface QueryTerms {
  /** The original terms, index = term id (the `span` numbers). */
  readonly terms: readonly QueryTerm[];
  /** The 2-/3-grams, in milli's order: for each term, the 2-gram then the 3-gram ending at it. */
  readonly ngrams: readonly QueryTerm[];
  readonly negativeWords: readonly string[];
  readonly negativePhrases: readonly PhraseWords[];
  /** Terms then n-grams as the formatter's matching words expect them. */
  locatedTerms(): LocatedTerm[];
}

/** A node of the query graph: START, END or a term / n-gram. */
export interface QueryGraphNode {
  readonly kind: 'start' | 'end' | 'term';
  /** The term of a `term` node; null for START and END. */
  readonly term: QueryTerm | null;
  /** Indexes into `QueryGraph.nodes`, ascending. */
  readonly successors: readonly number[];
  readonly predecessors: readonly number[];
}

/** The DAG START → terms/n-grams → END; every path covers each query term exactly once. */
export interface QueryGraph {
  /** `nodes[0]` is START, `nodes[1]` is END, then term nodes in milli's creation order. */
  readonly nodes: readonly QueryGraphNode[];
  readonly start: 0;
  readonly end: 1;
}
