// Authentication and API keys: storage, key derivation, authorization.
export * from './actions.ts';
export * from './index-pattern.ts';
export * from './uuid.ts';
export * from './key-store.ts';
export * from './authorize.ts';
