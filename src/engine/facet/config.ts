// What facet indexing needs from the settings, as plain data (it can travel to the extractor
// thread), and the field matcher compiled from it: milli's `match_faceted_field` (filterable
// rules enabling filter or facet search, first matching rule decides; distinct attribute exact;
// sortable attributes and `field:asc|desc` rules with legacy matching).

/** A rule of `filterableAttributes`: a string rule (legacy matching, every feature) or patterns. */
export type FacetRule = { field: string } | { patterns: readonly string[]; faceted: boolean };

export interface FacetConfig {
  /** `filterableAttributes` in order; `faceted`: the rule enables filtering or facet search */
  filterable: readonly FacetRule[];
  sortable: readonly string[];
  /** fields of `field:asc` / `field:desc` ranking rules */
  ascDesc: readonly string[];
  distinct: string | null;
  /** `_geo` is filterable or sortable: points are validated and indexed */
  geo: boolean;
  /** `"_geojson"` is a filterable rule: shapes are validated and indexed (geojson.ts) */
  geojson?: boolean;
}

export type Selection = 'match' | 'parent' | 'noMatch';

/** The matcher extraction uses: which dotted paths are faceted (`match`) or lead to one (`parent`). */
export interface CompiledFacetConfig {
  readonly config: FacetConfig;
  select(path: string): Selection;
  /** nothing is faceted and geo is off: documents have no facet data */
  readonly empty: boolean;
}

export function defaultFacetConfig(over: Partial<FacetConfig> = {}): FacetConfig {
  return { filterable: [], sortable: [], ascDesc: [], distinct: null, geo: false, ...over };
}

/** Settings whose change rebuilds the facet tables compare equal through this (settings.md §8). */
export function facetSignature(config: FacetConfig): string {
  // `geojson` only when on: tables built before shapes existed keep their signature
  const { geojson, ...rest } = config;
  return JSON.stringify({ ...rest, sortable: [...config.sortable].sort(), ascDesc: [...new Set(config.ascDesc)].sort(), ...(geojson ? { geojson } : {}) });
}

export function compileFacetConfig(config: FacetConfig): CompiledFacetConfig {
  const known = new Map<string, Selection>();
  const select = (path: string): Selection => {
    let s = known.get(path);
    if (s === undefined) {
      s = selectField(config, path);
      known.set(path, s);
    }
    return s;
  };
  const empty = !config.geo && !config.geojson && config.sortable.length === 0 && config.ascDesc.length === 0 && config.distinct === null && !config.filterable.some(ruleFacets);
  return { config, select, empty };
}

function ruleFacets(rule: FacetRule): boolean {
  return 'field' in rule || rule.faceted;
}

function selectField(config: FacetConfig, path: string): Selection {
  let selection: Selection = 'noMatch';
  // the first rule matching the field decides; later rules can still make it a parent
  let canMatch = true;
  for (const rule of config.filterable) {
    const m = 'field' in rule ? matchLegacy(rule.field, path) : matchPatterns(rule.patterns, path);
    if (m === 'match') {
      if (ruleFacets(rule) && canMatch) return 'match';
      canMatch = false;
    } else if (m === 'parent' && ruleFacets(rule)) selection = 'parent';
  }
  if (config.distinct !== null) {
    if (path === config.distinct) return 'match';
    if (isNestedIn(config.distinct, path)) selection = 'parent';
  }
  for (const rule of config.sortable) {
    const m = matchLegacy(rule, path);
    if (m === 'match') return 'match';
    if (m === 'parent') selection = 'parent';
  }
  for (const rule of config.ascDesc) {
    const m = matchLegacy(rule, path);
    if (m === 'match') return 'match';
    if (m === 'parent') selection = 'parent';
  }
  return selection;
}

/** `field` is `parent` itself or nested below it. */
function isNestedIn(field: string, parent: string): boolean {
  return field === parent || (field.startsWith(parent) && field.charCodeAt(parent.length) === 0x2e /* . */);
}

function matchLegacy(rule: string, path: string): Selection {
  if (isNestedIn(path, rule)) return 'match';
  return isNestedIn(rule, path) ? 'parent' : 'noMatch';
}

function matchPatterns(patterns: readonly string[], path: string): Selection {
  let result: Selection = 'noMatch';
  for (const p of patterns) {
    const m = matchPattern(p, path);
    if (m === 'match') return 'match';
    if (m === 'parent') result = 'parent';
  }
  return result;
}

/** settings.md §7 pattern matching: `*`, `*infix*`, `*suffix`, `prefix*`, else exact (the API's matcher too). */
export function matchPattern(pattern: string, path: string): Selection {
  if (pattern === '*') return 'match';
  const lead = pattern.startsWith('*');
  const trail = pattern.endsWith('*');
  if (lead && trail) {
    if (path.includes(pattern.slice(1, -1))) return 'match';
  } else if (lead) {
    if (path.endsWith(pattern.slice(1))) return 'match';
  } else if (trail) {
    if (path.startsWith(pattern.slice(0, -1))) return 'match';
  } else if (pattern === path) {
    return 'match';
  }
  return isNestedIn(pattern, path) ? 'parent' : 'noMatch';
}
