// deserr-shaped readers for settings bodies (errors.md §3). Every error carries the code of the
// setting being read, including unknown nested fields (deserr uses the field's error type there);
// only the top-level object reports unknown keys as `bad_request`.
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { compact, kindOf, missingField, quoteList, unknownField, unknownValue, valueError } from '../validate/index.ts';
import { setKey } from '../../engine/json.ts';

export type Obj = Record<string, unknown>;

const U64_MAX = '18446744073709551615';

/** deserr's type error; unlike the generic helper it writes `found null` without echoing `null`. */
export function typeErr(path: string, expected: string, value: unknown, code: ErrorCode): ApiError {
  const where = path === '' ? '' : ` at \`${path}\``;
  const found = value === null || value === undefined ? 'null' : `${kindOf(value)}: \`${compact(value)}\``;
  return new ApiError(code, `Invalid value type${where}: expected ${expected}, but found ${found}`);
}

export { missingField, unknownField, unknownValue, valueError };

/** A JSON object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Expects a JSON object. */
export function obj(value: unknown, path: string, code: ErrorCode): Obj {
  if (!isObj(value)) throw typeErr(path, 'an object', value, code);
  return value;
}

/** Rejects the first key not in `known` (deserr stops at the first error, in key order). */
export function denyUnknown(o: Obj, known: readonly string[], code: ErrorCode, path = ''): void {
  for (const key of Object.keys(o)) if (!known.includes(key)) throw unknownField(key, known, code, path);
}

/** Expects a string. */
export function str(value: unknown, path: string, code: ErrorCode): string {
  if (typeof value !== 'string') throw typeErr(path, 'a string', value, code);
  return value;
}

/** Expects a boolean. */
export function bool(value: unknown, path: string, code: ErrorCode): boolean {
  if (typeof value !== 'boolean') throw typeErr(path, 'a boolean', value, code);
  return value;
}

/** Expects an array. */
export function arr(value: unknown, path: string, code: ErrorCode): unknown[] {
  if (!Array.isArray(value)) throw typeErr(path, 'an array', value, code);
  return value;
}

/** Expects an array of strings (a `Vec<String>`: order and duplicates kept). */
export function strArray(value: unknown, path: string, code: ErrorCode): string[] {
  return arr(value, path, code).map((v, i) => str(v, `${path}[${i}]`, code));
}

/** A `BTreeSet<String>`: deduplicated and in byte order. */
export function strSet(value: unknown, path: string, code: ErrorCode): string[] {
  return sortedSet(strArray(value, path, code));
}

/**
 * An unsigned integer of at most `max` (deserr's u8/usize/u64). Floats and negative numbers
 * are kind errors; too large values are value errors with deserr's wording.
 */
export function uint(value: unknown, path: string, code: ErrorCode, max?: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw typeErr(path, 'a positive integer', value, code);
  }
  if (max !== undefined && value > max) {
    throw valueError(path, `value: \`${value}\` is too large to be deserialized, maximum value authorized is \`${max}\``, code);
  }
  return value;
}

/** deserr's `NonZeroUsize`. */
export function nonZeroUint(value: unknown, path: string, code: ErrorCode): number {
  const n = uint(value, path, code);
  if (n === 0) {
    throw valueError(path, `a non-zero integer value lower than \`${U64_MAX}\` was expected, but found a zero`, code);
  }
  return n;
}

/** A float (integers accepted, as serde does). */
export function num(value: unknown, path: string, code: ErrorCode): number {
  if (typeof value !== 'number') throw typeErr(path, 'a number', value, code);
  return value;
}

/** A unit enum: a string among `allowed`, else deserr's "Unknown value". */
export function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[], code: ErrorCode): T {
  const s = str(value, path, code);
  if (!(allowed as readonly string[]).includes(s)) throw unknownValue(path, s, allowed, code);
  return s as T;
}

/** Reads a `Setting<T>`: `undefined` stays absent, `null` means reset, anything else goes to `read`. */
export function setting<T>(value: unknown, read: (v: unknown) => T): T | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  return read(value);
}

/** Code-point (= UTF-8 byte) order, the order of Rust's BTreeSet/BTreeMap of strings. */
export function byteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}

/** A `BTreeSet<String>` of the items: deduplicated, in byte order. */
export function sortedSet(items: Iterable<string>): string[] {
  return [...new Set(items)].sort(byteOrder);
}

/** A copy of a string map with its keys in byte order (BTreeMap serialisation). */
export function sortedMap<V>(map: Record<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const k of Object.keys(map).sort(byteOrder)) setKey(out, k, map[k]!);
  return out;
}

/** Appends a key to a deserr path (`.a` + `b` → `.a.b`; root + `b` → `.b`). */
export function at(path: string, key: string): string {
  return `${path}.${key}`;
}

/** Structural equality of JSON values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Visits the fields in key order, rejecting an unknown one where deserr would (at its position). */
export function eachField(o: Obj, path: string, known: readonly string[], code: ErrorCode, visit: (key: string, value: unknown) => void): void {
  for (const [key, value] of Object.entries(o)) {
    if (!known.includes(key)) throw unknownField(key, known, code, path);
    visit(key, value);
  }
}
