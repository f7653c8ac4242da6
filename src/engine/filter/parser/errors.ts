// Filter errors as Meilisearch prints them (filters.md §7; filter-parser `error.rs`): a
// diagnostic line, then `start:end shown-filter`, where `start` is the 1-based column (in code
// points, counted from the last newline before the fragment) of the offending fragment and
// `end = start + its length`. Fragments quoted inside diagnostics go through Rust's
// `str::escape_debug` (`'` → `\'`, `"` → `\"`, newline → `\n`, …).
//
// The parser reports an `ErrorKind` with the fragment it blames; `describe` turns it into the
// diagnostic. Evaluation errors (not filterable, bad latitude) reuse `spanError` so they print the
// same way. The API layer picks the error code (`invalid_search_filter`, …).
//
// Two messages of filter-parser cannot occur in 1.50 and are left out: "`X` is a reserved keyword
// and thus cannot be used as a field name…" (a keyword where a value is due is reported as
// "Was expecting a value but instead got `X`, which is a reserved keyword…") and the keyword
// variant of "Expected only comma-separated field names inside `IN[..]`" (milli tests for a kind
// that `parse_value` never returns).

import type { Span } from './ast.ts';

/** What went wrong, one variant per diagnostic of filter-parser's `ErrorKind`. */
export type ErrorKind =
  | { readonly k: 'reservedGeo'; readonly name: string }
  | { readonly k: 'geoRadius' }
  | { readonly k: 'geoRadiusArgumentCount'; readonly count: number }
  | { readonly k: 'geoBoundingBox' }
  | { readonly k: 'geoPolygon' }
  | { readonly k: 'geoPolygonNotEnoughPoints'; readonly count: number }
  | { readonly k: 'geoCoordinatesNotPair'; readonly count: number }
  | { readonly k: 'misusedGeoRadius' }
  | { readonly k: 'misusedGeoBoundingBox' }
  | { readonly k: 'vectorLeftover' }
  | { readonly k: 'vectorInvalidQuotes' }
  | { readonly k: 'vectorMissingEmbedder' }
  | { readonly k: 'vectorInvalidEmbedder' }
  | { readonly k: 'vectorMissingFragment' }
  | { readonly k: 'vectorInvalidFragment' }
  | { readonly k: 'vectorUnknownSuffix'; readonly previous: string | null; readonly value: string }
  | { readonly k: 'vectorOperation' }
  | { readonly k: 'invalidPrimary' }
  | { readonly k: 'invalidEscapedNumber' }
  | { readonly k: 'expectedEof' }
  | { readonly k: 'expectedValue'; readonly keyword: boolean }
  | { readonly k: 'malformedValue' }
  | { readonly k: 'inOpeningBracket' }
  | { readonly k: 'inClosingBracket' }
  | { readonly k: 'inExpectedValue' }
  | { readonly k: 'missingClosingDelimiter'; readonly char: string }
  | { readonly k: 'depthLimit' }
  | { readonly k: 'foreign' }
  | { readonly k: 'incomplete' }
  /** A combinator failed where the grammar only tries alternatives; never shown. */
  | { readonly k: 'internal' };

/** A filter that cannot be parsed or evaluated. `message` is the full Meilisearch message. */
export class FilterSyntaxError extends Error {
  /** The first line of the message. */
  readonly diagnostic: string;
  /** The blamed fragment; null for errors about the JSON shape of the filter. */
  readonly span: Span | null;

  constructor(diagnostic: string, span: Span | null) {
    super(span === null ? diagnostic : `${diagnostic}\n${spanLine(span)}`);
    this.name = 'FilterSyntaxError';
    this.diagnostic = diagnostic;
    this.span = span;
  }
}

/** An error blaming `span`, printed like parse errors (milli's `Token::to_external_error`). */
export function spanError(diagnostic: string, span: Span): FilterSyntaxError {
  return new FilterSyntaxError(diagnostic, span);
}

/** The parser's error for `kind` blaming the fragment `[start, end)` of `source`. */
export function kindError(kind: ErrorKind, span: Span): FilterSyntaxError {
  return new FilterSyntaxError(describe(kind, fragmentOf(span)), span);
}

/** `start:end shown`, the second line of a filter error. */
export function spanLine(span: Span): string {
  const chars = Array.from(span.source.text);
  let lineStart = span.start;
  while (lineStart > 0 && chars[lineStart - 1] !== '\n') lineStart--;
  const column = span.start - lineStart + 1;
  return `${column}:${column + span.end - span.start} ${span.source.shown}`;
}

/** The text of a span. */
export function fragmentOf(span: Span): string {
  return Array.from(span.source.text).slice(span.start, span.end).join('');
}

const OPERATIONS =
  '`=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, ' +
  '`IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, ' +
  '`NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const VECTOR_SUFFIXES = ['fragments', 'userProvided', 'documentTemplate', 'regenerate'];

/** The diagnostic line of `kind`; `fragment` is the blamed text. */
export function describe(kind: ErrorKind, fragment: string): string {
  const quoted = escapeDebug(fragment);
  const blank = isBlank(fragment);
  switch (kind.k) {
    case 'expectedValue':
      if (blank) return 'Was expecting a value but instead got nothing.';
      return kind.keyword
        ? `Was expecting a value but instead got \`${quoted}\`, which is a reserved keyword. To use \`${quoted}\` as a field name or a value, surround it by quotes.`
        : `Was expecting a value but instead got \`${quoted}\`.`;
    case 'malformedValue':
      return `Malformed value: \`${quoted}\`.`;
    case 'missingClosingDelimiter':
      return `Expression \`${quoted}\` is missing the following closing delimiter: \`${kind.char}\`.`;
    case 'invalidPrimary':
      return `Was expecting an operation ${OPERATIONS} ${blank ? 'but instead got nothing.' : `at \`${quoted}\`.`}`;
    case 'invalidEscapedNumber':
      return `Found an invalid escaped sequence number: \`${quoted}\`.`;
    case 'expectedEof':
      return `Found unexpected characters at the end of the filter: \`${quoted}\`. You probably forgot an \`OR\` or an \`AND\` rule.`;
    case 'geoRadius':
      return 'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.';
    case 'geoRadiusArgumentCount':
      return `Was expecting 3 or 4 arguments for \`_geoRadius\`, but instead found ${kind.count}.`;
    case 'geoBoundingBox':
      return 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.';
    case 'geoPolygon':
      return "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.";
    case 'geoPolygonNotEnoughPoints':
      return `The \`_geoPolygon\` filter expects at least 3 points but only ${kind.count} were specified`;
    case 'geoCoordinatesNotPair':
      return `Was expecting 2 coordinates but instead found ${kind.count}.`;
    case 'reservedGeo':
      return `\`${escapeDebug(kind.name)}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` or \`_geoBoundingBox([latitude, longitude], [latitude, longitude])\` built-in rules to filter on \`_geo\` coordinates.`;
    case 'misusedGeoRadius':
      return "The `_geoRadius` filter is an operation and can't be used as a value.";
    case 'misusedGeoBoundingBox':
      return "The `_geoBoundingBox` filter is an operation and can't be used as a value.";
    case 'vectorLeftover':
      return 'The vector filter has leftover tokens.';
    case 'vectorUnknownSuffix':
      return describeVectorSuffix(kind.previous, kind.value);
    case 'vectorInvalidFragment':
      return "The vector filter's fragment name is invalid.";
    case 'vectorMissingFragment':
      return 'The vector filter is missing a fragment name.';
    case 'vectorMissingEmbedder':
      return 'Was expecting embedder name but found nothing.';
    case 'vectorInvalidEmbedder':
      return "The vector filter's embedder name is invalid.";
    case 'vectorOperation':
      return 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.';
    case 'vectorInvalidQuotes':
      return 'The quotes in one of the values are inconsistent.';
    case 'inOpeningBracket':
      return 'Expected `[` after `IN` keyword.';
    case 'inClosingBracket':
      return 'Expected matching `]` after the list of field names given to `IN[`';
    case 'inExpectedValue':
      return `Expected only comma-separated field names inside \`IN[..]\` but instead found \`${quoted}\`.`;
    case 'depthLimit':
      return 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';
    case 'foreign':
      return `Was expecting a field name and an condition inside \`_foreign(..)\` filter but instead found \`${quoted}\`.`;
    case 'incomplete':
      return 'The filter is incomplete and requires Unknown additional bytes to be parsed.';
    case 'internal':
      return 'Encountered an internal `Tag` error while parsing your filter. Please fill an issue';
  }
}

function describeVectorSuffix(previous: string | null, value: string): string {
  if (value === '.') {
    return 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.';
  }
  if (previous !== null) {
    return `Vector filter can only accept one of \`fragments\`, \`userProvided\`, \`documentTemplate\` or \`regenerate\`, but found both \`${previous}\` and \`${value}\`.`;
  }
  // A known suffix reaching here was quoted (`_vectors.e."userProvided"`).
  if (VECTOR_SUFFIXES.includes(value)) return 'Was expecting this part to be unquoted.';
  const head = `Was expecting one of \`fragments\`, \`userProvided\`, \`documentTemplate\`, \`regenerate\` or nothing, but instead found \`${value}\`.`;
  const suggestion = VECTOR_SUFFIXES.find((key) => damerauDistance(value, key) <= 2);
  return suggestion === undefined ? head : `${head} Did you mean \`${suggestion}\`?`;
}

/** Optimal-string-alignment distance over code points (levenshtein_automata with transpositions). */
function damerauDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}

const WHITE_SPACE = /^\p{White_Space}*$/u;
/** Rust `str::trim().is_empty()`: only Unicode White_Space characters (no BOM, unlike JS trim). */
export function isBlank(text: string): boolean {
  return WHITE_SPACE.test(text);
}

const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const GRAPHEME_EXTEND = /\p{Grapheme_Extend}/u;

/** Rust `str::escape_debug`: the form Meilisearch quotes fragments in. */
export function escapeDebug(text: string): string {
  let out = '';
  let first = true;
  for (const c of text) {
    out += escapeChar(c, first);
    first = false;
  }
  return out;
}

function escapeChar(c: string, first: boolean): string {
  switch (c) {
    case '\0':
      return '\\0';
    case '\t':
      return '\\t';
    case '\r':
      return '\\r';
    case '\n':
      return '\\n';
    case '\\':
      return '\\\\';
    case '"':
      return '\\"';
    case "'":
      return "\\'";
  }
  const hex = `\\u{${c.codePointAt(0)!.toString(16)}}`;
  if (first && GRAPHEME_EXTEND.test(c)) return hex;
  if (c !== ' ' && NOT_PRINTABLE.test(c)) return hex;
  return c;
}
