// API keys in `keys.jsonl` and in a dump task's `keys` (dumps-snapshots.md §2): snake_case dates,
// no key value (it is derived from the uid and the master key), `name`/`description` left out when null.
import type { ApiKey } from '../auth/key-store.ts';
import { canonicalUuid } from '../auth/uuid.ts';
import { DumpError, formatDate, parseDate, parseOptionalDate } from './dates.ts';

export type DumpKey = Record<string, unknown>;

export function keyToDump(key: ApiKey): DumpKey {
  const out: DumpKey = {};
  if (key.description !== null) out.description = key.description;
  if (key.name !== null) out.name = key.name;
  out.uid = key.uid;
  out.actions = [...key.actions];
  out.indexes = [...key.indexes];
  out.expires_at = key.expiresAt === null ? null : formatDate(key.expiresAt);
  out.created_at = formatDate(key.createdAt);
  out.updated_at = formatDate(key.updatedAt);
  return out;
}

export function keyFromDump(line: unknown): ApiKey {
  if (line === null || typeof line !== 'object' || Array.isArray(line)) throw new DumpError(`invalid API key in the dump: ${JSON.stringify(line)}`);
  const k = line as DumpKey;
  const uid = typeof k.uid === 'string' ? canonicalUuid(k.uid) : null;
  if (uid === null) throw new DumpError(`invalid API key uid in the dump: ${JSON.stringify(k.uid)}`);
  const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  return {
    uid,
    name: typeof k.name === 'string' ? k.name : null,
    description: typeof k.description === 'string' ? k.description : null,
    actions: strings(k.actions),
    indexes: strings(k.indexes),
    expiresAt: parseOptionalDate(k.expires_at, 'expires_at'),
    createdAt: parseDate(k.created_at, 'created_at'),
    updatedAt: parseDate(k.updated_at, 'updated_at'),
  };
}
