// UTF-8 helpers for the word dictionary: encoding into a reusable scratch buffer, decoding a
// byte path back to a string, code points of a string, and a comparator that orders strings by
// their UTF-8 bytes (which is code point order, not JavaScript's UTF-16 code unit order).

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Returns a buffer of at least `need` bytes: `buf` itself when it is big enough. */
export function ensureCapacity(buf: Uint8Array, need: number): Uint8Array {
  if (buf.length >= need) return buf;
  let size = buf.length || 64;
  while (size < need) size *= 2;
  return new Uint8Array(size);
}

/**
 * Encodes `s` into `buf` from offset 0 and returns the byte length, or -1 when `buf` is too
 * small (the caller grows it to `s.length * 3` and retries). ASCII takes a fast path.
 */
export function encodeInto(s: string, buf: Uint8Array): number {
  const len = s.length;
  if (len > buf.length) return -1;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      if (len * 3 > buf.length) return -1;
      const r = encoder.encodeInto(s, buf);
      return r.written;
    }
    buf[i] = c;
  }
  return len;
}

/** UTF-8 bytes of `s` (a fresh array). */
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Decodes bytes [start, end) of `buf`; pure ASCII skips the TextDecoder. */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 0) return '';
  let ascii = true;
  for (let i = start; i < end; i++) {
    if (buf[i]! >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (!ascii) return decoder.decode(buf.subarray(start, end));
  if (n <= 16) {
    let s = '';
    for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]!);
    return s;
  }
  return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
}

/** The code points of `s` (lone surrogates become U+FFFD, as TextEncoder does). */
export function codePoints(s: string): Int32Array {
  const out = new Int32Array(s.length);
  let n = 0;
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    out[n++] = cp;
  }
  return out.subarray(0, n);
}

/** Maps a UTF-16 code unit so that code unit order becomes code point (= UTF-8 byte) order. */
function fixup(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return c + 0x2000;
  if (c >= 0xe000) return c - 0x800;
  return c;
}

/** Compares two strings by their UTF-8 bytes (for well-formed strings). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

/** Compares two byte strings (shorter first when one is a prefix of the other). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
