// Locales (`localizedAttributes`, search `locales`) restrict charabia's language detection.
// Only a few languages change what the tokenizer does:
//   CJ text:    Japanese (segment as Japanese, katakana → hiragana) or Chinese;
//               with an allow-list naming neither, CJ text is not segmented at all.
//   Latin text: Swedish keeps å ä ö (charabia `SwedishRecompositionNormalizer`).
// Charabia detects the language of unlisted text with `whatlang`; we do not (see README notes):
// Latin text without a single Latin locale is treated as "no language".

export const LANG_NONE = 0;
export const LANG_JPN = 1;
export const LANG_CMN = 2; // cmn and zho
export const LANG_SWE = 3;
export const LANG_OTHER_LATIN = 4;

const TWO_TO_THREE: Readonly<Record<string, string>> = {
  af: 'afr', ak: 'aka', am: 'amh', ar: 'ara', az: 'aze', be: 'bel', bn: 'ben', bg: 'bul', ca: 'cat',
  cs: 'ces', da: 'dan', de: 'deu', el: 'ell', en: 'eng', eo: 'epo', et: 'est', fi: 'fin', fr: 'fra',
  gu: 'guj', he: 'heb', hi: 'hin', hr: 'hrv', hu: 'hun', hy: 'hye', id: 'ind', it: 'ita', jv: 'jav',
  ja: 'jpn', kn: 'kan', ka: 'kat', km: 'khm', ko: 'kor', la: 'lat', lv: 'lav', lt: 'lit', ml: 'mal',
  mr: 'mar', mk: 'mkd', my: 'mya', ne: 'nep', nl: 'nld', nb: 'nob', or: 'ori', pa: 'pan', fa: 'pes',
  pl: 'pol', pt: 'por', ro: 'ron', ru: 'rus', si: 'sin', sk: 'slk', sl: 'slv', sn: 'sna', es: 'spa',
  sr: 'srp', sv: 'swe', ta: 'tam', te: 'tel', tl: 'tgl', th: 'tha', tk: 'tuk', tr: 'tur', uk: 'ukr',
  ur: 'urd', uz: 'uzb', vi: 'vie', yi: 'yid', zh: 'zho', zu: 'zul',
};

/** Languages written in Latin script among the supported locales (whatlang's Latin languages). */
const LATIN_LANGUAGES = new Set([
  'afr', 'aka', 'aze', 'cat', 'ces', 'dan', 'deu', 'eng', 'epo', 'est', 'fin', 'fra', 'hrv', 'hun',
  'ind', 'ita', 'jav', 'lat', 'lav', 'lit', 'nld', 'nob', 'pol', 'por', 'ron', 'slk', 'slv', 'sna',
  'spa', 'swe', 'tgl', 'tuk', 'tur', 'uzb', 'vie', 'zul',
]);

/** ISO-639-1 or -3 code → three-letter code (unknown codes are returned lowercased). */
export function toIso3(code: string): string {
  const c = code.toLowerCase();
  return TWO_TO_THREE[c] ?? c;
}

/** What the tokenizer needs to know about an allow-list of locales. */
export interface LanguagePlan {
  /** Language of CJ text with kana / without kana (LANG_NONE: not segmented). */
  readonly cjWithKana: number;
  readonly cjWithoutKana: number;
  /** Language of Latin text. */
  readonly latin: number;
}

export const NO_LOCALES: LanguagePlan = { cjWithKana: LANG_JPN, cjWithoutKana: LANG_CMN, latin: LANG_NONE };

/** The language choices implied by `locales` (undefined or empty: detection, approximated). */
export function planLanguages(locales: readonly string[] | undefined): LanguagePlan {
  if (locales === undefined || locales.length === 0) return NO_LOCALES;
  const codes = new Set(locales.map(toIso3));
  const jpn = codes.has('jpn');
  const chinese = codes.has('cmn') || codes.has('zho');
  const cj = (kana: boolean): number => {
    if (jpn && chinese) return kana ? LANG_JPN : LANG_CMN;
    return jpn ? LANG_JPN : chinese ? LANG_CMN : LANG_NONE;
  };
  const latinCodes = [...codes].filter((c) => LATIN_LANGUAGES.has(c));
  let latin = LANG_NONE;
  if (latinCodes.length === 1) latin = latinCodes[0] === 'swe' ? LANG_SWE : LANG_OTHER_LATIN;
  return { cjWithKana: cj(true), cjWithoutKana: cj(false), latin };
}
