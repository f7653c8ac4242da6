// Tokenizer: what Meilisearch 1.50's tokenizer (charabia 0.9.9, default features) and milli's
// position numbering produce, for documents and queries alike.
//
//   text ──► script groups ──► separator / dictionary matches ──► chunks ──► pieces ──► tokens
//            (a 2nd non-Other   (leftmost-longest,              (between    (CJ, Thai,   (normalise,
//             script starts a    ". " ", " hard, "." "-" soft,   matches)    Khmer: ICU   classify,
//             new group, so a    custom separators, dictionary                dictionary;  number)
//             new word)          words kept whole)                            others: the
//                                                                             whole chunk)
//
// • Segmentation (scanner.ts): one pass over UTF-16 code units with a class table
//   (char-classes.ts); only CJ/Thai/Khmer runs go to Intl.Segmenter (dictionary-segmenter.ts).
//   No camelCase split and no UAX#29 word breaking: charabia 0.9's Latin segmenter returns the
//   chunk whole and its `latin-camelcase` feature is off by default, so `a=b`, `$5`, `C++` (two
//   `+` separators) and `DeLonghi` behave as in Meilisearch 1.50 (`DeLonghi` is one word).
// • Normalisation (normalize.ts): NFKD, control characters dropped, classification, then
//   lowercase / ligatures / kana / final sigma / marks per script.
// • Positions (milli `process_tokens`): leading separators ignored; next word +1, or +8 if any
//   separator since the previous word was hard; stop words take a position; words whose form is
//   empty take none. The indexer adds 8 between values of one attribute and stops at 65 536.
// • Offsets: `start`/`end` in UTF-8 bytes (the unit of `_matchesPosition`), `charStart`/`charEnd`
//   in UTF-16 units. Words over 250 bytes keep their position but are left out of `tokenize`.
//
// Known differences from charabia (index and query share them, so matching stays consistent):
// ICU dictionaries instead of jieba / lindera / charabia's Thai and Khmer FSTs (some words cut
// differently); Hangul and Arabic chunks are not split (ko-dic, Arabic article segmenter); no
// whatlang detection: Latin text is Swedish (å ä ö kept) or German (compound splitting, not
// done) only through `locales`, CJ text is Japanese when it has kana; no Chinese kvariants folding.

import { charClassesFor, type CharClasses } from './char-classes.ts';
import { planLanguages, LANG_NONE, type LanguagePlan } from './locales.ts';
import { normalizeToken } from './normalize.ts';
import { Scanner } from './scanner.ts';
import { utf8Length } from './utf8.ts';
import { CJ, LATIN, firstScript, isKana } from './scripts.ts';
import type { Segment, Token, TokenizerConfig } from './types.ts';

export class Tokenizer {
  readonly config: TokenizerConfig;
  private readonly classes: CharClasses;
  private readonly stopWords: ReadonlySet<string>;
  private readonly plan: LanguagePlan;
  private readonly scanner: Scanner;

  constructor(config: TokenizerConfig = {}) {
    this.config = config;
    this.stopWords = nfkdSet(config.stopWords);
    this.classes = charClassesFor({
      separatorTokens: config.separatorTokens,
      nonSeparatorTokens: config.nonSeparatorTokens,
      dictionary: config.dictionary,
      stopWords: this.stopWords,
    });
    this.plan = planLanguages(config.locales);
    this.scanner = new Scanner(this.classes, this.stopWords, this.plan);
  }

  /** The same settings with other locales (one tokenizer per `localizedAttributes` rule). */
  withLocales(locales: readonly string[] | undefined): Tokenizer {
    return new Tokenizer({ ...this.config, locales });
  }

  /** Word tokens of one field value, positions starting at `firstPosition`. */
  tokenize(text: string, firstPosition = 0): Token[] {
    const tokens: Token[] = [];
    this.scanner.run(text, firstPosition, tokens, null);
    return tokens;
  }

  /** Every word, stop word and separator of `text` in order (crop, highlight, query parsing). */
  segments(text: string, firstPosition = 0): Segment[] {
    const segments: Segment[] = [];
    this.scanner.run(text, firstPosition, null, segments);
    return segments;
  }

  /** Normalises one word the way indexed words are normalised (query terms, synonyms, dictionary). */
  normalize(word: string): string {
    const script = firstScript(word, 0);
    let lang = LANG_NONE;
    if (script === LATIN) lang = this.plan.latin;
    else if (script === CJ) {
      let kana = false;
      for (let i = 0; i < word.length && !kana; i++) kana = isKana(word.charCodeAt(i));
      lang = kana ? this.plan.cjWithKana : this.plan.cjWithoutKana;
    }
    return normalizeToken(word, script, lang).trim();
  }
}

/**
 * Where the first `lemmaUnits` UTF-16 units of a word's normalised form end in the original
 * text (charabia `Token::original_lengths`): a prefix match of `hob` on `Hobbit` highlights
 * `Hob`. Returns the end as a JS index and as a UTF-8 byte offset.
 */
export function originalPrefixEnd(text: string, segment: Segment, lemmaUnits: number): { charEnd: number; end: number } {
  let normalized = 0;
  let i = segment.charStart;
  while (i < segment.charEnd && normalized < lemmaUnits) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    normalized += normalizeToken(text.slice(i, i + width), segment.script, segment.lang).length;
    i += width;
  }
  return { charEnd: i, end: segment.start + utf8Length(text, segment.charStart, i) };
}

function nfkdSet(words: ReadonlySet<string> | undefined): ReadonlySet<string> {
  if (words === undefined || words.size === 0) return EMPTY;
  const out = new Set<string>();
  for (const w of words) out.add(w.normalize('NFKD'));
  return out;
}

const EMPTY: ReadonlySet<string> = new Set();
