// The filter grammar (filters.md §2; filter-parser `lib.rs`), a port of Meilisearch's nom parser
// with its error behaviour:
//
//   filter     = expression EOF                     (blank filter → no filter)
//   expression = or
//   or         = and ( ws "OR" ws and )*
//   and        = not ( ws "AND" ws not )*
//   not        = ws "NOT" ws not | primary          (NOT NOT x = x)
//   primary    = ws "(" ws expression ws ")" ws
//              | geoRadius | geoBoundingBox | geoPolygon              (geo.ts)
//              | in | not_in | comparison | is_null | is_not_null
//              | is_empty | is_not_empty | vectors_exists | exists
//              | not_exists | range | contains | not_contains
//              | starts_with | not_starts_with                       (conditions.ts, vectors.ts)
//              | ws "_foreign" "(" ws value ws "," ws expression ws ")"
//   ws         = ( " " | "\t" | "\r" | "\n" )*
//   keywords   = whole words, case-sensitive: `ORx` and `or` are not `OR`
//
// Alternatives are tried in that order at the same position; the first success or fatal error
// wins. When every branch fails recoverably, the primary blames its whole rest ("Was expecting
// an operation … at `…`"), except when the field was a bare keyword (`AND = 8`), which is
// reported as such. After `OR`, `AND`, `NOT` or `(` an error is fatal. A missing `)` blames the
// text from the `(`; text left after the expression is "unexpected characters at the end".
//
// Depth: `or`, `and`, `not` and `primary` each add one level and refuse to go past 150 (at most
// 36 nested parentheses, or 147 `NOT`s in a row); the error blames the rest of the filter from
// where it stopped.
// `_foreign(…)` keeps the depth, and prints, in its errors, the filter from `_foreign` on.

import { negate, type FilterNode, type Token } from './ast.ts';
import {
  parseComparison,
  parseExists,
  parseIn,
  parseIs,
  parseNotExists,
  parseNotIn,
  parseRange,
  parseStringOperator,
} from './conditions.ts';
import { kindError, isBlank } from './errors.ts';
import { parseGeoBoundingBox, parseGeoPolygon, parseGeoRadius } from './geo.ts';
import { cut, IncompleteInput, ok, recast, Scanner, type Failed, type Result } from './scanner.ts';
import { checkConditionDepth } from './usage.ts';
import { asField, parseValue } from './value.ts';
import { parseVectorsExists } from './vectors.ts';

/** Nesting limit of the parser (filter-parser `MAX_FILTER_DEPTH`). */
export const MAX_PARSE_DEPTH = 150;

/** Parses a filter expression; null when it is blank. Throws `FilterSyntaxError`. */
export function parseFilter(expression: string): FilterNode | null {
  if (isBlank(expression)) return null;
  const sc = new Scanner(expression);
  let parsed: Result<FilterNode>;
  try {
    parsed = parseOr(sc, 0, 0);
  } catch (e) {
    if (e instanceof IncompleteInput) throw kindError({ k: 'incomplete' }, sc.span(0, sc.length));
    throw e;
  }
  if (!parsed.ok) throw toError(parsed);
  if (parsed.pos !== sc.length) throw toError(sc.error({ k: 'expectedEof' }, parsed.pos));
  checkConditionDepth(parsed.value);
  return parsed.value;
}

function toError(failed: Failed): Error {
  return kindError(failed.kind, failed.span);
}

function parseOr(sc: Scanner, pos: number, depth: number): Result<FilterNode> {
  return parseChain(sc, pos, depth, 'OR', parseAnd);
}

function parseAnd(sc: Scanner, pos: number, depth: number): Result<FilterNode> {
  return parseChain(sc, pos, depth, 'AND', parseNot);
}

/** `item ( keyword item )*`, as an `or`/`and` node when there is more than one item. */
function parseChain(
  sc: Scanner,
  pos: number,
  depth: number,
  keyword: 'OR' | 'AND',
  item: (sc: Scanner, pos: number, depth: number) => Result<FilterNode>,
): Result<FilterNode> {
  if (depth > MAX_PARSE_DEPTH) return sc.error({ k: 'depthLimit' }, pos);
  const first = item(sc, pos, depth + 1);
  if (!first.ok) return first;
  const children = [first.value];
  let at = first.pos;
  for (;;) {
    const next = sc.keyword(at, keyword);
    if (next === null) break;
    const child = item(sc, next, depth + 1);
    if (!child.ok) return cut(child);
    children.push(child.value);
    at = child.pos;
  }
  if (children.length === 1) return ok(at, first.value);
  return ok(at, { kind: keyword === 'OR' ? 'or' : 'and', children });
}

function parseNot(sc: Scanner, pos: number, depth: number): Result<FilterNode> {
  if (depth > MAX_PARSE_DEPTH) return sc.error({ k: 'depthLimit' }, pos);
  const after = sc.keyword(pos, 'NOT');
  if (after !== null) {
    const inner = parseNot(sc, after, depth + 1);
    return inner.ok ? ok(inner.pos, negate(inner.value)) : cut(inner);
  }
  return parsePrimary(sc, pos, depth + 1);
}

type Branch = (sc: Scanner, pos: number, depth: number) => Result<FilterNode>;

const BRANCHES: readonly Branch[] = [
  parseGeoRadius,
  parseGeoBoundingBox,
  parseGeoPolygon,
  parseIn,
  parseNotIn,
  parseComparison,
  parseIs('NULL', false),
  parseIs('NULL', true),
  parseIs('EMPTY', false),
  parseIs('EMPTY', true),
  parseVectorsExists,
  parseExists,
  parseNotExists,
  parseRange,
  parseStringOperator('contains', false),
  parseStringOperator('contains', true),
  parseStringOperator('startsWith', false),
  parseStringOperator('startsWith', true),
  parseForeign,
  // milli then tries `_geo(…)`, `_geoDistance(…)` and `_geoPoint(…)` only to report them, but
  // `parseValue` (first step of `in`) has already refused those at this position.
];

function parsePrimary(sc: Scanner, pos: number, depth: number): Result<FilterNode> {
  if (depth > MAX_PARSE_DEPTH) return sc.error({ k: 'depthLimit' }, pos);
  const open = sc.skipMultispace(pos);
  if (sc.at(open) === '(') {
    const inner = parseOr(sc, sc.skipMultispace(open + 1), depth + 1);
    if (!inner.ok) return cut(inner);
    const close = sc.skipMultispace(inner.pos);
    if (sc.at(close) !== ')') return sc.fatal({ k: 'missingClosingDelimiter', char: ')' }, pos);
    return ok(sc.skipMultispace(close + 1), inner.value);
  }
  let keywordAsField: Failed | null = null;
  for (const branch of BRANCHES) {
    const result = branch(sc, pos, depth);
    if (result.ok || result.fatal) return result;
    // milli's last resort re-runs the comparison and reports a bare keyword where a value was due.
    if (branch === parseComparison && result.kind.k === 'expectedValue' && result.kind.keyword) {
      keywordAsField = result;
    }
  }
  return keywordAsField !== null ? cut(keywordAsField) : sc.error({ k: 'invalidPrimary' }, pos);
}

/** Experimental `_foreign(field, expression)`; every error inside is reported as a `_foreign` one. */
function parseForeign(sc: Scanner, pos: number, depth: number): Result<FilterNode> {
  const name = sc.skipMultispace(pos);
  const open = sc.wordEnd(name);
  if (sc.text(name, open) !== '_foreign') return sc.error({ k: 'internal' }, pos);
  const outer = sc.source;
  sc.source = { text: outer.text, shown: sc.text(pos, sc.length) };
  try {
    const body = parseForeignBody(sc, open, depth);
    return body.ok ? body : recast(body, { k: 'foreign' });
  } finally {
    sc.source = outer;
  }
}

function parseForeignBody(sc: Scanner, pos: number, depth: number): Result<FilterNode> {
  if (sc.at(pos) !== '(') return sc.error({ k: 'internal' }, pos);
  const field = parseValue(sc, sc.skipMultispace(pos + 1));
  if (!field.ok) return field;
  const comma = sc.skipMultispace(field.pos);
  if (sc.at(comma) !== ',') return sc.error({ k: 'internal' }, comma);
  const filter = parseOr(sc, sc.skipMultispace(comma + 1), depth);
  if (!filter.ok) return filter;
  const close = sc.skipMultispace(filter.pos);
  if (sc.at(close) !== ')') return sc.error({ k: 'internal' }, close);
  const token: Token = asField(field.value);
  return ok(close + 1, { kind: 'foreign', field: token, filter: filter.value });
}
