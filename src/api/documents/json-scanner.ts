// Streaming scanner for `application/json` and `application/x-ndjson` payloads. It checks the
// bytes as Meilisearch's serde_json code does (same reasons and positions) and copies each
// top-level document, minus insignificant whitespace, to an OutputBuffer followed by `\n`:
// numbers and strings keep their exact source text. Plain documents that end inside the chunk
// are taken whole by a faster scan (DocumentRun, json-grammar.ts); this state machine does the
// rest: documents across chunks, errors and their exact positions, and the single-object case.
//
// Grammars mimicked: serde's `ignore_value` for array elements and NDJSON values (Meilisearch
// reads them as RawValue, then re-reads their top-level keys with RawMap), and the full
// deserializer ("strict") for a payload that is one object or a scalar: it differs on trailing
// commas, number range, surrogate escapes and its nesting limit (127). What the strict reading
// would reject inside the field values of the other documents is only recorded (`valueError`):
// Meilisearch accepts the payload and its indexer fails the task.
import { malformedJson } from './messages.ts';
import * as R from './json-grammar.ts';
import { STRING_STOP, VALUE_END, hexValue, stringEnd } from './json-grammar.ts';
import {
  ARR, DOC_BAD_ELEMENT, DOC_WRITTEN, EMPTY, JsonScannerState, NOT_VALIDATED, OBJ, VALIDATED_BY_INDEXER, VALIDATED_BY_PARSER, specialField,
} from './json-state.ts';

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
  BAD_ELEM = 13, // json: after an element RawMap rejects; serde's end_seq still runs
  BAD_ELEM_COMMA = 14, // ... after its `,`
  LAST_STRUCTURAL = 14,
  STR = 15,
  KEY = 16,
  ESC = 17,
  HEX = 18,
  SUR_BS = 19, // a leading surrogate must be followed by `\`
  SUR_U = 20, // ... and `u`
  NUM_MINUS = 21,
  NUM_ZERO = 22,
  NUM_INT = 23,
  NUM_DOT = 24,
  NUM_FRAC = 25,
  NUM_EXP = 26,
  NUM_EXP_SIGN = 27,
  NUM_EXP_DIGITS = 28,
  LIT = 29,
  SCALAR_END = 30, // ndjson: after a top-level number/literal serde peeks one byte
  IGNORE_REST = 31, // json: serde never reads past the top-level `]`
}

const MAX_STRICT_DEPTH = 127;
/** serde's limit for a field value re-read by the indexer: its 128th level (document level 129). */
const MAX_FIELD_DEPTH = 128;

export class JsonScanner extends JsonScannerState {
  feed(buf: Buffer): void {
    this.checkChunk(buf);
    const n = buf.length;
    const base = this.base;
    const bad = this.bad;
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
          if (STRING_STOP[c] === 0 && (i = stringEnd(buf, i, n)) === n) break outer;
          c = buf[i]!;
          if (c === 34) {
            i++;
            if (strict && bad < base + i) this.fail(R.INVALID_UNICODE, i); // serde checks a string once read
            if (state === S.STR) {
              state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
            } else {
              if (depth === 1) this.fieldPlain = !specialField(this.keyTail(i - 1));
              if (i < n && buf[i] === 58) {
                i++;
                state = S.VALUE; // fast path for `"key":`
              } else {
                state = S.OBJ_COLON;
              }
            }
          } else if (c === 92) {
            this.strState = state;
            // RawMap re-reads a document's top-level keys (or a top-level string) with validation,
            // the indexer the strings of its field values
            if (strict) this.validating = VALIDATED_BY_PARSER;
            else if (state === S.KEY ? depth === 1 : depth === 0) this.validating = this.keyError === '' ? VALIDATED_BY_PARSER : NOT_VALIDATED;
            else this.validating = this.valueError === '' && this.fieldPlain ? VALIDATED_BY_INDEXER : NOT_VALIDATED;
            state = S.ESC;
            i++;
          } else {
            this.fail(R.CONTROL, strict ? i + 1 : i);
          }
          continue;
        case S.VALUE:
          if (depth === 1) {
            this.fieldStart = base + i;
            this.fieldLine = nl + 1;
          }
          if (c === 34) {
            state = S.STR;
          } else if (c === 123 || c === 91) {
            if (strict && depth >= MAX_STRICT_DEPTH) this.fail(R.RECURSION, i + 1);
            if (depth >= MAX_FIELD_DEPTH && this.valueError === '') this.valueError = this.fieldMessage(R.RECURSION, i + 1);
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
          if (state === S.OBJ_FIRST) {
            if (c !== 34) this.fail(R.KEY_STRING, i + 1);
            state = S.KEY;
          } else if (c !== 44) {
            this.fail(R.EXPECTED_OBJECT, i + 1);
          } else if (i + 1 < n && buf[i + 1] === 34) {
            i++;
            state = S.KEY; // fast path for `,"`
          } else {
            state = S.OBJ_NEXT;
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
          } else if ((c === 101 || c === 69) && state !== S.NUM_EXP_DIGITS) {
            state = S.NUM_EXP;
            i++;
          } else {
            if (strict || depth === 0) this.checkNumber(numStart, i, false);
            else if (this.valueError === '' && this.fieldPlain && (state === S.NUM_EXP_DIGITS || this.numPrefix.length + i - numStart > 300)) this.checkNumber(numStart, i, true);
            else this.numPrefix = '';
            state = depth > 0 ? (stack[depth - 1] === OBJ ? S.OBJ_AFTER : S.ARR_AFTER) : this.docEnd(i);
          }
          continue;
        case S.NUM_ZERO:
          if (c >= 48 && c <= 57) this.fail(R.INVALID_NUMBER, i + 1);
          state = S.NUM_INT; // not a digit: NUM_INT only looks for `.`, `e` or the end
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
            this.hexBad = false;
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
          if (c === 10) {
            nl++; // the only place a newline is consumed without an error nor whitespace
            lastNl = base + i;
          }
          i++;
          if (h < 0) this.hexBad = true;
          else this.hexAcc = this.hexAcc * 16 + h;
          if (++this.hexCount === 4) {
            if (this.hexBad) this.fail(R.INVALID_ESCAPE, i); // serde decodes the 4 bytes, then fails
            state = this.validating !== NOT_VALIDATED && this.leadingSurrogate(i) ? S.SUR_BS : this.strState;
          }
          continue;
        }
        case S.SUR_BS:
        case S.SUR_U:
          if (c === (state === S.SUR_BS ? 92 : 117)) {
            if (state === S.SUR_U) {
              this.hexCount = 0;
              this.hexAcc = 0;
              this.hexBad = false;
              this.hexSecond = true;
            }
            state = state === S.SUR_BS ? S.SUR_U : S.HEX;
            i++;
          } else {
            // strict fails; RawMap's error is only recorded: the first pass reads on, and the
            // byte is string content (after `\uD8xx`) or the escape begun by `\`
            this.surrogateError(R.UNEXPECTED_END_HEX, i + 1);
            state = state === S.SUR_BS ? this.strState : S.ESC;
          }
          continue;
        case S.TOP:
        case S.TOP_ARR_FIRST:
        case S.TOP_ARR_NEXT:
          if (c === 123 && base + i < bad && (state !== S.TOP || this.ndjson)) {
            const run = this.run; // whole documents at once, if plain (and before invalid UTF-8)
            const j = run.scan(buf, i, Math.min(n, bad - base));
            if (j > i) {
              i = j;
              this.count += run.documents;
              nl += run.newlines;
              if (run.lastNewline >= 0) lastNl = base + run.lastNewline;
              state = this.ndjson ? S.TOP : run.afterDocument ? S.TOP_ARR_AFTER : S.TOP_ARR_NEXT;
              continue;
            }
          }
          if (state === S.TOP) {
            if (!this.ndjson && c === 91) {
              state = S.TOP_ARR_FIRST;
              i++;
              continue;
            }
            strict = this.strict = !this.ndjson;
          } else if (c === 93) {
            if (state === S.TOP_ARR_NEXT) this.fail(R.TRAILING_COMMA, i + 1);
            state = S.IGNORE_REST;
            i++;
            continue;
          }
          this.startDocument(c, i, nl);
          state = S.VALUE;
          continue;
        case S.TOP_ARR_AFTER:
          if (c === 44) state = S.TOP_ARR_NEXT;
          else if (c === 93) state = S.IGNORE_REST;
          else this.fail(R.EXPECTED_LIST, i + 1);
          i++;
          continue;
        case S.BAD_ELEM:
          if (c === 93) throw malformedJson(this.format, this.docError);
          if (c !== 44) this.fail(R.TRAILING_CHARS, i + 1);
          state = S.BAD_ELEM_COMMA;
          i++;
          continue;
        case S.BAD_ELEM_COMMA:
          this.fail(c === 93 ? R.TRAILING_COMMA : R.TRAILING_CHARS, i + 1);
          continue;
        case S.TOP_END:
          this.fail(R.TRAILING_CHARS, i + 1);
          continue;
        case S.SCALAR_END:
          if (VALUE_END[c] === 1) throw malformedJson(this.format, this.docError);
          this.fail(R.TRAILING_CHARS, i + 1);
          continue;
        default: // IGNORE_REST
          i = n;
          continue;
      }
    }
    if (this.copyStart >= 0) {
      this.out.copy(buf, this.copyStart, n);
      this.copyStart = 0;
    }
    if ((strict || depth === 0 || (this.valueError === '' && this.fieldPlain)) && state >= S.NUM_MINUS && state <= S.NUM_EXP_DIGITS) {
      this.numPrefix += buf.toString('latin1', numStart, n);
    }
    this.state = state;
    this.depth = depth;
    this.lines = nl;
    this.lastNl = lastNl;
    this.prevTail = (this.prevTail + buf.toString('latin1', Math.max(0, n - 9), n)).slice(-9);
    this.base = base + n;
    this.cur = EMPTY;
  }

  /** The payload is complete: fails on an unfinished value. */
  end(): void {
    for (;;) {
      if (this.state >= S.STR && this.state <= S.SUR_U) return this.fail(R.EOF_STRING, 0);
      switch (this.state) {
        case S.TOP:
          if (!this.ndjson) this.fail(R.EOF_VALUE, 0);
          return;
        case S.TOP_END:
        case S.IGNORE_REST:
          return;
        case S.SCALAR_END:
          throw malformedJson(this.format, this.docError);
        case S.NUM_ZERO:
        case S.NUM_INT:
        case S.NUM_FRAC:
        case S.NUM_EXP_DIGITS:
          if (this.strict || this.depth === 0) this.checkNumber(0, 0, false);
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
        case S.OBJ_NEXT:
          return this.fail(this.strict ? R.EOF_VALUE : R.EOF_OBJECT, 0);
        case S.OBJ_FIRST:
        case S.OBJ_COLON:
        case S.OBJ_AFTER:
          return this.fail(R.EOF_OBJECT, 0);
        default: // VALUE, ARR_NEXT, LIT, TOP_ARR_NEXT
          return this.fail(R.EOF_VALUE, 0);
      }
    }
  }

  private docEnd(end: number): S {
    const done = this.finishDocument(end);
    if (done === DOC_WRITTEN) return this.ndjson ? S.TOP : this.strict ? S.TOP_END : S.TOP_ARR_AFTER;
    return done === DOC_BAD_ELEMENT ? S.BAD_ELEM : S.SCALAR_END;
  }
}
