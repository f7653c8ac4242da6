// One value or field name (filter-parser `value.rs`):
//
//   value = WS* ( word | 'single quoted' | "double quoted" ) multispace*
//   word  = ( alphanumeric | _ | - | . )+        not a keyword
//
// • Leading whitespace is any Unicode whitespace; only spaces, tabs, CR and LF are eaten after.
// • Before anything else, a value starting with `_geoPoint`, `_geoDistance` or the word `_geo`
//   is a reserved-keyword error, and the words `_geoRadius` / `_geoBoundingBox` are "an
//   operation, not a value"; all fatal and blaming the rest of the filter.
// • Inside quotes a backslash skips the next character; if the skipped character is the quote,
//   every `\<quote>` of the value becomes `<quote>`. A backslash ending the filter is a fatal
//   `Malformed value`; a missing closing quote a fatal missing-delimiter error. `''` is a value.
// • Then every value goes through `unescape` (quoted or not). A bad number or character there is
//   a recoverable error on the value's span; an incomplete sequence aborts the parse.
// • A missing value is recoverable and blames the text up to the next whitespace or `()=<>!`.
// • The span of a quoted value is its inside, without the quotes.

import type { Token, Value } from './ast.ts';
import { parseFiniteFloat } from './numbers.ts';
import { IncompleteInput, isSyntaxComponent, ok, type Result, type Scanner } from './scanner.ts';
import { unescape } from './unescape.ts';

const KEYWORDS = new Set([
  'AND',
  'OR',
  'IN',
  'NOT',
  'TO',
  'EXISTS',
  'IS',
  'NULL',
  'EMPTY',
  'CONTAINS',
  'STARTS',
  'WITH',
  '_geoRadius',
  '_geoBoundingBox',
]);

/** Whether a bare word is reserved (it has to be quoted to be a field or a value). */
export function isKeyword(word: string): boolean {
  return KEYWORDS.has(word);
}

/** Parses the value at `pos`. */
export function parseValue(sc: Scanner, pos: number): Result<Value> {
  const start = sc.skipWhitespace(pos);
  const wordEnd = sc.wordEnd(start);
  const word = sc.text(start, wordEnd);

  const reserved = sc.startsWith(start, '_geoPoint')
    ? '_geoPoint'
    : sc.startsWith(start, '_geoDistance')
      ? '_geoDistance'
      : word === '_geo'
        ? '_geo'
        : null;
  if (reserved !== null) return sc.fatal({ k: 'reservedGeo', name: reserved }, start);
  if (word === '_geoRadius') return sc.fatal({ k: 'misusedGeoRadius' }, start);
  if (word === '_geoBoundingBox') return sc.fatal({ k: 'misusedGeoBoundingBox' }, start);

  let raw: { from: number; to: number; text: string; next: number };
  const quote = sc.at(start);
  if (quote === "'" || quote === '"') {
    const inside = scanQuoted(sc, start + 1, quote);
    if (inside === 'malformed') return sc.fatal({ k: 'malformedValue' }, start + 1);
    if (inside.close === null) return sc.fatal({ k: 'missingClosingDelimiter', char: quote }, start);
    const text = sc.text(start + 1, inside.close);
    raw = {
      from: start + 1,
      to: inside.close,
      text: inside.escapedQuote ? text.split(`\\${quote}`).join(quote) : text,
      next: inside.close + 1,
    };
  } else {
    if (word === '' || isKeyword(word)) {
      let end = start;
      while (end < sc.length && !isSyntaxComponent(sc.at(end)!)) end++;
      return sc.error({ k: 'expectedValue', keyword: word !== '' }, start, end);
    }
    raw = { from: start, to: wordEnd, text: word, next: wordEnd };
  }

  const unescaped = unescape(raw.text);
  if (!unescaped.ok) {
    if (unescaped.error === 'incomplete') throw new IncompleteInput();
    const kind = unescaped.error === 'badNumber' ? 'invalidEscapedNumber' : 'malformedValue';
    return sc.error({ k: kind }, raw.from, raw.to);
  }
  const value: Value = {
    text: unescaped.text,
    span: sc.span(raw.from, raw.to),
    number: parseFiniteFloat(unescaped.text),
  };
  return ok(sc.skipMultispace(raw.next), value);
}

/** The same value as a field name. */
export function asField(value: Value): Token {
  return { text: value.text, span: value.span };
}

/**
 * The inside of a quoted value starting at `pos` (after the opening quote): where the closing
 * quote is (null when the filter ends first) and whether a quote was escaped.
 */
export function scanQuoted(
  sc: Scanner,
  pos: number,
  quote: string,
): { close: number | null; escapedQuote: boolean } | 'malformed' {
  let escapedQuote = false;
  let i = pos;
  while (i < sc.length) {
    const c = sc.at(i);
    if (c === quote) return { close: i, escapedQuote };
    if (c === '\\') {
      if (i + 1 >= sc.length) return 'malformed';
      if (sc.at(i + 1) === quote) escapedQuote = true;
      i += 2;
    } else {
      i++;
    }
  }
  return { close: null, escapedQuote };
}
