// The settings API contract (settings.md): types and defaults, body validation, merge, views,
// task details, in-task checks, re-indexing needs and attribute matchers.
export * from './types.ts';
export { parseSettingsPatch, parseSubRoute, SETTING_CODES, type ParseOptions } from './parse.ts';
export { applyPatch, settingsView, subSettingView, type ViewOptions } from './apply.ts';
export { settingsTaskDetails } from './details.ts';
export { checkSettingsAgainstIndex, type TaskContext } from './check.ts';
export { reindexNeeds, type ReindexNeeds } from './reindex.ts';
export { embedderAction, embedderConfigs, sourceOf, type EmbedderAction } from './embedders.ts';
export { fragmentCount, usesFragments } from './embedders-parse.ts';
export { isFacetedBy, matchDistinctField, matchFieldLegacy, matchPattern, matchPatterns, templateSearchable, type PatternMatch } from './patterns.ts';
export { ascDescFields, parseRankingRule, type RankingRule } from './ranking-rules.ts';
export { LOCALES, canonicalLocale } from './locales.ts';
export { settingsOf } from './stored.ts';
