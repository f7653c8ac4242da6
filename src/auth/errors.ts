// Errors raised by auth: a kind and a user message, never an HTTP status (as engine/errors.ts).
// Kinds are named after the Meilisearch error codes they become; src/api/errors maps them.

export type AuthErrorKind =
  | 'missing_authorization_header'
  | 'invalid_api_key'
  | 'missing_master_key'
  | 'api_key_not_found'
  | 'api_key_already_exists';

/** An error of authorization or of the key store. */
export class AuthError extends Error {
  readonly kind: AuthErrorKind;

  constructor(kind: AuthErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}
