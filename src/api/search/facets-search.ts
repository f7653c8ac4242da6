// POST /indexes/{uid}/facet-search without transport (facets.md §4): the body, the checks in
// Meilisearch's order, the candidates of the underlying search and the response.
//
//   body ─► facetSearch setting on? ─► search parameters usable? ─► facetName facet-searchable?
//   ─► candidates (rankSearch: q, filter, matchingStrategy, attributesToSearchOn, threshold;
//   exact in page mode with `exhaustiveFacetCount`) ─► facet hits (facets-match.ts) ─► response
import type { Index } from '../../engine/index/index.ts';
import { ApiError } from '../errors/index.ts';
import { isFacetedBy, matchFieldLegacy, type Settings } from '../settings/index.ts';
import { Tokenizer, utf8Length } from '../../engine/tokenizer/index.ts';
import { asBoolean, asString, expectObject, missingField } from '../validate/index.ts';
import { rankSearch } from './execute.ts';
import { searchPlan } from './semantic.ts';
import type { FilterFeatures } from '../filter/index.ts';
import { compareBytes, type FacetValues } from './facets-values.ts';
import { facetHits, lossyFacetString, type FacetHit, type FacetQueryMatch } from './facets-match.ts';
import { firstMatchingRule } from './facets.ts';
import { parseSearchBody } from './query.ts';
import { defaultSearchQuery, type SearchQuery } from './query-types.ts';
import { indexSearchState, type IndexSearchState } from './state.ts';
import { notSupported, rejectUnsupported } from './unsupported.ts';

/** A parsed facet search request. */
export interface FacetSearchQuery {
  facetName: string;
  facetQuery: string | null;
  /** the search restricting the documents (only its search fields are set) */
  search: SearchQuery;
  exhaustiveFacetCount: boolean;
}

/** The search parameters a facet search accepts, read with the search route's parsers and codes. */
export const FACET_SEARCH_QUERY_FIELDS = [
  'q', 'vector', 'media', 'hybrid', 'filter', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold', 'locales', 'useNetwork',
] as const;
const SEARCH_FIELDS: ReadonlySet<string> = new Set(FACET_SEARCH_QUERY_FIELDS);

/** Parses a facet search body: fields in body order, unknown fields ignored (facets.md §4). */
export function parseFacetSearchBody(body: unknown): FacetSearchQuery {
  const obj = expectObject(body === undefined ? {} : body);
  let facetName: string | undefined;
  let facetQuery: string | null = null;
  let exhaustiveFacetCount = false;
  const search = defaultSearchQuery();
  for (const key of Object.keys(obj)) {
    const value = obj[key]!;
    const path = `.${key}`;
    if (key === 'facetName') facetName = asString(value, path, 'invalid_facet_search_facet_name');
    else if (key === 'facetQuery') facetQuery = value === null ? null : asString(value, path, 'invalid_facet_search_query');
    else if (key === 'exhaustiveFacetCount') {
      exhaustiveFacetCount = value === null ? false : asBoolean(value, path, 'invalid_facet_search_exhaustive_facet_count');
    } else if (SEARCH_FIELDS.has(key)) {
      const one = parseSearchBody({ [key]: value }) as unknown as Record<string, unknown>;
      (search as unknown as Record<string, unknown>)[key] = one[key];
    }
  }
  if (facetName === undefined) throw missingField('facetName', 'missing_facet_search_facet_name');
  return { facetName, facetQuery, search, exhaustiveFacetCount };
}

export interface FacetSearchResponse {
  facetHits: FacetHit[];
  facetQuery: string | null;
  processingTimeMs: number;
}

/** Runs a facet search on one index (`features`: the experimental features filters depend on). */
export function executeFacetSearch(index: Index, uid: string, fq: FacetSearchQuery, features?: FilterFeatures): FacetSearchResponse {
  const started = performance.now();
  const state = indexSearchState(index);
  const { settings } = state;
  if (!settings.facetSearch) throw new ApiError('facet_search_disabled', 'The facet search is disabled for this index');
  // page mode makes the candidates exact (threshold and distinct applied to all of them)
  const q: SearchQuery = fq.exhaustiveFacetCount ? { ...fq.search, page: 1, hitsPerPage: 0 } : fq.search;
  rejectUnsupported(q);
  checkFacetSearchable(fq.facetName, settings);
  const values: FacetValues | null = state.wordSets.facets ?? null;
  if (values === null) throw notSupported('the facet search', 'invalid_facet_search_facet_name');
  const fid = values.fieldId(fq.facetName);
  let hits: FacetHit[] = [];
  if (fid !== undefined) {
    // a hybrid search counts every document its filter lets through: the semantic side matches
    // them all, whatever the text (Meilisearch 1.50, even when the text cannot be embedded)
    const counted = searchPlan(q, settings).kind === 'hybrid' ? { ...q, q: null, vector: null, media: null } : q;
    const ranked = rankSearch(index, uid, counted, { state, offset: 0, limit: 0, scores: false, started, ...(features ? { features } : {}), filterRoute: 'facetSearch' });
    hits = facetHits({
      values,
      cacheOwner: state,
      fid,
      candidates: ranked.candidateIds(),
      query: fq.facetQuery === null ? null : facetQueryOf(fq.facetQuery, fq.facetName, state, q.locales),
      order: settings.faceting.sortFacetValuesBy[fq.facetName] ?? settings.faceting.sortFacetValuesBy['*'] ?? 'alpha',
      max: settings.faceting.maxValuesPerFacet,
    });
  }
  return { facetHits: hits, facetQuery: fq.facetQuery, processingTimeMs: Math.max(0, Math.floor(performance.now() - started)) };
}

/**
 * The lossy query and its typo budget (facets.md §4.6): by its byte length like query words; no
 * typos when typo tolerance is off or the facet is in `disableOnAttributes`; a word of
 * `disableOnWords` must equal a whole value.
 */
function facetQueryOf(facetQuery: string, facetName: string, state: IndexSearchState, locales: string[] | null): { text: string; match: FacetQueryMatch } {
  const tokenizer = locales !== null && locales.length > 0 ? new Tokenizer({ locales }) : undefined;
  const text = lossyFacetString(facetQuery, tokenizer);
  const typo = state.settings.typoTolerance;
  const exactField = typo.disableOnAttributes.some((a) => matchFieldLegacy(a, facetName) === 'match');
  if (!typo.enabled || exactField) return { text, match: { kind: 'prefix', typos: 0 } };
  if (typo.disableOnWords.includes(text)) return { text, match: { kind: 'exact' } };
  const bytes = utf8Length(text);
  const { oneTypo, twoTypos } = typo.minWordSizeForTypos;
  return { text, match: { kind: 'prefix', typos: bytes < oneTypo ? 0 : bytes < twoTypos ? 1 : 2 } };
}

/** Throws `invalid_facet_search_facet_name` unless the first rule matching the name enables facet search. */
export function checkFacetSearchable(facetName: string, s: Settings): void {
  const rule = firstMatchingRule(facetName, s.filterableAttributes);
  if (rule?.facetSearch === true) return;
  let detail: string;
  if (rule !== null) {
    const i = rule.index;
    detail =
      `Note: this attribute matches rule #${i} in filterableAttributes, but this rule does not enable facetSearch.\n` +
      `Hint: enable facetSearch in rule #${i} by adding \`"facetSearch": true\` to the rule.\n` +
      `Hint: prepend another rule matching ${facetName} with facetSearch: true before rule #${i}`;
  } else {
    const patterns = [...new Set(s.filterableAttributes.flatMap((r) => (typeof r === 'string' ? [r] : r.features.facetSearch ? r.attributePatterns : [])))];
    const shown = s.displayedAttributes;
    const visible = patterns.filter((p) => shown === null || shown.includes('*') || shown.some((d) => isFacetedBy(p, d))).sort(compareBytes);
    const hidden = visible.length < patterns.length ? ', <..hidden-attributes>' : '';
    const add = 'To make it facet-searchable add it to the `filterableAttributes` index settings.';
    detail = visible.length === 0
      ? `This index does not have configured facet-searchable attributes. ${add}`
      : `Available facet-searchable attributes patterns are: \`${visible.join(', ')}${hidden}\`. ${add}`;
  }
  throw new ApiError('invalid_facet_search_facet_name', `Attribute \`${facetName}\` is not facet-searchable. ${detail}`);
}
