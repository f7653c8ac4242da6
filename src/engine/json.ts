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

/**
 * serde_json's `Map::swap_remove` (its maps keep insertion order): the key goes and the last
 * entry takes its place. Meilisearch removes `_vectors` from documents this way.
 */
export function swapRemove(obj: Record<string, unknown>, key: string): void {
  const keys = Object.keys(obj);
  const at = keys.indexOf(key);
  if (at === -1) return;
  const entries = keys.map((k) => [k, obj[k]] as const);
  const last = entries.pop()!;
  if (at < entries.length) entries[at] = last;
  for (const k of keys) delete obj[k];
  for (const [k, v] of entries) setKey(obj, k, v);
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
