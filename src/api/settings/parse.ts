// Validation of settings update bodies: `PATCH /settings` and `PUT|PATCH /settings/<sub-route>`
// (settings.md §3, §5, §9). Deserialization first (deserr: first error in key order wins), then
// the route-level checks (feature gates, mixed attribute rules, embedder validation).
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { checkEmbedderFeatures, parseEmbedders, validateEmbedderPatch } from './embedders-parse.ts';
import { arr, at, bool, obj, oneOf, str, strArray, strSet, uint, unknownField, valueError } from './deserr.ts';
import { checkAttributeRulesMix, parseRankingRule } from './ranking-rules.ts';
import {
  parseChat, parseFaceting, parseFilterable, parseForeignKeys, parseLocalized, parsePagination, parseSynonyms,
  parseTypoTolerance,
} from './parse-values.ts';
import { SETTING_NAMES, type SettingName, type SettingsFeatures, type SettingsPatch } from './types.ts';

export { SUB_ROUTES, subRouteOf } from './types.ts';

/** The error code of each setting (settings.md §9). */
export const SETTING_CODES: Readonly<Record<SettingName, ErrorCode>> = {
  displayedAttributes: 'invalid_settings_displayed_attributes',
  searchableAttributes: 'invalid_settings_searchable_attributes',
  filterableAttributes: 'invalid_settings_filterable_attributes',
  sortableAttributes: 'invalid_settings_sortable_attributes',
  foreignKeys: 'invalid_settings_foreign_keys',
  rankingRules: 'invalid_settings_ranking_rules',
  stopWords: 'invalid_settings_stop_words',
  nonSeparatorTokens: 'invalid_settings_non_separator_tokens',
  separatorTokens: 'invalid_settings_separator_tokens',
  dictionary: 'invalid_settings_dictionary',
  synonyms: 'invalid_settings_synonyms',
  distinctAttribute: 'invalid_settings_distinct_attribute',
  proximityPrecision: 'invalid_settings_proximity_precision',
  typoTolerance: 'invalid_settings_typo_tolerance',
  faceting: 'invalid_settings_faceting',
  pagination: 'invalid_settings_pagination',
  embedders: 'invalid_settings_embedders',
  searchCutoffMs: 'invalid_settings_search_cutoff_ms',
  localizedAttributes: 'invalid_settings_localized_attributes',
  facetSearch: 'invalid_settings_facet_search',
  prefixSearch: 'invalid_settings_prefix_search',
  chat: 'invalid_settings_index_chat',
};

export interface ParseOptions {
  /** Enabled experimental features; everything off when omitted. */
  features?: SettingsFeatures;
}

type Reader = (value: unknown, path: string, code: ErrorCode) => unknown;

const READERS: Readonly<Record<SettingName, Reader>> = {
  displayedAttributes: strArray,
  searchableAttributes: strArray,
  filterableAttributes: (v, p) => parseFilterable(v, p),
  sortableAttributes: strSet,
  foreignKeys: (v, p) => parseForeignKeys(v, p),
  rankingRules: readRankingRules,
  stopWords: strSet,
  nonSeparatorTokens: strSet,
  separatorTokens: strSet,
  dictionary: strSet,
  synonyms: (v, p) => parseSynonyms(v, p),
  distinctAttribute: str,
  proximityPrecision: (v, p, c) => oneOf(v, p, ['byWord', 'byAttribute'] as const, c),
  typoTolerance: (v, p) => parseTypoTolerance(v, p),
  faceting: (v, p) => parseFaceting(v, p),
  pagination: (v, p) => parsePagination(v, p),
  embedders: (v, p) => parseEmbedders(v, p),
  searchCutoffMs: (v, p, c) => uint(v, p, c),
  localizedAttributes: (v, p) => parseLocalized(v, p),
  facetSearch: bool,
  prefixSearch: (v, p, c) => oneOf(v, p, ['indexingTime', 'disabled'] as const, c),
  chat: (v, p) => parseChat(v, p),
};

function readRankingRules(value: unknown, path: string, code: ErrorCode): string[] {
  return arr(value, path, code).map((v, i) => {
    const p = `${path}[${i}]`;
    const rule = str(v, p, code);
    const parsed = parseRankingRule(rule);
    if (typeof parsed === 'string') throw valueError(p, parsed, code);
    return rule;
  });
}

/** Validates a `PATCH /indexes/{uid}/settings` body into a tri-state patch (throws ApiError 400). */
export function parseSettingsPatch(body: unknown, opts: ParseOptions = {}): SettingsPatch {
  const root = obj(body, '', 'bad_request');
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(root)) {
    if (!(SETTING_NAMES as readonly string[]).includes(key)) throw unknownField(key, SETTING_NAMES, 'bad_request');
    const name = key as SettingName;
    patch[name] = value === null ? null : READERS[name](value, at('', name), SETTING_CODES[name]);
  }
  const ordered: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (name in patch) ordered[name] = patch[name];
  validatePatch(ordered as SettingsPatch, opts.features ?? {});
  return ordered as SettingsPatch;
}

/**
 * Validates the body of `PUT|PATCH /settings/<sub-route>` (the bare value, `null` = reset) into
 * the equivalent patch. deserr paths start at the value itself (`` / `.maxTotalHits`).
 */
export function parseSubRoute(name: SettingName, body: unknown, opts: ParseOptions = {}): SettingsPatch {
  const patch = { [name]: body === null || body === undefined ? null : READERS[name](body, '', SETTING_CODES[name]) } as SettingsPatch;
  validatePatch(patch, opts.features ?? {});
  return patch;
}

function gate(action: string, feature: string, link: string): ApiError {
  return new ApiError('feature_not_enabled', `${action} requires enabling the \`${feature}\` experimental feature. See ${link}`);
}

/** The checks Meilisearch's settings routes run after deserialization, in their order. */
function validatePatch(patch: SettingsPatch, features: SettingsFeatures): void {
  if (patch.embedders) checkEmbedderFeatures(patch.embedders, features);
  if (patch.chat && !features.chatCompletions) {
    throw gate('setting `chat` in the index settings', 'chat completions', 'https://github.com/orgs/meilisearch/discussions/835');
  }
  if (patch.foreignKeys && !features.foreignKeys) {
    throw gate('setting `foreignKeys` in the index settings', 'foreign_keys', 'https://github.com/orgs/meilisearch/discussions/873');
  }
  if (patch.rankingRules) checkAttributeRulesMix(patch.rankingRules);
  if (patch.embedders) {
    for (const [name, e] of Object.entries(patch.embedders)) if (e !== null) validateEmbedderPatch(name, e);
  }
}
