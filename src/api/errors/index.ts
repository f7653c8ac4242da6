// Meilisearch errors: one class carrying a code from the table; the HTTP layer only serialises it.
import { ERROR_CODES, type ErrorCode, type ErrorType } from './codes.ts';
import { EngineError } from '../../engine/errors.ts';
import { AuthError } from '../../auth/errors.ts';

export { ERROR_CODES, type ErrorCode, type ErrorType } from './codes.ts';

/** The four-field error body of the wire format, also stored in failed tasks. */
export interface ErrorBody {
  message: string;
  code: string;
  type: string;
  link: string;
}

const IO_SUFFIX =
  '. This error generally happens when you have no space left on device or when your database doesn\'t have read or write right.';

/** An error with a Meilisearch code; its status and type come from the table. */
export class ApiError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(code === 'io_error' && !message.endsWith(IO_SUFFIX) ? message + IO_SUFFIX : message);
    // a code looked up with user input (`table[key]` finding `Object.prototype`) is a bug: it
    // must still answer with the four fields, not break the error handler
    this.code = isErrorCode(code) ? code : 'internal';
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get type(): ErrorType {
    return ERROR_CODES[this.code].type;
  }

  toBody(): ErrorBody {
    return { message: this.message, code: this.code, type: this.type, link: errorLink(this.code) };
  }
}

export function errorLink(code: string): string {
  return `https://docs.meilisearch.com/errors#${code}`;
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/**
 * Turns anything thrown into an ApiError. Engine errors keep their kind as code when the
 * kind is a Meilisearch code (the engine names its kinds after them); `prefix` is added to
 * engine messages (tasks prefix them with ``Index `uid`: ``). Auth errors keep their kind as
 * code and their message. OS errors map to the system codes.
 */
export function toApiError(err: unknown, opts: { enginePrefix?: string } = {}): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof AuthError) return new ApiError(err.kind, err.message);
  if (err instanceof EngineError) {
    const code: ErrorCode = isErrorCode(err.kind) ? err.kind : 'internal';
    const prefix = err.prefixed ? (opts.enginePrefix ?? '') : '';
    return new ApiError(code, prefix + err.message);
  }
  const sys = err as NodeJS.ErrnoException | undefined;
  if (sys && typeof sys === 'object' && typeof sys.code === 'string') {
    if (sys.code === 'ENOSPC') {
      return new ApiError('no_space_left_on_device', 'There is no more space left on the device. Consider increasing the size of the disk/partition.');
    }
    if (sys.code === 'EMFILE' || sys.code === 'ENFILE') {
      return new ApiError('too_many_open_files', `Too many open files (os error 24)`);
    }
    if (sys.code === 'EIO') return new ApiError('io_error', `${sys.message}`);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError('internal', message);
}
