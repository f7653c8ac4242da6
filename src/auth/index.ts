// Authentication and API keys: storage, key derivation, authorization, tenant tokens.
export * from './actions.ts';
export * from './index-pattern.ts';
export * from './uuid.ts';
export * from './key-store.ts';
export * from './authorize.ts';
export {
  createTenantTokenVerifier,
  TENANT_TOKEN_ACTIONS,
  type TenantGrant,
  type TenantTokenVerifier,
  type TenantTokenVerifierOptions,
} from './tenant-token.ts';
export { decodeTenantToken, type DecodedToken, type TenantTokenClaims } from './jwt.ts';
export { SearchRules } from './search-rules.ts';
