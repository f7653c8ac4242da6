// Index uid rules (indexes.md §2): ASCII alphanumerics, `-` and `_`, 1 to 400 bytes. The rule is
// defined once in auth/index-pattern.ts (key patterns are built on it); its errors are here.
import { ApiError } from '../errors/index.ts';
import { isValidIndexUid } from '../../auth/index-pattern.ts';

export { isValidIndexUid };

/** The message for an invalid uid; `prefix` names where it came from (body path, parameter). */
export function invalidIndexUid(uid: string, prefix = ''): ApiError {
  return new ApiError(
    'invalid_index_uid',
    `${prefix}\`${uid}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.`,
  );
}

/** Validates an index uid taken from the URL path. */
export function pathIndexUid(raw: string): string {
  if (!isValidIndexUid(raw)) throw invalidIndexUid(raw);
  return raw;
}
