// serde_json's error reasons (ErrorCode Display), the byte tables of the JSON scanner, and its
// fast path (DocumentRun): whole top-level objects that lie in one chunk and that serde accepts
// as they are. It never reports an error: on anything unusual (an error, a chunk end, escapes
// RawMap validates, invalid UTF-8) it stops before that document, and the state machine in
// json-scanner.ts scans it again to find the exact error or to carry it over to the next chunk.
import type { OutputBuffer } from './out-buffer.ts';

export const EOF_LIST = 'EOF while parsing a list';
export const EOF_OBJECT = 'EOF while parsing an object';
export const EOF_STRING = 'EOF while parsing a string';
export const EOF_VALUE = 'EOF while parsing a value';
export const EXPECTED_COLON = 'expected `:`';
export const EXPECTED_LIST = 'expected `,` or `]`';
export const EXPECTED_OBJECT = 'expected `,` or `}`';
export const EXPECTED_IDENT = 'expected ident';
export const EXPECTED_VALUE = 'expected value';
export const INVALID_ESCAPE = 'invalid escape';
export const INVALID_NUMBER = 'invalid number';
export const OUT_OF_RANGE = 'number out of range';
export const INVALID_UNICODE = 'invalid unicode code point';
export const CONTROL = 'control character (\\u0000-\\u001F) found while parsing a string';
export const KEY_STRING = 'key must be a string';
export const LONE_SURROGATE = 'lone leading surrogate in hex escape';
export const UNEXPECTED_END_HEX = 'unexpected end of hex escape';
export const RECURSION = 'recursion limit exceeded';
export const TRAILING_COMMA = 'trailing comma';
export const TRAILING_CHARS = 'trailing characters';

/** 1 for the bytes that end a run of string content: `"`, `\` and control characters. */
export const STRING_STOP = new Uint8Array(256);
for (let b = 0; b < 32; b++) STRING_STOP[b] = 1;
STRING_STOP[34] = 1;
STRING_STOP[92] = 1;

/** 1 for the bytes serde accepts right after a top-level number/literal of a stream. */
export const VALUE_END = new Uint8Array(256);
for (const b of ' \n\t\r"[]{},:') VALUE_END[b.charCodeAt(0)] = 1;

export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * serde's f64 range check of a number's text: -1 when finite, else the offset (in `text`)
 * where serde reports `number out of range` — after the exponent digit that overflows an i32
 * (positive exponent, non-zero significand), or at the end.
 */
export function numberOverflow(text: string): number {
  const e = text.search(/[eE]/);
  if (e >= 0) {
    let k = e + 1;
    const positive = text[k] !== '-';
    if (text[k] === '+' || text[k] === '-') k++;
    const zero = !/[1-9]/.test(text.slice(0, e));
    for (let exp = 0; k < text.length; k++) {
      const digit = text.charCodeAt(k) - 48;
      if (exp > 214748364 || (exp === 214748364 && digit > 7)) return !zero && positive ? k + 1 : -1;
      exp = exp * 10 + digit;
    }
  }
  return Number.isFinite(Number(text)) ? -1 : text.length;
}

/** Hex digit values, -1 for other bytes. */
const HEX = new Int8Array(256).fill(-1);
for (let b = 0; b < 256; b++) HEX[b] = hexValue(b);

/** 1 for the bytes of a one-character escape after `\`. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const b of '"\\/bfnrt') SIMPLE_ESCAPE[b.charCodeAt(0)] = 1;

/** 1 for JSON whitespace. */
const WHITESPACE = new Uint8Array(256);
for (const b of ' \n\r\t') WHITESPACE[b.charCodeAt(0)] = 1;

// The loops over string and number bytes are unrolled: V8 checks `b` (map, length, data
// pointer) once per iteration, not once per byte (20% faster on the whole scan).

/** The index of the first `"`, `\` or control character after b[i] (the caller knows there is one). */
function stringStop(b: Uint8Array, i: number): number {
  for (;; i += 4) {
    let c = b[i + 1]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 1;
    c = b[i + 2]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 2;
    c = b[i + 3]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 3;
    c = b[i + 4]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 4;
  }
}

/** The same before n, else n. */
export function stringEnd(b: Uint8Array, i: number, n: number): number {
  for (; i + 4 < n; i += 4) {
    let c = b[i + 1]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 1;
    c = b[i + 2]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 2;
    c = b[i + 3]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 3;
    c = b[i + 4]!;
    if (c > 34 ? c === 92 : c < 32 || c === 34) return i + 4;
  }
  while (++i < n) if (STRING_STOP[b[i]!] === 1) return i;
  return n;
}

/** The index of the first byte that is not a digit after b[i] (the caller knows there is one). */
function digitsEnd(b: Uint8Array, i: number): number {
  for (;; i += 4) {
    let c = b[i + 1]!;
    if (c < 48 || c > 57) return i + 1;
    c = b[i + 2]!;
    if (c < 48 || c > 57) return i + 2;
    c = b[i + 3]!;
    if (c < 48 || c > 57) return i + 3;
    c = b[i + 4]!;
    if (c < 48 || c > 57) return i + 4;
  }
}

/**
 * Scans the top-level objects that follow each other in a chunk (separated as the format
 * allows) and writes them out. A document is taken only when it ends inside the chunk and is
 * one that serde's ignore_value and RawMap accept without remark; the caller resumes its state
 * machine where the run stopped.
 */
export class DocumentRun {
  /** Set by scan(): newlines consumed and the local index of the last one (-1 if none). */
  newlines = 0;
  lastNewline = -1;
  /** Set by scan(): documents written, and whether it stopped right after one (json only). */
  documents = 0;
  afterDocument = false;
  private readonly out: OutputBuffer;
  private readonly json: boolean;
  // a document one level deeper (a field value at its 128th level) is left to the state machine
  private stack = new Uint8Array(128);
  /** Whitespace runs inside the current document, as start, end pairs. */
  private gaps = new Int32Array(512);
  private gapCount = 0;
  /** The one-byte separators inside the pending batch of compact documents. */
  private readonly separators = new Int32Array(1024);
  /** Where the last call stopped before a document it could not take (not to try it twice). */
  private leftIn: Uint8Array | null = null;
  private leftAt = -1;

  constructor(out: OutputBuffer, json: boolean) {
    this.out = out;
    this.json = json;
  }

  /** From b[i] === `{`, never reading at or after `limit`. Returns where it stopped. */
  scan(b: Uint8Array, i: number, limit: number): number {
    this.newlines = 0;
    this.lastNewline = -1;
    this.documents = 0;
    this.afterDocument = false;
    if (b === this.leftIn && i === this.leftAt) return i;
    const out = this.out;
    const separators = this.separators;
    let batchStart = -1; // compact documents are copied in one go, separators turned into `\n`
    let batchEnd = 0;
    let batchSeparators = 0;
    let stop = i;
    const last = limit > i ? b.lastIndexOf(34, limit - 1) : -1;
    for (;;) {
      const newlines = this.newlines;
      const lastNewline = this.lastNewline;
      this.gapCount = 0;
      const end = i < last ? this.object(b, i, last) : -1;
      if (end < 0) {
        this.newlines = newlines;
        this.lastNewline = lastNewline;
        this.leftIn = b;
        this.leftAt = i;
        break;
      }
      this.documents++;
      if (this.gapCount === 0 && batchStart >= 0 && i === batchEnd + 1 && batchSeparators < separators.length) {
        separators[batchSeparators++] = batchEnd;
        batchEnd = end;
      } else {
        if (batchStart >= 0) out.copyLines(b, batchStart, batchEnd, separators, batchSeparators);
        batchStart = -1;
        if (this.gapCount === 0) {
          batchStart = i;
          batchEnd = end;
          batchSeparators = 0;
        } else {
          out.copyWithout(b, i, end, this.gaps, this.gapCount);
        }
      }
      i = this.skip(b, end, limit);
      stop = i;
      this.afterDocument = true;
      if (this.json) {
        if (i === limit || b[i] !== 44) break;
        i = this.skip(b, i + 1, limit);
        stop = i;
        this.afterDocument = false;
      }
      if (i === limit || b[i] !== 123) break;
    }
    if (batchStart >= 0) out.copyLines(b, batchStart, batchEnd, separators, batchSeparators);
    return stop;
  }

  private skip(b: Uint8Array, i: number, n: number): number {
    while (i < n && WHITESPACE[b[i]!] === 1) {
      if (b[i] === 10) {
        this.newlines++;
        this.lastNewline = i;
      }
      i++;
    }
    return i;
  }

  /** Skips whitespace inside a document (it ends before `last`), noting the run. */
  private gap(b: Uint8Array, i: number): number {
    let j = i;
    for (let c = b[j]!; c === 32 || c === 10 || c === 13 || c === 9; c = b[++j]!) {
      if (c === 10) {
        this.newlines++;
        this.lastNewline = j;
      }
    }
    if (j > i) {
      if (this.gapCount + 2 > this.gaps.length) {
        const bigger = new Int32Array(this.gaps.length * 2);
        bigger.set(this.gaps);
        this.gaps = bigger;
      }
      this.gaps[this.gapCount++] = i;
      this.gaps[this.gapCount++] = j;
    }
    return j;
  }

  /**
   * The object at b[i]: the index after it, or -1 to leave it to the state machine. `last` is
   * the index of a `"` after b[i]: every loop stops there at the latest, and any byte other than
   * `"` before it is followed by another byte, so that reads need no other bound check.
   */
  private object(b: Uint8Array, start: number, end: number): number {
    const stack = this.stack;
    const last = end | 0;
    let i = start | 0;
    let depth = 0;
    let open = 0; // stack[depth - 1]
    let key = false; // a key is expected at b[i]
    let c = b[i]!; // the byte at i when a value (or key) starts
    for (;;) {
      if (c === 34) {
        if (i >= last) return -1;
        for (;;) {
          c = b[(i = stringStop(b, i))]!;
          if (c === 34) break;
          if (c !== 92) return -1; // control character
          c = b[++i]!;
          if (c === 117) {
            if (i + 4 >= last) return -1;
            const h = (HEX[b[i + 1]!]! << 12) | (HEX[b[i + 2]!]! << 8) | (HEX[b[i + 3]!]! << 4) | HEX[b[i + 4]!]!;
            // surrogates are left to the state machine: RawMap validates those of top-level keys,
            // the indexer those of field values
            if (h < 0 || (h >= 0xd800 && h <= 0xdfff)) return -1;
            i += 4;
          } else if (SIMPLE_ESCAPE[c] === 0 || i >= last) {
            return -1;
          }
        }
        if (i++ === last) return -1;
        if (key) {
          key = false;
          c = b[i]!;
          if (c <= 32) c = b[(i = this.gap(b, i) | 0)]!;
          if (c !== 58) return -1;
          if ((c = b[++i]!) <= 32) c = b[(i = this.gap(b, i) | 0)]!;
          continue;
        }
      } else if (key) {
        return -1;
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        const start = i;
        if (c === 45 && ((c = b[++i]!) < 48 || c > 57)) return -1;
        if (c === 48) {
          if ((c = b[++i]!) >= 48 && c <= 57) return -1;
        } else {
          c = b[(i = digitsEnd(b, i))]!;
        }
        if (c === 46) {
          if ((c = b[++i]!) < 48 || c > 57) return -1;
          c = b[(i = digitsEnd(b, i))]!;
        }
        if (c === 101 || c === 69) {
          c = b[++i]!;
          if (c === 43 || c === 45) c = b[++i]!;
          if (c < 48 || c > 57) return -1;
          const digits = i;
          while ((c = b[++i]!) >= 48 && c <= 57);
          if (i - digits > 2) return -1; // maybe out of the f64 range: the indexer rejects it
        }
        if (i - start > 300) return -1;
      } else if (c === 123 || c === 91) {
        if (depth === stack.length) return -1;
        let next = b[++i]!;
        if (next <= 32) next = b[(i = this.gap(b, i) | 0)]!;
        if (next !== c + 2) {
          stack[depth++] = open = c;
          key = c === 123;
          c = next;
          continue;
        }
        if (depth === 0) return i + 1; // `{}` or `[]`
        i++;
      } else if (c === 116) {
        if (b[i + 1] !== 114 || b[i + 2] !== 117 || b[i + 3] !== 101) return -1;
        i += 4;
      } else if (c === 110) {
        if (b[i + 1] !== 117 || b[i + 2] !== 108 || b[i + 3] !== 108) return -1;
        i += 4;
      } else if (c === 102) {
        if (b[i + 1] !== 97 || b[i + 2] !== 108 || b[i + 3] !== 115 || b[i + 4] !== 101) return -1;
        i += 5;
      } else {
        return -1;
      }
      // after a value: `,` or the end of its container
      for (;;) {
        c = b[i]!;
        if (c <= 32) c = b[(i = this.gap(b, i) | 0)]!;
        if (c === 44) {
          if ((c = b[++i]!) <= 32) c = b[(i = this.gap(b, i) | 0)]!;
          key = open === 123;
          break;
        }
        if (c !== open + 2) return -1;
        if (--depth === 0) return i + 1;
        open = stack[depth - 1]!;
        i++;
      }
    }
  }
}
