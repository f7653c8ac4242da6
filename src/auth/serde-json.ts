// serde_json's reading of the JSON inside a tenant token, with its error messages and positions.
//
// Meilisearch decodes a token's header and claims with serde_json into typed structs and answers
// with serde_json's error text (``missing field `searchRules` at line 1 column 16``). This reader
// reproduces the parts of `Deserializer<SliceRead>` those structs exercise: the grammar (literals,
// numbers, strings with escapes, surrogates and UTF-8), the recursion limit of 128, skipping
// unknown values, and where each error is positioned (the typed side is in serde-de.ts):
//
//   error(reason)      at the next unread byte                 (serde_json `error`)
//   peekError(reason)  one byte further, capped at the end       (`peek_error`)
//   a visitor's own error (missing field, untagged enum...) takes the position of the reader when
//   the enclosing struct gives up, after it tried to close its `}` / `]`   (`fix_position`)
//
// Line = 1 + newlines before; column = bytes since the last newline.
import type { Json } from '../engine/json.ts';
import { jsonPosition, setKey } from '../engine/json.ts';

export const E = {
  EOF_LIST: 'EOF while parsing a list',
  EOF_OBJECT: 'EOF while parsing an object',
  EOF_STRING: 'EOF while parsing a string',
  EOF_VALUE: 'EOF while parsing a value',
  COLON: 'expected `:`',
  LIST_COMMA_OR_END: 'expected `,` or `]`',
  OBJECT_COMMA_OR_END: 'expected `,` or `}`',
  IDENT: 'expected ident',
  VALUE: 'expected value',
  INVALID_ESCAPE: 'invalid escape',
  INVALID_NUMBER: 'invalid number',
  NUMBER_OUT_OF_RANGE: 'number out of range',
  INVALID_UNICODE: 'invalid unicode code point',
  CONTROL_CHAR: 'control character (\\u0000-\\u001F) found while parsing a string',
  KEY_MUST_BE_STRING: 'key must be a string',
  LONE_SURROGATE: 'lone leading surrogate in hex escape',
  TRAILING_COMMA: 'trailing comma',
  TRAILING_CHARACTERS: 'trailing characters',
  END_OF_HEX_ESCAPE: 'unexpected end of hex escape',
  RECURSION: 'recursion limit exceeded',
} as const;

/** A serde_json error; `line` 0 until positioned. `message` is serde_json's Display. */
export class JsonError extends Error {
  line = 0;
  column = 0;
  constructor(readonly reason: string) {
    super(reason);
  }

  place(line: number, column: number): this {
    this.line = line;
    this.column = column;
    this.message = `${this.reason} at line ${line} column ${column}`;
    return this;
  }
}

/** A number as serde_json parses it (`ParserNumber`). */
export type JsonNumber = { kind: 'u64' | 'i64'; value: bigint } | { kind: 'f64'; value: number };

/** What `deserialize_any` buffers for untagged enums (serde's `Content`), duplicate keys kept. */
export type Content = null | boolean | string | ContentNumber | Content[] | ContentMap;
export class ContentNumber {
  constructor(readonly n: JsonNumber) {}
}
export class ContentMap {
  constructor(readonly entries: readonly (readonly [string, Content])[]) {}
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;
const ESCAPES: Record<number, number> = { 0x22: 0x22, 0x5c: 0x5c, 0x2f: 0x2f, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9 };
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const isDigit = (c: number) => c >= ZERO && c <= NINE;
/** `#nextItem` at the closing byte */
const CLOSED = -2;

export class JsonReader {
  readonly #b: Uint8Array;
  #i = 0;
  #depth = 128;

  constructor(bytes: Uint8Array) {
    this.#b = bytes;
  }

  /** `parse_whitespace`: skips blanks; the next byte, or -1 at the end. */
  ws(): number {
    const b = this.#b;
    while (this.#i < b.length) {
      const c = b[this.#i]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return c;
      this.#i++;
    }
    return -1;
  }

  peek(): number {
    return this.#i < this.#b.length ? this.#b[this.#i]! : -1;
  }

  eat(): void {
    this.#i++;
  }

  #next(): number {
    return this.#i < this.#b.length ? this.#b[this.#i++]! : -1;
  }

  error(reason: string): JsonError {
    return this.#at(new JsonError(reason), this.#i);
  }

  peekError(reason: string): JsonError {
    return this.#at(new JsonError(reason), Math.min(this.#b.length, this.#i + 1));
  }

  /** `fix_position`: an error without a position gets the reader's current one. */
  fix(err: unknown): unknown {
    return err instanceof JsonError && err.line === 0 ? this.#at(err, this.#i) : err;
  }

  #at(err: JsonError, index: number): JsonError {
    const { line, column } = jsonPosition(this.#b, index);
    return err.place(line, column);
  }

  /** `check_recursion`: entering `[` or `{` (before eating it). */
  enter(): void {
    if (--this.#depth === 0) throw this.peekError(E.RECURSION);
  }

  leave(): void {
    this.#depth++;
  }

  /** `end`: nothing but whitespace may follow the value. */
  end(): void {
    if (this.ws() !== -1) throw this.peekError(E.TRAILING_CHARACTERS);
  }

  /** `parse_ident`: the rest of `null` / `true` / `false` after its first byte. */
  ident(rest: string): void {
    for (let k = 0; k < rest.length; k++) {
      const c = this.#next();
      if (c === -1) throw this.error(E.EOF_VALUE);
      if (c !== rest.charCodeAt(k)) throw this.error(E.IDENT);
    }
  }

  /** `parse_str` after the opening quote, validating escapes and UTF-8. */
  string(): string {
    const b = this.#b;
    const chunks: Uint8Array[] = [];
    let start = this.#i;
    for (;;) {
      if (this.#i >= b.length) throw this.error(E.EOF_STRING);
      const c = b[this.#i]!;
      if (c === QUOTE) {
        chunks.push(b.subarray(start, this.#i));
        this.#i++;
        try {
          return chunks.length === 1 ? UTF8.decode(chunks[0]) : UTF8.decode(Buffer.concat(chunks));
        } catch {
          throw this.error(E.INVALID_UNICODE);
        }
      }
      this.#i++;
      if (c === BACKSLASH) {
        chunks.push(b.subarray(start, this.#i - 1));
        chunks.push(this.#escape(true));
        start = this.#i;
      } else if (c < 0x20) {
        throw this.error(E.CONTROL_CHAR);
      }
    }
  }

  /** `ignore_str`: a string skipped without validating surrogates nor UTF-8. */
  #ignoreString(): void {
    const b = this.#b;
    for (;;) {
      if (this.#i >= b.length) throw this.error(E.EOF_STRING);
      const c = b[this.#i++]!;
      if (c === QUOTE) return;
      if (c === BACKSLASH) this.#escape(false);
      else if (c < 0x20) throw this.error(E.CONTROL_CHAR);
    }
  }

  /** `parse_escape` after the backslash: the UTF-8 bytes it stands for. */
  #escape(validate: boolean): Uint8Array {
    const c = this.#next();
    if (c === -1) throw this.error(E.EOF_STRING);
    if (c === 0x75 /* u */) return this.#unicodeEscape(validate);
    const byte = ESCAPES[c];
    if (byte === undefined) throw this.error(E.INVALID_ESCAPE);
    return Uint8Array.of(byte);
  }

  #unicodeEscape(validate: boolean): Uint8Array {
    let n = this.#hex4();
    if (validate && n >= 0xdc00 && n <= 0xdfff) throw this.error(E.LONE_SURROGATE);
    for (;;) {
      if (n < 0xd800 || n > 0xdbff) return Buffer.from(String.fromCharCode(n), 'utf8');
      const lead = n;
      if (this.#peekInString() !== BACKSLASH) {
        if (!validate) return new Uint8Array(0);
        this.#i++;
        throw this.error(E.END_OF_HEX_ESCAPE);
      }
      this.#i++;
      if (this.#peekInString() !== 0x75) {
        if (!validate) return this.#escape(false);
        this.#i++;
        throw this.error(E.END_OF_HEX_ESCAPE);
      }
      this.#i++;
      const trail = this.#hex4();
      if (trail < 0xdc00 || trail > 0xdfff) {
        if (validate) throw this.error(E.LONE_SURROGATE);
        if (trail >= 0xd800 && trail <= 0xdbff) {
          n = trail;
          continue;
        }
        return new Uint8Array(0);
      }
      return Buffer.from(String.fromCharCode(lead, trail), 'utf8');
    }
  }

  #peekInString(): number {
    const c = this.peek();
    if (c === -1) throw this.error(E.EOF_STRING);
    return c;
  }

  #hex4(): number {
    const b = this.#b;
    if (this.#i + 4 > b.length) {
      this.#i = b.length;
      throw this.error(E.EOF_STRING);
    }
    const text = Buffer.from(b.subarray(this.#i, this.#i + 4)).toString('latin1');
    this.#i += 4;
    if (!/^[0-9a-fA-F]{4}$/.test(text)) throw this.error(E.INVALID_ESCAPE);
    return parseInt(text, 16);
  }

  /** `parse_integer` and what follows, after the `-` of a negative number has been eaten. */
  number(positive: boolean): JsonNumber {
    const b = this.#b;
    const start = this.#i;
    const { integerEnd, float } = this.#scanNumber(E.EOF_VALUE);
    const latin1 = (from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');
    if (!float) {
      const significand = BigInt(latin1(start, integerEnd));
      if (significand <= U64_MAX) {
        if (positive) return { kind: 'u64', value: significand };
        if (significand !== 0n && significand <= I64_MAX + 1n) return { kind: 'i64', value: -significand };
        return { kind: 'f64', value: -Number(significand) };
      }
    }
    const value = Number(latin1(start, this.#i));
    if (!Number.isFinite(value)) throw this.error(E.NUMBER_OUT_OF_RANGE);
    return { kind: 'f64', value: positive ? value : -value };
  }

  /** `deserialize_any` into serde's `Content`. */
  any(): Content {
    const c = this.ws();
    if (c === -1) throw this.peekError(E.EOF_VALUE);
    switch (c) {
      case 0x6e:
        this.eat();
        this.ident('ull');
        return null;
      case 0x74:
        this.eat();
        this.ident('rue');
        return true;
      case 0x66:
        this.eat();
        this.ident('alse');
        return false;
      case MINUS:
        this.eat();
        return new ContentNumber(this.number(false));
      case QUOTE:
        this.eat();
        return this.string();
      case LBRACKET: {
        this.enter();
        this.eat();
        const items: Content[] = [];
        for (let first = true; this.element(first); first = false) items.push(this.any());
        this.leave();
        this.endSeq();
        return items;
      }
      case LBRACE: {
        this.enter();
        this.eat();
        const entries: [string, Content][] = [];
        for (let first = true; ; first = false) {
          const key = this.key(first);
          if (key === null) break;
          this.colon();
          entries.push([key, this.any()]);
        }
        this.leave();
        this.endMap();
        return new ContentMap(entries);
      }
      default:
        if (isDigit(c)) return new ContentNumber(this.number(true));
        throw this.peekError(E.VALUE);
    }
  }

  /** `SeqAccess::next_element`: true when an element follows (the reader is at it), false at `]`. */
  element(first: boolean): boolean {
    const c = this.#nextItem(first, RBRACKET, E.EOF_LIST, E.LIST_COMMA_OR_END);
    if (c === CLOSED) return false;
    if (c === -1) throw this.peekError(E.EOF_VALUE);
    return true;
  }

  /** `MapAccess::next_key`: the next key, or null at `}`. */
  key(first: boolean): string | null {
    const c = this.#nextItem(first, RBRACE, E.EOF_OBJECT, E.OBJECT_COMMA_OR_END);
    if (c === CLOSED) return null;
    if (c === QUOTE) {
      this.eat();
      return this.string();
    }
    throw this.peekError(c === -1 ? E.EOF_VALUE : E.KEY_MUST_BE_STRING);
  }

  /** What sequences and maps share: the byte after the separating comma, or CLOSED at `close`. */
  #nextItem(first: boolean, close: number, eof: string, commaOrEnd: string): number {
    let c = this.ws();
    if (c === close) return CLOSED;
    if (c === COMMA && !first) {
      this.eat();
      c = this.ws();
    } else if (c === -1) {
      throw this.peekError(eof);
    } else if (!first) {
      throw this.peekError(commaOrEnd);
    }
    if (c === close) throw this.peekError(E.TRAILING_COMMA);
    return c;
  }

  /** `parse_object_colon`. */
  colon(): void {
    const c = this.ws();
    if (c === COLON) return this.eat();
    throw this.peekError(c === -1 ? E.EOF_OBJECT : E.COLON);
  }

  endMap(): void {
    const c = this.ws();
    if (c === RBRACE) return this.eat();
    throw this.peekError(c === COMMA ? E.TRAILING_COMMA : c === -1 ? E.EOF_OBJECT : E.TRAILING_CHARACTERS);
  }

  endSeq(): void {
    const c = this.ws();
    if (c === RBRACKET) return this.eat();
    if (c === COMMA) {
      this.eat();
      throw this.peekError(this.ws() === RBRACKET ? E.TRAILING_COMMA : E.TRAILING_CHARACTERS);
    }
    throw this.peekError(c === -1 ? E.EOF_LIST : E.TRAILING_CHARACTERS);
  }

  /** `end_map` attempted after a failed visit: its error is dropped, but it moves the reader. */
  tryEndMap(): void {
    if (this.ws() === RBRACE) this.eat();
  }

  tryEndSeq(): void {
    const c = this.ws();
    if (c === RBRACKET) this.eat();
    else if (c === COMMA) {
      this.eat();
      this.ws();
    }
  }

  /** `ignore_value` (an unknown field): iterative, with its own error choices and no depth limit. */
  ignoreValue(): void {
    const frames: number[] = [];
    for (;;) {
      const c = this.ws();
      if (c === -1) throw this.peekError(E.EOF_VALUE);
      let opened = false;
      if (c === 0x6e || c === 0x74 || c === 0x66) {
        this.eat();
        this.ident(c === 0x6e ? 'ull' : c === 0x74 ? 'rue' : 'alse');
      } else if (c === MINUS) {
        this.eat();
        this.#ignoreNumber();
      } else if (isDigit(c)) {
        this.#ignoreNumber();
      } else if (c === QUOTE) {
        this.eat();
        this.#ignoreString();
      } else if (c === LBRACKET || c === LBRACE) {
        this.eat();
        frames.push(c);
        opened = true;
      } else {
        throw this.peekError(E.VALUE);
      }
      let acceptComma = !opened;
      if (!opened && frames.length === 0) return;
      for (;;) {
        const frame = frames[frames.length - 1]!;
        const d = this.ws();
        if (d === COMMA && acceptComma) {
          this.eat();
          break;
        }
        if ((d === RBRACKET && frame === LBRACKET) || (d === RBRACE && frame === LBRACE)) {
          this.eat();
          frames.pop();
          if (frames.length === 0) return;
          acceptComma = true;
          continue;
        }
        if (d === -1) throw this.peekError(frame === LBRACKET ? E.EOF_LIST : E.EOF_OBJECT);
        if (acceptComma) throw this.peekError(frame === LBRACKET ? E.LIST_COMMA_OR_END : E.OBJECT_COMMA_OR_END);
        break;
      }
      if (frames[frames.length - 1] === LBRACE) {
        const k = this.ws();
        if (k !== QUOTE) throw this.peekError(k === -1 ? E.EOF_OBJECT : E.KEY_MUST_BE_STRING);
        this.eat();
        this.#ignoreString();
        const colon = this.ws();
        if (colon !== COLON) throw this.peekError(colon === -1 ? E.EOF_OBJECT : E.COLON);
        this.eat();
      }
    }
  }

  /** `ignore_integer` / `ignore_decimal` / `ignore_exponent`: the grammar only, no range check. */
  #ignoreNumber(): void {
    this.#scanNumber(E.INVALID_NUMBER);
  }

  /**
   * The grammar of a number after its sign: where its integer part ends and whether a fraction or
   * exponent follows. `eof`: what running out of bytes inside it is called (parsing says EOF,
   * skipping says invalid number).
   */
  #scanNumber(eof: string): { integerEnd: number; float: boolean } {
    const first = this.#next();
    if (first === -1) throw this.error(eof);
    if (first === ZERO) {
      if (isDigit(this.peek())) throw this.peekError(E.INVALID_NUMBER);
    } else if (first > ZERO && first <= NINE) {
      while (isDigit(this.peek())) this.#i++;
    } else {
      throw this.error(E.INVALID_NUMBER);
    }
    const integerEnd = this.#i;
    let float = false;
    if (this.peek() === 0x2e /* . */) {
      float = true;
      this.#i++;
      if (!isDigit(this.peek())) throw this.peekError(this.peek() === -1 ? eof : E.INVALID_NUMBER);
      while (isDigit(this.peek())) this.#i++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45 /* e E */) {
      float = true;
      this.#i++;
      if (this.peek() === 0x2b || this.peek() === MINUS) this.#i++;
      const d = this.#next();
      if (d === -1) throw this.error(eof);
      if (!isDigit(d)) throw this.error(E.INVALID_NUMBER);
      while (isDigit(this.peek())) this.#i++;
    }
    return { integerEnd, float };
  }
}

/** `Content` as a `serde_json::Value` (the last of duplicate keys wins). */
export function contentToJson(c: Content): Json {
  if (c instanceof ContentNumber) return Number(c.n.value);
  if (c instanceof ContentMap) {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of c.entries) setKey(out, k, contentToJson(v));
    return out;
  }
  if (Array.isArray(c)) return c.map(contentToJson);
  return c;
}

