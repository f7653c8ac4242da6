// Prefix postings (main `prefixPostings`): the keys a word prefix's documents are stored under in
// the word, field and position tables, beside the words.
/**
 * Word prefixes are indexed as pseudo-words in the word, field and position tables (not in pairs,
 * counts or the word sets): this mark, then the prefix. It sorts before every word, so the ranges of
 * real words never meet them.
 */
export const PREFIX_MARK = '\u0001';

/** Prefixes of up to this many characters are indexed (when the index has prefix postings). */
export const PREFIX_LENGTH = 3;

/** The table key of a prefix's postings. */
export function prefixKey(prefix: string): string {
  return PREFIX_MARK + prefix;
}

/** True for a prefix pseudo-word (`prefixKey`). */
export function isPrefixKey(word: string): boolean {
  return word.startsWith(PREFIX_MARK);
}
