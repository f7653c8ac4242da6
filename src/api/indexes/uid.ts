// Index uid rules (indexes.md §2): ASCII alphanumerics, `-` and `_`, 1 to 400 bytes.
import { ApiError } from '../errors/index.ts';

const UID = /^[A-Za-z0-9_-]+$/;

export function isValidIndexUid(uid: string): boolean {
  return uid.length > 0 && uid.length <= 400 && UID.test(uid);
}

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
