// The parser's cursor and result type. Positions are code point indexes (nom_locate counts
// columns in characters), so the input is split into code points once.
//
// Results follow nom's three outcomes, because the exact error Meilisearch reports depends on
// them: `ok`; a recoverable error (`fatal: false`, nom `Err::Error`: the enclosing alternative
// tries its next branch) and a fatal one (`fatal: true`, nom `Err::Failure`: everything unwinds).
// nom's third outcome, `Incomplete` (an escape sequence cut short), aborts the whole parse; it
// is thrown as `IncompleteInput`.
//
// Character classes are Rust's: `char::is_alphanumeric` / `char::is_whitespace` (Unicode) and
// nom's `multispace` (space, tab, CR, LF only).

import type { FilterSource, Span } from './ast.ts';
import type { ErrorKind } from './errors.ts';

export interface Ok<T> {
  readonly ok: true;
  /** Where parsing continues. */
  readonly pos: number;
  readonly value: T;
}

/** An error and the fragment it blames. */
export interface Failed {
  readonly ok: false;
  readonly fatal: boolean;
  readonly kind: ErrorKind;
  readonly span: Span;
}

export type Result<T> = Ok<T> | Failed;

/** nom's `Err::Incomplete`: aborts the parse, reported on the whole filter. */
export class IncompleteInput extends Error {}

export function ok<T>(pos: number, value: T): Ok<T> {
  return { ok: true, pos, value };
}

/** nom `cut`: a recoverable error becomes fatal. */
export function cut(failed: Failed): Failed {
  return failed.fatal ? failed : { ...failed, fatal: true };
}

/** The same blamed fragment under another kind, fatal (milli's `map_cut`). */
export function recast(failed: Failed, kind: ErrorKind): Failed {
  return { ok: false, fatal: true, kind, span: failed.span };
}

const VALUE_COMPONENT = /^[\p{Alphabetic}\p{N}_.-]$/u;
const WHITESPACE = /^\p{White_Space}$/u;
const SYNTAX = new Set(['(', ')', '=', '<', '>', '!']);

/** A character of an unquoted word: Rust `is_alphanumeric`, `_`, `-` or `.`. */
export function isValueComponent(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 0x80) {
    const letterOrDigit = (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a ? true : code >= 0x30 && code <= 0x39;
    return letterOrDigit || c === '_' || c === '-' || c === '.';
  }
  return VALUE_COMPONENT.test(c);
}
/** Rust `char::is_whitespace`. */
export function isWhitespace(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 0x80) return c === ' ' || (code >= 0x09 && code <= 0x0d);
  return WHITESPACE.test(c);
}
/** Characters that end the fragment quoted by "Was expecting a value" errors. */
export function isSyntaxComponent(c: string): boolean {
  return SYNTAX.has(c) || isWhitespace(c);
}
function isMultispace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

export class Scanner {
  readonly chars: readonly string[];
  /** The source new spans point into; swapped while parsing inside `_foreign(…)`. */
  source: FilterSource;
  readonly #text: string;
  /** UTF-16 offset of each code point (and of the end), when they differ from code point indexes. */
  readonly #offsets: Uint32Array | null;

  constructor(text: string) {
    this.chars = Array.from(text);
    this.source = { text, shown: text };
    this.#text = text;
    if (this.chars.length === text.length) {
      this.#offsets = null;
    } else {
      this.#offsets = new Uint32Array(this.chars.length + 1);
      for (let i = 0, offset = 0; i < this.chars.length; i++) {
        this.#offsets[i] = offset;
        offset += this.chars[i]!.length;
      }
      this.#offsets[this.chars.length] = text.length;
    }
  }

  get length(): number {
    return this.chars.length;
  }

  at(pos: number): string | undefined {
    return this.chars[pos];
  }

  /** Whether the ASCII `tag` is written at `pos` (nom `tag`: a prefix match). */
  startsWith(pos: number, tag: string): boolean {
    for (let i = 0; i < tag.length; i++) if (this.chars[pos + i] !== tag[i]) return false;
    return true;
  }

  text(start: number, end: number): string {
    const last = this.chars.length;
    const [from, to] = [Math.min(start, last), Math.min(end, last)];
    if (this.#offsets === null) return this.#text.slice(from, to);
    return this.#text.slice(this.#offsets[from], this.#offsets[to]);
  }

  span(start: number, end: number): Span {
    return { start, end, source: this.source };
  }

  /** nom `multispace0`. */
  skipMultispace(pos: number): number {
    while (isMultispace(this.chars[pos])) pos++;
    return pos;
  }

  /** nom `multispace1`: the end of at least one multispace, or null. */
  multispace1(pos: number): number | null {
    const end = this.skipMultispace(pos);
    return end > pos ? end : null;
  }

  /** Skips Rust `char::is_whitespace` characters. */
  skipWhitespace(pos: number): number {
    while (pos < this.chars.length && isWhitespace(this.chars[pos]!)) pos++;
    return pos;
  }

  /** End of the unquoted word at `pos` (`take_while(is_value_component)`). */
  wordEnd(pos: number): number {
    while (pos < this.chars.length && isValueComponent(this.chars[pos]!)) pos++;
    return pos;
  }

  /** `ws(word_exact(word))`: the position after `word` and the spaces around it, or null. */
  keyword(pos: number, word: string): number | null {
    const start = this.skipMultispace(pos);
    const end = this.wordEnd(start);
    if (this.text(start, end) !== word) return null;
    return this.skipMultispace(end);
  }

  /** An error blaming `[start, end)`, by default everything from `start` on. */
  error(kind: ErrorKind, start: number, end: number = this.length): Failed {
    return { ok: false, fatal: false, kind, span: this.span(start, end) };
  }

  fatal(kind: ErrorKind, start: number, end: number = this.length): Failed {
    return { ok: false, fatal: true, kind, span: this.span(start, end) };
  }
}
