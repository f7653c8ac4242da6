// POST /indexes/{uid}/fields (indexes.md §3.8): every field of the index with what the settings
// make of it, filtered and paginated.
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { matchFieldLegacy, matchPatterns, parseRankingRule, type Settings } from '../settings/index.ts';
import { asArray, asBoolean, asPositiveInteger, checkFields, expectObject, typeError } from '../validate/index.ts';

const FILTER_KEYS = ['attributePatterns', 'displayed', 'searchable', 'sortable', 'distinct', 'rankingRule', 'filterable'] as const;
type FlagKey = Exclude<(typeof FILTER_KEYS)[number], 'attributePatterns'>;
const FLAG_CODES: Record<FlagKey, ErrorCode> = {
  displayed: 'invalid_index_fields_filter_displayed',
  searchable: 'invalid_index_fields_filter_searchable',
  sortable: 'invalid_index_fields_filter_sortable',
  distinct: 'invalid_index_fields_filter_distinct',
  rankingRule: 'invalid_index_fields_filter_ranking_rule',
  filterable: 'invalid_index_fields_filter_filterable',
};

export interface FieldsQuery {
  offset: number;
  limit: number;
  attributePatterns: string[] | null;
  flags: Partial<Record<FlagKey, boolean>>;
}

/** The request body (all optional). */
export function parseFieldsQuery(body: unknown): FieldsQuery {
  const obj = expectObject(body);
  checkFields(obj, { known: ['offset', 'limit', 'filter'] });
  const q: FieldsQuery = {
    offset: obj.offset === undefined ? 0 : asPositiveInteger(obj.offset, '.offset', 'invalid_index_offset'),
    limit: obj.limit === undefined ? 20 : asPositiveInteger(obj.limit, '.limit', 'invalid_index_limit'),
    attributePatterns: null,
    flags: {},
  };
  if (obj.filter === undefined || obj.filter === null) return q;
  const filter = expectObject(obj.filter, '.filter', 'invalid_index_fields_filter');
  for (const key of Object.keys(filter)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) {
      throw new ApiError('invalid_index_fields_filter', `Unknown field \`${key}\` inside \`.filter\`: expected one of ${FILTER_KEYS.map((k) => `\`${k}\``).join(', ')}`);
    }
  }
  if (filter.attributePatterns !== undefined && filter.attributePatterns !== null) {
    q.attributePatterns = asArray(filter.attributePatterns, '.filter.attributePatterns', 'invalid_index_fields_filter_attribute_patterns').map((p, i) => {
      if (typeof p !== 'string') throw typeError(`.filter.attributePatterns[${i}]`, 'a string', p, 'invalid_index_fields_filter_attribute_patterns');
      return p;
    });
  }
  for (const key of Object.keys(FLAG_CODES) as FlagKey[]) {
    const v = filter[key];
    if (v !== undefined && v !== null) q.flags[key] = asBoolean(v, `.filter.${key}`, FLAG_CODES[key]);
  }
  return q;
}

const legacy = (rules: readonly string[] | null, field: string): boolean => rules === null || rules.includes('*') || rules.some((r) => matchFieldLegacy(r, field) === 'match');

/** What the settings make of one field. */
export function fieldView(name: string, s: Settings): Record<string, unknown> {
  let order: 'asc' | 'desc' | undefined;
  for (const rule of s.rankingRules) {
    const parsed = parseRankingRule(rule);
    if (typeof parsed !== 'string' && 'field' in parsed && parsed.field === name) {
      order = parsed.kind;
      break;
    }
  }
  const filterable = { enabled: false, sortBy: sortBy(name, s), facetSearch: false, equality: false, comparison: false };
  for (const rule of s.filterableAttributes) {
    if (typeof rule === 'string') {
      if (matchFieldLegacy(rule, name) !== 'match') continue;
      Object.assign(filterable, { facetSearch: true, equality: true, comparison: true });
    } else {
      if (matchPatterns(rule.attributePatterns, name) !== 'match') continue;
      Object.assign(filterable, { facetSearch: rule.features.facetSearch, ...rule.features.filter });
    }
    break;
  }
  filterable.facetSearch &&= s.facetSearch;
  filterable.enabled = filterable.facetSearch || filterable.equality || filterable.comparison;
  const localized = s.localizedAttributes?.find((r) => matchPatterns(r.attributePatterns, name) === 'match');
  return {
    name,
    displayed: { enabled: legacy(s.displayedAttributes, name) },
    searchable: { enabled: legacy(s.searchableAttributes, name) },
    sortable: { enabled: s.sortableAttributes.some((r) => matchFieldLegacy(r, name) === 'match') },
    distinct: { enabled: s.distinctAttribute === name },
    rankingRule: order === undefined ? { enabled: false } : { enabled: true, order },
    filterable,
    localized: { locales: localized ? [...localized.locales] : [] },
  };
}

function sortBy(name: string, s: Settings): string {
  const by = s.faceting.sortFacetValuesBy;
  return by[name] ?? by['*'] ?? 'alpha';
}

/** The paginated list of fields (in field-id order) matching the query. */
export function fieldsPage(fields: readonly string[], s: Settings, q: FieldsQuery): { results: Record<string, unknown>[]; offset: number; limit: number; total: number } {
  const views = fields
    .filter((f) => q.attributePatterns === null || matchPatterns(q.attributePatterns, f) === 'match')
    .map((f) => fieldView(f, s))
    .filter((v) => Object.entries(q.flags).every(([k, want]) => (v[k] as { enabled: boolean }).enabled === want));
  return { results: views.slice(q.offset, q.offset + q.limit), offset: q.offset, limit: q.limit, total: views.length };
}
