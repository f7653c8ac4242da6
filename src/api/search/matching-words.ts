// What the query matched, as the hit formatter needs it (milli `matches/matching_words.rs`).
// The search core implements `MatchingWords` (or builds one with `MatchingWords.fromTerms`);
// highlight, crop and `_matchesPosition` (format.ts) only ask it about tokens of field values.
//
// Rules encoded here, as milli 1.50 applies them:
// • A token of a field matches a single-word derivation when its normalised form equals it;
//   for the prefix term (last query word) when it *starts with* it. Stop-word tokens never
//   match single words (the formatter's tokenizer has no stop words, so in practice they do).
// • Prefix (and typo-on-prefix) matches highlight only the first `originalCharCount`
//   characters of the derivation the token starts with (query `hob` on `Hobbit` →
//   `<em>Hob</em>bit`; typo derivation `hobbit` of `hobbbit` on `hobbits` → `<em>hobbit</em>s`).
//   Exact and typo matches of other terms highlight the whole token.
// • Phrases (quoted phrases, multi-word synonyms, split words) are tried before single
//   words; `null` words are stop-word placeholders that match only stop-word tokens.
// • Non-prefix terms are tried before the prefix term, wider n-grams before narrower ones.
// • `ids` are query word positions; the crop window prefers intervals covering more of them.

/** The query word positions a match stands for: `[first, last]` (an n-gram or phrase covers several). */
export type TermIds = readonly [first: number, last: number];

/** What the formatter knows of a word token of a field value. */
export interface TokenToMatch {
  /** Normalised form (the tokenizer's `Segment.lemma`). */
  readonly word: string;
  readonly isStopWord: boolean;
}

/** A token matching a single-word derivation. */
export interface WordMatch {
  readonly ids: TermIds;
  /**
   * Prefix matches: UTF-16 units of the token's normalised form to highlight (the first
   * `originalCharCount` characters of the derivation). Absent: the whole token.
   */
  readonly highlightUnits?: number;
}

/** A multi-token derivation: consecutive word tokens must match `words` in order. */
export interface MatchingPhrase {
  readonly ids: TermIds;
  /** Normalised words; `null` stands for any stop word. */
  readonly words: readonly (string | null)[];
}

/** The interface the search core implements for a query (`MatchingWords.none()` for placeholder searches). */
export interface MatchingWords {
  /** True when nothing can match: formatting then skips tokenizing for highlight-only fields. */
  readonly isEmpty: boolean;
  /** Phrases, tried in this order before single words at each word token. */
  readonly phrases: readonly MatchingPhrase[];
  /** The single-word derivation the token matches, or null. */
  match(token: TokenToMatch): WordMatch | null;
}

/** One query term and everything it matched, as the core's located query terms describe it. */
export interface LocatedTerm {
  readonly ids: TermIds;
  /** Normalised single-word derivations: the word, typo variants, prefix completions, synonyms... */
  readonly words: readonly string[];
  /** Multi-word derivations (phrase, multi-word synonyms, split words). */
  readonly phrases?: readonly (readonly (string | null)[])[];
  /** The last query word, not followed by a separator: tokens match by prefix. */
  readonly isPrefix: boolean;
  /** Characters (code points) of the word as typed; bounds prefix highlights. Default: the first word's length. */
  readonly originalCharCount?: number;
}

class TermMatchingWords implements MatchingWords {
  readonly isEmpty: boolean;
  readonly phrases: readonly MatchingPhrase[];
  private readonly terms: readonly LocatedTerm[];

  constructor(terms: readonly LocatedTerm[]) {
    const phrases: MatchingPhrase[] = [];
    for (const t of terms) for (const words of t.phrases ?? []) phrases.push({ ids: t.ids, words });
    this.phrases = phrases;
    // milli: `sort_unstable_by_key(|w| (w.is_prefix, Reverse(w.positions.len())))`; stable here
    this.terms = [...terms].sort((a, b) => Number(a.isPrefix) - Number(b.isPrefix) || span(b.ids) - span(a.ids));
    this.isEmpty = phrases.length === 0 && this.terms.every((t) => t.words.length === 0);
  }

  match(token: TokenToMatch): WordMatch | null {
    if (token.isStopWord) return null;
    for (const term of this.terms) {
      for (const word of term.words) {
        if (term.isPrefix && token.word.startsWith(word)) {
          if (word === '') continue;
          const chars = term.originalCharCount ?? codePoints(term.words[0] ?? word);
          return { ids: term.ids, highlightUnits: prefixUnits(word, chars) };
        }
        if (token.word === word) return { ids: term.ids };
      }
    }
    return null;
  }
}

function span(ids: TermIds): number {
  return ids[1] - ids[0] + 1;
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** UTF-16 length of the first `chars` code points of `word`. */
function prefixUnits(word: string, chars: number): number {
  let units = 0;
  let n = 0;
  for (const c of word) {
    if (n++ >= chars) break;
    units += c.length;
  }
  return units;
}

const NONE: MatchingWords = { isEmpty: true, phrases: [], match: () => null };

/** Builders of `MatchingWords`: from the core's located terms, from plain word lists, or empty. */
export const MatchingWords = {
  /** Nothing matches (placeholder search). */
  none(): MatchingWords {
    return NONE;
  },
  /** milli's matching words from located query terms. */
  fromTerms(terms: readonly LocatedTerm[]): MatchingWords {
    return new TermMatchingWords(terms);
  },
  /**
   * Normalised exact words then prefix words, each its own query position in that order
   * (tests, simple callers); a prefix word highlights its own length.
   */
  fromWords(exact: readonly string[], prefixes: readonly string[] = []): MatchingWords {
    const terms: LocatedTerm[] = [];
    let id = 0;
    for (const w of exact) terms.push({ ids: [id, id++], words: [w], isPrefix: false });
    for (const w of prefixes) terms.push({ ids: [id, id++], words: [w], isPrefix: true, originalCharCount: codePoints(w) });
    return new TermMatchingWords(terms);
  },
};
