// The JSON scanner's fields and its cold paths (end of a document, number range, surrogate
// escapes); the states and the hot loop are in json-scanner.ts. Error positions are serde's:
// 1-based line and byte column (`position_of_index`), over the whole payload, relative to
// the start of one document (errors found when Meilisearch re-reads a document with RawMap),
// or relative to one top-level field value (`valueError`: what Meilisearch's indexer finds
// when it parses each field value of a document strictly, which fails the task).
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

/** Who validates a `\u` escape: nobody (RawValue), serde (strict) or RawMap, or the indexer. */
export const NOT_VALIDATED = 0;
export const VALIDATED_BY_PARSER = 1;
export const VALIDATED_BY_INDEXER = 2;

/** Top-level fields Meilisearch's indexer does not parse as plain values. */
const SPECIAL_FIELDS = ['"_geo', '"_geojson', '"_vectors'];

/** Whether a top-level key is `_geo`, `_geojson` or `_vectors`, from the 9 bytes before its closing quote. */
export function specialField(tail: string): boolean {
  return SPECIAL_FIELDS.some((f) => tail.endsWith(f) && tail[tail.length - f.length - 1] !== '\\');
}

class JsonPositions {
  protected readonly format: 'json' | 'ndjson';
  protected readonly utf8 = new Utf8Checker();
  /** The chunk being scanned, its global offset, and the newlines seen before it. */
  protected cur: Buffer = EMPTY;
  /** The last (up to) 9 bytes of the previous chunks, as latin1 (`specialField` across chunks). */
  protected prevTail = '';
  protected base = 0;
  protected lines = 0;
  protected lastNl = -1;
  /** Where the current top-level document starts. */
  protected docStart = 0;
  protected docLine = 1;
  /** Global offset of the first invalid UTF-8 byte (Infinity if none). */
  protected bad = Infinity;
  /** Where the current top-level field value starts (global offset) and its line. */
  protected fieldStart = 0;
  protected fieldLine = 1;

  constructor(format: 'json' | 'ndjson') {
    this.format = format;
  }

  /** Checks the UTF-8 of a new chunk, before scanning it. */
  protected checkChunk(buf: Buffer): void {
    this.utf8.check(buf, this.base);
    this.cur = buf;
    // serde reports invalid UTF-8 once it has read the string (strict) or the document
    if (this.bad === Infinity && this.utf8.firstBad >= 0) this.bad = this.utf8.firstBad;
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
    return this.messageFrom(reason, local, this.docStart, this.docLine);
  }

  /** The same position, relative to the start of the current top-level field value. */
  protected fieldMessage(reason: string, local: number): string {
    return this.messageFrom(reason, local, this.fieldStart, this.fieldLine);
  }

  private messageFrom(reason: string, local: number, start: number, startLine: number): string {
    const [line, last] = this.locate(local);
    const at = this.base + local;
    const column = line === startLine ? at - start : at - (last + 1);
    return `${reason} at line ${line - startLine + 1} column ${column}`;
  }

  protected fail(reason: string, local: number): never {
    throw malformedJson(this.format, this.message(reason, local));
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
  /**
   * The first error Meilisearch's indexer raises parsing a top-level field value of a document
   * (serde's recursion limit, surrogate escapes, number range; position relative to the value),
   * or ''. The payload is accepted; the task fails with it.
   */
  valueError = '';
  protected fieldPlain = true; // the current top-level field is parsed as a value (not `_geo`...)
  protected docError = ''; // what BAD_ELEM reports when the array ends right after the element
  protected strState = 0; // the string state an escape returns to
  protected validating = NOT_VALIDATED; // who checks that the current `\u` escape is valid UTF-16
  protected hexCount = 0;
  protected hexAcc = 0;
  protected hexBad = false;
  protected hexSecond = false;
  protected lit = '';
  protected litIndex = 0;
  protected numPrefix = ''; // the part read in previous chunks of a number whose range is checked

  protected readonly run: DocumentRun;

  /** The 9 bytes before the closing quote at local index q of a top-level key. */
  protected keyTail(q: number): string {
    return q >= 9 ? this.cur.toString('latin1', q - 9, q) : (this.prevTail + this.cur.toString('latin1', 0, q)).slice(-9);
  }

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
    if (!this.strict && this.bad < this.base + end) this.fail(R.INVALID_UNICODE, end); // RawValue's UTF-8 check
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

  /**
   * serde parses numbers to f64 (strict, RawMap on a top-level number, the indexer on a field
   * value: `inField`) and rejects the infinite ones.
   */
  protected checkNumber(start: number, end: number, inField: boolean): void {
    const text = this.numPrefix + this.cur.toString('latin1', start, end);
    this.numPrefix = '';
    const at = numberOverflow(text);
    if (at < 0) return;
    const local = end - text.length + at;
    if (this.strict) this.fail(R.OUT_OF_RANGE, local);
    if (inField) {
      if (this.valueError === '') this.valueError = this.fieldMessage(R.OUT_OF_RANGE, local);
    } else if (this.keyError === '') {
      this.keyError = this.relativeMessage(R.OUT_OF_RANGE, local);
    }
  }

  /**
   * A validated `\uXXXX` escape just ended before local index `i` (serde's parse_unicode_escape);
   * true when it is a leading surrogate, to be followed by a trailing one.
   */
  protected leadingSurrogate(i: number): boolean {
    const n = this.hexAcc;
    if (!this.hexSecond) {
      if (n >= 0xdc00 && n <= 0xdfff) this.surrogateError(R.LONE_SURROGATE, i);
      else if (n >= 0xd800 && n <= 0xdbff) return true;
    } else if (n < 0xdc00 || n > 0xdfff) {
      this.surrogateError(R.LONE_SURROGATE, i);
    }
    return false;
  }

  protected surrogateError(reason: string, local: number): void {
    if (this.strict) this.fail(reason, local);
    const by = this.validating;
    this.validating = NOT_VALIDATED;
    if (by === VALIDATED_BY_INDEXER) {
      if (this.valueError === '') this.valueError = this.fieldMessage(reason, local);
    } else if (this.keyError === '') {
      this.keyError = this.relativeMessage(reason, local);
    }
  }
}
