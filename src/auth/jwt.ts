// Tenant token decoding as Meilisearch does it with the jsonwebtoken crate (auth-keys.md §7):
// the same steps in the same order, each failure worded as jsonwebtoken prints it (Meilisearch
// answers ``Could not decode tenant token, <reason>.``).
//
//   token ── fewer than two dots ─────────────────────────────────► not a JWT (API key lookup)
//     │ header: the text before the last two dots, base64url → JSON Header   Base64 / JSON error
//     │ alg other than HS256 / HS384 / HS512 ──────────────────────────────► InvalidKeyFormat
//     │ claims: base64url → JSON Claims { searchRules, exp?, apiKeyUid }     Base64 / JSON error
//     │         then the registered claims jsonwebtoken validates ─────────► InvalidAudience
//     │ signature: base64url, HMAC-SHA-2 of "header.claims" keyed by the
//     ▼            value of the key `apiKeyUid` (whether or not it exists) ─► InvalidSignature
//   { keyUid, rules, exp }          (expiry and the parent key are checked by the caller)
import crypto from 'node:crypto';
import { decodeBase64Url } from './base64url.ts';
import { fromSlice, invalidType, readI64, readOption, readString, readStringList, readStruct, type FieldSpec } from './serde-de.ts';
import { ContentNumber, E, JsonError, type JsonReader } from './serde-json.ts';
import { SearchRules } from './search-rules.ts';
import { parseUuid } from './uuid.ts';

/** The claims of a verified tenant token. */
export interface TenantTokenClaims {
  /** Canonical uid of the key whose value signed the token. */
  readonly keyUid: string;
  readonly rules: SearchRules;
  /** `exp` in Unix seconds, null when absent. */
  readonly exp: bigint | null;
}

export type DecodedToken =
  | { kind: 'not-jwt' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'valid'; claims: TenantTokenClaims };

/** jsonwebtoken's `Algorithm`, in declaration order (its unknown-variant message lists them). */
const ALGORITHMS = ['HS256', 'HS384', 'HS512', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];
const HMAC_HASH: Readonly<Record<string, string>> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

class TokenError extends Error {}

/**
 * Decodes and verifies `token`; `keyValue(uid)` gives the value (HMAC secret) of the key `uid`.
 * Registered claims other than `aud` (`iat`, `nbf`, `iss`, `sub`...) are not checked.
 */
export function decodeTenantToken(token: string, keyValue: (uid: string) => string): DecodedToken {
  const bytes = Buffer.from(token, 'latin1');
  const lastDot = bytes.lastIndexOf(0x2e);
  const secondDot = lastDot < 0 ? -1 : bytes.subarray(0, lastDot).lastIndexOf(0x2e);
  if (secondDot < 0) return { kind: 'not-jwt' };
  const message = bytes.subarray(0, lastDot);
  try {
    const alg = decodeHeader(bytes.subarray(0, secondDot));
    const hash = HMAC_HASH[alg];
    if (hash === undefined) throw new TokenError('InvalidKeyFormat');
    const claims = decodeClaims(bytes.subarray(secondDot + 1, lastDot));
    const signature = base64(bytes.subarray(lastDot + 1));
    const expected = crypto.createHmac(hash, keyValue(claims.keyUid)).update(message).digest();
    if (signature.length !== expected.length || !crypto.timingSafeEqual(signature, expected)) throw new TokenError('InvalidSignature');
    return { kind: 'valid', claims };
  } catch (err) {
    if (err instanceof TokenError) return { kind: 'invalid', reason: err.message };
    throw err;
  }
}

function base64(part: Uint8Array): Buffer {
  const decoded = decodeBase64Url(part);
  if (!decoded.ok) throw new TokenError(`Base64 error: ${decoded.reason}`);
  return decoded.bytes;
}

function json<T>(bytes: Uint8Array, read: (r: JsonReader) => T): T {
  try {
    return fromSlice(bytes, read);
  } catch (err) {
    if (err instanceof JsonError) throw new TokenError(`JSON error: ${err.message}`);
    throw err;
  }
}

const optionalString = (name: string): FieldSpec => ({ name, optional: true, read: (r) => readOption(r, readString) });

/** jsonwebtoken's `Header` (`jwk` is only checked to be JSON). */
const HEADER_FIELDS: readonly FieldSpec[] = [
  optionalString('typ'),
  { name: 'alg', read: readAlgorithm },
  optionalString('cty'),
  optionalString('jku'),
  { name: 'jwk', optional: true, read: (r) => readOption(r, (rr) => rr.any()) },
  optionalString('kid'),
  optionalString('x5u'),
  { name: 'x5c', optional: true, read: (r) => readOption(r, readStringList) },
  optionalString('x5t'),
  optionalString('x5t#S256'),
];

/** The header's `alg`. */
function decodeHeader(part: Uint8Array): string {
  return json(base64(part), (r) => readStruct(r, 'Header', HEADER_FIELDS)).get('alg') as string;
}

/** serde_json's `deserialize_enum` of the unit-variant enum `Algorithm`. */
function readAlgorithm(r: JsonReader): string {
  const c = r.ws();
  if (c === -1) throw r.peekError(E.EOF_VALUE);
  if (c === 0x22) return algorithmVariant(r);
  if (c !== 0x7b) throw r.peekError(E.VALUE);
  // externally tagged form: {"HS256": null}
  r.enter();
  r.eat();
  const name = algorithmVariant(r);
  r.colon();
  const unit = r.ws();
  if (unit === -1) throw r.peekError(E.EOF_VALUE);
  if (unit !== 0x6e) throw invalidType(r, 'unit');
  r.eat();
  r.ident('ull');
  r.leave();
  const end = r.ws();
  if (end === 0x7d) {
    r.eat();
    return name;
  }
  throw r.error(end === -1 ? E.EOF_OBJECT : E.VALUE);
}

function algorithmVariant(r: JsonReader): string {
  const name = readString(r, 'variant identifier');
  if (ALGORITHMS.includes(name)) return name;
  throw r.fix(new JsonError(`unknown variant \`${name}\`, expected one of ${ALGORITHMS.map((a) => `\`${a}\``).join(', ')}`));
}

/** Meilisearch's `Claims`, in declaration order. */
const CLAIMS_FIELDS: readonly FieldSpec[] = [
  { name: 'searchRules', read: readSearchRules },
  { name: 'exp', optional: true, read: (r) => readOption(r, readI64) },
  { name: 'apiKeyUid', read: readKeyUid },
];

/** Meilisearch's `Claims`, then the registered claims jsonwebtoken reads for its validation. */
function decodeClaims(part: Uint8Array): TenantTokenClaims {
  const bytes = base64(part);
  const claims = json(bytes, (r) => readStruct(r, 'Claims', CLAIMS_FIELDS));
  const registered = json(bytes, (r) => readStruct(r, 'ClaimsForValidation', VALIDATION_FIELDS));
  if (registered.get('aud') === 'parsed') throw new TokenError('InvalidAudience');
  return {
    rules: claims.get('searchRules') as SearchRules,
    exp: (claims.get('exp') as bigint | null | undefined) ?? null,
    keyUid: claims.get('apiKeyUid') as string,
  };
}

function readSearchRules(r: JsonReader): SearchRules {
  const rules = SearchRules.fromContent(r.any());
  if (rules === null) throw new JsonError('data did not match any variant of untagged enum SearchRules');
  return rules;
}

/** `Uuid`'s deserialization: any form the uuid crate parses, as its canonical text. */
function readKeyUid(r: JsonReader): string {
  const text = readString(r, 'a UUID string');
  const parsed = parseUuid(text);
  if (parsed.ok) return parsed.uuid;
  throw r.fix(new JsonError(`UUID parsing failed: ${parsed.reason}`));
}

// jsonwebtoken's `ClaimsForValidation`: every claim is `TryParse` (a value that does not fit is
// ignored), but a failed parse can leave the reader inside the value, so the next key fails.
type TryParse = 'parsed' | 'failed';

const VALIDATION_FIELDS: readonly FieldSpec[] = [
  { name: 'exp', optional: true, seqDefault: true, read: readNumericType },
  { name: 'nbf', optional: true, seqDefault: true, read: readNumericType },
  { name: 'sub', optional: true, read: (r) => tryParse(r, () => readString(r)) },
  { name: 'iss', optional: true, read: (r) => tryParse(r, () => stringOrStrings(r)) },
  { name: 'aud', optional: true, read: (r) => tryParse(r, () => stringOrStrings(r)) },
];

function tryParse(r: JsonReader, read: () => boolean | string): TryParse | null {
  try {
    return readOption(r, read) === null ? null : 'parsed';
  } catch {
    return 'failed';
  }
}

/** `Audience` / `Issuer`: untagged, a string or a list of strings. */
function stringOrStrings(r: JsonReader): boolean {
  const c = r.any();
  if (typeof c === 'string' || (Array.isArray(c) && c.every((v) => typeof v === 'string'))) return true;
  throw new JsonError('no variant');
}

/** `numeric_type`: `deserialize_any` with a visitor taking non-negative numbers only. */
function readNumericType(r: JsonReader): TryParse {
  const c = r.ws();
  try {
    if (c === 0x5b || c === 0x7b) {
      // the visitor refuses sequences and maps at once; serde_json then tries to close them
      r.enter();
      r.eat();
      r.leave();
      if (c === 0x5b) r.tryEndSeq();
      else r.tryEndMap();
      return 'failed';
    }
    const content = r.any();
    return content instanceof ContentNumber && content.n.kind !== 'i64' && Number(content.n.value) >= 0 ? 'parsed' : 'failed';
  } catch {
    return 'failed';
  }
}
