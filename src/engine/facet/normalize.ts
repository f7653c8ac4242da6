// Facet values as milli keys them (filters.md §3): strings trimmed (Rust's `str::trim`, the
// Unicode White_Space set), NFKD, lowercased, cut to at most MAX_FACET_VALUE_BYTES of UTF-8 on a
// character boundary; numbers as f64 with −0 folded into 0 (one key for both).

/** milli's MAX_FACET_VALUE_LENGTH: the longest normalized value kept, in UTF-8 bytes. */
export const MAX_FACET_VALUE_BYTES = 468;

// Rust's char::is_whitespace (White_Space): unlike String.prototype.trim it keeps U+FEFF and
// trims U+0085.
const EDGE_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** A string as facet tables key it: trimmed, NFKD, lowercase, at most 468 UTF-8 bytes. */
export function normalizeFacetString(s: string): string {
  let out = isPlainAscii(s) ? s.toLowerCase() : s.replace(EDGE_SPACE, '').normalize('NFKD').toLowerCase();
  // 468 bytes are at least 117 characters: shorter strings need no byte count
  if (out.length > MAX_FACET_VALUE_BYTES / 4) out = truncateUtf8(out, MAX_FACET_VALUE_BYTES);
  return out;
}

/** ASCII without a control character or space at either end: nothing to trim, NFKD leaves it alone. */
function isPlainAscii(s: string): boolean {
  const n = s.length;
  if (n === 0 || s.charCodeAt(0) <= 0x20 || s.charCodeAt(n - 1) <= 0x20) return false;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** The longest prefix of `s` of at most `max` UTF-8 bytes that ends on a character boundary. */
export function truncateUtf8(s: string, max: number): string {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let size: number;
    let units = 1;
    if (c < 0x80) size = 1;
    else if (c < 0x800) size = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      size = 4;
      units = 2;
    } else size = 3;
    if (bytes + size > max) return s.slice(0, i);
    bytes += size;
    i += units - 1;
  }
  return s;
}

/** The key of a number: −0 and 0 are one value. */
export function facetNumber(n: number): number {
  return n === 0 ? 0 : n;
}
