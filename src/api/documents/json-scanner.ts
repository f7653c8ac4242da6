// Streaming scanner for `application/json` and `application/x-ndjson` payloads. It checks
// the bytes the way Meilisearch's serde_json code does (same reasons, same line/column over
// the whole payload) and copies each top-level document, minus insignificant whitespace,
// to an OutputBuffer followed by `\n`. Numbers and strings keep their exact source text.
//
// Two grammars are mimicked: serde's `ignore_value` (elements of a top-level array, NDJSON
// values — Meilisearch reads them as RawValue) and its full deserializer ("strict": a
// payload that is a single object, or a scalar), which differs on trailing commas, number
// range, surrogate escapes and a nesting limit of 127.
import type { ApiError } from '../errors/index.ts';
import { DATA_ERROR, malformedJson } from './messages.ts';
import type { OutputBuffer } from './out-buffer.ts';
import { Utf8Checker } from './utf8.ts';

// States; the structural ones (whitespace allowed before the next token) come first.
const TOP = 0; // ndjson: between documents; json: before anything
const TOP_ARR_FIRST = 1; // after the top-level `[`
const TOP_ARR_AFTER = 2; // after a top-level element
const TOP_ARR_NEXT = 3; // after a top-level `,`
const TOP_END = 4; // after a single top-level object: whitespace only
const VALUE = 5;
const ARR_FIRST = 6;
const ARR_NEXT = 7;
const ARR_AFTER = 8;
const OBJ_FIRST = 9;
const OBJ_NEXT = 10;
const OBJ_COLON = 11;
const OBJ_AFTER = 12;
const LAST_STRUCTURAL = 12;
const STR = 13;
const ESC = 14;
const HEX = 15;
const HEX_BAD = 16; // an invalid hex digit: the error needs the 4 bytes to exist
const SUR_BS = 17; // strict: a leading surrogate must be followed by `\`
const SUR_U = 18; // ... then by `u`
const NUM_MINUS = 19;
const NUM_ZERO = 20;
const NUM_INT = 21;
const NUM_DOT = 22;
const NUM_FRAC = 23;
const NUM_EXP = 24;
const NUM_EXP_SIGN = 25;
const NUM_EXP_DIGITS = 26;
const LIT = 27;
const SCALAR_END = 28; // ndjson: after a top-level number/literal, serde peeks one byte
const IGNORE_REST = 29; // json: serde never reads past the top-level `]`

const OBJ = 1;
const ARR = 2;
const MAX_STRICT_DEPTH = 127;

const EOF_LIST = 'EOF while parsing a list';
const EOF_OBJECT = 'EOF while parsing an object';
const EOF_STRING = 'EOF while parsing a string';
const EOF_VALUE = 'EOF while parsing a value';
const EXPECTED_COLON = 'expected `:`';
const EXPECTED_LIST = 'expected `,` or `]`';
const EXPECTED_OBJECT = 'expected `,` or `}`';
const EXPECTED_IDENT = 'expected ident';
const EXPECTED_VALUE = 'expected value';
const INVALID_ESCAPE = 'invalid escape';
const INVALID_NUMBER = 'invalid number';
const OUT_OF_RANGE = 'number out of range';
const INVALID_UNICODE = 'invalid unicode code point';
const CONTROL = 'control character (\\u0000-\\u001F) found while parsing a string';
const KEY_STRING = 'key must be a string';
const LONE_SURROGATE = 'lone leading surrogate in hex escape';
const UNEXPECTED_END_HEX = 'unexpected end of hex escape';
const RECURSION = 'recursion limit exceeded';
const TRAILING_COMMA = 'trailing comma';
const TRAILING_CHARS = 'trailing characters';

const EMPTY = Buffer.alloc(0);

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

export class JsonScanner {
  /** Documents written so far. */
  count = 0;
  private readonly format: 'json' | 'ndjson';
  private readonly ndjson: boolean;
  private readonly out: OutputBuffer;
  private readonly utf8 = new Utf8Checker();
  private state = TOP;
  private strict = false;
  private docFirst = 0; // first byte of the current top-level document
  private depth = 0;
  private stack = new Uint8Array(64);
  private copyStart = -1; // start of the unwritten run of the current document, -1 outside
  private strKey = false;
  private hexCount = 0;
  private hexAcc = 0;
  private hexSecond = false;
  private hexRemaining = 0;
  private pending = '';
  private lit = '';
  private litIndex = 0;
  private numStart = 0;
  private numPrefix = '';
  // Position bookkeeping: the current chunk, its global offset, and the newlines before it.
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
    this.cur = buf;
    const base = this.base;
    let nl = this.lines;
    let lastNl = this.lastNl;
    let state = this.state;
    let i = 0;
    outer: while (i < n) {
      let c = buf[i]!;
      if (state <= LAST_STRUCTURAL && (c === 32 || c === 10 || c === 13 || c === 9)) {
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
        case STR: {
          while (c !== 34 && c !== 92 && c >= 32) {
            if (++i === n) break outer;
            c = buf[i]!;
          }
          if (c === 34) {
            i++;
            if (this.strict && this.utf8.firstBad >= 0 && this.utf8.firstBad < base + i) this.fail(INVALID_UNICODE, i);
            state = this.strKey ? OBJ_COLON : this.afterValue(i);
          } else if (c === 92) {
            i++;
            state = ESC;
          } else {
            this.fail(CONTROL, this.strict ? i + 1 : i);
          }
          continue;
        }
        case VALUE:
          if (c === 34) {
            this.strKey = false;
            state = STR;
          } else if (c === 123) {
            this.open(OBJ, i);
            state = OBJ_FIRST;
          } else if (c === 91) {
            this.open(ARR, i);
            state = ARR_FIRST;
          } else if (c >= 48 && c <= 57) {
            this.numStart = i;
            this.numPrefix = '';
            state = c === 48 ? NUM_ZERO : NUM_INT;
          } else if (c === 45) {
            this.numStart = i;
            this.numPrefix = '';
            state = NUM_MINUS;
          } else if (c === 116 || c === 102 || c === 110) {
            this.lit = c === 116 ? 'rue' : c === 102 ? 'alse' : 'ull';
            this.litIndex = 0;
            state = LIT;
          } else {
            this.fail(EXPECTED_VALUE, i + 1);
          }
          i++;
          continue;
        case OBJ_AFTER:
          if (c === 44) state = OBJ_NEXT;
          else if (c === 125) state = this.close(i + 1);
          else this.fail(EXPECTED_OBJECT, i + 1);
          i++;
          continue;
        case OBJ_NEXT:
          if (c === 34) state = this.key();
          else this.fail(c === 125 && this.strict ? TRAILING_COMMA : KEY_STRING, i + 1);
          i++;
          continue;
        case OBJ_FIRST:
          if (c === 34) state = this.key();
          else if (c === 125) state = this.close(i + 1);
          else this.fail(KEY_STRING, i + 1);
          i++;
          continue;
        case OBJ_COLON:
          if (c !== 58) this.fail(EXPECTED_COLON, i + 1);
          state = VALUE;
          i++;
          continue;
        case ARR_AFTER:
          if (c === 44) state = ARR_NEXT;
          else if (c === 93) state = this.close(i + 1);
          else this.fail(EXPECTED_LIST, i + 1);
          i++;
          continue;
        case ARR_NEXT:
          if (c === 93) this.fail(this.strict ? TRAILING_COMMA : EXPECTED_VALUE, i + 1);
          state = VALUE;
          continue;
        case ARR_FIRST:
          if (c === 93) {
            state = this.close(i + 1);
            i++;
          } else {
            state = VALUE;
          }
          continue;
        case NUM_INT:
        case NUM_FRAC:
        case NUM_EXP_DIGITS:
          while (c >= 48 && c <= 57) {
            if (++i === n) break outer;
            c = buf[i]!;
          }
          if (state !== NUM_EXP_DIGITS && (c === 101 || c === 69)) {
            state = NUM_EXP;
            i++;
          } else if (state === NUM_INT && c === 46) {
            state = NUM_DOT;
            i++;
          } else {
            state = this.numberEnd(i);
          }
          continue;
        case NUM_ZERO:
          if (c >= 48 && c <= 57) this.fail(INVALID_NUMBER, i + 1);
          if (c === 46) {
            state = NUM_DOT;
            i++;
          } else if (c === 101 || c === 69) {
            state = NUM_EXP;
            i++;
          } else {
            state = this.numberEnd(i);
          }
          continue;
        case NUM_MINUS:
          if (c < 48 || c > 57) this.fail(INVALID_NUMBER, i + 1);
          state = c === 48 ? NUM_ZERO : NUM_INT;
          i++;
          continue;
        case NUM_DOT:
          if (c < 48 || c > 57) this.fail(INVALID_NUMBER, i + 1);
          state = NUM_FRAC;
          i++;
          continue;
        case NUM_EXP:
          if (c === 43 || c === 45) state = NUM_EXP_SIGN;
          else if (c >= 48 && c <= 57) state = NUM_EXP_DIGITS;
          else this.fail(INVALID_NUMBER, i + 1);
          i++;
          continue;
        case NUM_EXP_SIGN:
          if (c < 48 || c > 57) this.fail(INVALID_NUMBER, i + 1);
          state = NUM_EXP_DIGITS;
          i++;
          continue;
        case ESC:
          if (c === 117) {
            this.hexCount = 0;
            this.hexAcc = 0;
            this.hexSecond = false;
            state = HEX;
          } else if (c === 34 || c === 92 || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116) {
            state = STR;
          } else {
            this.fail(INVALID_ESCAPE, i + 1);
          }
          i++;
          continue;
        case HEX: {
          const h = hexValue(c);
          i++;
          if (h < 0) {
            this.hexRemaining = 3 - this.hexCount;
            this.pending = this.message(INVALID_ESCAPE, i);
            if (this.hexRemaining === 0) throw malformedJson(this.format, this.pending);
            state = HEX_BAD;
          } else {
            this.hexAcc = this.hexAcc * 16 + h;
            if (++this.hexCount === 4) state = this.strict ? this.surrogate(i) : STR;
          }
          continue;
        }
        case HEX_BAD:
          i++;
          if (--this.hexRemaining === 0) throw malformedJson(this.format, this.pending);
          continue;
        case SUR_BS:
        case SUR_U:
          if (c !== (state === SUR_BS ? 92 : 117)) this.fail(UNEXPECTED_END_HEX, i + 1);
          if (state === SUR_U) {
            this.hexCount = 0;
            this.hexAcc = 0;
            this.hexSecond = true;
          }
          state = state === SUR_BS ? SUR_U : HEX;
          i++;
          continue;
        case LIT:
          if (c !== this.lit.charCodeAt(this.litIndex)) this.fail(EXPECTED_IDENT, i + 1);
          i++;
          if (++this.litIndex === this.lit.length) state = this.afterValue(i);
          continue;
        case TOP:
          if (!this.ndjson) {
            this.strict = c !== 91;
            if (c === 91) {
              state = TOP_ARR_FIRST;
              i++;
              continue;
            }
          }
          state = this.startDocument(c, i);
          continue;
        case TOP_ARR_FIRST:
          if (c === 93) {
            state = IGNORE_REST;
            i++;
          } else {
            state = this.startDocument(c, i);
          }
          continue;
        case TOP_ARR_AFTER:
          if (c === 44) state = TOP_ARR_NEXT;
          else if (c === 93) state = IGNORE_REST;
          else this.fail(EXPECTED_LIST, i + 1);
          i++;
          continue;
        case TOP_ARR_NEXT:
          if (c === 93) this.fail(TRAILING_COMMA, i + 1);
          state = this.startDocument(c, i);
          continue;
        case TOP_END:
          this.fail(TRAILING_CHARS, i + 1);
          continue;
        case SCALAR_END:
          if (c === 32 || c === 10 || c === 13 || c === 9 || c === 34 || c === 91 || c === 93 || c === 123 || c === 125 || c === 44 || c === 58) {
            throw malformedJson(this.format, DATA_ERROR);
          }
          this.fail(TRAILING_CHARS, i + 1);
          continue;
        case IGNORE_REST:
          i = n;
          continue;
        default:
          throw new Error(`json scanner: bad state ${state}`);
      }
    }
    if (this.copyStart >= 0) {
      this.out.copy(buf, this.copyStart, n);
      this.copyStart = 0;
    }
    if (this.strict && state >= NUM_MINUS && state <= NUM_EXP_DIGITS) {
      this.numPrefix += buf.toString('latin1', this.numStart, n);
      this.numStart = 0;
    }
    this.state = state;
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
        case TOP:
          if (!this.ndjson) this.fail(EOF_VALUE, 0);
          return;
        case TOP_END:
        case IGNORE_REST:
          return;
        case SCALAR_END:
          throw malformedJson(this.format, DATA_ERROR);
        case NUM_ZERO:
        case NUM_INT:
        case NUM_FRAC:
        case NUM_EXP_DIGITS:
          this.state = this.numberEnd(0);
          continue;
        case NUM_MINUS:
        case NUM_DOT:
        case NUM_EXP:
        case NUM_EXP_SIGN:
          return this.fail(this.strict ? EOF_VALUE : INVALID_NUMBER, 0);
        case TOP_ARR_FIRST:
        case TOP_ARR_AFTER:
        case ARR_FIRST:
        case ARR_AFTER:
          return this.fail(EOF_LIST, 0);
        case OBJ_FIRST:
        case OBJ_COLON:
        case OBJ_AFTER:
          return this.fail(EOF_OBJECT, 0);
        case STR:
        case ESC:
        case HEX:
        case HEX_BAD:
        case SUR_BS:
        case SUR_U:
          return this.fail(EOF_STRING, 0);
        default: // VALUE, ARR_NEXT, OBJ_NEXT, LIT, TOP_ARR_NEXT
          return this.fail(EOF_VALUE, 0);
      }
    }
  }

  private startDocument(c: number, i: number): number {
    this.docFirst = c;
    this.copyStart = i;
    return VALUE;
  }

  private key(): number {
    this.strKey = true;
    return STR;
  }

  private open(kind: number, i: number): void {
    if (this.strict && this.depth >= MAX_STRICT_DEPTH) this.fail(RECURSION, i + 1);
    if (this.depth === this.stack.length) {
      const bigger = new Uint8Array(this.stack.length * 2);
      bigger.set(this.stack);
      this.stack = bigger;
    }
    this.stack[this.depth++] = kind;
  }

  private close(end: number): number {
    this.depth--;
    return this.afterValue(end);
  }

  /** The state after a complete value ending before local index `end`. */
  private afterValue(end: number): number {
    if (this.depth > 0) return this.stack[this.depth - 1] === OBJ ? OBJ_AFTER : ARR_AFTER;
    if (!this.strict && this.utf8.firstBad >= 0 && this.utf8.firstBad < this.base + end) this.fail(INVALID_UNICODE, end);
    const first = this.docFirst;
    if (first !== 123) {
      // serde reads the value first, then fails to see it as a map. A number or a literal
      // in NDJSON must also be followed by a delimiter (StreamDeserializer::peek_end_of_value).
      if (this.ndjson && first !== 34 && first !== 91) return SCALAR_END;
      throw malformedJson(this.format, DATA_ERROR);
    }
    this.out.copy(this.cur, this.copyStart, end);
    this.out.byte(10);
    this.copyStart = -1;
    this.count++;
    return this.ndjson ? TOP : this.strict ? TOP_END : TOP_ARR_AFTER;
  }

  private numberEnd(end: number): number {
    if (this.strict) {
      const text = this.numPrefix + this.cur.toString('latin1', this.numStart, end);
      if (!Number.isFinite(Number(text))) this.fail(OUT_OF_RANGE, end);
    }
    return this.afterValue(end);
  }

  /** strict: a `\uXXXX` escape just ended before local index `i`. */
  private surrogate(i: number): number {
    const n = this.hexAcc;
    if (!this.hexSecond) {
      if (n >= 0xdc00 && n <= 0xdfff) this.fail(LONE_SURROGATE, i);
      return n >= 0xd800 && n <= 0xdbff ? SUR_BS : STR;
    }
    if (n < 0xdc00 || n > 0xdfff) this.fail(LONE_SURROGATE, i);
    return STR;
  }

  /** serde's position of byte index `local` of the current chunk (1-based line, byte column). */
  private message(reason: string, local: number): string {
    const limit = local;
    let line = this.lines + 1;
    let last = this.lastNl;
    let k = this.cur.indexOf(10);
    while (k !== -1 && k < limit) {
      line++;
      last = this.base + k;
      k = this.cur.indexOf(10, k + 1);
    }
    return `${reason} at line ${line} column ${this.base + local - (last + 1)}`;
  }

  private fail(reason: string, local: number): never {
    const error: ApiError = malformedJson(this.format, this.message(reason, local));
    throw error;
  }
}
