// The API key store (auth-keys.md §4): one LMDB environment at `<dbPath>/auth` holding the keys by uid.
// Key values are never stored: a key's value is HMAC-SHA256(master key, uid) in lowercase hex.
//
// All keys are cached in memory with their derived values; the cache is rebuilt after every write of
// this process (no other thread writes keys), so reads and token lookups never touch LMDB, and a
// deleted key is unknown as soon as `delete` returns. A key value is found by a hash lookup (O(1)
// whatever the number of keys), then compared in constant time.
import crypto from 'node:crypto';
import path from 'node:path';
import { Env, table, type Table } from '../engine/store/index.ts';
import { nowMicros } from '../engine/time.ts';
import { AuthError } from './errors.ts';
import { canonicalUuid } from './uuid.ts';

/** One API key as stored. Times are µs since the Unix epoch. */
export interface ApiKey {
  /** Canonical lowercase hyphenated UUID. */
  readonly uid: string;
  readonly name: string | null;
  readonly description: string | null;
  /** As sent at creation (no normalisation, no dedup). */
  readonly actions: readonly string[];
  /** Index uid patterns, as sent. */
  readonly indexes: readonly string[];
  readonly expiresAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A validated creation request (see `parseCreateKey`). */
export interface NewKey {
  /** Canonical uid; a random v4 uid when absent. */
  uid?: string | undefined;
  name: string | null;
  description: string | null;
  actions: string[];
  indexes: string[];
  /** µs since the epoch, or null for a key that never expires. */
  expiresAt: number | null;
}

/** A validated update: `undefined` leaves a field unchanged, `null` clears it. */
export interface KeyPatch {
  name?: string | null | undefined;
  description?: string | null | undefined;
}

export interface KeyPage {
  results: ApiKey[];
  total: number;
}

/** 404 `api_key_not_found`: ``API key `<given>` not found.`` */
export function apiKeyNotFound(given: string): AuthError {
  return new AuthError('api_key_not_found', `API key \`${given}\` not found.`);
}

/** 409 `api_key_already_exists`. */
export function apiKeyAlreadyExists(uid: string): AuthError {
  return new AuthError('api_key_already_exists', `\`uid\` field value \`${uid}\` is already an existing API key.`);
}

interface StoredKey {
  uid: string;
  name: string | null;
  description: string | null;
  actions: string[];
  indexes: string[];
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
}

const KEYS = table<string, StoredKey>('api-keys', 'string', 'json', 'maps an API key uid to the stored key (without its value)');

/** The keys created when the store is empty, in creation order. */
export const DEFAULT_KEYS: readonly { name: string; description: string; actions: readonly string[] }[] = [
  {
    name: 'Default Chat API Key',
    description: 'Use it to chat and search from the frontend',
    actions: ['chatCompletions', 'search'],
  },
  {
    name: 'Default Read-Only Admin API Key',
    description: 'Use it to read information across the whole database. Caution! Do not expose this key on a public frontend',
    actions: ['*.get', 'keys.get'],
  },
  {
    name: 'Default Admin API Key',
    description: 'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend',
    actions: ['*'],
  },
  {
    name: 'Default Search API Key',
    description: 'Use it to search from the frontend',
    actions: ['search'],
  },
];

/** `lowercase_hex(HMAC-SHA256(masterKey, uid))`. */
export function deriveKeyValue(masterKey: string, uid: string): string {
  return crypto.createHmac('sha256', Buffer.from(masterKey, 'utf8')).update(uid, 'utf8').digest('hex');
}

const HEX_RE = /^[0-9a-fA-F]*$/;

export class KeyStore {
  readonly #env: Env;
  readonly #keys: Table<string, StoredKey>;
  readonly #masterKey: Buffer | null;
  /** uid → key, in uid order. */
  #byUid = new Map<string, ApiKey>();
  /** uid → raw HMAC bytes (32). */
  #macs = new Map<string, Buffer>();
  /** lowercase hex key value → uid */
  #byValue = new Map<string, string>();
  /** createdAt descending (uid ascending on ties). */
  #sorted: ApiKey[] = [];

  private constructor(env: Env, masterKey: string | null) {
    this.#env = env;
    this.#keys = env.table(KEYS);
    this.#masterKey = masterKey === null ? null : Buffer.from(masterKey, 'utf8');
  }

  /**
   * Opens (creating if needed) the key store of the database at `dbPath`; its environment lives in
   * `<dbPath>/auth`. Creates the four default keys when the store is empty.
   */
  static open(dbPath: string, masterKey: string | null): KeyStore {
    const store = new KeyStore(Env.open(path.join(dbPath, 'auth'), { maxTables: 4 }), masterKey);
    store.#env.write(() => {
      if (store.#keys.count() > 0) return;
      for (const def of DEFAULT_KEYS) {
        const now = nowMicros();
        const uid = crypto.randomUUID();
        store.#keys.put(uid, {
          uid,
          name: def.name,
          description: def.description,
          actions: [...def.actions],
          indexes: ['*'],
          expiresAt: null,
          createdAt: now,
          updatedAt: now,
        });
      }
    });
    store.#reload();
    return store;
  }

  /** The LMDB environment (for sizes, snapshots, health checks). */
  get env(): Env {
    return this.#env;
  }

  get hasMasterKey(): boolean {
    return this.#masterKey !== null;
  }

  /** Resolves once every write made so far is on disk. */
  async flushed(): Promise<void> {
    await this.#env.flushed();
  }

  async close(): Promise<void> {
    await this.#env.close();
  }

  /** The value of the key `uid` (64 lowercase hex chars), `""` without a master key. */
  keyValue(uid: string): string {
    return this.#masterKey === null ? '' : hmac(this.#masterKey, uid).toString('hex');
  }

  /** The key with this canonical uid. */
  find(uid: string): ApiKey | null {
    return this.#byUid.get(uid) ?? null;
  }

  /**
   * The uid of the key whose value is `token` (hex, either case), or null. The candidate comes from
   * a hash map (V8 seeds its string hashes per process) and is then compared in constant time.
   */
  uidForToken(token: string): string | null {
    if (this.#masterKey === null) return null;
    if (token.length !== 64 || !HEX_RE.test(token)) return null;
    const uid = this.#byValue.get(token.toLowerCase());
    if (uid === undefined) return null;
    return crypto.timingSafeEqual(this.#macs.get(uid)!, Buffer.from(token, 'hex')) ? uid : null;
  }

  /** The uid designated by a `/keys/{key}` path segment: a UUID (any accepted form) or a key value. */
  resolve(uidOrKey: string): string | null {
    const uid = canonicalUuid(uidOrKey);
    if (uid !== null) return this.#byUid.has(uid) ? uid : null;
    return this.uidForToken(uidOrKey);
  }

  /**
   * The key designated by a `/keys/{key}` path segment; 404 `api_key_not_found` otherwise. As in
   * Meilisearch, a segment that parses as a UUID is reported in canonical form, a key value as given.
   */
  get(uidOrKey: string): ApiKey {
    const uid = canonicalUuid(uidOrKey);
    if (uid !== null) {
      const key = this.#byUid.get(uid);
      if (!key) throw apiKeyNotFound(uid);
      return key;
    }
    const found = this.uidForToken(uidOrKey);
    const key = found === null ? undefined : this.#byUid.get(found);
    if (!key) throw apiKeyNotFound(uidOrKey);
    return key;
  }

  /** Every key, newest first. */
  all(): ApiKey[] {
    return [...this.#sorted];
  }

  /** A page of keys sorted by `createdAt` descending, with the total count. */
  list(offset: number, limit: number): KeyPage {
    const total = this.#sorted.length;
    return { results: this.#sorted.slice(offset, offset + limit), total };
  }

  /** Creates a key; 409 `api_key_already_exists` when its uid is taken. Durable when resolved. */
  async create(input: NewKey): Promise<ApiKey> {
    const uid = input.uid ?? crypto.randomUUID();
    const stored = this.#env.write(() => {
      if (this.#keys.has(uid)) throw apiKeyAlreadyExists(uid);
      const now = nowMicros();
      const record: StoredKey = {
        uid,
        name: input.name,
        description: input.description,
        actions: [...input.actions],
        indexes: [...input.indexes],
        expiresAt: input.expiresAt,
        createdAt: now,
        updatedAt: now,
      };
      this.#keys.put(uid, record);
      return record;
    });
    this.#reload();
    await this.#env.flushed();
    return this.#byUid.get(stored.uid)!;
  }

  /** Updates name/description of the key designated by `uidOrKey`; `updatedAt` is always refreshed. */
  async update(uidOrKey: string, patch: KeyPatch): Promise<ApiKey> {
    const uid = this.get(uidOrKey).uid;
    this.#env.write(() => {
      const current = this.#keys.get(uid);
      if (!current) throw apiKeyNotFound(uid);
      const next: StoredKey = { ...current, updatedAt: nowMicros() };
      if (patch.name !== undefined) next.name = patch.name;
      if (patch.description !== undefined) next.description = patch.description;
      this.#keys.put(uid, next);
    });
    this.#reload();
    await this.#env.flushed();
    return this.#byUid.get(uid)!;
  }

  /** Deletes the key designated by `uidOrKey`; 404 `api_key_not_found` when there is none. */
  async delete(uidOrKey: string): Promise<void> {
    const uid = this.get(uidOrKey).uid;
    this.#env.write(() => {
      if (!this.#keys.remove(uid)) throw apiKeyNotFound(uid);
    });
    this.#reload();
    await this.#env.flushed();
  }

  /** Replaces every key (dump import). Values follow this instance's master key. */
  async replaceAll(keys: readonly ApiKey[]): Promise<void> {
    this.#env.write(() => {
      this.#keys.clear();
      for (const k of keys) {
        this.#keys.put(k.uid, {
          uid: k.uid,
          name: k.name,
          description: k.description,
          actions: [...k.actions],
          indexes: [...k.indexes],
          expiresAt: k.expiresAt,
          createdAt: k.createdAt,
          updatedAt: k.updatedAt,
        });
      }
    });
    this.#reload();
    await this.#env.flushed();
  }

  #reload(): void {
    const byUid = new Map<string, ApiKey>();
    const macs = new Map<string, Buffer>();
    const byValue = new Map<string, string>();
    for (const [uid, value] of this.#keys.entries()) {
      const key: ApiKey = Object.freeze({
        uid,
        name: value.name ?? null,
        description: value.description ?? null,
        actions: Object.freeze([...value.actions]),
        indexes: Object.freeze([...value.indexes]),
        expiresAt: value.expiresAt ?? null,
        createdAt: value.createdAt,
        updatedAt: value.updatedAt,
      });
      byUid.set(uid, key);
      if (this.#masterKey !== null) {
        // a uid's value never changes: keep the ones derived before
        const mac = this.#macs.get(uid) ?? hmac(this.#masterKey, uid);
        macs.set(uid, mac);
        byValue.set(mac.toString('hex'), uid);
      }
    }
    this.#byUid = byUid;
    this.#macs = macs;
    this.#byValue = byValue;
    this.#sorted = [...byUid.values()].sort((a, b) => b.createdAt - a.createdAt || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  }
}

function hmac(masterKey: Buffer, uid: string): Buffer {
  return crypto.createHmac('sha256', masterKey).update(uid, 'utf8').digest();
}
