// Locales accepted by `localizedAttributes` (settings.md §6.16, meilisearch-types `locales.rs`).
// The two lists are aligned: the i-th two-letter code maps to the i-th three-letter code.

const ISO_639_1 = (
  'af ak am ar az be bn bg ca cs da de el en eo et fi fr gu he hi hr hu hy id it jv ja kn ka km ko la lv lt ' +
  'ml mr mk my ne nl nb or pa fa pl pt ro ru si sk sl sn es sr sv ta te tl th tk tr uk ur uz vi yi zh zu'
).split(' ');

const ISO_639_3 = (
  'afr aka amh ara aze bel ben bul cat ces dan deu ell eng epo est fin fra guj heb hin hrv hun hye ind ita ' +
  'jav jpn kan kat khm kor lat lav lit mal mar mkd mya nep nld nob ori pan pes pol por ron rus sin slk slv ' +
  'sna spa srp swe tam tel tgl tha tuk tur ukr urd uzb vie yid zho zul'
).split(' ');

/** Every accepted code, in the order of the "expected one of" list (two-letter, three-letter, `cmn`). */
export const LOCALES: readonly string[] = [...ISO_639_1, ...ISO_639_3, 'cmn'];

const CANONICAL = new Map<string, string>();
ISO_639_1.forEach((code, i) => CANONICAL.set(code, ISO_639_3[i]!));
for (const code of ISO_639_3) CANONICAL.set(code, code);
CANONICAL.set('cmn', 'cmn');

/** True for every code of LOCALES. */
export function isLocale(code: string): boolean {
  return CANONICAL.has(code);
}

/** The three-letter code GET shows for an accepted code (`ja` → `jpn`, `cmn` stays). */
export function canonicalLocale(code: string): string {
  return CANONICAL.get(code) ?? code;
}
