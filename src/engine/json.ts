// JSON values as `JSON.parse` returns them. Defined once here, at the lowest layer that needs it:
// auth (tenant token filters) and api (request bodies) use this type too.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/**
 * `obj[key] = value` for keys that come from users (document fields, facet values, synonyms):
 * the key `__proto__` becomes an own property instead of replacing the object's prototype.
 */
export function setKey<V>(obj: { [key: string]: V }, key: string, value: NoInfer<V>): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** serde_json's `position_of_index`: the 1-based line and byte column of an offset in a body. */
export function jsonPosition(bytes: Uint8Array, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < index; k++) {
    if (bytes[k] === 10) {
      line++;
      lineStart = k + 1;
    }
  }
  return { line, column: index - lineStart };
}
