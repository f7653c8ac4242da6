// Readers for the structured settings values (settings.md §6). Each takes a non-null value and
// the deserr path where it sits (`.typoTolerance` through /settings, `` on its sub-route).
import { isLocale, LOCALES } from './locales.ts';
import {
  arr, at, bool, eachField, missingField, nonZeroUint, num, obj, oneOf, sortedMap, str, strArray, strSet, uint,
  unknownValue, valueError,
} from './deserr.ts';
import type {
  ChatPatch, ChatSearchParametersPatch, FacetingPatch, FacetValuesSort, FilterableRule, ForeignKey,
  LocalizedAttributesRule, MatchingStrategy, PaginationPatch, TypoTolerancePatch,
} from './types.ts';
import { setKey } from '../../engine/json.ts';

const TYPO = 'invalid_settings_typo_tolerance';
const TYPO_FIELDS = ['enabled', 'minWordSizeForTypos', 'disableOnWords', 'disableOnAttributes', 'disableOnNumbers'];

/** `typoTolerance`: every field optional, `null` resets one; the size pair is checked when both are given. */
export function parseTypoTolerance(value: unknown, path: string): TypoTolerancePatch {
  const o = obj(value, path, TYPO);
  const out: Record<string, unknown> = {};
  eachField(o, path, TYPO_FIELDS, TYPO, (k, v) => {
    const p = at(path, k);
    if (v === null) out[k] = null;
    else if (k === 'enabled' || k === 'disableOnNumbers') out[k] = bool(v, p, TYPO);
    else if (k === 'minWordSizeForTypos') out[k] = parseMinWordSize(v, p);
    else out[k] = strSet(v, p, TYPO);
  });
  return reorder(out, TYPO_FIELDS) as TypoTolerancePatch;
}

function parseMinWordSize(value: unknown, path: string): { oneTypo?: number | null; twoTypos?: number | null } {
  const o = obj(value, path, TYPO);
  const out: { oneTypo?: number | null; twoTypos?: number | null } = {};
  eachField(o, path, ['oneTypo', 'twoTypos'], TYPO, (k, v) => {
    out[k as 'oneTypo'] = v === null ? null : uint(v, at(path, k), TYPO, 255);
  });
  const { oneTypo: one, twoTypos: two } = out;
  // deserr validates the pair when both are given; a pair completed by stored values fails the task
  if (typeof one === 'number' && typeof two === 'number' && one > two) {
    throw valueError(path, minWordSizeMessage(one, two), TYPO);
  }
  return reorder(out, ['oneTypo', 'twoTypos']);
}

/** The (irregular, verbatim) message for `oneTypo > twoTypos`. */
export function minWordSizeMessage(one: number, two: number): string {
  return `\`minWordSizeForTypos\` setting is invalid. \`oneTypo\` and \`twoTypos\` fields should be between \`0\` and \`255\`, and \`twoTypos\` should be greater or equals to \`oneTypo\` but found \`oneTypo: ${one}\` and twoTypos: ${two}\`.`;
}

const FACETING = 'invalid_settings_faceting';

/** `faceting`: `maxValuesPerFacet` and the `sortFacetValuesBy` map (sorted by key). */
export function parseFaceting(value: unknown, path: string): FacetingPatch {
  const o = obj(value, path, FACETING);
  const out: Record<string, unknown> = {};
  eachField(o, path, ['maxValuesPerFacet', 'sortFacetValuesBy'], FACETING, (k, v) => {
    const p = at(path, k);
    if (v === null) out[k] = null;
    else if (k === 'maxValuesPerFacet') out[k] = uint(v, p, FACETING);
    else {
      const map: Record<string, FacetValuesSort> = {};
      for (const [f, s] of Object.entries(obj(v, p, FACETING))) setKey(map, f, oneOf(s, at(p, f), ['alpha', 'count'] as const, FACETING));
      out[k] = sortedMap(map);
    }
  });
  return reorder(out, ['maxValuesPerFacet', 'sortFacetValuesBy']) as FacetingPatch;
}

const PAGINATION = 'invalid_settings_pagination';

/** `pagination`: a non-zero `maxTotalHits`. */
export function parsePagination(value: unknown, path: string): PaginationPatch {
  const o = obj(value, path, PAGINATION);
  const out: PaginationPatch = {};
  eachField(o, path, ['maxTotalHits'], PAGINATION, (k, v) => {
    out.maxTotalHits = v === null ? null : nonZeroUint(v, at(path, k), PAGINATION);
  });
  return out;
}

const FILTERABLE = 'invalid_settings_filterable_attributes';

/** `filterableAttributes`: string rules, or object rules with their features expanded to defaults. */
export function parseFilterable(value: unknown, path: string): FilterableRule[] {
  return arr(value, path, FILTERABLE).map((rule, i) => {
    const p = `${path}[${i}]`;
    // deserr picks the object form for maps and the string form for anything else
    if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return str(rule, p, FILTERABLE);
    const o = obj(rule, p, FILTERABLE);
    let patterns: string[] | undefined;
    let features = { facetSearch: false, filter: { equality: true, comparison: false } };
    eachField(o, p, ['attributePatterns', 'features'], FILTERABLE, (k, v) => {
      if (k === 'attributePatterns') patterns = strArray(v, at(p, k), FILTERABLE);
      else features = parseFeatures(v, at(p, k));
    });
    if (patterns === undefined) throw missingField('attributePatterns', FILTERABLE, p);
    return { attributePatterns: patterns, features };
  });
}

function parseFeatures(value: unknown, path: string) {
  const o = obj(value, path, FILTERABLE);
  const features = { facetSearch: false, filter: { equality: true, comparison: false } };
  eachField(o, path, ['facetSearch', 'filter'], FILTERABLE, (k, v) => {
    if (k === 'facetSearch') features.facetSearch = bool(v, at(path, k), FILTERABLE);
    else {
      const fp = at(path, k);
      eachField(obj(v, fp, FILTERABLE), fp, ['equality', 'comparison'], FILTERABLE, (fk, fv) => {
        features.filter[fk as 'equality'] = bool(fv, at(fp, fk), FILTERABLE);
      });
    }
  });
  return features;
}

const LOCALIZED = 'invalid_settings_localized_attributes';

/** Locales are kept as sent (task details echo them); apply.ts canonicalises them. */
export function parseLocalized(value: unknown, path: string): LocalizedAttributesRule[] {
  return arr(value, path, LOCALIZED).map((rule, i) => {
    const p = `${path}[${i}]`;
    const o = obj(rule, p, LOCALIZED);
    let patterns: string[] | undefined;
    let locales: string[] | undefined;
    eachField(o, p, ['attributePatterns', 'locales'], LOCALIZED, (k, v) => {
      if (k === 'attributePatterns') patterns = strArray(v, at(p, k), LOCALIZED);
      else {
        locales = arr(v, at(p, k), LOCALIZED).map((l, j) => {
          const lp = `${at(p, k)}[${j}]`;
          const code = str(l, lp, LOCALIZED);
          if (!isLocale(code)) throw unknownValue(lp, code, LOCALES, LOCALIZED);
          return code;
        });
      }
    });
    if (patterns === undefined) throw missingField('attributePatterns', LOCALIZED, p);
    if (locales === undefined) throw missingField('locales', LOCALIZED, p);
    return { attributePatterns: patterns, locales };
  });
}

const FOREIGN = 'invalid_settings_foreign_keys';

/** `foreignKeys`: `{foreignIndexUid, fieldName}` objects, both required. */
export function parseForeignKeys(value: unknown, path: string): ForeignKey[] {
  return arr(value, path, FOREIGN).map((fk, i) => {
    const p = `${path}[${i}]`;
    const o = obj(fk, p, FOREIGN);
    const read: Partial<ForeignKey> = {};
    eachField(o, p, ['foreignIndexUid', 'fieldName'], FOREIGN, (k, v) => {
      read[k as keyof ForeignKey] = str(v, at(p, k), FOREIGN);
    });
    if (read.foreignIndexUid === undefined) throw missingField('foreignIndexUid', FOREIGN, p);
    if (read.fieldName === undefined) throw missingField('fieldName', FOREIGN, p);
    return { foreignIndexUid: read.foreignIndexUid, fieldName: read.fieldName };
  });
}

const SYNONYMS = 'invalid_settings_synonyms';

/** `synonyms`: word → list of words, keys sorted, values as given. */
export function parseSynonyms(value: unknown, path: string): Record<string, string[]> {
  const o = obj(value, path, SYNONYMS);
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(o)) setKey(out, k, strArray(v, at(path, k), SYNONYMS));
  return sortedMap(out);
}

const CHAT = 'invalid_settings_index_chat';
const CHAT_FIELDS = ['description', 'documentTemplate', 'documentTemplateMaxBytes', 'searchParameters'];
const SEARCH_FIELDS = ['hybrid', 'limit', 'sort', 'distinct', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold'];

/** `chat` and its partial `searchParameters`. */
export function parseChat(value: unknown, path: string): ChatPatch {
  const o = obj(value, path, CHAT);
  const out: Record<string, unknown> = {};
  eachField(o, path, CHAT_FIELDS, CHAT, (k, v) => {
    const p = at(path, k);
    if (v === null) out[k] = null;
    else if (k === 'documentTemplateMaxBytes') out[k] = uint(v, p, CHAT);
    else if (k === 'searchParameters') out[k] = parseSearchParameters(v, p);
    else out[k] = str(v, p, CHAT);
  });
  return reorder(out, CHAT_FIELDS) as ChatPatch;
}

function parseSearchParameters(value: unknown, path: string): ChatSearchParametersPatch {
  const o = obj(value, path, CHAT);
  const out: Record<string, unknown> = {};
  eachField(o, path, SEARCH_FIELDS, CHAT, (k, v) => {
    const p = at(path, k);
    if (v === null) out[k] = null;
    else if (k === 'hybrid') out[k] = parseHybrid(v, p);
    else if (k === 'limit') out[k] = uint(v, p, CHAT);
    else if (k === 'sort' || k === 'attributesToSearchOn') out[k] = strArray(v, p, CHAT);
    else if (k === 'distinct') out[k] = str(v, p, CHAT);
    else if (k === 'matchingStrategy') out[k] = oneOf<MatchingStrategy>(v, p, ['last', 'all', 'frequency'], CHAT);
    else out[k] = ratio(v, p, 'rankingScoreThreshold');
  });
  return reorder(out, SEARCH_FIELDS) as ChatSearchParametersPatch;
}

/** `{semanticRatio, embedder}` in HybridQuery's field order (semanticRatio defaults to 0.5). */
function parseHybrid(value: unknown, path: string): { embedder: string; semanticRatio: number } {
  const o = obj(value, path, CHAT);
  let semanticRatio = 0.5;
  let embedder: string | undefined;
  eachField(o, path, ['semanticRatio', 'embedder'], CHAT, (k, v) => {
    if (k === 'semanticRatio') semanticRatio = ratio(v, at(path, k), 'semanticRatio');
    else embedder = str(v, at(path, k), CHAT);
  });
  if (embedder === undefined) throw missingField('embedder', CHAT, path);
  return { semanticRatio, embedder };
}

function ratio(value: unknown, path: string, name: string): number {
  const n = num(value, path, CHAT);
  if (n < 0 || n > 1) {
    throw valueError(path, `the value of \`${name}\` is invalid, expected a float between \`0.0\` and \`1.0\`.`, CHAT);
  }
  return n;
}

function reorder<T extends object>(o: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in o) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}
