// Validation of JSON bodies with Meilisearch's (deserr) message shapes, errors.md §3.
// Paths are written `.field`, `.field[2]`; the empty path is the root.
import { ApiError, type ErrorCode } from '../errors/index.ts';
import type { Json, JsonObject } from '../../engine/json.ts';

export type { Json, JsonObject } from '../../engine/json.ts';

/** The deserr name of a JSON value's kind, as used in "found a string". */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
      if (Number.isInteger(value)) return value < 0 ? 'a negative integer' : 'a positive integer';
      return 'a number';
    case 'object':
      return 'an object';
    default:
      return 'a string';
  }
}

/** Compact JSON of a value, as embedded between backquotes in messages. */
export function compact(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** `Invalid value type at `.x`: expected a string, but found an array: `[1]``. */
export function typeError(path: string, expected: string, value: unknown, code: ErrorCode): ApiError {
  const where = path === '' ? '' : ` at \`${path}\``;
  // deserr writes a null value as just `found null` (settings.md §3)
  const found = value === null || value === undefined ? 'null' : `${kindOf(value)}: \`${compact(value)}\``;
  return new ApiError(code, `Invalid value type${where}: expected ${expected}, but found ${found}`);
}

/** `Invalid value at `.x`: <reason>`. */
export function valueError(path: string, reason: string, code: ErrorCode): ApiError {
  const where = path === '' ? '' : ` at \`${path}\``;
  return new ApiError(code, `Invalid value${where}: ${reason}`);
}

/** `Missing field `x`[ inside `path`]`. */
export function missingField(field: string, code: ErrorCode, path = ''): ApiError {
  return new ApiError(code, `Missing field \`${field}\`${inside(path)}`);
}

/** `Unknown field `x`[ inside `path`]: [did you mean `y`? ]expected one of ...`. */
export function unknownField(key: string, known: readonly string[], code: ErrorCode, path = ''): ApiError {
  const guess = didYouMean(key, known);
  const hint = guess ? `did you mean \`${guess}\`? ` : '';
  return new ApiError(code, `Unknown field \`${key}\`${inside(path)}: ${hint}expected one of ${quoteList(known)}`);
}

/** deserr names the object a field error is in, unless it is the body itself. */
function inside(path: string): string {
  return path === '' ? '' : ` inside \`${path}\``;
}

/** `Unknown value `v` at `.p`: expected one of `a`, `b``. */
export function unknownValue(path: string, value: string, allowed: readonly string[], code: ErrorCode): ApiError {
  const where = path === '' ? '' : ` at \`${path}\``;
  return new ApiError(code, `Unknown value \`${value}\`${where}: expected one of ${quoteList(allowed)}`);
}

export function quoteList(items: readonly string[]): string {
  return items.map((i) => `\`${i}\``).join(', ');
}

/** Root must be an object; otherwise `bad_request` like deserr. */
export function expectObject(value: unknown, path = '', code: ErrorCode = 'bad_request'): JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw typeError(path, 'an object', value, code);
  return value as JsonObject;
}

export interface FieldRules {
  /** Accepted field names, in declaration order (used for the "expected one of" list). */
  readonly known: readonly string[];
  /** Fields that exist but may not be sent here, with their dedicated code (immutable_*). */
  readonly immutable?: Readonly<Record<string, ErrorCode>>;
  /** Where the object is in the body (`[0]`), when it is not the body itself. */
  readonly path?: string;
}

/** Rejects unknown and immutable fields with deserr's messages (first offending field wins). */
export function checkFields(obj: JsonObject, rules: FieldRules): void {
  for (const key of Object.keys(obj)) {
    if (rules.known.includes(key)) continue;
    const immutable = rules.immutable && Object.prototype.hasOwnProperty.call(rules.immutable, key) ? rules.immutable[key] : undefined;
    if (immutable) {
      throw new ApiError(immutable, `Immutable field \`${key}\`: expected one of ${quoteList(rules.known)}`);
    }
    throw unknownField(key, rules.known, 'bad_request', rules.path);
  }
}

/**
 * deserr's `did_you_mean`: the closest known field by Damerau-Levenshtein distance, when the
 * input is longer than 3 bytes and the distance is within 1 (4–7 bytes), 2 (8–12), 3 (13–17),
 * 4 (18–24) or 5; case counts (`Limit` is one typo from `limit`). The first closest one wins.
 */
export function didYouMean(input: string, known: readonly string[]): string | undefined {
  const bytes = Buffer.byteLength(input);
  if (bytes <= 3) return undefined;
  const allowed = bytes <= 7 ? 1 : bytes <= 12 ? 2 : bytes <= 17 ? 3 : bytes <= 24 ? 4 : 5;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = damerauLevenshtein(input, k);
    if (d <= allowed && d < bestDistance) {
      bestDistance = d;
      best = k;
    }
  }
  return best;
}

/** The (unrestricted) Damerau-Levenshtein distance between two strings, over code points. */
function damerauLevenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  const n = s.length;
  const m = t.length;
  if (n === 0 || m === 0) return n + m;
  const far = n + m;
  // d[i + 1][j + 1] is the distance between s[0, i) and t[0, j); row and column 0 are a border
  const d = Array.from({ length: n + 2 }, () => new Array<number>(m + 2).fill(0));
  d[0]![0] = far;
  for (let i = 0; i <= n; i++) (d[i + 1]![0] = far), (d[i + 1]![1] = i);
  for (let j = 0; j <= m; j++) (d[0]![j + 1] = far), (d[1]![j + 1] = j);
  const lastRow = new Map<string, number>();
  for (let i = 1; i <= n; i++) {
    let lastMatch = 0;
    for (let j = 1; j <= m; j++) {
      const i1 = lastRow.get(t[j - 1]!) ?? 0;
      const j1 = lastMatch;
      let cost = 1;
      if (s[i - 1] === t[j - 1]) {
        cost = 0;
        lastMatch = j;
      }
      d[i + 1]![j + 1] = Math.min(
        d[i]![j]! + cost,
        d[i + 1]![j]! + 1,
        d[i]![j + 1]! + 1,
        d[i1]![j1]! + (i - i1 - 1) + 1 + (j - j1 - 1),
      );
    }
    lastRow.set(s[i - 1]!, i);
  }
  return d[n + 1]![m + 1]!;
}

export function asString(value: unknown, path: string, code: ErrorCode): string {
  if (typeof value !== 'string') throw typeError(path, 'a string', value, code);
  return value;
}

export function asOptionalString(value: unknown, path: string, code: ErrorCode): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw typeError(path, 'a string', value, code);
  return value;
}

export function asBoolean(value: unknown, path: string, code: ErrorCode): boolean {
  if (typeof value !== 'boolean') throw typeError(path, 'a boolean', value, code);
  return value;
}

export function asPositiveInteger(value: unknown, path: string, code: ErrorCode): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw typeError(path, 'a positive integer', value, code);
  }
  return value;
}

export function asArray(value: unknown, path: string, code: ErrorCode): Json[] {
  if (!Array.isArray(value)) throw typeError(path, 'an array', value, code);
  return value as Json[];
}

export function asStringArray(value: unknown, path: string, code: ErrorCode): string[] {
  const arr = asArray(value, path, code);
  return arr.map((v, i) => asString(v, `${path}[${i}]`, code));
}
