// Applying a validated patch to stored settings (settings.md §3: absent keeps, null resets, a value
// sets; nested objects merge field by field) and the GET views of §2/§5.
import { embedderView, mergeEmbedders } from './embedders.ts';
import { sortedMap, sortedSet } from './deserr.ts';
import { canonicalLocale } from './locales.ts';
import { normalizeExactWords, normalizeStopWords } from './normalize.ts';
import {
  DEFAULT_MAX_TOTAL_HITS, DEFAULT_MAX_VALUES_PER_FACET, DEFAULT_ONE_TYPO, DEFAULT_RANKING_RULES, DEFAULT_TWO_TYPOS,
  SETTING_NAMES, defaultChat, defaultFaceting, defaultSettings, defaultTypoTolerance,
  type ChatPatch, type ChatSearchParameters, type ChatSettings, type Faceting, type FacetingPatch,
  type FacetValuesSort, type SettingName, type Settings, type SettingsFeatures, type SettingsPatch, type TypoTolerance,
  type TypoTolerancePatch,
} from './types.ts';
import { setKey } from '../../engine/json.ts';

/** The settings after `patch` (pure: `current` is not modified). */
export function applyPatch(current: Settings, patch: SettingsPatch): Settings {
  const s = structuredClone(current);
  const d = defaultSettings();
  const p = patch;
  if (p.displayedAttributes !== undefined) s.displayedAttributes = wildcard(p.displayedAttributes);
  if (p.searchableAttributes !== undefined) s.searchableAttributes = wildcard(p.searchableAttributes);
  if (p.filterableAttributes !== undefined) s.filterableAttributes = structuredClone(p.filterableAttributes ?? d.filterableAttributes);
  if (p.sortableAttributes !== undefined) s.sortableAttributes = sortedSet(p.sortableAttributes ?? []);
  if (p.foreignKeys !== undefined) s.foreignKeys = structuredClone(p.foreignKeys ?? []);
  if (p.rankingRules !== undefined) s.rankingRules = [...(p.rankingRules ?? DEFAULT_RANKING_RULES)];
  if (p.stopWords !== undefined) s.stopWords = normalizeStopWords(p.stopWords ?? []);
  if (p.nonSeparatorTokens !== undefined) s.nonSeparatorTokens = sortedSet(p.nonSeparatorTokens ?? []);
  if (p.separatorTokens !== undefined) s.separatorTokens = sortedSet(p.separatorTokens ?? []);
  if (p.dictionary !== undefined) s.dictionary = sortedSet(p.dictionary ?? []);
  if (p.synonyms !== undefined) s.synonyms = structuredClone(p.synonyms ?? {});
  if (p.distinctAttribute !== undefined) s.distinctAttribute = p.distinctAttribute;
  if (p.proximityPrecision !== undefined) s.proximityPrecision = p.proximityPrecision ?? d.proximityPrecision;
  if (p.typoTolerance !== undefined) s.typoTolerance = applyTypo(s.typoTolerance, p.typoTolerance);
  if (p.faceting !== undefined) s.faceting = applyFaceting(s.faceting, p.faceting);
  if (p.pagination === null) s.pagination = { maxTotalHits: DEFAULT_MAX_TOTAL_HITS };
  else if (p.pagination?.maxTotalHits !== undefined) s.pagination = { maxTotalHits: p.pagination.maxTotalHits ?? DEFAULT_MAX_TOTAL_HITS };
  if (p.embedders !== undefined) s.embedders = p.embedders === null ? {} : mergeEmbedders(s.embedders, p.embedders);
  if (p.searchCutoffMs !== undefined) s.searchCutoffMs = p.searchCutoffMs;
  if (p.localizedAttributes !== undefined) {
    s.localizedAttributes = p.localizedAttributes === null ? null : p.localizedAttributes.map((r) => ({
      attributePatterns: [...r.attributePatterns],
      locales: r.locales.map(canonicalLocale),
    }));
  }
  if (p.facetSearch !== undefined) s.facetSearch = p.facetSearch ?? d.facetSearch;
  if (p.prefixSearch !== undefined) s.prefixSearch = p.prefixSearch ?? d.prefixSearch;
  if (p.chat !== undefined) s.chat = applyChat(s.chat, p.chat);
  return s;
}

/** A list containing `"*"` anywhere means "all attributes" (stored as null). */
function wildcard(list: string[] | null): string[] | null {
  return list === null || list.includes('*') ? null : [...list];
}

function applyTypo(cur: TypoTolerance, p: TypoTolerancePatch | null): TypoTolerance {
  if (p === null) return defaultTypoTolerance();
  const out = structuredClone(cur);
  if (p.enabled !== undefined) out.enabled = p.enabled ?? true;
  if (p.minWordSizeForTypos === null) out.minWordSizeForTypos = { oneTypo: DEFAULT_ONE_TYPO, twoTypos: DEFAULT_TWO_TYPOS };
  else if (p.minWordSizeForTypos !== undefined) {
    const m = p.minWordSizeForTypos;
    if (m.oneTypo !== undefined) out.minWordSizeForTypos.oneTypo = m.oneTypo ?? DEFAULT_ONE_TYPO;
    if (m.twoTypos !== undefined) out.minWordSizeForTypos.twoTypos = m.twoTypos ?? DEFAULT_TWO_TYPOS;
  }
  if (p.disableOnWords !== undefined) out.disableOnWords = normalizeExactWords(p.disableOnWords ?? []);
  if (p.disableOnAttributes !== undefined) out.disableOnAttributes = sortedSet(p.disableOnAttributes ?? []);
  if (p.disableOnNumbers !== undefined) out.disableOnNumbers = p.disableOnNumbers ?? false;
  return out;
}

function applyFaceting(cur: Faceting, p: FacetingPatch | null): Faceting {
  if (p === null) return defaultFaceting();
  const out = structuredClone(cur);
  if (p.maxValuesPerFacet !== undefined) out.maxValuesPerFacet = p.maxValuesPerFacet ?? DEFAULT_MAX_VALUES_PER_FACET;
  if (p.sortFacetValuesBy !== undefined) {
    // a given map replaces the stored one; `*` falls back to alpha when the user leaves it out
    const map: Record<string, FacetValuesSort> = { ...(p.sortFacetValuesBy ?? {}) };
    map['*'] ??= 'alpha';
    out.sortFacetValuesBy = sortedMap(map);
  }
  return out;
}

const SEARCH_PARAMETER_ORDER = [
  'hybrid', 'limit', 'sort', 'distinct', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold',
] as const;

function applyChat(cur: ChatSettings, p: ChatPatch | null): ChatSettings {
  const d = defaultChat();
  if (p === null) return d;
  const out = structuredClone(cur);
  if (p.description !== undefined) out.description = p.description ?? d.description;
  if (p.documentTemplate !== undefined) out.documentTemplate = p.documentTemplate ?? d.documentTemplate;
  if (p.documentTemplateMaxBytes !== undefined) out.documentTemplateMaxBytes = p.documentTemplateMaxBytes ?? d.documentTemplateMaxBytes;
  if (p.searchParameters === null) out.searchParameters = {};
  else if (p.searchParameters !== undefined) {
    const sp: Record<string, unknown> = { ...out.searchParameters };
    for (const [k, v] of Object.entries(p.searchParameters)) {
      if (v === null) delete sp[k];
      else sp[k] = structuredClone(v);
    }
    const ordered: Record<string, unknown> = {};
    for (const k of SEARCH_PARAMETER_ORDER) if (k in sp) ordered[k] = sp[k];
    out.searchParameters = ordered as ChatSearchParameters;
  }
  return out;
}

export interface ViewOptions {
  /** `foreignKeys` / `chatCompletions` add those keys to the full GET (the sub-routes are never gated). */
  features?: SettingsFeatures;
  /** Embedder `apiKey` in clear (dumps); masked otherwise. */
  revealSecrets?: boolean;
}

/** The body of `GET /indexes/{uid}/settings`: every setting, in Meilisearch's key order. */
export function settingsView(s: Settings, opts: ViewOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    if (name === 'foreignKeys' && !opts.features?.foreignKeys) continue;
    if (name === 'chat' && !opts.features?.chatCompletions) continue;
    out[name] = subSettingView(name, s, opts);
  }
  return out;
}

/** The body of `GET /indexes/{uid}/settings/<sub-route>`: the bare value of one setting. */
export function subSettingView(name: SettingName, s: Settings, opts: ViewOptions = {}): unknown {
  switch (name) {
    case 'displayedAttributes':
    case 'searchableAttributes':
      return s[name] === null ? ['*'] : [...s[name]];
    case 'embedders': {
      const out: Record<string, unknown> = {};
      for (const [n, e] of Object.entries(s.embedders)) setKey(out, n, embedderView(e, opts.revealSecrets === true));
      return out;
    }
    case 'typoTolerance': {
      const t = s.typoTolerance;
      return {
        enabled: t.enabled,
        minWordSizeForTypos: { oneTypo: t.minWordSizeForTypos.oneTypo, twoTypos: t.minWordSizeForTypos.twoTypos },
        disableOnWords: [...t.disableOnWords],
        disableOnAttributes: [...t.disableOnAttributes],
        disableOnNumbers: t.disableOnNumbers,
      };
    }
    case 'faceting':
      return { maxValuesPerFacet: s.faceting.maxValuesPerFacet, sortFacetValuesBy: { ...s.faceting.sortFacetValuesBy } };
    case 'chat': {
      const c = s.chat;
      return {
        description: c.description,
        documentTemplate: c.documentTemplate,
        documentTemplateMaxBytes: c.documentTemplateMaxBytes,
        searchParameters: structuredClone(c.searchParameters),
      };
    }
    default:
      return structuredClone(s[name]);
  }
}
