// The `distinct` search parameter (search.md §9.1): the attribute must be filterable; the
// `distinctAttribute` setting applies when the parameter is absent.
import { filterablePatterns, isFilterable } from '../filter/index.ts';
import { ApiError } from '../errors/index.ts';
import { isFacetedBy, type Settings } from '../settings/index.ts';

/** The distinct field of a search (null: none), after checking the query's one. */
export function distinctField(distinct: string | null, s: Settings, indexUid: string): string | null {
  if (distinct === null) return s.distinctAttribute;
  const rules = s.filterableAttributes;
  if (isFilterable(rules, distinct)) return distinct;
  const patterns = filterablePatterns(rules);
  let tail: string;
  if (patterns.length === 0) tail = 'This index does not have configured filterable attributes.';
  else {
    const shown = s.displayedAttributes;
    const visible = patterns.filter((p) => shown === null || shown.includes('*') || shown.some((d) => isFacetedBy(p, d)));
    const hidden = visible.length < patterns.length ? ', <..hidden-attributes>' : '';
    tail = `Available filterable attributes patterns are: \`${visible.join(', ')}${hidden}\`.`;
  }
  throw new ApiError(
    'invalid_search_distinct',
    `Index \`${indexUid}\`: Attribute \`${distinct}\` is not filterable and thus, cannot be used as distinct attribute. ${tail}`,
  );
}
