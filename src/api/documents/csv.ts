// Streaming `text/csv` → NDJSON, as Meilisearch does it (document_formats.rs `read_csv` on top
// of the `csv` crate with its defaults): RFC 4180 quoting with `""`, CR / LF / CRLF record
// terminators, blank lines skipped, a UTF-8 BOM stripped, every record must have as many
// fields as the header; typed headers `name:number|boolean|string` (split on the last `:`).
import { isUtf8 } from 'node:buffer';
import { malformedCsv, rustDebugString } from './messages.ts';
import type { OutputBuffer } from './out-buffer.ts';
import { firstInvalidUtf8 } from './utf8.ts';

const START_RECORD = 0;
const START_FIELD = 1;
const IN_FIELD = 2;
const IN_QUOTED = 3;
const IN_DQ = 4; // a quote inside a quoted field: `""` or the end of the quoting
const CRLF = 5; // after a `\r` terminator: a `\n` right after belongs to it

const JSON_TEXT = 0;
const RAW_BYTES = 1; // a number written as it is in the record
const QUOTED_BYTES = 2; // a string without anything to escape

const STRING = 0;
const NUMBER = 1;
const BOOLEAN = 2;

const INTEGER = /^[+-]?[0-9]+$/;
const CANONICAL_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/; // JSON text of an i64, as serde writes it
const JSON_DECIMAL = /^-?(?:0|[1-9][0-9]*)\.[0-9]+$/;
const FLOAT = /^[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)$/i;
const MIN_I64 = -(2n ** 63n);
const MAX_I64 = 2n ** 63n - 1n;

/** Splits a header on its last `:` when the suffix is a known type. */
export function parseCsvHeader(header: string): { name: string; type: 'string' | 'number' | 'boolean' } {
  const colon = header.lastIndexOf(':');
  if (colon >= 0) {
    const type = header.slice(colon + 1);
    if (type === 'string' || type === 'number' || type === 'boolean') return { name: header.slice(0, colon), type };
  }
  return { name: header, type: 'string' };
}

/** Rust's `char::is_whitespace` (what `str::trim` removes). */
function isRustWhitespace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

export function rustTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isRustWhitespace(s.charCodeAt(a))) a++;
  while (b > a && isRustWhitespace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/**
 * JSON text of a `number` cell (already trimmed, not empty): an i64 when it parses as one
 * (exact digits), else an f64 written with a `.`/exponent so it stays a float; non-finite
 * floats become `null` like serde_json's `Value::from(f64)`. undefined when not a number.
 */
export function csvNumberJson(s: string): string | undefined {
  if (CANONICAL_INTEGER.test(s)) return s === '-0' ? '0' : s;
  // A JSON float literal denotes the same f64 as serde's shortest form of it.
  if (s.length < 300 && JSON_DECIMAL.test(s)) return s;
  if (INTEGER.test(s)) {
    if (s.length <= 15) return String(Number(s));
    const big = BigInt(s);
    if (big >= MIN_I64 && big <= MAX_I64) return big.toString();
  }
  if (!FLOAT.test(s)) return undefined;
  const f = Number(s);
  if (!Number.isFinite(f)) return 'null';
  if (Object.is(f, -0)) return '-0.0';
  const text = String(f);
  return /[.e]/.test(text) ? text : text + '.0';
}

export class CsvConverter {
  /** Documents written so far. */
  count = 0;
  private readonly delimiter: number;
  private readonly out: OutputBuffer;
  private state = START_RECORD;
  private head: Buffer | null = Buffer.alloc(0); // first bytes, until the BOM question is settled
  private base = 0;
  private line = 1;
  private rec: Buffer = Buffer.allocUnsafe(1 << 16);
  private recLen = 0;
  private ends: number[] = [];
  private recordIndex = 0;
  private recordLine = 1;
  private recordByte = 0;
  private headerCount = 0;
  private types: number[] = [];
  private prefixes: Buffer[] = []; // per (deduplicated) key: `{"name":` then `,"name":`
  private slotColumn: number[] = []; // per key: the column whose value it takes
  private kinds = new Uint8Array(0); // per column: how its JSON is written
  private cells: string[] = []; // per column, kind JSON_TEXT: its JSON
  private rawStarts: number[] = []; // per column, kind RAW_BYTES: the bytes of the record
  private rawEnds: number[] = [];

  constructor(delimiter: number, out: OutputBuffer) {
    this.delimiter = delimiter;
    this.out = out;
  }

  feed(chunk: Buffer): void {
    if (this.head !== null) {
      const head = Buffer.concat([this.head, chunk]);
      if (head.length < 3) {
        this.head = head;
        return;
      }
      this.head = null;
      const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
      this.base = bom;
      this.process(head.subarray(bom));
      return;
    }
    this.process(chunk);
  }

  end(): void {
    if (this.head !== null) {
      const head = this.head;
      this.head = null;
      this.process(head);
    }
    if (this.state !== START_RECORD && this.state !== CRLF) {
      this.ends.push(this.recLen);
      this.emitRecord(this.base);
    }
  }

  private process(buf: Buffer): void {
    const n = buf.length;
    const delimiter = this.delimiter;
    let state = this.state;
    let i = 0;
    while (i < n) {
      const c = buf[i]!;
      switch (state) {
        case START_RECORD:
          if (c === 10 || c === 13) {
            if (c === 10) this.line++;
            i++;
          } else {
            state = START_FIELD;
          }
          continue;
        case START_FIELD:
          if (c === 34) {
            state = IN_QUOTED;
            i++;
          } else if (c === delimiter) {
            this.ends.push(this.recLen);
            i++;
          } else if (c === 10 || c === 13) {
            state = this.terminate(c, this.base + i);
            i++;
          } else {
            state = IN_FIELD;
          }
          continue;
        case IN_FIELD: {
          let j = i;
          while (j < n) {
            const d = buf[j]!;
            if (d === delimiter || d === 10 || d === 13) break;
            j++;
          }
          this.append(buf, i, j);
          i = j;
          if (j === n) continue;
          const d = buf[j]!;
          i++;
          if (d === delimiter) {
            this.ends.push(this.recLen);
            state = START_FIELD;
          } else {
            state = this.terminate(d, this.base + j);
          }
          continue;
        }
        case IN_QUOTED: {
          let j = i;
          while (j < n) {
            const d = buf[j]!;
            if (d === 34) break;
            if (d === 10) this.line++;
            j++;
          }
          this.append(buf, i, j);
          i = j;
          if (j < n) {
            state = IN_DQ;
            i++;
          }
          continue;
        }
        case IN_DQ:
          if (c === 34) {
            this.append(buf, i, i + 1);
            state = IN_QUOTED;
            i++;
          } else if (c === delimiter) {
            this.ends.push(this.recLen);
            state = START_FIELD;
            i++;
          } else if (c === 10 || c === 13) {
            state = this.terminate(c, this.base + i);
            i++;
          } else {
            state = IN_FIELD;
          }
          continue;
        default: // CRLF
          if (c === 10) {
            this.line++;
            i++;
          }
          state = START_RECORD;
          continue;
      }
    }
    this.state = state;
    this.base += n;
  }

  /** A record terminator at global offset `at`: ends the field and the record. */
  private terminate(c: number, at: number): number {
    if (c === 10) this.line++;
    this.ends.push(this.recLen);
    this.emitRecord(at + 1);
    return c === 13 ? CRLF : START_RECORD;
  }

  private append(src: Buffer, start: number, end: number): void {
    const len = end - start;
    if (len === 0) return;
    if (this.recLen + len > this.rec.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.rec.length * 2, this.recLen + len));
      this.rec.copy(bigger, 0, 0, this.recLen);
      this.rec = bigger;
    }
    if (len < 32) {
      const rec = this.rec;
      let p = this.recLen;
      for (let k = start; k < end; k++) rec[p++] = src[k]!;
    } else {
      src.copy(this.rec, this.recLen, start, end);
    }
    this.recLen += len;
  }

  /** The record just read; the next one starts at global offset `next`. */
  private emitRecord(next: number): void {
    const ends = this.ends;
    const record = this.recordIndex;
    const where = `record ${record} (line: ${this.recordLine}, byte: ${this.recordByte})`;
    if (record > 0 && ends.length !== this.headerCount) {
      throw malformedCsv(
        `CSV error: ${where}: found record with ${ends.length} fields, but the previous record has ${this.headerCount} fields`,
      );
    }
    if (!isUtf8(this.rec.subarray(0, this.recLen))) this.utf8Error();
    if (record === 0) this.setHeader();
    else this.writeDocument(record);
    this.recordIndex++;
    this.recordLine = this.line;
    this.recordByte = next;
    this.recLen = 0;
    this.ends.length = 0;
  }

  private utf8Error(): never {
    let start = 0;
    for (let field = 0; field < this.ends.length; field++) {
      const end = this.ends[field]!;
      const bad = firstInvalidUtf8(this.rec, start, end);
      if (bad >= 0) {
        throw malformedCsv(
          `CSV parse error: record ${this.recordIndex} (line ${this.recordLine}, field: ${field}, byte: ${this.recordByte}): ` +
            `invalid utf-8: invalid UTF-8 in field ${field} near byte index ${bad - start}`,
        );
      }
      start = end;
    }
    throw malformedCsv(`CSV parse error: record ${this.recordIndex}: invalid utf-8`);
  }

  private start(k: number): number {
    return k === 0 ? 0 : this.ends[k - 1]!;
  }

  private field(k: number): string {
    return this.rec.toString('utf8', this.start(k), this.ends[k]!);
  }

  private setHeader(): void {
    this.headerCount = this.ends.length;
    const index = new Map<string, number>();
    for (let k = 0; k < this.headerCount; k++) {
      const { name, type } = parseCsvHeader(this.field(k));
      this.types.push(type === 'number' ? NUMBER : type === 'boolean' ? BOOLEAN : STRING);
      let slot = index.get(name);
      if (slot === undefined) {
        slot = this.prefixes.length;
        index.set(name, slot);
        this.prefixes.push(Buffer.from((slot === 0 ? '{' : ',') + JSON.stringify(name) + ':'));
      }
      this.slotColumn[slot] = k; // the last column of a name wins
    }
    this.cells = new Array<string>(this.headerCount).fill('');
    this.kinds = new Uint8Array(this.headerCount);
  }

  /** JSON of cell k, checked for its type (Meilisearch's read_csv); sets kinds[k]. */
  private cell(k: number, line: number): void {
    const rec = this.rec;
    let a = this.start(k);
    let b = this.ends[k]!;
    const type = this.types[k]!;
    this.kinds[k] = JSON_TEXT;
    if (type === STRING) {
      if (a === b) return void (this.cells[k] = 'null');
      for (let p = a; p < b; p++) {
        const c = rec[p]!;
        if (c === 34 || c === 92 || c < 32) return void (this.cells[k] = JSON.stringify(this.field(k)));
      }
      this.kinds[k] = QUOTED_BYTES;
      return;
    }
    while (a < b && (rec[a] === 32 || (rec[a]! >= 9 && rec[a]! <= 13))) a++;
    while (b > a && (rec[b - 1] === 32 || (rec[b - 1]! >= 9 && rec[b - 1]! <= 13))) b--;
    if (a === b) return void (this.cells[k] = 'null');
    if (type === NUMBER && plainNumber(rec, a, b)) {
      this.kinds[k] = RAW_BYTES;
      this.rawEnds[k] = b;
      this.rawStarts[k] = a;
      return;
    }
    const raw = this.field(k);
    const trimmed = rustTrim(raw);
    if (trimmed === '') return void (this.cells[k] = 'null');
    if (type === NUMBER) {
      const number = csvNumberJson(trimmed);
      if (number === undefined) throw malformedCsv(`Error parsing number ${rustDebugString(raw)} at line ${line}: invalid float literal`);
      this.cells[k] = number;
    } else if (trimmed === 'true' || trimmed === 'false') {
      this.cells[k] = trimmed;
    } else {
      throw malformedCsv(`Error parsing boolean ${rustDebugString(raw)} at line ${line}: provided string was not \`true\` or \`false\``);
    }
  }

  private writeDocument(line: number): void {
    for (let k = 0; k < this.headerCount; k++) this.cell(k, line);
    const out = this.out;
    const rec = this.rec;
    for (let s = 0; s < this.prefixes.length; s++) {
      const prefix = this.prefixes[s]!;
      out.copy(prefix, 0, prefix.length);
      const k = this.slotColumn[s]!;
      const kind = this.kinds[k];
      if (kind === RAW_BYTES) {
        out.copy(rec, this.rawStarts[k]!, this.rawEnds[k]!);
      } else if (kind === QUOTED_BYTES) {
        out.byte(34);
        out.copy(rec, this.start(k), this.ends[k]!);
        out.byte(34);
      } else {
        out.text(this.cells[k]!);
      }
    }
    out.byte(125);
    out.byte(10);
    this.count++;
  }
}

/** A JSON number whose text is also serde's (short integer) or denotes the same f64 (decimal). */
function plainNumber(rec: Buffer, a: number, b: number): boolean {
  let i = a;
  if (rec[i] === 45) i++;
  const digits = i;
  while (i < b && rec[i]! >= 48 && rec[i]! <= 57) i++;
  const length = i - digits;
  if (length === 0 || (length > 1 && rec[digits] === 48)) return false;
  if (i === b) return length <= 15 && !(digits > a && length === 1 && rec[digits] === 48); // not "-0"
  if (rec[i] !== 46 || b - a >= 300) return false;
  const fraction = ++i;
  while (i < b && rec[i]! >= 48 && rec[i]! <= 57) i++;
  return i === b && i > fraction;
}
