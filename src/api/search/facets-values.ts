// What facet distributions and facet search read from the facet index (engine/facet), and the
// small helpers they share: UTF-8 byte order, original spellings, safe object keys.
import type { Bitmap } from '../../engine/bitmap/index.ts';

/**
 * The part of the facet index reader (engine/facet `FacetReader`) facets read, for the current
 * snapshot of an index. Returned bitmaps may be shared: never mutated.
 */
export interface FacetValues {
  /** The id of a field; undefined when the index never saw it. */
  fieldId(path: string): number | undefined;
  /**
   * Values in order with their documents. With `within`, a reader may skip values none of those
   * documents hold and pair the others with their documents among them (callers still intersect).
   */
  numbers(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[number, Bitmap]>;
  /** Normalized values in UTF-8 byte order, with the original spelling of one document. */
  strings(fid: number, order: 'asc' | 'desc', within?: Bitmap): Iterable<[normalized: string, original: string, docids: Bitmap]>;
  /** The values starting with a normalized prefix, in order (when absent, `strings` is scanned). */
  stringsWithPrefix?(fid: number, prefix: string): Iterable<[normalized: string, original: string, docids: Bitmap]>;
  docNumbers(fid: number, docid: number): readonly number[];
  /** A document's normalized string values. */
  docStrings(fid: number, docid: number): readonly string[];
  /** The original spellings of `docStrings`, in the same order. */
  docOriginals?(fid: number, docid: number): readonly string[];
  stringEquals(fid: number, normalized: string): Bitmap;
}

/** Byte order of the UTF-8 forms (Rust `str` order = code point order, not UTF-16 unit order). */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // a surrogate stands for a code point above U+FFFF: after every other BMP unit
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

export { setKey } from '../../engine/json.ts';

/** The original spelling the index keeps for each normalized value (the value itself when unknown). */
export function originalsOf(values: FacetValues, fid: number, normalized: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (normalized.length === 0) return out;
  if (values.stringsWithPrefix !== undefined) {
    for (const n of normalized) {
      // the value itself sorts first among the values it prefixes
      for (const [value, original] of values.stringsWithPrefix(fid, n)) {
        if (value === n) out.set(n, original);
        break;
      }
    }
  } else {
    const wanted = new Set(normalized);
    for (const [value, original] of values.strings(fid, 'asc')) {
      if (!wanted.delete(value)) continue;
      out.set(value, original);
      if (wanted.size === 0) break;
    }
  }
  for (const n of normalized) if (!out.has(n)) out.set(n, n);
  return out;
}
