// Tenant tokens as step 4 of the Authorizer (auth-keys.md §7).
//
// Decoding and the HMAC check run once per token string: their outcome depends only on the token
// and on the master key (a key's value is derived from its uid, whether or not the key exists),
// so verified tokens are kept in a bounded LRU map. What can change is checked on every request:
// the token's `exp` here, the parent key's existence, expiry, actions and indexes by the
// Authorizer. Deleting or expiring a key therefore stops its tokens at once.
import type { Json } from '../engine/json.ts';
import { AuthError } from './errors.ts';
import { decodeTenantToken, type TenantTokenClaims } from './jwt.ts';
import type { KeyStore } from './key-store.ts';

/** What a valid tenant token grants (built by the §7 verifier). */
export interface TenantGrant {
  /** uid of the API key that signed the token (`apiKeyUid`). */
  readonly keyUid: string;
  /** The token's `searchRules` patterns, for the error message. */
  readonly indexPatterns: readonly string[];
  /** Whether the rules contain `*`. */
  readonly allIndexes: boolean;
  canSeeIndex(uid: string): boolean;
  /** The token's forced filter for this index, if any (ANDed with the user's filter at search time). */
  filterFor?(uid: string): Json | null;
}

/** The route actions for which a bearer token may be a tenant token (auth-keys.md §7). */
export const TENANT_TOKEN_ACTIONS: ReadonlySet<string> = new Set(['search', 'chatCompletions']);

/**
 * Step 4 hook. Returns null when `token` is not a tenant token (then API key lookup happens), a grant
 * for a valid token, or throws an AuthError (`invalid_api_key`) for an invalid/expired one.
 */
export type TenantTokenVerifier = (token: string, keys: KeyStore) => TenantGrant | null;

export interface TenantTokenVerifierOptions {
  /** Clock in µs since the epoch. */
  now: () => number;
  /** Verified tokens kept (default 4096). */
  cacheSize?: number;
}

interface Verified {
  readonly grant: TenantGrant;
  readonly exp: bigint | null;
}

/** The verifier the Authorizer calls for `search` / `chatCompletions` requests. */
export function createTenantTokenVerifier(opts: TenantTokenVerifierOptions): TenantTokenVerifier {
  const capacity = Math.max(1, opts.cacheSize ?? 4096);
  const cache = new Map<string, Verified>();
  let cachedFor: KeyStore | null = null;

  return (token, keys) => {
    if (keys !== cachedFor) {
      cache.clear();
      cachedFor = keys;
    }
    let verified = cache.get(token);
    if (verified !== undefined) {
      // most recently used last
      cache.delete(token);
      cache.set(token, verified);
    } else {
      const decoded = decodeTenantToken(token, (uid) => keys.keyValue(uid));
      if (decoded.kind === 'not-jwt') return null;
      if (decoded.kind === 'invalid') throw new AuthError('invalid_api_key', `Could not decode tenant token, ${decoded.reason}.`);
      verified = { grant: grantOf(decoded.claims), exp: decoded.claims.exp };
      cache.set(token, verified);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
    }
    if (verified.exp !== null) {
      const now = BigInt(Math.floor(opts.now() / 1_000_000));
      if (now > verified.exp) {
        throw new AuthError('invalid_api_key', `Tenant token expired. Was valid up to \`${verified.exp}\` and we're now \`${now}\`.`);
      }
    }
    return verified.grant;
  };
}

function grantOf(claims: TenantTokenClaims): TenantGrant {
  const { rules } = claims;
  return Object.freeze({
    keyUid: claims.keyUid,
    indexPatterns: rules.patterns,
    allIndexes: rules.allIndexes,
    canSeeIndex: (uid: string) => rules.allows(uid),
    filterFor: (uid: string) => rules.filterFor(uid),
  });
}
