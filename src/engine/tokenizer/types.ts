// Public shapes of the tokenizer (index.ts re-exports them).

export interface TokenizerConfig {
  /** Extra separators (settings `separatorTokens`); soft unless charabia lists them as hard. */
  readonly separatorTokens?: readonly string[];
  /** Strings removed from the separator list (settings `nonSeparatorTokens`). */
  readonly nonSeparatorTokens?: readonly string[];
  /** Strings kept as one word even if they contain separators (settings `dictionary`). */
  readonly dictionary?: readonly string[];
  /** Stop words as stored (NFKD, case kept): matched case-sensitively, before lowercasing. */
  readonly stopWords?: ReadonlySet<string>;
  /** ISO-639-1/-3 codes (`localizedAttributes`, search `locales`) restricting language detection. */
  readonly locales?: readonly string[];
}

/** A word of a field value, as indexed (or a stop word, flagged). */
export interface Token {
  /** Normalised form: NFKD, lowercase, accents stripped per script, trimmed. */
  word: string;
  /** Word position: +1 after soft separators, +8 after a hard one (relevancy.md §1). */
  position: number;
  /** UTF-8 byte offsets of the original span: the unit of `_matchesPosition` (search.md §7.6). */
  start: number;
  end: number;
  /** JS string (UTF-16) offsets of the original span, for slicing and highlighting. */
  charStart: number;
  charEnd: number;
  isStopWord: boolean;
}

/** Every piece of a text, separators included, in order: what crop/highlight/query parsing walk. */
export interface Segment {
  kind: 'word' | 'stopWord' | 'separator';
  /** Separators only: hard (sentence) or soft. */
  hard: boolean;
  /**
   * Words: normalised form, untrimmed (milli's query parser uses it as is; it can be '' when
   * normalisation removes everything, and such a word has no position).
   * Separators: NFKD form (e.g. '"' for a full-width quote), what the query parser inspects.
   */
  lemma: string;
  /** Position of words and stop words as indexed, -1 for separators and empty words. */
  position: number;
  /** True for words the index stores (non-empty after trim, ≤ 250 bytes, not a stop word). */
  indexed: boolean;
  start: number;
  end: number;
  charStart: number;
  charEnd: number;
  /** Script and language the word was normalised with (see scripts.ts, locales.ts). */
  script: number;
  lang: number;
}
