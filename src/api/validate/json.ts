// Request bodies read as Meilisearch reads them: serde_json's `from_slice::<Value>`, its
// grammar, its error reasons and its positions (1-based line, byte column of
// `position_of_index`), checked without recursion before JSON.parse builds the value.
//
// What serde rejects and JSON.parse would take:
//   - a 128th nested array or object (`recursion limit exceeded`, at that bracket);
//   - invalid UTF-8 in a string (reported after the string's closing quote);
//   - a `\u` escape that is not a valid UTF-16 sequence (lone or reversed surrogates);
//   - a number out of the f64 range (`1e400`).
// A body that passes is valid UTF-8 with well-formed strings and at most 127 levels, so every
// recursive walk over the value is bounded. JSON.parse makes `__proto__` an own data property.
import { isUtf8 } from 'node:buffer';
import * as R from '../documents/json-grammar.ts';
import { numberOverflow } from '../documents/json-grammar.ts';
import { firstInvalidUtf8 } from '../documents/utf8.ts';
import { jsonPosition } from '../../engine/json.ts';

export { jsonPosition } from '../../engine/json.ts';

/** serde_json's recursion limit: the 128th nested container fails. */
export const MAX_NESTING = 128;

/** A serde_json syntax error; the message is serde's Display: `<reason> at line L column C`. */
export class JsonSyntaxError extends Error {
  readonly reason: string;
  readonly line: number;
  readonly column: number;

  constructor(reason: string, line: number, column: number) {
    super(`${reason} at line ${line} column ${column}`);
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
}

export interface ParsedJson {
  value: unknown;
  /** offset of the value's first byte, and the offset just after it */
  start: number;
  end: number;
}

/** Parses a body as serde_json would accept it; throws JsonSyntaxError otherwise. */
export function parseJson(bytes: Uint8Array): ParsedJson {
  const { start, end } = new JsonChecker(bytes).check();
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return { value: JSON.parse(text), start, end };
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const ARRAY = 91;
const OBJECT = 123;

/** `"`, `\` and control characters: where a run of string content stops. */
const STRING_STOP = R.STRING_STOP;
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const ch of '"\\/bfnrt') SIMPLE_ESCAPE[ch.charCodeAt(0)] = 1;
const HEX = new Int8Array(256).fill(-1);
for (let b = 0; b < 256; b++) HEX[b] = R.hexValue(b);

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 48 && c <= 57;
}

class JsonChecker {
  private readonly b: Uint8Array;
  private readonly n: number;
  /** offset of the first byte of the first invalid UTF-8 sequence, or n */
  private readonly firstBad: number;

  constructor(bytes: Uint8Array) {
    this.b = bytes;
    this.n = bytes.length;
    this.firstBad = isUtf8(bytes) ? this.n : Math.max(0, firstInvalidUtf8(bytes, 0, this.n));
  }

  /** serde's `error`/`peek_error`: the position of `index` (already past the offending byte). */
  private fail(reason: string, index: number): never {
    const { line, column } = jsonPosition(this.b, Math.min(index, this.n));
    throw new JsonSyntaxError(reason, line, column);
  }

  private ws(i: number): number {
    const b = this.b;
    for (;;) {
      const c = b[i];
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
      i++;
    }
  }

  check(): { start: number; end: number } {
    const b = this.b;
    const n = this.n;
    const stack = new Uint8Array(MAX_NESTING);
    let depth = 0;
    let i = this.ws(0);
    const start = i;
    for (;;) {
      // a value starts at i (whitespace skipped)
      if (i >= n) this.fail(R.EOF_VALUE, n);
      let c = b[i]!;
      if (c === ARRAY || c === OBJECT) {
        if (depth === MAX_NESTING - 1) this.fail(R.RECURSION, i + 1);
        stack[depth++] = c;
        i = this.ws(i + 1);
        if (i >= n) this.fail(c === ARRAY ? R.EOF_LIST : R.EOF_OBJECT, n);
        if (b[i] !== c + 2) {
          if (c === ARRAY) continue; // the first element, whatever its first byte
          if (b[i] !== QUOTE) this.fail(R.KEY_STRING, i + 1);
          i = this.member(i);
          continue;
        }
        depth--;
        i++;
      } else if (c === QUOTE) {
        i = this.string(i + 1);
      } else if (c === 45 || isDigit(c)) {
        i = this.number(i);
      } else if (c === 116 || c === 102 || c === 110) {
        i = this.ident(i + 1, c === 116 ? 'rue' : c === 102 ? 'alse' : 'ull');
      } else {
        this.fail(R.EXPECTED_VALUE, i + 1);
      }
      // after a value: the end of the body, or `,` / the end of its container
      for (;;) {
        if (depth === 0) {
          const end = i;
          i = this.ws(i);
          if (i < n) this.fail(R.TRAILING_CHARS, i + 1);
          return { start, end };
        }
        const open = stack[depth - 1]!;
        i = this.ws(i);
        if (i >= n) this.fail(open === ARRAY ? R.EOF_LIST : R.EOF_OBJECT, n);
        c = b[i]!;
        if (c === open + 2) {
          depth--;
          i++;
          continue;
        }
        if (c !== COMMA) this.fail(open === ARRAY ? R.EXPECTED_LIST : R.EXPECTED_OBJECT, i + 1);
        i = this.ws(i + 1);
        if (i >= n) this.fail(R.EOF_VALUE, n);
        c = b[i]!;
        if (c === open + 2) this.fail(R.TRAILING_COMMA, i + 1);
        if (open === OBJECT) {
          if (c !== QUOTE) this.fail(R.KEY_STRING, i + 1);
          i = this.member(i);
        }
        break;
      }
    }
  }

  /** A key at the `"` at i and its colon; returns where the member's value starts. */
  private member(i: number): number {
    i = this.ws(this.string(i + 1));
    if (i >= this.n) this.fail(R.EOF_OBJECT, this.n);
    if (this.b[i] !== COLON) this.fail(R.EXPECTED_COLON, i + 1);
    return this.ws(i + 1);
  }

  /** A string whose content starts at i; returns the offset after its closing quote. */
  private string(i: number): number {
    const b = this.b;
    const n = this.n;
    for (;;) {
      while (i < n && STRING_STOP[b[i]!] === 0) i++;
      if (i >= n) this.fail(R.EOF_STRING, n);
      const c = b[i]!;
      if (c === QUOTE) {
        i++;
        // serde validates the string's UTF-8 once it has read it whole
        if (this.firstBad < i) this.fail(R.INVALID_UNICODE, i);
        return i;
      }
      if (c !== BACKSLASH) this.fail(R.CONTROL, i + 1);
      i = this.escape(i + 1);
    }
  }

  /** The escape after a `\` (serde's parse_escape with validation); returns where it ends. */
  private escape(i: number): number {
    const b = this.b;
    if (i >= this.n) this.fail(R.EOF_STRING, this.n);
    const c = b[i++]!;
    if (SIMPLE_ESCAPE[c] === 1) return i;
    if (c !== 117) this.fail(R.INVALID_ESCAPE, i);
    const first = this.hex(i);
    i += 4;
    if (first >= 0xdc00 && first <= 0xdfff) this.fail(R.LONE_SURROGATE, i);
    if (first < 0xd800 || first > 0xdbff) return i;
    // a leading surrogate: serde consumes the next byte before it complains
    if (i >= this.n) this.fail(R.EOF_STRING, this.n);
    if (b[i++] !== BACKSLASH) this.fail(R.UNEXPECTED_END_HEX, i);
    if (i >= this.n) this.fail(R.EOF_STRING, this.n);
    if (b[i++] !== 117) this.fail(R.UNEXPECTED_END_HEX, i);
    const second = this.hex(i);
    i += 4;
    if (second < 0xdc00 || second > 0xdfff) this.fail(R.LONE_SURROGATE, i);
    return i;
  }

  /** The four hex digits at i (serde reads all four, then fails). */
  private hex(i: number): number {
    const b = this.b;
    if (i + 4 > this.n) this.fail(R.EOF_STRING, this.n);
    const value = (HEX[b[i]!]! << 12) | (HEX[b[i + 1]!]! << 8) | (HEX[b[i + 2]!]! << 4) | HEX[b[i + 3]!]!;
    if (value < 0) this.fail(R.INVALID_ESCAPE, i + 4);
    return value;
  }

  /** The rest of `true`, `false` or `null` after its first byte. */
  private ident(i: number, rest: string): number {
    for (let k = 0; k < rest.length; k++, i++) {
      if (i >= this.n) this.fail(R.EOF_VALUE, this.n);
      if (this.b[i] !== rest.charCodeAt(k)) this.fail(R.EXPECTED_IDENT, i + 1);
    }
    return i;
  }

  /** A number at i (`-` or a digit); returns where it ends. */
  private number(i: number): number {
    const b = this.b;
    const n = this.n;
    const start = i;
    if (b[i] === 45 && ++i >= n) this.fail(R.EOF_VALUE, n);
    const lead = b[i++]!;
    if (lead === 48) {
      if (isDigit(b[i])) this.fail(R.INVALID_NUMBER, i + 1);
    } else if (lead >= 49 && lead <= 57) {
      while (isDigit(b[i])) i++;
    } else {
      this.fail(R.INVALID_NUMBER, i);
    }
    if (b[i] === 46) {
      const digits = ++i;
      while (isDigit(b[i])) i++;
      if (i === digits) this.fail(i < n ? R.INVALID_NUMBER : R.EOF_VALUE, i + 1);
    }
    let exponent = false;
    if (b[i] === 101 || b[i] === 69) {
      exponent = true;
      i++;
      if (b[i] === 43 || b[i] === 45) i++;
      if (i >= n) this.fail(R.EOF_VALUE, n);
      if (!isDigit(b[i++])) this.fail(R.INVALID_NUMBER, i);
      while (isDigit(b[i])) i++;
    }
    // only an exponent or more than 300 digits can leave the f64 range
    if (exponent || i - start > 300) {
      const at = numberOverflow(Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('latin1'));
      if (at >= 0) this.fail(R.OUT_OF_RANGE, start + at);
    }
    return i;
  }
}
