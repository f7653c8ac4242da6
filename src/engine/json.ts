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
