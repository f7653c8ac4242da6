// Parameters this version cannot honour yet: each one that is actually used is refused with the
// parameter's own code instead of being ignored. Checks run in Meilisearch's order, after the
// index lookup: the search kind (`hybrid`/`vector`/`media`), then filter, sort, distinct. Facets
// are checked after ranking (facets.ts).
import { ApiError, type ErrorCode } from '../errors/index.ts';
import type { Json } from '../validate/index.ts';
import type { SearchQuery } from './query-types.ts';

/** ``Using `x` is not supported by this version of Muninn yet.`` with the parameter's code (`what` is already quoted). */
export function notSupported(what: string, code: ErrorCode): ApiError {
  return new ApiError(code, `Using ${what} is not supported by this version of Muninn yet.`);
}

/** Meilisearch's error for a filter that is neither a string nor an array of strings / arrays of strings. */
function badFilterShape(expected: string, found: Json): ApiError {
  return new ApiError(
    'invalid_search_filter',
    `Invalid syntax for the filter parameter: \`expected ${expected}, found: ${JSON.stringify(found)}\`.`,
  );
}

/**
 * Checks the JSON shape of a filter (string, or array of strings and arrays of strings) and
 * tells whether it filters anything: blank strings and empty arrays are no filter at all.
 */
export function filterIsUsed(filter: Json | null): boolean {
  if (filter === null) return false;
  if (typeof filter === 'string') return filter.trim() !== '';
  if (!Array.isArray(filter)) throw badFilterShape('String, Array', filter);
  let used = false;
  for (const item of filter) {
    if (typeof item === 'string') {
      used ||= item.trim() !== '';
    } else if (Array.isArray(item)) {
      for (const inner of item) {
        if (typeof inner !== 'string') throw badFilterShape('String', inner);
        used ||= inner.trim() !== '';
      }
    } else {
      throw badFilterShape('String, [String]', item);
    }
  }
  return used;
}

/**
 * `useNetwork` (true or false) needs the `network` experimental feature (Meilisearch 1.50 answers
 * this before it looks the index up). Muninn has no remote instances: with the feature on, the
 * search stays local.
 */
export function rejectUseNetwork(useNetwork: boolean | null, features: { network: boolean }): void {
  if (useNetwork !== null && !features.network) {
    throw new ApiError('feature_not_enabled', 'passing `useNetwork` in a search query requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805');
  }
}

/** Throws for the first parameter of `q` that is used but not implemented yet (search.md §9.6 order first). */
export function rejectUnsupported(q: SearchQuery): void {
  // search kind (Meilisearch `search_kind`): these two are real validation errors
  if (q.media !== null && q.vector !== null) {
    throw new ApiError('invalid_search_media_and_vector', 'Invalid request: both `media` and `vector` parameters are present.');
  }
  if ((q.media !== null || q.vector !== null) && q.hybrid === null) {
    throw new ApiError('missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');
  }
}
