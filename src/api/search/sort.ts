// The `sort` search parameter (search.md §6; milli `AscDesc::from_str`, `check_sort_criteria`):
// `field:asc|desc` split on the last `:`, `_geoPoint(lat, lng):asc|desc`, reserved names, then
// the index checks — a `sort` ranking rule must exist, every field must be sortable.
import { formatRustFloat, parseRustFloat } from '../../engine/filter/parser/index.ts';
import type { SortCriterion } from '../../engine/search/rank/index.ts';
import { ApiError } from '../errors/index.ts';
import { isFacetedBy, type Settings } from '../settings/index.ts';

export type { SortCriterion };

const RESERVED = new Set(['_geo', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox', '_geojson', '_geoPolygon']);

type SortCode = 'invalid_search_sort' | 'invalid_document_sort';

/**
 * Parses the sort expressions (syntax errors only; `checkSort` does the index checks). The
 * documents routes report the same messages under `invalid_document_sort`.
 */
export function parseSort(sort: readonly string[] | null, code: SortCode = 'invalid_search_sort'): SortCriterion[] {
  const sortError = (message: string) => new ApiError(code, message);
  return (sort ?? []).map((text) => parseOne(text, sortError));
}

function parseOne(text: string, sortError: (message: string) => ApiError): SortCriterion {
  const colon = text.lastIndexOf(':');
  const suffix = colon < 0 ? '' : text.slice(colon + 1);
  if (colon < 0 || (suffix !== 'asc' && suffix !== 'desc')) {
    throw sortError(`Invalid syntax for the sort parameter: expected expression ending by \`:asc\` or \`:desc\`, found \`${text}\`.`);
  }
  const asc = suffix === 'asc';
  const member = text.slice(0, colon);
  if (member.startsWith('_geoPoint(') && member.endsWith(')')) {
    const inner = member.slice('_geoPoint('.length, -1);
    const comma = inner.indexOf(',');
    const lat = comma < 0 ? null : parseRustFloat(inner.slice(0, comma).trim());
    const lng = comma < 0 ? null : parseRustFloat(inner.slice(comma + 1).trim());
    if (lat === null || lng === null) throw sortError(badGeoPoint(member));
    if (!(lat >= -90 && lat <= 90)) {
      throw sortError(`Bad latitude \`${formatRustFloat(lat)}\`. Latitude must be contained between -90 and 90 degrees.`);
    }
    if (!(lng >= -180 && lng <= 180)) {
      const shifted = (lng + 180) % 360;
      const hint = (shifted < 0 ? shifted + 360 : shifted) - 180;
      throw sortError(
        `Bad longitude \`${formatRustFloat(lng)}\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`${formatRustFloat(hint)}\` instead.`,
      );
    }
    return { kind: 'geo', lat, lng, asc };
  }
  const reserved =
    RESERVED.has(member) || ['_geoRadius(', '_geoBoundingBox(', '_geo(', '_geoDistance('].some((p) => member.startsWith(p));
  if (reserved) {
    if (member.startsWith('_geoPoint')) throw sortError(badGeoPoint(member));
    if (member === '_geo') {
      throw sortError(
        "`_geo` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
      );
    }
    const name = member.startsWith('_geoRadius') ? '_geoRadius' : member.startsWith('_geoBoundingBox') ? '_geoBoundingBox' : null;
    if (name !== null) {
      throw sortError(
        `\`${name}\` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.`,
      );
    }
    throw sortError(`\`${member}\` is a reserved keyword and thus can't be used as a sort expression.`);
  }
  return { kind: 'field', field: member, asc };
}

function badGeoPoint(name: string): string {
  return `Invalid syntax for the geo parameter: expected expression formated like \`_geoPoint(latitude, longitude)\` and ending by \`:asc\` or \`:desc\`, found \`${name}\`.`;
}

/** The index checks of a non-empty sort: the `sort` ranking rule, sortable fields (messages prefixed with the index). */
export function checkSort(criteria: readonly SortCriterion[], s: Settings, indexUid: string): void {
  if (criteria.length === 0) return;
  const sortError = (message: string) => new ApiError('invalid_search_sort', message);
  if (!s.rankingRules.includes('sort')) {
    throw sortError(`Index \`${indexUid}\`: You must specify where \`sort\` is listed in the rankingRules setting to use the sort parameter at search time.`);
  }
  const field = firstNotSortable(criteria, s);
  if (field !== null) throw sortError(`Index \`${indexUid}\`: ${notSortable(field, s)}`);
}

/** The field of the first criterion `s` cannot sort by (`_geo` for a geo criterion), or null. */
export function firstNotSortable(criteria: readonly SortCriterion[], s: Settings): string | null {
  for (const c of criteria) {
    const field = c.kind === 'geo' ? '_geo' : c.field;
    const ok = c.kind === 'geo' ? s.sortableAttributes.includes('_geo') : s.sortableAttributes.some((rule) => isFacetedBy(field, rule));
    if (!ok) return field;
  }
  return null;
}

/** ``Attribute `x` is not sortable. Available sortable attributes are: `a, b`.`` (hidden ones masked). */
export function notSortable(field: string, s: Settings): string {
  const sortable = [...new Set(s.sortableAttributes)].sort();
  if (sortable.length === 0) return `Attribute \`${field}\` is not sortable. This index does not have configured sortable attributes.`;
  const shown = s.displayedAttributes;
  const visible = sortable.filter((a) => shown === null || shown.includes('*') || shown.some((d) => isFacetedBy(a, d)));
  const hidden = visible.length < sortable.length ? ', <..hidden-attributes>' : '';
  return `Attribute \`${field}\` is not sortable. Available sortable attributes are: \`${visible.join(', ')}${hidden}\`.`;
}
