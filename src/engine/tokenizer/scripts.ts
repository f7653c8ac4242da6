// Script of a character, as charabia decides it (`detection/chars.rs`): the script decides how
// text is grouped (a change between two non-Other scripts starts a new group and so a new word),
// which segmenter runs (dictionary-based for CJ, Thai, Khmer) and which normalisers apply
// (lowercase only for cased scripts, diacritics stripped only for Latin, Greek, Hebrew, Thai, Arabic).
// Digits, symbols, emoji and every astral character are `Other`: they join the current group.

export const OTHER = 0;
export const LATIN = 1;
export const CYRILLIC = 2;
export const GREEK = 3;
export const CJ = 4; // Han + hiragana + katakana (Chinese and Japanese)
export const THAI = 5;
export const HANGUL = 6;
export const KHMER = 7;
export const ARABIC = 8;
export const HEBREW = 9;
export const GEORGIAN = 10;
export const ARMENIAN = 11;
export const DEVANAGARI = 12;
export const ETHIOPIC = 13;
export const BENGALI = 14;
export const INDIC = 15; // Kannada, Tamil, Gujarati, Gurmukhi, Telugu, Malayalam, Oriya, Sinhala
export const MYANMAR = 16;

export const SCRIPT_NAMES: readonly string[] = [
  'Other', 'Latin', 'Cyrillic', 'Greek', 'Cj', 'Thai', 'Hangul', 'Khmer', 'Arabic', 'Hebrew',
  'Georgian', 'Armenian', 'Devanagari', 'Ethiopic', 'Bengali', 'Indic', 'Myanmar',
];

function inRanges(cp: number, ranges: readonly number[]): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (cp >= ranges[i]! && cp <= ranges[i + 1]!) return true;
  return false;
}

const LATIN_RANGES = [
  0x41, 0x5a, 0x61, 0x7a, 0x80, 0x24f, 0x250, 0x2af, 0x1d00, 0x1dbf, 0x1e00, 0x1eff, 0x2100, 0x214f,
  0x2c60, 0x2c7f, 0xa720, 0xa7ff, 0xab30, 0xab6f, 0xff01, 0xff5e,
];
const CYRILLIC_RANGES = [
  0x400, 0x484, 0x487, 0x52f, 0x2de0, 0x2dff, 0xa640, 0xa69d, 0x1d2b, 0x1d2b, 0x1d78, 0x1d78, 0xa69f, 0xa69f,
];
const ARABIC_RANGES = [
  0x600, 0x6ff, 0x750, 0x7ff, 0x8a0, 0x8ff, 0xfb50, 0xfdff, 0xfe70, 0xfeff, 0x10e60, 0x10e7f,
  0x1ee00, 0x1eeff,
];
const HANGUL_RANGES = [
  0xac00, 0xd7af, 0x1100, 0x11ff, 0x3130, 0x318f, 0x3200, 0x32ff, 0xa960, 0xa97f, 0xd7b0, 0xd7ff,
  0xffa0, 0xffdc,
];
const CJ_RANGES = [
  0x3040, 0x309f, 0x30a0, 0x30ff, 0xff65, 0xff9f, // kana
  0x2e80, 0x2e99, 0x2e9b, 0x2ef3, 0x2f00, 0x2fd5, 0x3005, 0x3005, 0x3007, 0x3007, 0x3021, 0x3029,
  0x3038, 0x303b, 0x3400, 0x4db5, 0x4e00, 0x9fcc, 0xf900, 0xfa6d, 0xfa70, 0xfad9,
];
const INDIC_RANGES = [
  0xc80, 0xcff, 0xb80, 0xbff, 0xa80, 0xaff, 0xa00, 0xa7f, 0xc00, 0xc7f, 0xd00, 0xd7f, 0xb00, 0xb7f,
  0xd80, 0xdff,
];

/** Script of a code point, in charabia's order of tests (Latin first, Khmer last). */
export function scriptOf(cp: number): number {
  if (inRanges(cp, LATIN_RANGES)) return LATIN;
  if (inRanges(cp, CYRILLIC_RANGES)) return CYRILLIC;
  if (inRanges(cp, ARABIC_RANGES)) return ARABIC;
  if ((cp >= 0x900 && cp <= 0x97f) || (cp >= 0xa8e0 && cp <= 0xa8ff) || (cp >= 0x1cd0 && cp <= 0x1cff)) {
    return DEVANAGARI;
  }
  if (cp >= 0x590 && cp <= 0x5ff) return HEBREW;
  if ((cp >= 0x1200 && cp <= 0x139f) || (cp >= 0x2d80 && cp <= 0x2ddf) || (cp >= 0xab00 && cp <= 0xab2f)) {
    return ETHIOPIC;
  }
  if (cp >= 0x10a0 && cp <= 0x10ff) return GEORGIAN;
  if (cp >= 0x980 && cp <= 0x9ff) return BENGALI;
  if (inRanges(cp, HANGUL_RANGES)) return HANGUL;
  if (inRanges(cp, CJ_RANGES)) return CJ;
  if (cp >= 0x370 && cp <= 0x3ff) return GREEK;
  if (cp >= 0xe00 && cp <= 0xe7f) return THAI;
  if (inRanges(cp, INDIC_RANGES)) return INDIC;
  if (cp >= 0x1000 && cp <= 0x109f) return MYANMAR;
  if ((cp >= 0x1780 && cp <= 0x17ff) || (cp >= 0x19e0 && cp <= 0x19ff)) return KHMER;
  return OTHER;
}

/** Script of every UTF-16 code unit (surrogates are Other, as every astral character is). */
export const SCRIPT_OF_UNIT: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) table[cp] = scriptOf(cp);
  for (let cp = 0xd800; cp < 0xe000; cp++) table[cp] = OTHER;
  return table;
})();

/** True for Han ideographs and kana (charabia's `Cj` script). */
export function isCjk(cp: number): boolean {
  return cp < 0x10000 && SCRIPT_OF_UNIT[cp] === CJ;
}

/** True for hiragana and katakana; a CJ group with kana is Japanese. */
export function isKana(unit: number): boolean {
  return (unit >= 0x3040 && unit <= 0x30ff) || (unit >= 0xff65 && unit <= 0xff9f);
}

/** Scripts whose words are lowercased (charabia `LowercaseNormalizer`). */
export function isCased(script: number): boolean {
  return script === LATIN || script === CYRILLIC || script === GREEK || script === GEORGIAN || script === ARMENIAN;
}

/** Scripts whose nonspacing marks (accents) are removed (charabia `NonspacingMarkNormalizer`). */
export function stripsMarks(script: number): boolean {
  return script === LATIN || script === GREEK || script === HEBREW || script === THAI || script === ARABIC;
}

/** Script of the first character of text[from..] that has one (Other if none). */
export function firstScript(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const s = SCRIPT_OF_UNIT[text.charCodeAt(i)]!;
    if (s !== OTHER) return s;
  }
  return OTHER;
}
