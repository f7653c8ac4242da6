// The JSON scanner's fields and its cold paths (end of a document, number range, surrogate
// escapes); the states and the hot loop are in json-scanner.ts. Error positions are serde's:
// 1-based line and byte column (`position_of_index`), over the whole payload or relative to
// the start of one document (errors found when Meilisearch re-reads a document with RawMap).
import { DATA_ERROR, malformedJson } from './messages.ts';
import type { OutputBuffer } from './out-buffer.ts';
import * as R from './json-grammar.ts';
import { DocumentRun, numberOverflow } from './json-grammar.ts';
import { Utf8Checker } from './utf8.ts';

export const OBJ = 1;
export const ARR = 2;
export const DOC_WRITTEN = 0;
export const DOC_BAD_ELEMENT = 1;
export const DOC_SCALAR_END = 2;

export const EMPTY = Buffer.alloc(0);

class JsonPositions {
  protected readonly format: 'json' | 'ndjson';
  protected readonly utf8 = new Utf8Checker();
  /** The chunk being scanned, its global offset, and the newlines seen before it. */
  protected cur: Buffer = EMPTY;
  protected base = 0;
  protected lines = 0;
  protected lastNl = -1;
  /** Where the current top-level document starts. */
  protected docStart = 0;
  protected docLine = 1;
  /** Global offset of the first invalid UTF-8 byte (Infinity if none) and its position. */
  protected bad = Infinity;
  protected badLine = 0;
  protected badColumn = 0;

  constructor(format: 'json' | 'ndjson') {
    this.format = format;
  }

  /** Checks the UTF-8 of a new chunk, before scanning it. */
  protected checkChunk(buf: Buffer): void {
    this.utf8.check(buf, this.base);
    this.cur = buf;
    if (this.bad === Infinity && this.utf8.firstBad >= 0) {
      this.bad = this.utf8.firstBad;
      // serde points at the invalid byte: position_of_index(bad + 1)
      const [line, lastNl] = this.locate(Math.max(0, this.bad - this.base));
      this.badLine = line;
      this.badColumn = this.bad - lastNl;
    }
  }

  /** Line and offset of the last newline before the local index `local` of the current chunk. */
  protected locate(local: number): [number, number] {
    let line = this.lines + 1;
    let last = this.lastNl;
    for (let k = this.cur.indexOf(10); k !== -1 && k < local; k = this.cur.indexOf(10, k + 1)) {
      line++;
      last = this.base + k;
    }
    return [line, last];
  }

  protected message(reason: string, local: number): string {
    const [line, last] = this.locate(local);
    return `${reason} at line ${line} column ${this.base + local - (last + 1)}`;
  }

  /** The same position, relative to the start of the current document. */
  protected relativeMessage(reason: string, local: number): string {
    const [line, last] = this.locate(local);
    const at = this.base + local;
    const column = line === this.docLine ? at - this.docStart : at - (last + 1);
    return `${reason} at line ${line - this.docLine + 1} column ${column}`;
  }

  protected fail(reason: string, local: number): never {
    throw malformedJson(this.format, this.message(reason, local));
  }

  /** Invalid UTF-8 reported at the invalid byte; `shift` for serde's approximation after escapes. */
  protected failUtf8(shift = 0): never {
    throw malformedJson(this.format, `invalid unicode code point at line ${this.badLine} column ${this.badColumn + shift}`);
  }
}

export class JsonScannerState extends JsonPositions {
  /** Documents written so far. */
  count = 0;
  protected readonly ndjson: boolean;
  protected readonly out: OutputBuffer;
  protected state = 0; // S.TOP (states are json-scanner.ts's)
  protected strict = false;
  protected depth = 0;
  protected stack: Uint8Array = new Uint8Array(64);
  protected copyStart = -1; // start of the unwritten run of the current document, -1 outside
  protected docFirst = 0; // first byte of the current top-level document
  protected keyError = ''; // RawMap's error re-reading the document's top level (relative position)
  protected docError = ''; // what BAD_ELEM reports when the array ends right after the element
  protected strState = 0; // the string state an escape returns to
  protected validating = false; // the current `\u` escape must be a valid UTF-16 sequence
  protected hexCount = 0;
  protected hexAcc = 0;
  protected hexBad = false;
  protected hexSecond = false;
  protected savings = 0; // strict: bytes saved by escapes after an invalid UTF-8 byte (serde's column shift)
  protected lit = '';
  protected litIndex = 0;
  protected numPrefix = ''; // the part read in previous chunks of a number whose range is checked

  protected readonly run: DocumentRun;

  constructor(format: 'json' | 'ndjson', out: OutputBuffer) {
    super(format);
    this.ndjson = format === 'ndjson';
    this.out = out;
    this.run = new DocumentRun(out, !this.ndjson);
  }

  protected startDocument(c: number, i: number, newlines: number): void {
    this.docFirst = c;
    this.copyStart = i;
    this.docStart = this.base + i;
    this.docLine = newlines + 1;
    this.keyError = '';
  }

  protected grow(): Uint8Array {
    const bigger = new Uint8Array(this.stack.length * 2);
    bigger.set(this.stack);
    this.stack = bigger;
    return bigger;
  }

  /**
   * A top-level value ended before local index `end`: writes it out (returns DOC_WRITTEN), or
   * fails as serde would — possibly later (DOC_BAD_ELEMENT, DOC_SCALAR_END).
   */
  protected finishDocument(end: number): number {
    if (!this.strict && this.bad < this.base + end) this.failUtf8(); // RawValue's UTF-8 check
    const first = this.docFirst;
    if (first === 123 && this.keyError === '') {
      this.out.copy(this.cur, this.copyStart, end);
      this.out.byte(10);
      this.copyStart = -1;
      this.count++;
      return DOC_WRITTEN;
    }
    // RawMap rejects the value (not a map, or a bad top-level key). In an array, Meilisearch's
    // array_each reports serde's end_seq error first if there is one; in a stream, a number or
    // a literal must be followed by a delimiter (peek_end_of_value).
    this.copyStart = -1;
    this.docError = this.keyError !== '' ? this.keyError : DATA_ERROR;
    if (!this.ndjson && !this.strict) return DOC_BAD_ELEMENT;
    if (this.ndjson && first !== 34 && first !== 91 && first !== 123) return DOC_SCALAR_END;
    throw malformedJson(this.format, this.docError);
  }

  /** serde parses numbers to f64 (strict, and RawMap on a top-level number) and rejects the infinite ones. */
  protected checkNumber(start: number, end: number): void {
    const text = this.numPrefix + this.cur.toString('latin1', start, end);
    this.numPrefix = '';
    const at = numberOverflow(text);
    if (at < 0) return;
    const local = end - text.length + at;
    if (this.strict) this.fail(R.OUT_OF_RANGE, local);
    if (this.keyError === '') this.keyError = this.relativeMessage(R.OUT_OF_RANGE, local);
  }

  /**
   * A validated `\uXXXX` escape just ended before local index `i` (serde's parse_unicode_escape);
   * true when it is a leading surrogate, to be followed by a trailing one.
   */
  protected leadingSurrogate(i: number): boolean {
    const n = this.hexAcc;
    const after = this.strict && this.bad < this.base + i;
    if (!this.hexSecond) {
      if (n >= 0xdc00 && n <= 0xdfff) this.surrogateError(R.LONE_SURROGATE, i);
      else if (n >= 0xd800 && n <= 0xdbff) return true;
      else if (after) this.savings += 6 - (n < 0x80 ? 1 : n < 0x800 ? 2 : 3);
    } else if (n < 0xdc00 || n > 0xdfff) {
      this.surrogateError(R.LONE_SURROGATE, i);
    } else if (after) {
      this.savings += 8;
    }
    return false;
  }

  protected surrogateError(reason: string, local: number): void {
    if (this.strict) this.fail(reason, local);
    this.validating = false;
    if (this.keyError === '') this.keyError = this.relativeMessage(reason, local);
  }
}
