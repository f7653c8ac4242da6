// Query string → positive terms, negative words and phrases (search.md §8, relevancy.md §2.1),
// the way milli's `located_query_terms_from_tokens` walks the tokens:
//
// • Tokens are the tokenizer's segments (words, stop words, separators), the first 1000 only;
//   tokens whose normalised form is empty are skipped entirely.
// • Positions: −1 before the first token; every word or stop word +1 (quoted, negative or
//   dropped ones too); every hard separator token +7.
// • `"` in a separator closes the open phrase (if any) and opens a new one when an odd number
//   of quotes remains; a hard separator inside a phrase closes it and opens the next one; an
//   unclosed phrase runs to the end of the query. A phrase of stop words only is dropped; its
//   start is its first non-stop word, its end its last word.
// • `-` is negation when it is the whole separator token, starts the query or follows a token
//   ending in whitespace, and no phrase is open: the next word is a negative word, or an opening
//   quote right after starts a negative phrase.
// • A stop word outside a phrase is dropped unless it is the last token of the query (then it
//   is a prefix-position term like any last word).
// • The last token of the query, if a word, is in prefix position (`isPrefix`); a trailing
//   space or separator makes it a normal word.
// • At most 10 positive terms: once 10 are collected, the next non-empty token ends parsing
//   (an open phrase is then dropped, and later negative words are ignored).

import type { Segment, Tokenizer } from '../../tokenizer/index.ts';
import type { ParsedQuery, ParsedTerm, PhraseWords } from './types.ts';

/** Tokens of the query that are read at all (milli `MAX_TOKEN_COUNT`). */
export const MAX_QUERY_TOKENS = 1000;
/** Positive terms kept (milli's default `words_limit`). */
export const MAX_QUERY_TERMS = 10;

/** Parses `q` into positive terms (at most 10), negative words and negative phrases. */
export function parseQuery(q: string, tokenizer: Tokenizer, termLimit = MAX_QUERY_TERMS): ParsedQuery {
  const tokens = tokenizer.segments(q).slice(0, MAX_QUERY_TOKENS);
  const terms: ParsedTerm[] = [];
  const negativeWords: string[] = [];
  const negativePhrases: PhraseWords[] = [];
  const done = (): ParsedQuery => ({ terms, negativeWords, negativePhrases });

  let position = -1;
  let phrase: PhraseBuilder | null = null;
  let negativePhrase = false;
  let negativeNext = false;
  let afterWhitespace = true;

  // Pushes a non-empty phrase; `endNegation`: a closing quote ends a negative phrase.
  const closePhrase = (p: PhraseBuilder, endNegation: boolean): void => {
    const built = p.build();
    if (built === null) return;
    if (!negativePhrase) terms.push(built);
    else {
      negativePhrases.push(built.words);
      if (endNegation) negativePhrase = false;
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.lemma === '') continue;
    if (terms.length >= termLimit) return done();

    if (token.kind === 'word' || token.kind === 'stopWord') {
      position++;
      if (phrase !== null) {
        phrase.push(token, position);
      } else if (negativeNext) {
        negativeWords.push(token.lemma);
        negativeNext = false;
      } else if (i + 1 < tokens.length) {
        if (token.kind === 'word') terms.push(wordTerm(token.lemma, position, false));
      } else {
        terms.push(wordTerm(token.lemma, position, true));
      }
    } else {
      if (token.hard) position += 7;
      phrase = separatorPhrase(token, phrase);
      negativeNext = phrase === null && token.lemma === '-' && afterWhitespace;
    }
    afterWhitespace = endsWithWhitespace(token.lemma);
  }
  if (phrase !== null) closePhrase(phrase, false);
  return done();

  // The phrase open after a separator token (hard separators and quotes close/open phrases).
  function separatorPhrase(token: Segment, open: PhraseBuilder | null): PhraseBuilder | null {
    let current = open;
    if (token.hard && current !== null) {
      // negativity carries over to the phrase that starts right away
      closePhrase(current, false);
      current = new PhraseBuilder();
    }
    let quotes = 0;
    for (const c of token.lemma) if (c === '"') quotes++;
    if (quotes === 0) return current;
    if (current !== null) {
      quotes--;
      closePhrase(current, true);
    }
    if (quotes % 2 === 1) {
      negativePhrase = negativeNext;
      return new PhraseBuilder();
    }
    return null;
  }
}

function wordTerm(word: string, position: number, isPrefix: boolean): ParsedTerm {
  return { kind: 'word', words: [word], positions: [position, position], isPrefix };
}

/** Words of a quoted phrase as they come (milli `PhraseBuilder`). */
class PhraseBuilder {
  private readonly words: (string | null)[] = [];
  private start = -1;
  private end = -1;

  private isEmpty(): boolean {
    return this.words.every((w) => w === null);
  }

  push(token: Segment, position: number): void {
    if (this.isEmpty()) this.start = position;
    this.end = position;
    this.words.push(token.kind === 'stopWord' ? null : token.lemma);
  }

  build(): ParsedTerm | null {
    if (this.isEmpty()) return null;
    return { kind: 'phrase', words: this.words, positions: [this.start, this.end], isPrefix: false };
  }
}

// Rust `char::is_whitespace` (Unicode White_Space), on the last code point.
const WHITE_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/u;

function endsWithWhitespace(s: string): boolean {
  return WHITE_SPACE.test(s);
}
