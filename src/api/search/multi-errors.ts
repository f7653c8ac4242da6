// Errors of multi-search (multi-search.md §2): a failing query's error carries the
// ``Inside `.queries[i]`: `` prefix, and an unknown index is a 400 there (not in the URL).
import { ApiError, toApiError, type ErrorCode } from '../errors/index.ts';
import { indexNotFound } from '../indexes/index.ts';

/** An ApiError whose HTTP status is not its code's usual one. */
export class StatusError extends ApiError {
  readonly #status: number;

  constructor(code: ErrorCode, message: string, status: number) {
    super(code, message);
    this.#status = status;
  }

  override get status(): number {
    return this.#status;
  }
}

/** The error `err` with `prefix` before its message (and `suffix` after it), keeping code and status. */
export function prefixed(prefix: string, err: unknown, suffix = ''): ApiError {
  const e = toApiError(err);
  return new StatusError(e.code, prefix + e.message + suffix, e.status);
}

/** Runs `fn`; whatever it throws comes out prefixed with ``Inside `.queries[i]`: ``. */
export function insideQuery<T>(i: number, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw prefixed(`Inside \`.queries[${i}]\`: `, err);
  }
}

/** ``Index `uid` not found.`` (+ `note`) with HTTP 400: the index is named in the body, not in the URL. */
export function indexNotFoundInBody(uid: string, note = ''): ApiError {
  return new StatusError('index_not_found', indexNotFound(uid).message + note, 400);
}
