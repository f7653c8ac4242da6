// The word dictionary of an index (see word-set.ts).
export { WordSet, wordSetOf, compareUtf8 } from './word-set.ts';
export type { FuzzyMatch, FuzzyOptions } from './word-set.ts';
