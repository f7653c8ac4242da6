// Text normalisations applied when settings are stored (settings.md §2, §6.6, §6.11). They stand in
// for charabia's normalizers until the engine has its own tokenizer; keep them in sync with it.
import { sortedSet } from './deserr.ts';

/** Stop words: NFKD only (no lowercasing: stop words are case-sensitive), as a sorted set. */
export function normalizeStopWords(words: readonly string[]): string[] {
  return sortedSet(words.map((w) => w.normalize('NFKD')));
}

// Scripts whose diacritics charabia strips (Latin, Greek, Cyrillic); elsewhere marks carry meaning
const STRIPPABLE_BASE = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;

/** One `disableOnWords` entry as the tokenizer normalizes it: compatibility-decomposed, unaccented, lowercased. */
export function normalizeWord(word: string): string {
  let out = '';
  let strip = false;
  for (const ch of word.normalize('NFKD')) {
    if (/\p{Mn}/u.test(ch)) {
      if (!strip) out += ch;
      continue;
    }
    strip = STRIPPABLE_BASE.test(ch);
    out += ch;
  }
  return out.toLowerCase().replace(/œ/g, 'oe').replace(/æ/g, 'ae');
}

/** `typoTolerance.disableOnWords` as stored and shown: normalized words, as a sorted set. */
export function normalizeExactWords(words: readonly string[]): string[] {
  return sortedSet(words.map(normalizeWord));
}
