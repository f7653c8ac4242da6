// The /keys contract without HTTP (auth-keys.md §5): body and query validation, views, errors.
//
// Bodies are validated like deserr does it: fields in the order they appear in the payload (the first
// bad or unknown field wins), then missing required fields in declaration order, then the
// index-scoped / global action rule. An empty PATCH body (no bytes) is `missing_payload`, decided by the
// HTTP layer before `parseUpdateKey` is called.
import { ApiError } from '../errors/index.ts';
import {
  asArray,
  asOptionalString,
  asString,
  checkFields,
  checkParams,
  expectObject,
  missingField,
  queryPositiveInteger,
  typeError,
  unknownValue,
  valueError,
  type RawQuery,
} from '../validate/index.ts';
import { formatDate, formatOptionalDate } from '../format/time.ts';
import { nowMicros } from '../../engine/time.ts';
import { ACTIONS, isAction, isGlobalAction } from '../../auth/actions.ts';
import { isValidIndexUidPattern } from '../../auth/index-pattern.ts';
import { parseUuid } from '../../auth/uuid.ts';
import type { ApiKey, KeyPage, KeyPatch, NewKey } from '../../auth/key-store.ts';
import { parseKeyDate } from './expires-at.ts';

export { apiKeyAlreadyExists, apiKeyNotFound } from '../../auth/key-store.ts';
export { parseKeyDate } from './expires-at.ts';

export type CreateKeyInput = NewKey;
export type UpdateKeyInput = KeyPatch;

/** The fields of POST /keys, in declaration order (the "expected one of" list). */
export const CREATE_KEY_FIELDS = ['description', 'name', 'uid', 'actions', 'indexes', 'expiresAt'] as const;
/** The fields of PATCH /keys/{key}. */
export const UPDATE_KEY_FIELDS = ['description', 'name'] as const;
export const LIST_KEYS_PARAMS = ['offset', 'limit'] as const;
export const DEFAULT_KEYS_LIMIT = 20;

const IMMUTABLE_KEY_FIELDS = {
  uid: 'immutable_api_key_uid',
  actions: 'immutable_api_key_actions',
  indexes: 'immutable_api_key_indexes',
  expiresAt: 'immutable_api_key_expires_at',
  createdAt: 'immutable_api_key_created_at',
  updatedAt: 'immutable_api_key_updated_at',
} as const;

/** Validates a POST /keys body. `now` (µs) is the reference for "in the future". */
export function parseCreateKey(body: unknown, now: number = nowMicros()): CreateKeyInput {
  const obj = expectObject(body);
  let description: string | null = null;
  let name: string | null = null;
  let uid: string | undefined;
  let actions: string[] | undefined;
  let indexes: string[] | undefined;
  let expiresAt: number | null | undefined;

  for (const [field, value] of Object.entries(obj)) {
    switch (field) {
      case 'description':
        description = asOptionalString(value, '.description', 'invalid_api_key_description');
        break;
      case 'name':
        name = asOptionalString(value, '.name', 'invalid_api_key_name');
        break;
      case 'uid': {
        const raw = asString(value, '.uid', 'invalid_api_key_uid');
        const parsed = parseUuid(raw);
        if (!parsed.ok) throw valueError('.uid', parsed.reason, 'invalid_api_key_uid');
        uid = parsed.uuid;
        break;
      }
      case 'actions':
        actions = asArray(value, '.actions', 'invalid_api_key_actions').map((item, i) => {
          const path = `.actions[${i}]`;
          const action = asString(item, path, 'invalid_api_key_actions');
          if (!isAction(action)) throw unknownValue(path, action, ACTIONS, 'invalid_api_key_actions');
          return action;
        });
        break;
      case 'indexes':
        indexes = asArray(value, '.indexes', 'invalid_api_key_indexes').map((item, i) => {
          const path = `.indexes[${i}]`;
          const pattern = asString(item, path, 'invalid_api_key_indexes');
          if (!isValidIndexUidPattern(pattern)) throw valueError(path, invalidIndexPatternReason(pattern), 'invalid_api_key_indexes');
          return pattern;
        });
        break;
      case 'expiresAt':
        expiresAt = parseExpiresAt(value, now);
        break;
      default:
        checkFields({ [field]: value }, { known: CREATE_KEY_FIELDS });
    }
  }

  if (actions === undefined) throw missingField('actions', 'missing_api_key_actions');
  if (indexes === undefined) throw missingField('indexes', 'missing_api_key_indexes');
  if (expiresAt === undefined) throw missingField('expiresAt', 'missing_api_key_expires_at');

  if (indexes.length > 0 && !indexes.includes('*')) {
    const global = actions.find(isGlobalAction);
    if (global !== undefined) throw indexScopedGlobalAction(global);
  }

  return { uid, name, description, actions, indexes, expiresAt };
}

/** Validates a PATCH /keys/{key} body (only `name` and `description`, each a string or null). */
export function parseUpdateKey(body: unknown): UpdateKeyInput {
  const obj = expectObject(body);
  const patch: UpdateKeyInput = {};
  for (const [field, value] of Object.entries(obj)) {
    switch (field) {
      case 'description':
        patch.description = asOptionalString(value, '.description', 'invalid_api_key_description');
        break;
      case 'name':
        patch.name = asOptionalString(value, '.name', 'invalid_api_key_name');
        break;
      default:
        checkFields({ [field]: value }, { known: UPDATE_KEY_FIELDS, immutable: IMMUTABLE_KEY_FIELDS });
    }
  }
  return patch;
}

export interface ListKeysQuery {
  offset: number;
  limit: number;
}

/** Validates the query of GET /keys. */
export function parseListKeysQuery(query: RawQuery): ListKeysQuery {
  const out: ListKeysQuery = { offset: 0, limit: DEFAULT_KEYS_LIMIT };
  for (const [param, raw] of Object.entries(query)) {
    switch (param) {
      case 'offset':
        out.offset = queryPositiveInteger('offset', raw, 'invalid_api_key_offset');
        break;
      case 'limit':
        out.limit = queryPositiveInteger('limit', raw, 'invalid_api_key_limit');
        break;
      default:
        checkParams({ [param]: raw }, LIST_KEYS_PARAMS);
    }
  }
  return out;
}

/** An API key on the wire, fields in Meilisearch's order. */
export interface KeyView {
  name: string | null;
  description: string | null;
  key: string;
  uid: string;
  actions: string[];
  indexes: string[];
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The wire view of `key`, whose derived value is `value` (`KeyStore.keyValue(uid)`). */
export function keyView(key: ApiKey, value: string): KeyView {
  return {
    name: key.name,
    description: key.description,
    key: value,
    uid: key.uid,
    actions: [...key.actions],
    indexes: [...key.indexes],
    expiresAt: formatOptionalDate(key.expiresAt),
    createdAt: formatDate(key.createdAt),
    updatedAt: formatDate(key.updatedAt),
  };
}

export interface KeyListView {
  results: KeyView[];
  offset: number;
  limit: number;
  total: number;
}

/** The body of GET /keys for a page returned by `KeyStore.list(offset, limit)`. */
export function keyListView(page: KeyPage, query: ListKeysQuery, valueOf: (uid: string) => string): KeyListView {
  return {
    results: page.results.map((k) => keyView(k, valueOf(k.uid))),
    offset: query.offset,
    limit: query.limit,
    total: page.total,
  };
}

function parseExpiresAt(value: unknown, now: number): number | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw typeError('.expiresAt', 'a string', value, 'invalid_api_key_expires_at');
  const at = parseKeyDate(value);
  if (at === null || at <= now) {
    throw valueError(
      '.expiresAt',
      `\`${value}\` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n`,
      'invalid_api_key_expires_at',
    );
  }
  return at;
}

function invalidIndexPatternReason(pattern: string): string {
  return `\`${pattern}\` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).`;
}

/** 400 `index_scoped_api_key_with_global_action`. */
export function indexScopedGlobalAction(action: string): ApiError {
  const quoted = JSON.stringify(action);
  return new ApiError(
    'index_scoped_api_key_with_global_action',
    `cannot create index-scoped API key with global action \`${quoted}\`\n  - Hint: remove action \`${quoted}\` from the action list, or remove \`indexes\` to make the key global`,
  );
}
