// Index uid patterns of API keys and tenant tokens: `*`, an exact index uid, or a prefix ending with `*`.
// The index uid rule itself lives here, below api (api/indexes/uid.ts re-exports it), since the
// patterns are built on it and auth imports nothing from api.

const UID = /^[A-Za-z0-9_-]+$/;

/** Index uid rule (indexes.md §2): ASCII alphanumerics, `-` and `_`, 1 to 400 bytes. */
export function isValidIndexUid(uid: string): boolean {
  return uid.length > 0 && uid.length <= 400 && UID.test(uid);
}

/** `*`, a valid index uid, or a valid index uid followed by one `*`. */
export function isValidIndexUidPattern(pattern: string): boolean {
  if (pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return prefix === '' || isValidIndexUid(prefix);
  }
  return isValidIndexUid(pattern);
}

/** Whether `uid` matches `pattern` (a trailing `*` is a prefix match, anything else is exact). */
export function matchesIndexPattern(pattern: string, uid: string): boolean {
  return pattern.endsWith('*') ? uid.startsWith(pattern.slice(0, -1)) : pattern === uid;
}

export function anyPatternMatches(patterns: readonly string[], uid: string): boolean {
  for (const p of patterns) if (matchesIndexPattern(p, uid)) return true;
  return false;
}

/** Patterns as Meilisearch prints them in messages: deduplicated, sorted, `["a", "b"]`. */
export function formatPatternList(patterns: readonly string[]): string {
  const sorted = [...new Set(patterns)].sort(byCodePoint);
  return `[${sorted.map((p) => JSON.stringify(p)).join(', ')}]`;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
