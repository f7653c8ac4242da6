// Index settings (settings.md): the stored, normalised form, its defaults, the tri-state patch
// and the table of sub-routes. Stored values are already in the form GET shows (sets sorted,
// stop words NFKD, locales canonical...) except embedders, which keep what the user gave.

/** Every setting key, in the serialisation order of GET /settings (settings.md §2). */
export const SETTING_NAMES = [
  'displayedAttributes',
  'searchableAttributes',
  'filterableAttributes',
  'sortableAttributes',
  'foreignKeys',
  'rankingRules',
  'stopWords',
  'nonSeparatorTokens',
  'separatorTokens',
  'dictionary',
  'synonyms',
  'distinctAttribute',
  'proximityPrecision',
  'typoTolerance',
  'faceting',
  'pagination',
  'embedders',
  'searchCutoffMs',
  'localizedAttributes',
  'facetSearch',
  'prefixSearch',
  'chat',
] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

export interface FilterFeatures {
  equality: boolean;
  comparison: boolean;
}

export interface FilterableFeatures {
  facetSearch: boolean;
  filter: FilterFeatures;
}

/** An object rule of `filterableAttributes`, features always fully expanded. */
export interface FilterablePatternRule {
  attributePatterns: string[];
  features: FilterableFeatures;
}

/** A string rule (legacy matching, all features) or an object rule (pattern matching). */
export type FilterableRule = string | FilterablePatternRule;

export interface ForeignKey {
  foreignIndexUid: string;
  fieldName: string;
}

export interface MinWordSizeForTypos {
  oneTypo: number;
  twoTypos: number;
}

export interface TypoTolerance {
  enabled: boolean;
  minWordSizeForTypos: MinWordSizeForTypos;
  disableOnWords: string[];
  disableOnAttributes: string[];
  disableOnNumbers: boolean;
}

export type FacetValuesSort = 'alpha' | 'count';

export interface Faceting {
  maxValuesPerFacet: number;
  /** Always contains `"*"`; keys in byte order. */
  sortFacetValuesBy: Record<string, FacetValuesSort>;
}

export interface Pagination {
  maxTotalHits: number;
}

/** One embedder configuration as given by the user (merged over updates); secrets in clear. */
export type EmbedderSettings = Record<string, unknown>;

export interface LocalizedAttributesRule {
  attributePatterns: string[];
  /** ISO-639-3 codes (or `cmn`). */
  locales: string[];
}

export type MatchingStrategy = 'last' | 'all' | 'frequency';

/** `chat.searchParameters`: only the keys that were set are present. */
export interface ChatSearchParameters {
  hybrid?: { embedder: string; semanticRatio: number };
  limit?: number;
  sort?: string[];
  distinct?: string;
  matchingStrategy?: MatchingStrategy;
  attributesToSearchOn?: string[];
  rankingScoreThreshold?: number;
}

export interface ChatSettings {
  description: string;
  documentTemplate: string;
  documentTemplateMaxBytes: number;
  searchParameters: ChatSearchParameters;
}

export type ProximityPrecision = 'byWord' | 'byAttribute';
export type PrefixSearch = 'indexingTime' | 'disabled';

/** The stored settings of one index. */
export interface Settings {
  /** `null` = all attributes (`["*"]`). */
  displayedAttributes: string[] | null;
  /** `null` = all attributes (`["*"]`), in field-id order. */
  searchableAttributes: string[] | null;
  filterableAttributes: FilterableRule[];
  sortableAttributes: string[];
  foreignKeys: ForeignKey[];
  rankingRules: string[];
  stopWords: string[];
  nonSeparatorTokens: string[];
  separatorTokens: string[];
  dictionary: string[];
  synonyms: Record<string, string[]>;
  distinctAttribute: string | null;
  proximityPrecision: ProximityPrecision;
  typoTolerance: TypoTolerance;
  faceting: Faceting;
  pagination: Pagination;
  embedders: Record<string, EmbedderSettings>;
  /** `null` = the engine default budget (DEFAULT_SEARCH_CUTOFF_MS) at search time. */
  searchCutoffMs: number | null;
  localizedAttributes: LocalizedAttributesRule[] | null;
  facetSearch: boolean;
  prefixSearch: PrefixSearch;
  chat: ChatSettings;
}

export const DEFAULT_RANKING_RULES: readonly string[] = [
  'words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness',
];

/** The default document template of chat settings and template-capable embedders. */
export const DEFAULT_DOCUMENT_TEMPLATE =
  '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}';
export const DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES = 400;
export const DEFAULT_SEARCH_CUTOFF_MS = 1500;
export const DEFAULT_MAX_VALUES_PER_FACET = 100;
export const DEFAULT_MAX_TOTAL_HITS = 1000;
export const DEFAULT_ONE_TYPO = 5;
export const DEFAULT_TWO_TYPOS = 9;

/** A fresh copy of the default `typoTolerance`. */
export function defaultTypoTolerance(): TypoTolerance {
  return {
    enabled: true,
    minWordSizeForTypos: { oneTypo: DEFAULT_ONE_TYPO, twoTypos: DEFAULT_TWO_TYPOS },
    disableOnWords: [],
    disableOnAttributes: [],
    disableOnNumbers: false,
  };
}

/** A fresh copy of the default `faceting`. */
export function defaultFaceting(): Faceting {
  return { maxValuesPerFacet: DEFAULT_MAX_VALUES_PER_FACET, sortFacetValuesBy: { '*': 'alpha' } };
}

/** A fresh copy of the default `chat` settings (§6.19). */
export function defaultChat(): ChatSettings {
  return {
    description: '',
    documentTemplate: DEFAULT_DOCUMENT_TEMPLATE,
    documentTemplateMaxBytes: DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES,
    searchParameters: {},
  };
}

/** A fresh copy of the settings of a new index. */
export function defaultSettings(): Settings {
  return {
    displayedAttributes: null,
    searchableAttributes: null,
    filterableAttributes: [],
    sortableAttributes: [],
    foreignKeys: [],
    rankingRules: [...DEFAULT_RANKING_RULES],
    stopWords: [],
    nonSeparatorTokens: [],
    separatorTokens: [],
    dictionary: [],
    synonyms: {},
    distinctAttribute: null,
    proximityPrecision: 'byWord',
    typoTolerance: defaultTypoTolerance(),
    faceting: defaultFaceting(),
    pagination: { maxTotalHits: DEFAULT_MAX_TOTAL_HITS },
    embedders: {},
    searchCutoffMs: null,
    localizedAttributes: null,
    facetSearch: true,
    prefixSearch: 'indexingTime',
    chat: defaultChat(),
  };
}

/** The settings of a new index (frozen; use defaultSettings() for a mutable copy). */
export const DEFAULT_SETTINGS: Readonly<Settings> = deepFreeze(defaultSettings());

// ---- patches: absent = unchanged, null = reset to default, value = set ----

export interface MinWordSizeForTyposPatch {
  oneTypo?: number | null;
  twoTypos?: number | null;
}

export interface TypoTolerancePatch {
  enabled?: boolean | null;
  minWordSizeForTypos?: MinWordSizeForTyposPatch | null;
  disableOnWords?: string[] | null;
  disableOnAttributes?: string[] | null;
  disableOnNumbers?: boolean | null;
}

export interface FacetingPatch {
  maxValuesPerFacet?: number | null;
  sortFacetValuesBy?: Record<string, FacetValuesSort> | null;
}

export interface PaginationPatch {
  maxTotalHits?: number | null;
}

/** One embedder's partial configuration; a `null` field resets that field. */
export type EmbedderPatch = Record<string, unknown>;

export interface ChatSearchParametersPatch {
  hybrid?: { embedder: string; semanticRatio: number } | null;
  limit?: number | null;
  sort?: string[] | null;
  distinct?: string | null;
  matchingStrategy?: MatchingStrategy | null;
  attributesToSearchOn?: string[] | null;
  rankingScoreThreshold?: number | null;
}

export interface ChatPatch {
  description?: string | null;
  documentTemplate?: string | null;
  documentTemplateMaxBytes?: number | null;
  searchParameters?: ChatSearchParametersPatch | null;
}

/**
 * A validated settings update, as deserialized (Meilisearch's `Settings<Unchecked>`): sets are
 * already sorted and deduplicated, filterable object rules have their features expanded, but
 * `"*"` in displayed/searchable lists and two-letter locales are kept as sent (task details show
 * them). Plain JSON: it can be stored in a task as is.
 */
export interface SettingsPatch {
  displayedAttributes?: string[] | null;
  searchableAttributes?: string[] | null;
  filterableAttributes?: FilterableRule[] | null;
  sortableAttributes?: string[] | null;
  foreignKeys?: ForeignKey[] | null;
  rankingRules?: string[] | null;
  stopWords?: string[] | null;
  nonSeparatorTokens?: string[] | null;
  separatorTokens?: string[] | null;
  dictionary?: string[] | null;
  synonyms?: Record<string, string[]> | null;
  distinctAttribute?: string | null;
  proximityPrecision?: ProximityPrecision | null;
  typoTolerance?: TypoTolerancePatch | null;
  faceting?: FacetingPatch | null;
  pagination?: PaginationPatch | null;
  embedders?: Record<string, EmbedderPatch | null> | null;
  searchCutoffMs?: number | null;
  localizedAttributes?: LocalizedAttributesRule[] | null;
  facetSearch?: boolean | null;
  prefixSearch?: PrefixSearch | null;
  chat?: ChatPatch | null;
}

/** The patch of `DELETE /settings`: every setting reset (never creates the index). */
export function resetAllPatch(): SettingsPatch {
  const patch: Record<string, null> = {};
  for (const name of SETTING_NAMES) patch[name] = null;
  return patch as SettingsPatch;
}

/** The patch of `DELETE /settings/<sub-route>`: that one setting reset. */
export function resetPatch(name: SettingName): SettingsPatch {
  return { [name]: null } as SettingsPatch;
}

export interface SubRoute {
  /** Path segment after `/settings/`. */
  route: string;
  setting: SettingName;
  /** The update verb; the other one answers 405. GET and DELETE exist on every sub-route. */
  verb: 'PUT' | 'PATCH';
}

const PATCH_ROUTES: ReadonlySet<SettingName> = new Set(['typoTolerance', 'faceting', 'pagination', 'embedders', 'chat']);

/** The sub-routes of settings.md §1/§5, in key order. */
export const SUB_ROUTES: readonly SubRoute[] = SETTING_NAMES.map((setting) => ({
  route: setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
  setting,
  verb: PATCH_ROUTES.has(setting) ? 'PATCH' : 'PUT',
}));

/** The sub-route for a path segment such as `ranking-rules`, if any. */
export function subRouteOf(segment: string): SubRoute | undefined {
  return SUB_ROUTES.find((r) => r.route === segment);
}

/** Experimental features that gate parts of the settings (stats-health.md §5). */
export interface SettingsFeatures {
  chatCompletions?: boolean;
  foreignKeys?: boolean;
  compositeEmbedders?: boolean;
  multimodal?: boolean;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
