// Validation of query strings with Meilisearch's messages (errors.md §3, "Query strings").
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { quoteList } from './body.ts';
import { setKey } from '../../engine/json.ts';

export type RawQuery = Record<string, string>;

/** Parses a raw query string (without `?`); the last value wins for repeated keys. */
export function parseQueryString(search: string): RawQuery {
  const out: RawQuery = {};
  if (!search) return out;
  for (const [k, v] of new URLSearchParams(search)) setKey(out, k, v);
  return out;
}

/** `Unknown parameter `x`: expected one of `a`, `b``, code bad_request. */
export function checkParams(query: RawQuery, known: readonly string[]): void {
  for (const key of Object.keys(query)) {
    if (!known.includes(key)) {
      throw new ApiError('bad_request', `Unknown parameter \`${key}\`: expected one of ${quoteList(known)}`);
    }
  }
}

export function paramError(name: string, reason: string, code: ErrorCode): ApiError {
  return new ApiError(code, `Invalid value in parameter \`${name}\`: ${reason}`);
}

/** A u32-ish non-negative integer parameter. */
export function queryPositiveInteger(name: string, raw: string, code: ErrorCode): number {
  if (!/^\+?\d+$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) {
    throw paramError(name, `could not parse \`${raw}\` as a positive integer`, code);
  }
  return Number(raw);
}

export function queryBoolean(name: string, raw: string, code: ErrorCode): boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw paramError(name, `could not parse \`${raw}\` as a boolean, expected either \`true\` or \`false\``, code);
}

/** Reads an optional integer parameter with its default. */
export function intParam(query: RawQuery, name: string, fallback: number, code: ErrorCode): number {
  const raw = query[name];
  return raw === undefined ? fallback : queryPositiveInteger(name, raw, code);
}

export function boolParam(query: RawQuery, name: string, fallback: boolean, code: ErrorCode): boolean {
  const raw = query[name];
  return raw === undefined ? fallback : queryBoolean(name, raw, code);
}

/** A comma-separated list; `*` anywhere means "no filter" and yields null. */
export function starList(raw: string | undefined): string[] | null | undefined {
  if (raw === undefined) return undefined;
  const items = raw.split(',').map((s) => s.trim());
  if (items.includes('*')) return null;
  return items;
}
