// Normalisation of one token, in charabia's order (normalizer/mod.rs):
//
//   original ─► NFKD ─► [Swedish: recompose å ä ö] ─► drop control chars ══► classify (stop word?
//   separator?) against this form, so stop words are case-sensitive ─► lowercase (cased scripts)
//   ─► Latin: ’‘‛ → ' and œ æ → oe ae ─► CJ/Japanese: katakana → hiragana ─► Greek: ς → σ
//   ─► strip nonspacing marks (Latin, Greek, Hebrew, Thai, Arabic) ─► Latin: đ → d, ı → i
//
// Not folded, as in charabia: ø, ß, ł, ð, þ (NFKD keeps them and no normaliser maps them), and
// Cyrillic keeps its marks (й stays и + U+0306, ё stays е + U+0308) because marks are only
// stripped for the scripts above. Chinese variant folding (kvariants) is not done.

import * as sc from './scripts.ts';
import * as loc from './locales.ts';

// imported bindings are getters once compiled: read them once
const CJ = sc.CJ;
const GREEK = sc.GREEK;
const LATIN = sc.LATIN;
const isCased = sc.isCased;
const stripsMarks = sc.stripsMarks;
const LANG_JPN = loc.LANG_JPN;
const LANG_NONE = loc.LANG_NONE;
const LANG_SWE = loc.LANG_SWE;

// Cc characters that are not White_Space (Rust `c.is_control() && !c.is_whitespace()`).
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/;
const CONTROL_ALL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const SWEDISH = /[AaOo]\u0308|[Aa]\u030a/g;
const SWEDISH_PAIRS: Readonly<Record<string, string>> = {
  'A\u030a': 'Å', 'a\u030a': 'å', 'A\u0308': 'Ä', 'a\u0308': 'ä', 'O\u0308': 'Ö', 'o\u0308': 'ö',
};
const LATIN_LIGATURES = /[’‘‛œæŒÆ]/;
const LATIN_LIGATURES_ALL = /[’‘‛œæŒÆ]/g;
const LIGATURE_OUT: Readonly<Record<string, string>> = {
  '’': "'", '‘': "'", '‛': "'", 'œ': 'oe', 'Œ': 'oe', 'æ': 'ae', 'Æ': 'ae',
};
const LATIN_LETTERS = /[ÐĐđı]/;
const LATIN_LETTERS_ALL = /[ÐĐđı]/g;
const LETTER_OUT: Readonly<Record<string, string>> = { 'Ð': 'd', 'Đ': 'd', 'đ': 'd', 'ı': 'i' };
const NONSPACING = /\p{Mn}/u;
const NONSPACING_ALL = /\p{Mn}/gu;
const KATAKANA = /[\u30a1-\u30fc]/;

/**
 * First half of the pipeline: the form charabia classifies (stop words, separators).
 * `raw` may be anything; pure printable ASCII comes back unchanged.
 */
export function classifyForm(raw: string, lang: number): string {
  let s = raw.normalize('NFKD');
  if (lang === LANG_SWE && (s.includes('\u0308') || s.includes('\u030a'))) {
    s = s.replace(SWEDISH, (m) => SWEDISH_PAIRS[m] ?? m);
  }
  if (CONTROL.test(s)) s = s.replace(CONTROL_ALL, '');
  return s;
}

/** Second half of the pipeline (charabia's "lossy" normalisers) for a token of `script`. */
export function lossyForm(s: string, script: number, lang: number): string {
  if (isCased(script)) s = s.toLowerCase();
  if (script === LATIN && LATIN_LIGATURES.test(s)) {
    s = s.replace(LATIN_LIGATURES_ALL, (m) => LIGATURE_OUT[m] ?? m);
  }
  if (script === CJ && (lang === LANG_NONE || lang === LANG_JPN) && KATAKANA.test(s)) s = toHiragana(s);
  if (script === GREEK && s.includes('ς')) s = s.replaceAll('ς', 'σ');
  if (stripsMarks(script) && NONSPACING.test(s)) s = s.replace(NONSPACING_ALL, '');
  if (script === LATIN && LATIN_LETTERS.test(s)) s = s.replace(LATIN_LETTERS_ALL, (m) => LETTER_OUT[m] ?? m);
  return s;
}

// Character-wise fast path. Every step but NFKD's canonical reordering of marks, Swedish
// recomposition and the kana long-vowel rule works character by character, so for words
// without combining marks (and not CJ, not Swedish) the pipeline is the concatenation of the
// per-character results, cached per script.
const COMPLEX = '\u{10FFFF}'; // cache marker: this character needs the string pipeline
const MARK = /\p{M}/u;
const formCache: (string | undefined)[] = [];
const lemmaCaches: (string | undefined)[][] = [];

function formOfUnit(u: number): string {
  if ((u >= 0xd800 && u <= 0xdfff) || MARK.test(String.fromCharCode(u))) return COMPLEX;
  return classifyForm(String.fromCharCode(u), LANG_NONE);
}

/** `classifyForm` by characters, or null when the word needs the string pipeline. */
export function classifyFormByChar(raw: string): string | null {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const u = raw.charCodeAt(i);
    const f = formCache[u] ?? (formCache[u] = formOfUnit(u));
    if (f === COMPLEX) return null;
    out += f;
  }
  return out;
}

/** `normalizeToken` by characters for `script` (not CJ), or null (see above). */
export function normalizeByChar(raw: string, script: number): string | null {
  const cache = lemmaCaches[script] ?? (lemmaCaches[script] = []);
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const u = raw.charCodeAt(i);
    let f = cache[u];
    if (f === undefined) {
      const form = formCache[u] ?? (formCache[u] = formOfUnit(u));
      f = cache[u] = form === COMPLEX ? COMPLEX : lossyForm(form, script, LANG_NONE);
    }
    if (f === COMPLEX) return null;
    out += f;
  }
  return out;
}

/** The whole pipeline for one token (the normalised word, untrimmed). */
export function normalizeToken(raw: string, script: number, lang: number): string {
  return lossyForm(classifyForm(raw, lang), script, lang);
}

// Vowel of each hiragana U+3041..U+3096 ('-' = none), for the long-vowel mark ー (wana_kana).
const HIRAGANA_VOWELS =
  'aaiiuueeooaaiiuueeoo' + // ぁ..ご
  'aaiiuueeoo' + // さ..ぞ
  'aaii-uueeoo' + // た..ど (っ has none)
  'aiueo' + // な..の
  'aaaiiiuuueeeooo' + // は..ぽ
  'aiueo' + // ま..も
  'aauuoo' + // ゃ..よ
  'aiueo' + // ら..ろ
  'aaieo-uae'; // ゎ わ ゐ ゑ を ん ゔ ゕ ゖ
const LONG_VOWEL: Readonly<Record<string, string>> = { a: 'あ', i: 'い', u: 'う', e: 'え', o: 'う' };

/**
 * Katakana → hiragana as wana_kana's `to_hiragana` with `pass_romaji` (charabia
 * `JapaneseNormalizer`): ァ..ヴ shift by 0x60, ヵ ヶ ・ stay, ー after a converted kana becomes
 * that kana's vowel. Strings that are already all hiragana are left alone.
 */
export function toHiragana(s: string): string {
  let allHiragana = true;
  for (let i = 0; i < s.length && allHiragana; i++) {
    const c = s.charCodeAt(i);
    allHiragana = (c >= 0x3040 && c <= 0x309f) || c === 0x30fc;
  }
  if (allHiragana) return s;
  let out = '';
  let previous = -1; // code of the previous converted kana, -1 if the previous char was not one
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x30fc && i > 0 && previous >= 0) {
      const vowel = HIRAGANA_VOWELS[previous - 0x3041];
      const long = vowel === undefined ? undefined : LONG_VOWEL[vowel];
      out += long ?? 'ー';
      continue; // wana_kana keeps the previous kana for a run of ー
    }
    if (c >= 0x30a1 && c <= 0x30f4) {
      previous = c - 0x60;
      out += String.fromCharCode(previous);
      continue;
    }
    previous = -1;
    out += s[i];
  }
  return out;
}
