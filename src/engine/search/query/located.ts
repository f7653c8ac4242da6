// Located terms for highlighting (milli `MatchingWords::new` over `all_computed_derivations`):
// one entry per term and per n-gram (terms first), `ids` = its query positions.
// • words: the word itself, prefix completions, one- then two-typo words (deduplicated);
// • phrases: the quoted phrase, every synonym — single-word ones too, as one-word phrases, so
//   they match whole tokens only, as in milli where all synonyms are phrases — then the split;
// • originalCharCount: code points of the term as typed (n-grams: the concatenation).

import type { LocatedTerm, QueryTerm } from './types.ts';

/** The formatter's located terms for the given terms and n-grams. */
export function locatedTerms(terms: readonly QueryTerm[], ngrams: readonly QueryTerm[]): LocatedTerm[] {
  return [...terms, ...ngrams].map(located);
}

function located(term: QueryTerm): LocatedTerm {
  const words = new Set<string>();
  const phrases: (readonly (string | null)[])[] = [];
  const [zero, one, two] = term.derivations;
  for (const d of zero.words) {
    if (d.kind === 'synonym') phrases.push([d.word]);
    else words.add(d.word);
  }
  for (const p of zero.phrases) phrases.push(p.words);
  for (const d of one.words) words.add(d.word);
  for (const p of one.phrases) phrases.push(p.words);
  for (const d of two.words) words.add(d.word);
  const out: LocatedTerm = {
    ids: term.positions,
    words: [...words],
    isPrefix: term.isPrefix,
    originalCharCount: codePointCount(term.original),
  };
  return phrases.length > 0 ? { ...out, phrases } : out;
}

function codePointCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
