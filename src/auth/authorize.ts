// Request authorization: the decision procedure of auth-keys.md §2, without HTTP.
//
// Tenant tokens (§7) plug in at step 4 through `TenantTokenVerifier` (tenant-token.ts): given the bearer token of a
// request whose route requires one of `TENANT_TOKEN_ACTIONS` it returns null ("not a tenant
// token": fall back to API key lookup), a `TenantGrant` (the parent key uid and the token's index
// rules), or throws the AuthError of an invalid token. Steps 6-7 then apply to the parent key
// exactly as for a plain key. The rule is declarative: any route declaring the `search` action
// (search, facet search, similar, multi-search) accepts tenant tokens; any other treats one as an
// unknown API key.
import crypto from 'node:crypto';
import type { Json } from '../engine/json.ts';
import { nowMicros } from '../engine/time.ts';
import { expandActions, isGlobalAction, isKeysAction } from './actions.ts';
import { AuthError } from './errors.ts';
import { anyPatternMatches, formatPatternList } from './index-pattern.ts';
import type { ApiKey, KeyStore } from './key-store.ts';
import { createTenantTokenVerifier, TENANT_TOKEN_ACTIONS, type TenantGrant, type TenantTokenVerifier } from './tenant-token.ts';

export const MSG_MISSING_AUTHORIZATION_HEADER = 'The Authorization header is missing. It must use the bearer authorization method.';
export const MSG_INVALID_API_KEY = 'The provided API key is invalid.';
export const MSG_MISSING_MASTER_KEY =
  'Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.';

export interface AuthRequest {
  /** The raw `Authorization` header, undefined when absent. */
  authorization: string | undefined;
  /** The action the route requires (auth-keys.md §6). */
  action: string;
  /** The `{index_uid}` path segment, if the route has one. */
  indexUid?: string | null;
  /** Whether the route is one of `/keys` (closed without a master key; implied by a `keys.*` action). */
  keysRoute: boolean;
}

export type AuthVia = 'open' | 'master' | 'key' | 'tenant';

/** Who made an authorized request, and which indexes it may see. */
export class AuthContext {
  /** `open`: no master key configured; `master`: the master key; `key`: an API key; `tenant`: a tenant token. */
  readonly via: AuthVia;
  /** The API key used (the parent key for a tenant token); null for open/master. */
  readonly keyUid: string | null;
  /** The tenant token grant, when authenticated by one. */
  readonly tenant: TenantGrant | null;
  /** True when no index restriction applies (key with `*` and, for a tenant token, rules with `*`). */
  readonly allIndexes: boolean;
  readonly #keyIndexes: readonly string[] | null;
  readonly #canCreateIndexes: boolean;

  constructor(opts: {
    via: AuthVia;
    keyUid?: string | null;
    keyIndexes?: readonly string[] | null;
    tenant?: TenantGrant | null;
    canCreateIndexes?: boolean;
  }) {
    this.via = opts.via;
    this.keyUid = opts.keyUid ?? null;
    this.tenant = opts.tenant ?? null;
    this.#keyIndexes = opts.keyIndexes ?? null;
    this.#canCreateIndexes = opts.canCreateIndexes ?? true;
    const keyAll = this.#keyIndexes === null || this.#keyIndexes.includes('*');
    this.allIndexes = keyAll && (this.tenant === null || this.tenant.allIndexes);
  }

  static readonly OPEN: AuthContext = new AuthContext({ via: 'open' });
  static readonly MASTER: AuthContext = new AuthContext({ via: 'master' });

  /** Whether the key (and the tenant token, if any) allows index `uid`: for filtering lists. */
  canSeeIndex(uid: string): boolean {
    if (this.#keyIndexes !== null && !anyPatternMatches(this.#keyIndexes, uid)) return false;
    return this.tenant === null || this.tenant.canSeeIndex(uid);
  }

  /** Whether this request may create index `uid` (key holds `indexes.create` and sees `uid`), e.g. on document addition. */
  canCreateIndex(uid: string): boolean {
    return this.#canCreateIndexes && this.canSeeIndex(uid);
  }

  /** The key's index patterns (null when unrestricted). */
  get keyIndexes(): readonly string[] | null {
    return this.#keyIndexes;
  }

  /**
   * The filter the tenant token forces on searches of index `uid` (null without a tenant token or
   * when its rule for `uid` has none); the search ANDs it with the request's own filter.
   */
  searchRuleFilter(uid: string): Json | null {
    return this.tenant?.filterFor?.(uid) ?? null;
  }
}

/**
 * What `authorizeSearch` decides for one index of an already authorized request: whether the key
 * (and the tenant token's rules, if any) allow searching it, and the tenant token's filter for it,
 * to AND with the query's (null: none).
 */
export type SearchAuthorization = { allowed: false; filter: null } | { allowed: true; filter: Json | null };

/**
 * Per-index check for routes that name indexes in their body (`POST /multi-search`: each query's
 * `indexUid`). Meilisearch answers a refused index with 403 `invalid_api_key`
 * `The provided API key is invalid.` (inside `.queries[i]` for multi-search).
 */
export function authorizeSearch(ctx: AuthContext, indexUid: string): SearchAuthorization {
  if (!ctx.canSeeIndex(indexUid)) return { allowed: false, filter: null };
  return { allowed: true, filter: ctx.searchRuleFilter(indexUid) };
}

/** 403 for `GET /metrics` with a key that does not allow every index. */
export function metricsNeedsAllIndexes(): AuthError {
  return new AuthError(
    'invalid_api_key',
    'The provided API key is invalid. The API key for the `/metrics` route must allow access to all indexes.',
  );
}

export interface AuthorizerOptions {
  masterKey: string | null;
  keys: KeyStore;
  /** Tenant token support (§7): absent → the JWT verifier of tenant-token.ts; null → none (every token is an API key). */
  tenantTokens?: TenantTokenVerifier | null;
  /** Clock in µs (tests). */
  now?: () => number;
}

// Meilisearch reads the header with `to_str()`, which fails (→ "") on anything but visible ASCII / tab.
const HEADER_CHARS = /^[\t\x20-\x7e]*$/;

export class Authorizer {
  readonly #masterKey: Buffer | null;
  readonly #keys: KeyStore;
  readonly #tenantTokens: TenantTokenVerifier | undefined;
  readonly #now: () => number;
  readonly #granted = new WeakMap<ApiKey, Set<string>>();

  constructor(opts: AuthorizerOptions) {
    this.#masterKey = opts.masterKey === null ? null : Buffer.from(opts.masterKey, 'utf8');
    this.#keys = opts.keys;
    this.#now = opts.now ?? nowMicros;
    this.#tenantTokens =
      opts.tenantTokens === undefined ? createTenantTokenVerifier({ now: () => this.#now() }) : (opts.tenantTokens ?? undefined);
  }

  get keys(): KeyStore {
    return this.#keys;
  }

  /** Authorizes a request or throws the AuthError whose kind is the code Meilisearch would answer. */
  authorize(req: AuthRequest): AuthContext {
    // 1. header parsing
    let token: string | null = null;
    if (req.authorization !== undefined) {
      const header = HEADER_CHARS.test(req.authorization) ? req.authorization : '';
      const space = header.indexOf(' ');
      const scheme = space < 0 ? header : header.slice(0, space);
      if (scheme !== 'Bearer') throw new AuthError('missing_authorization_header', MSG_MISSING_AUTHORIZATION_HEADER);
      if (space < 0) throw new AuthError('invalid_api_key', MSG_INVALID_API_KEY);
      token = header.slice(space + 1);
    }

    // 2. no master key: everything is open but /keys
    if (this.#masterKey === null) {
      if (req.keysRoute || isKeysAction(req.action)) throw new AuthError('missing_master_key', MSG_MISSING_MASTER_KEY);
      return AuthContext.OPEN;
    }

    // Without a header, every failure below is reported as a missing header.
    const fail = (message: string = MSG_INVALID_API_KEY): AuthError =>
      token === null
        ? new AuthError('missing_authorization_header', MSG_MISSING_AUTHORIZATION_HEADER)
        : new AuthError('invalid_api_key', message);
    const presented = token ?? '';

    // 3. master key
    if (sameBytes(this.#masterKey, presented)) return AuthContext.MASTER;

    // 4. tenant token (search and chat only)
    let tenant: TenantGrant | null = null;
    if (this.#tenantTokens && TENANT_TOKEN_ACTIONS.has(req.action) && token !== null) {
      tenant = this.#tenantTokens(token, this.#keys);
    }

    // 5. API key lookup
    const uid = tenant !== null ? tenant.keyUid : this.#keys.uidForToken(presented);
    if (uid === null) throw fail();
    const key = this.#keys.find(uid);
    if (key === null) throw fail();

    // 6. index scope
    const index = req.indexUid ?? null;
    if (index !== null) {
      if (tenant !== null && !tenant.canSeeIndex(index)) {
        throw fail(
          `The provided tenant token cannot acces the index \`${index}\`, allowed indexes are ${formatPatternList(tenant.indexPatterns)}.`,
        );
      }
      if (!anyPatternMatches(key.indexes, index)) {
        throw fail(
          tenant !== null
            ? `The API key used to generate this tenant token cannot acces the index \`${index}\`.`
            : `The API key cannot acces the index \`${index}\`, authorized indexes are ${formatPatternList(key.indexes)}.`,
        );
      }
    }

    // 7. action (for this index, or for any index when the route has none) and expiry. A global
    // action (keys, version, experimental features, metrics...) acts on the whole instance: only a
    // key whose `indexes` holds `*` has it, even through `*` or `*.get`; routes without an index
    // whose action is not global (tasks, batches, stats, indexes, swaps, multi-search) pass here
    // and filter or refuse per index themselves (auth-keys.md §3, §6).
    const granted = this.#grantedActions(key);
    if (!granted.has(req.action) || key.indexes.length === 0) throw fail();
    if (isGlobalAction(req.action) && !key.indexes.includes('*')) throw fail();
    if (this.#expired(key)) throw fail();

    return new AuthContext({
      via: tenant !== null ? 'tenant' : 'key',
      keyUid: key.uid,
      keyIndexes: key.indexes,
      tenant,
      canCreateIndexes: granted.has('indexes.create'),
    });
  }

  #grantedActions(key: ApiKey): Set<string> {
    let set = this.#granted.get(key);
    if (!set) {
      set = expandActions(key.actions);
      this.#granted.set(key, set);
    }
    return set;
  }

  #expired(key: ApiKey): boolean {
    return key.expiresAt !== null && this.#now() >= key.expiresAt;
  }
}

function sameBytes(expected: Buffer, presented: string): boolean {
  const got = Buffer.from(presented, 'utf8');
  // compare against itself when lengths differ so the timing does not depend on the content
  if (got.length !== expected.length) {
    crypto.timingSafeEqual(expected, expected);
    return false;
  }
  return crypto.timingSafeEqual(expected, got);
}
