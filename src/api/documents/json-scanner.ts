// Streaming scanner for `application/json` and `application/x-ndjson` payloads. It checks the
// bytes the way Meilisearch's serde_json code does (same reasons, same line/column over the
// whole payload) and copies each top-level document, minus insignificant whitespace, to an
// OutputBuffer followed by `\n`: numbers and strings keep their exact source text.
//
// Two serde grammars are mimicked: `ignore_value` (elements of a top-level array and NDJSON
// values, which Meilisearch reads as RawValue) and the full deserializer ("strict": a payload
// that is one object or a scalar), which differs on trailing commas, number range, surrogate
// escapes and its nesting limit (127).
import type { OutputBuffer } from './out-buffer.ts';
import { DATA_ERROR, malformedJson } from './messages.ts';
import { Utf8Checker } from './utf8.ts';
import * as R from './json-grammar.ts';
import { STRING_STOP, VALUE_END, hexValue } from './json-grammar.ts';

// States; the structural ones (whitespace skipped before the next token) come first.
const enum S {
  TOP = 0, // ndjson: between documents; json: before anything
  TOP_ARR_FIRST = 1, // after the top-level `[`
  TOP_ARR_AFTER = 2, // after a top-level element
  TOP_ARR_NEXT = 3, // after a top-level `,`
  TOP_END = 4, // after a single top-level object: whitespace only
  VALUE = 5,
  ARR_FIRST = 6,
  ARR_NEXT = 7,
  ARR_AFTER = 8,
  OBJ_FIRST = 9,
  OBJ_NEXT = 10,
  OBJ_COLON = 11,
  OBJ_AFTER = 12,
  BAD_ELEM = 13, // json: after a top-level element that is not an object (serde's end_seq)
  BAD_ELEM_COMMA = 14, // ... and a `,`
  LAST_STRUCTURAL = 14,
  STR = 15,
  KEY = 16,
  ESC = 17,
  HEX = 18,
  HEX_BAD = 19, // after an invalid hex digit: serde first needs the 4 bytes to exist
  SUR_BS = 20, // strict: a leading surrogate must be followed by `\`
  SUR_U = 21, // ... and `u`
  NUM_MINUS = 22,
  NUM_ZERO = 23,
  NUM_INT = 24,
  NUM_DOT = 25,
  NUM_FRAC = 26,
  NUM_EXP = 27,
  NUM_EXP_SIGN = 28,
  NUM_EXP_DIGITS = 29,
  LIT = 30,
  SCALAR_END = 31, // ndjson: after a top-level number/literal serde peeks one byte
  IGNORE_REST = 32, // json: serde never reads past the top-level `]`
}

const OBJ = 1;
const ARR = 2;
const MAX_STRICT_DEPTH = 127;
const EMPTY = Buffer.alloc(0);

export class JsonScanner {
  /** Documents written so far. */
  count = 0;
  private readonly format: 'json' | 'ndjson';
  private readonly ndjson: boolean;
  private readonly out: OutputBuffer;
  private readonly utf8 = new Utf8Checker();
  private state = S.TOP;
  private strict = false;
  private docFirst = 0; // first byte of the current top-level document
  private depth = 0;
  private stack: Uint8Array = new Uint8Array(64);
  private copyStart = -1; // start of the unwritten run of the current document, -1 outside
  private strState = S.STR; // the string state an escape returns to
  private hexCount = 0;
  private hexAcc = 0;
  private hexSecond = false;
  private hexRemaining = 0;
  private pending = '';
  private lit = '';
  private litIndex = 0;
  private numPrefix = ''; // strict: the part of a number read in previous chunks
  // Positions: the current chunk, its global offset, and the newlines before it.
  private cur: Buffer = EMPTY;
  private base = 0;
  private lines = 0;
  private lastNl = -1;

  constructor(format: 'json' | 'ndjson', out: OutputBuffer) {
    this.format = format;
    this.ndjson = format === 'ndjson';
    this.out = out;
  }

  feed(buf: Buffer): void {
    const n = buf.length;
    this.utf8.check(buf, this.base);
    const bad = this.utf8.firstBad >= 0 ? this.utf8.firstBad : Infinity;
    this.cur = buf;
    const base = this.base;
    let nl = this.lines;
    let lastNl = this.lastNl;
    let state = this.state;
    let strict = this.strict;
    let depth = this.depth;
    let stack = this.stack;
    let numStart = 0;
    let i = 0;
    outer: while (i < n) {
      let c = buf[i]!;
      if (state <= S.LAST_STRUCTURAL && (c === 32 || c === 10 || c === 13 || c === 9)) {
        const copy = this.copyStart >= 0;
        if (copy && this.copyStart < i) this.out.copy(buf, this.copyStart, i);
        do {
          if (c === 10) {
            nl++;
            lastNl = base + i;
          }
          if (++i === n) {
            if (copy) this.copyStart = n;
            break outer;
          }
          c = buf[i]!;
        } while (c === 32 || c === 10 || c === 13 || c === 9);
        if (copy) this.copyStart = i;
      }
      switch (state) {
        case S.STR:
        case S.KEY:
          while (STRING_STOP[c] === 0) {
            if (++i === n) break outer;
            c = buf[i]!;
          }
          if (c === 34) {
            i++;
            if (strict && bad < base + i) this.fail(R.INVALID_UNICODE, i);
            if (state === S.KEY) {
              if (i < n && buf[i] === 58) {
                i++;
                state = S.VALUE; // fast path: `"key":`
              } else {
                state = S.OBJ_COLON;
              }
            } else state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
          } else if (c === 92) {
            this.strState = state;
            state = S.ESC;
            i++;
          } else {
            this.fail(R.CONTROL, strict ? i + 1 : i);
          }
          continue;
        case S.VALUE:
          if (c === 34) {
            state = S.STR;
          } else if (c === 123 || c === 91) {
            if (strict && depth >= MAX_STRICT_DEPTH) this.fail(R.RECURSION, i + 1);
            if (depth === stack.length) stack = this.grow();
            stack[depth++] = c === 123 ? OBJ : ARR;
            state = c === 123 ? S.OBJ_FIRST : S.ARR_FIRST;
          } else if (c >= 48 && c <= 57) {
            numStart = i;
            state = c === 48 ? S.NUM_ZERO : S.NUM_INT;
          } else if (c === 45) {
            numStart = i;
            state = S.NUM_MINUS;
          } else if (c === 116 || c === 102 || c === 110) {
            this.lit = c === 116 ? 'rue' : c === 102 ? 'alse' : 'ull';
            this.litIndex = 0;
            state = S.LIT;
          } else {
            this.fail(R.EXPECTED_VALUE, i + 1);
          }
          i++;
          continue;
        case S.OBJ_COLON:
          if (c !== 58) this.fail(R.EXPECTED_COLON, i + 1);
          state = S.VALUE;
          i++;
          continue;
        case S.OBJ_AFTER:
        case S.OBJ_FIRST:
          if (c === 125) {
            depth--;
            i++;
            state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
            continue;
          }
          if (state === S.OBJ_AFTER) {
            if (c !== 44) this.fail(R.EXPECTED_OBJECT, i + 1);
            if (i + 1 < n && buf[i + 1] === 34) {
              i++;
              state = S.KEY; // fast path: `,"`
            } else {
              state = S.OBJ_NEXT;
            }
          } else {
            if (c !== 34) this.fail(R.KEY_STRING, i + 1);
            state = S.KEY;
          }
          i++;
          continue;
        case S.OBJ_NEXT:
          if (c !== 34) this.fail(c === 125 && strict ? R.TRAILING_COMMA : R.KEY_STRING, i + 1);
          state = S.KEY;
          i++;
          continue;
        case S.ARR_AFTER:
        case S.ARR_FIRST:
          if (c === 93) {
            depth--;
            i++;
            state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
          } else if (state === S.ARR_FIRST) {
            state = S.VALUE;
          } else {
            if (c !== 44) this.fail(R.EXPECTED_LIST, i + 1);
            state = S.ARR_NEXT;
            i++;
          }
          continue;
        case S.ARR_NEXT:
          if (c === 93) this.fail(strict ? R.TRAILING_COMMA : R.EXPECTED_VALUE, i + 1);
          state = S.VALUE;
          continue;
        case S.NUM_INT:
        case S.NUM_FRAC:
        case S.NUM_EXP_DIGITS:
          while (c >= 48 && c <= 57) {
            if (++i === n) break outer;
            c = buf[i]!;
          }
          if (c === 46 && state === S.NUM_INT) {
            state = S.NUM_DOT;
            i++;
            continue;
          }
          if ((c === 101 || c === 69) && state !== S.NUM_EXP_DIGITS) {
            state = S.NUM_EXP;
            i++;
            continue;
          }
          if (strict) this.checkNumber(numStart, i);
          state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
          continue;
        case S.NUM_ZERO:
          if (c >= 48 && c <= 57) this.fail(R.INVALID_NUMBER, i + 1);
          state = S.NUM_INT; // no digit can follow: S.NUM_INT only looks for `.`, `e` or the end
          continue;
        case S.NUM_MINUS:
        case S.NUM_DOT:
        case S.NUM_EXP_SIGN:
          if (c < 48 || c > 57) this.fail(R.INVALID_NUMBER, i + 1);
          state = state === S.NUM_MINUS ? (c === 48 ? S.NUM_ZERO : S.NUM_INT) : state === S.NUM_DOT ? S.NUM_FRAC : S.NUM_EXP_DIGITS;
          i++;
          continue;
        case S.NUM_EXP:
          if (c === 43 || c === 45) state = S.NUM_EXP_SIGN;
          else if (c >= 48 && c <= 57) state = S.NUM_EXP_DIGITS;
          else this.fail(R.INVALID_NUMBER, i + 1);
          i++;
          continue;
        case S.LIT:
          if (c !== this.lit.charCodeAt(this.litIndex)) this.fail(R.EXPECTED_IDENT, i + 1);
          i++;
          if (++this.litIndex === this.lit.length) {
            state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
          }
          continue;
        case S.ESC:
          if (c === 117) {
            this.hexCount = 0;
            this.hexAcc = 0;
            this.hexSecond = false;
            state = S.HEX;
          } else if (c === 34 || c === 92 || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116) {
            state = this.strState;
          } else {
            this.fail(R.INVALID_ESCAPE, i + 1);
          }
          i++;
          continue;
        case S.HEX: {
          const h = hexValue(c);
          i++;
          if (h >= 0) {
            this.hexAcc = this.hexAcc * 16 + h;
            if (++this.hexCount === 4) state = strict ? this.surrogate(i) : this.strState;
            continue;
          }
          this.pending = this.message(R.INVALID_ESCAPE, i);
          this.hexRemaining = 3 - this.hexCount;
          if (this.hexRemaining === 0) throw malformedJson(this.format, this.pending);
          state = S.HEX_BAD;
          continue;
        }
        case S.HEX_BAD:
          i++;
          if (--this.hexRemaining === 0) throw malformedJson(this.format, this.pending);
          continue;
        case S.SUR_BS:
        case S.SUR_U:
          if (c !== (state === S.SUR_BS ? 92 : 117)) this.fail(R.UNEXPECTED_END_HEX, i + 1);
          if (state === S.SUR_U) {
            this.hexCount = 0;
            this.hexAcc = 0;
            this.hexSecond = true;
          }
          state = state === S.SUR_BS ? S.SUR_U : S.HEX;
          i++;
          continue;
        case S.TOP:
          if (!this.ndjson && c === 91) {
            state = S.TOP_ARR_FIRST;
            i++;
            continue;
          }
          strict = this.strict = !this.ndjson;
          state = this.startDocument(c, i);
          continue;
        case S.TOP_ARR_FIRST:
        case S.TOP_ARR_NEXT:
          if (c === 93) {
            if (state === S.TOP_ARR_NEXT) this.fail(R.TRAILING_COMMA, i + 1);
            state = S.IGNORE_REST;
            i++;
          } else {
            state = this.startDocument(c, i);
          }
          continue;
        case S.TOP_ARR_AFTER:
          if (c === 44) state = S.TOP_ARR_NEXT;
          else if (c === 93) state = S.IGNORE_REST;
          else this.fail(R.EXPECTED_LIST, i + 1);
          i++;
          continue;
        case S.TOP_END:
          this.fail(R.TRAILING_CHARS, i + 1);
          continue;
        case S.BAD_ELEM:
          if (c === 93) throw malformedJson(this.format, DATA_ERROR);
          if (c !== 44) this.fail(R.TRAILING_CHARS, i + 1);
          state = S.BAD_ELEM_COMMA;
          i++;
          continue;
        case S.BAD_ELEM_COMMA:
          this.fail(c === 93 ? R.TRAILING_COMMA : R.TRAILING_CHARS, i + 1);
          continue;
        case S.SCALAR_END:
          if (VALUE_END[c] === 1) throw malformedJson(this.format, DATA_ERROR);
          this.fail(R.TRAILING_CHARS, i + 1);
          continue;
        default: // S.IGNORE_REST
          i = n;
          continue;
      }
    }
    if (this.copyStart >= 0) {
      this.out.copy(buf, this.copyStart, n);
      this.copyStart = 0;
    }
    if (strict && state >= S.NUM_MINUS && state <= S.NUM_EXP_DIGITS) this.numPrefix += buf.toString('latin1', numStart, n);
    this.state = state;
    this.depth = depth;
    this.lines = nl;
    this.lastNl = lastNl;
    this.base = base + n;
    this.cur = EMPTY;
  }

  /** The payload is complete: fails on an unfinished value. */
  end(): void {
    this.utf8.finish();
    for (;;) {
      switch (this.state) {
        case S.TOP:
          if (!this.ndjson) this.fail(R.EOF_VALUE, 0);
          return;
        case S.TOP_END:
        case S.IGNORE_REST:
          return;
        case S.SCALAR_END:
          throw malformedJson(this.format, DATA_ERROR);
        case S.NUM_ZERO:
        case S.NUM_INT:
        case S.NUM_FRAC:
        case S.NUM_EXP_DIGITS:
          if (this.strict) this.checkNumber(0, 0);
          this.state = this.depth > 0 ? (this.stack[this.depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(0);
          continue;
        case S.NUM_MINUS:
        case S.NUM_DOT:
        case S.NUM_EXP:
        case S.NUM_EXP_SIGN:
          return this.fail(this.strict ? R.EOF_VALUE : R.INVALID_NUMBER, 0);
        case S.BAD_ELEM_COMMA:
          return this.fail(R.TRAILING_CHARS, 0);
        case S.BAD_ELEM:
        case S.TOP_ARR_FIRST:
        case S.TOP_ARR_AFTER:
        case S.ARR_FIRST:
        case S.ARR_AFTER:
          return this.fail(R.EOF_LIST, 0);
        case S.OBJ_FIRST:
        case S.OBJ_COLON:
        case S.OBJ_AFTER:
          return this.fail(R.EOF_OBJECT, 0);
        case S.STR:
        case S.KEY:
        case S.ESC:
        case S.HEX:
        case S.HEX_BAD:
        case S.SUR_BS:
        case S.SUR_U:
          return this.fail(R.EOF_STRING, 0);
        default: // S.VALUE, S.ARR_NEXT, S.OBJ_NEXT, S.LIT, S.TOP_ARR_NEXT
          return this.fail(R.EOF_VALUE, 0);
      }
    }
  }

  private startDocument(c: number, i: number): number {
    this.docFirst = c;
    this.copyStart = i;
    return S.VALUE;
  }

  private grow(): Uint8Array {
    const bigger = new Uint8Array(this.stack.length * 2);
    bigger.set(this.stack);
    this.stack = bigger;
    return bigger;
  }

  /** A top-level value ended before local index `end`: write it out (or fail). */
  private docEnd(end: number): number {
    if (!this.strict && this.utf8.firstBad >= 0 && this.utf8.firstBad < this.base + end) {
      this.fail(R.INVALID_UNICODE, end); // serde checks a RawValue's UTF-8 once it is read
    }
    const first = this.docFirst;
    if (first !== 123) {
      // serde reads the value, then fails to see it as a map. In an array, Meilisearch's
      // array_each then reports serde's end_seq error if there is one; in a stream, a number
      // or a literal must first be followed by a delimiter (peek_end_of_value).
      this.copyStart = -1;
      if (!this.ndjson && !this.strict) return S.BAD_ELEM;
      if (this.ndjson && first !== 34 && first !== 91) return S.SCALAR_END;
      throw malformedJson(this.format, DATA_ERROR);
    }
    this.out.copy(this.cur, this.copyStart, end);
    this.out.byte(10);
    this.copyStart = -1;
    this.count++;
    return this.ndjson ? S.TOP : this.strict ? S.TOP_END : S.TOP_ARR_AFTER;
  }

  /** strict: serde parses numbers to f64 and rejects the infinite ones. */
  private checkNumber(start: number, end: number): void {
    const text = this.numPrefix + this.cur.toString('latin1', start, end);
    this.numPrefix = '';
    if (!Number.isFinite(Number(text))) this.fail(R.OUT_OF_RANGE, end);
  }

  /** strict: a `\uXXXX` escape just ended before local index `i`. */
  private surrogate(i: number): number {
    const n = this.hexAcc;
    if (!this.hexSecond) {
      if (n >= 0xdc00 && n <= 0xdfff) this.fail(R.LONE_SURROGATE, i);
      return n >= 0xd800 && n <= 0xdbff ? S.SUR_BS : this.strState;
    }
    if (n < 0xdc00 || n > 0xdfff) this.fail(R.LONE_SURROGATE, i);
    return this.strState;
  }

  /** `reason at line L column C`, for the position before local index `local` (serde's position_of_index). */
  private message(reason: string, local: number): string {
    let line = this.lines + 1;
    let last = this.lastNl;
    for (let k = this.cur.indexOf(10); k !== -1 && k < local; k = this.cur.indexOf(10, k + 1)) {
      line++;
      last = this.base + k;
    }
    return `${reason} at line ${line} column ${this.base + local - (last + 1)}`;
  }

  private fail(reason: string, local: number): never {
    throw malformedJson(this.format, this.message(reason, local));
  }
}
