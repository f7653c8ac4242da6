// Term derivations (relevancy.md §2.2–2.3, §6, §9), as milli's `compute_derivations.rs` and
// `make_ngram` compute them, over a WordSource instead of the index databases:
//
//   cost 0  the word itself when indexed (normal or exact set), prefix completions of the
//           prefix term (either set, ≤ 1000, the word itself excluded), synonyms (≤ 50
//           alternatives, ≤ 100 words in all; one word → word, more → phrase)
//   cost 1  one-typo words (normal set, ≤ 150, same first character), the best split `l r`
//           (highest pair-proximity-1 count; first wins ties; none for phrases, nor for an
//           n-gram when it just splits back into its own words)
//   cost 2  two-typo words (normal set, ≤ 50): distance 2, or 1 with another first character
//
// Typos allowed (code points of the normalised word): 0 when typos are disabled, the word is
// in `disableOnWords`, or it is shorter than `oneTypo`; 1 when shorter than `twoTypos`; else 2.
// A prefix term measures typos on a prefix of the derived word (WordSet `prefix`).
// Words over 250 bytes derive nothing (not even a split) and are never prefixes.
//
// N-grams: 2 and 3 consecutive word terms (adjacent positions, no phrase), concatenation
// ≤ 250 bytes; typos(concat) − (n − 1) typos; prefix if the last word is; synonyms of the key
// "w1 w2[ w3]". The concatenation itself reads word-docids only (milli `Word::Derived`).

import { MAX_WORD_BYTES, utf8Length } from '../../tokenizer/index.ts';
import { compareUtf8 } from '../../words/index.ts';
import type {
  ParsedQuery,
  ParsedTerm,
  PhraseDerivation,
  PhraseWords,
  QueryConfig,
  QueryTerm,
  QueryTerms,
  TypoGroup,
  WordDerivation,
  WordSource,
} from './types.ts';
import { locatedTerms } from './located.ts';

/** milli `limits.rs`. */
export const LIMITS = {
  prefixCount: 1000,
  oneTypoCount: 150,
  twoTyposCount: 50,
  synonymPhraseCount: 50,
  synonymWordCount: 100,
} as const;

/** Typos allowed for a normalised word (or n-gram concatenation) under the typo settings. */
export function allowedTypos(word: string, config: QueryConfig): 0 | 1 | 2 {
  const t = config.typos;
  if (!t.enabled || t.disableOnWords.has(word)) return 0;
  let chars = 0;
  for (const _ of word) chars++;
  if (chars < t.oneTypo) return 0;
  return chars < t.twoTypos ? 1 : 2;
}

/** Derives every term and 2-/3-gram of a parsed query against the index words. */
export function deriveTerms(parsed: ParsedQuery, config: QueryConfig, source: WordSource): QueryTerms {
  const terms: QueryTerm[] = parsed.terms.map((t, i) => deriveParsed(t, i, config, source));
  const ngrams: QueryTerm[] = [];
  for (let i = 1; i < terms.length; i++) {
    const two = makeNgram(terms, i - 1, i, config, source);
    if (two !== null) ngrams.push(two);
    if (i >= 2) {
      const three = makeNgram(terms, i - 2, i, config, source);
      if (three !== null) ngrams.push(three);
    }
  }
  const negativeWords = parsed.negativeWords;
  const negativePhrases = parsed.negativePhrases;
  return { terms, ngrams, negativeWords, negativePhrases, locatedTerms: () => locatedTerms(terms, ngrams) };
}

function deriveParsed(t: ParsedTerm, id: number, config: QueryConfig, source: WordSource): QueryTerm {
  if (t.kind === 'phrase') {
    const phrase: PhraseDerivation = { words: t.words, kind: 'phrase' };
    return {
      kind: 'phrase',
      isPhrase: true,
      span: [id, id],
      positions: t.positions,
      original: t.words.filter((w) => w !== null).join(' '),
      words: t.words,
      isPrefix: false,
      maxTypos: 0,
      derivations: [{ words: [], phrases: [phrase] }, EMPTY_GROUP, EMPTY_GROUP],
    };
  }
  const word = t.words[0]!;
  const isPrefix = t.isPrefix && config.prefixSearch;
  const d = deriveWord(word, allowedTypos(word, config), isPrefix, null, config, source);
  return { kind: 'word', isPhrase: false, span: [id, id], positions: t.positions, original: word, words: t.words, ...d };
}

/** The n-gram of terms[first..last], or null when they cannot form one. */
function makeNgram(terms: readonly QueryTerm[], first: number, last: number, config: QueryConfig, source: WordSource): QueryTerm | null {
  const parts = terms.slice(first, last + 1);
  for (const p of parts) if (p.kind !== 'word') return null;
  for (let k = 1; k < parts.length; k++) {
    if (parts[k - 1]!.positions[1] !== parts[k]!.positions[0] - 1) return null;
  }
  const words = parts.map((p) => p.original);
  const concat = words.join('');
  if (utf8Length(concat) > MAX_WORD_BYTES) return null;
  const n = parts.length;
  const maxTypos = Math.max(0, allowedTypos(concat, config) - (n - 1)) as 0 | 1 | 2;
  const isPrefix = parts[n - 1]!.isPrefix;
  const d = deriveWord(concat, maxTypos, isPrefix, words, config, source);
  return {
    kind: 'ngram',
    isPhrase: false,
    span: [first, last],
    positions: [parts[0]!.positions[0], parts[n - 1]!.positions[1]],
    original: concat,
    words,
    ...d,
  };
}

type Derived = Pick<QueryTerm, 'isPrefix' | 'maxTypos' | 'derivations'>;

/** Derivations of one word (or n-gram concatenation, `ngramWords` its parts). */
function deriveWord(
  word: string,
  maxTypos: 0 | 1 | 2,
  isPrefix: boolean,
  ngramWords: readonly string[] | null,
  config: QueryConfig,
  source: WordSource,
): Derived {
  if (utf8Length(word) > MAX_WORD_BYTES) {
    return { isPrefix: false, maxTypos: 0, derivations: [EMPTY_GROUP, EMPTY_GROUP, EMPTY_GROUP] };
  }
  const zeroWords: WordDerivation[] = [];
  const zeroPhrases: PhraseDerivation[] = [];
  const seen = new Set<string>();
  const add = (list: WordDerivation[], d: WordDerivation): void => {
    if (seen.has(d.word)) return;
    seen.add(d.word);
    list.push(d);
  };

  // the word itself
  const inWords = source.words.has(word);
  const inExact = ngramWords === null && source.exactWords.has(word);
  if (inWords || inExact) add(zeroWords, { word, kind: 'original', sets: { words: inWords, exactWords: inExact } });

  // prefix completions, from both word sets (milli reads word-prefix and exact-word-prefix
  // postings alike: a prefix reaches exact attributes, upstream issue #6403)
  if (isPrefix) {
    const completions = new Map<string, { words: boolean; exactWords: boolean }>();
    for (const [set, words] of [['words', source.words], ['exactWords', source.exactWords]] as const) {
      let count = 0;
      for (const w of words.prefixed(word, LIMITS.prefixCount + 1)) {
        if (w === word) continue;
        if (count++ >= LIMITS.prefixCount) break;
        const sets = completions.get(w) ?? { words: false, exactWords: false };
        sets[set] = true;
        completions.set(w, sets);
      }
    }
    for (const [w, sets] of [...completions].sort((a, b) => compareUtf8(a[0], b[0])).slice(0, LIMITS.prefixCount)) {
      add(zeroWords, { word: w, kind: 'prefix', sets });
    }
  }

  // synonyms
  for (const alt of synonymsOf(ngramWords === null ? word : ngramWords.join(' '), config)) {
    if (alt.length === 1) {
      const w = alt[0]!;
      add(zeroWords, { word: w, kind: 'synonym', sets: { words: source.words.has(w), exactWords: source.exactWords.has(w) } });
    } else if (!zeroPhrases.some((p) => sameWords(p.words, alt))) {
      zeroPhrases.push({ words: alt, kind: 'synonym' });
    }
  }

  // typos
  const oneWords: WordDerivation[] = [];
  const twoWords: WordDerivation[] = [];
  if (maxTypos > 0) {
    const twoCap = maxTypos === 2 ? LIMITS.twoTyposCount : 0;
    for (const m of source.words.fuzzy(word, { maxTypos, prefix: isPrefix, firstLetterCounts2: true })) {
      if (oneWords.length >= LIMITS.oneTypoCount && twoWords.length >= twoCap) break;
      if (m.typos === 1 && oneWords.length < LIMITS.oneTypoCount) oneWords.push({ word: m.word, kind: 'typo', sets: NORMAL });
      else if (m.typos === 2 && twoWords.length < twoCap) twoWords.push({ word: m.word, kind: 'typo', sets: NORMAL });
    }
  }

  // split words
  const onePhrases: PhraseDerivation[] = [];
  const split = bestSplit(word, source);
  if (split !== null && (ngramWords === null || !sameWords(ngramWords, split))) {
    onePhrases.push({ words: split, kind: 'split' });
  }

  return {
    isPrefix,
    maxTypos,
    derivations: [
      { words: zeroWords, phrases: zeroPhrases },
      { words: oneWords, phrases: onePhrases },
      { words: twoWords, phrases: [] },
    ],
  };
}

/** Alternatives of a synonym key: ≤ 50, ≤ 100 words in all (longer ones skipped), stop words dropped. */
function synonymsOf(key: string, config: QueryConfig): string[][] {
  const alternatives = config.synonyms.get(key);
  if (alternatives === undefined) return [];
  const out: string[][] = [];
  let wordCount = 0;
  for (const alt of alternatives.slice(0, LIMITS.synonymPhraseCount)) {
    const words = alt.filter((w) => w !== '' && !config.stopWords.has(w));
    if (words.length === 0 || wordCount + words.length > LIMITS.synonymWordCount) continue;
    wordCount += words.length;
    out.push(words);
  }
  return out;
}

/** The split `l r` of `word` (at a character boundary) with the most pair-proximity-1 documents. */
export function bestSplit(word: string, source: WordSource): [string, string] | null {
  let best: [string, string] | null = null;
  let bestCount = 0;
  let i = 0;
  for (const c of word) {
    if (i > 0) {
      const left = word.slice(0, i);
      const right = word.slice(i);
      const count = source.pairCount(left, right);
      if (count > bestCount) {
        best = [left, right];
        bestCount = count;
      }
    }
    i += c.length;
  }
  return best;
}

function sameWords(a: PhraseWords, b: PhraseWords): boolean {
  return a.length === b.length && a.every((w, k) => w === b[k]);
}

const NORMAL = { words: true, exactWords: false } as const;
const EMPTY_GROUP: TypoGroup = { words: [], phrases: [] };
