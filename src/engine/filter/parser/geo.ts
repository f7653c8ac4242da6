// The geo primaries (filter-parser `lib.rs`):
//
//   geoRadius      = multispace* "_geoRadius" "(" float ( "," float )* ")"          3 or 4 floats
//   geoBoundingBox = multispace* "_geoBoundingBox" "(" pair ( "," pair )* ")"       2 pairs
//   geoPolygon     = multispace* "_geoPolygon" "(" pair ( "," pair )* ","? ")"      ≥ 3 pairs
//   pair           = multispace* "[" float ( "," float )* "]" multispace*         2 floats
//   float          = multispace* nom-recognize_float multispace*
//
// Once the word is read, any syntax error is fatal and reported as the function's "expected
// form" message, blaming the fragment where the combinator stopped (often the rest of the
// filter). Wrong counts are checked after the closing parenthesis: the argument count of
// `_geoRadius` blames what follows it, a polygon with too few points blames its last number, a
// pair of the wrong size its first number. Nothing is eaten after the closing parenthesis, so
// `_geoRadius(1, 2, 3) ` ends in a trailing-characters error, as in Meilisearch.

import type { FilterNode, GeoNumber, GeoPoint } from './ast.ts';
import type { ErrorKind } from './errors.ts';
import { parseRustFloat } from './numbers.ts';
import { ok, recast, type Failed, type Result, type Scanner } from './scanner.ts';

export function parseGeoRadius(sc: Scanner, pos: number): Result<FilterNode> {
  const start = functionName(sc, pos, '_geoRadius');
  if (start === null) return sc.error({ k: 'internal' }, pos);
  const args = enclosed(sc, start, floatList, false);
  if (!args.ok) return recast(args, { k: 'geoRadius' });
  const numbers = args.value;
  if (numbers.length < 3 || numbers.length > 4) {
    return sc.fatal({ k: 'geoRadiusArgumentCount', count: numbers.length }, args.pos);
  }
  return ok(args.pos, {
    kind: 'geoRadius',
    lat: numbers[0]!,
    lng: numbers[1]!,
    radius: numbers[2]!,
    resolution: numbers[3] ?? null,
  });
}

export function parseGeoBoundingBox(sc: Scanner, pos: number): Result<FilterNode> {
  const start = functionName(sc, pos, '_geoBoundingBox');
  if (start === null) return sc.error({ k: 'internal' }, pos);
  const args = enclosed(sc, start, pairList, false);
  if (!args.ok) return recast(args, { k: 'geoBoundingBox' });
  if (args.value.length !== 2) return sc.fatal({ k: 'geoBoundingBox' }, args.pos);
  const pairs = checkPairs(sc, args.value);
  if (!Array.isArray(pairs)) return pairs;
  return ok(args.pos, { kind: 'geoBoundingBox', topRight: pairs[0]!, bottomLeft: pairs[1]! });
}

export function parseGeoPolygon(sc: Scanner, pos: number): Result<FilterNode> {
  const start = functionName(sc, pos, '_geoPolygon');
  if (start === null) return sc.error({ k: 'internal' }, pos);
  const args = enclosed(sc, start, pairList, true);
  if (!args.ok) return recast(args, { k: 'geoPolygon' });
  if (args.value.length < 3) {
    const last = args.value.at(-1)!.at(-1)!;
    const kind: ErrorKind = { k: 'geoPolygonNotEnoughPoints', count: args.value.length };
    return sc.fatal(kind, last.span.start, last.span.end);
  }
  const points = checkPairs(sc, args.value);
  if (!Array.isArray(points)) return points;
  return ok(args.pos, { kind: 'geoPolygon', points });
}

/** The position after `name` (preceded by optional spaces), or null when another word is there. */
function functionName(sc: Scanner, pos: number, name: string): number | null {
  const start = sc.skipMultispace(pos);
  const end = sc.wordEnd(start);
  return sc.text(start, end) === name ? end : null;
}

/** `"(" list ")"`, with an optional trailing comma when `trailingComma`. */
function enclosed<T>(
  sc: Scanner,
  pos: number,
  list: (sc: Scanner, pos: number) => Result<T[]>,
  trailingComma: boolean,
): Result<T[]> {
  if (sc.at(pos) !== '(') return sc.error({ k: 'internal' }, pos);
  const items = list(sc, pos + 1);
  if (!items.ok) return items;
  let close = items.pos;
  if (trailingComma) {
    const comma = sc.skipMultispace(close);
    if (sc.at(comma) === ',') close = sc.skipMultispace(comma + 1);
  }
  if (sc.at(close) !== ')') return sc.error({ k: 'internal' }, close);
  return ok(close + 1, items.value);
}

/** nom `separated_list1(tag(","), item)`: stops before a comma not followed by an item. */
function separatedList<T>(
  sc: Scanner,
  pos: number,
  item: (sc: Scanner, pos: number) => Result<T>,
): Result<T[]> {
  const first = item(sc, pos);
  if (!first.ok) return first;
  const items = [first.value];
  let at = first.pos;
  while (sc.at(at) === ',') {
    const next = item(sc, at + 1);
    if (!next.ok) {
      if (next.fatal) return next;
      break;
    }
    items.push(next.value);
    at = next.pos;
  }
  return ok(at, items);
}

function floatList(sc: Scanner, pos: number): Result<GeoNumber[]> {
  return separatedList(sc, pos, spacedFloat);
}

function pairList(sc: Scanner, pos: number): Result<GeoNumber[][]> {
  return separatedList(sc, pos, bracketed);
}

/** `multispace* "[" floatList "]" multispace*`. */
function bracketed(sc: Scanner, pos: number): Result<GeoNumber[]> {
  const open = sc.skipMultispace(pos);
  if (sc.at(open) !== '[') return sc.error({ k: 'internal' }, open);
  const numbers = floatList(sc, open + 1);
  if (!numbers.ok) return numbers;
  if (sc.at(numbers.pos) !== ']') return sc.error({ k: 'internal' }, numbers.pos);
  return ok(sc.skipMultispace(numbers.pos + 1), numbers.value);
}

/** `ws(recognize_float)`. */
function spacedFloat(sc: Scanner, pos: number): Result<GeoNumber> {
  const start = sc.skipMultispace(pos);
  const end = recognizeFloat(sc, start);
  if (typeof end !== 'number') return end;
  const text = sc.text(start, end);
  return ok(sc.skipMultispace(end), { text, span: sc.span(start, end), value: parseRustFloat(text) ?? NaN });
}

/**
 * nom's `recognize_float`: `[+-]? (digits ("." digits?)? | "." digits) ([eE] [+-]? digits)?`.
 * Returns the end, or the error of the branch that failed last (fatal for an exponent without
 * digits, which nom `cut`s).
 */
function recognizeFloat(sc: Scanner, pos: number): number | Failed {
  let at = pos;
  if (sc.at(at) === '+' || sc.at(at) === '-') at++;
  const integer = digits(sc, at);
  if (integer > at) {
    at = integer;
    if (sc.at(at) === '.') at = digits(sc, at + 1);
  } else {
    if (sc.at(at) !== '.') return sc.error({ k: 'internal' }, at);
    const fraction = digits(sc, at + 1);
    if (fraction === at + 1) return sc.error({ k: 'internal' }, at + 1);
    at = fraction;
  }
  if (sc.at(at) === 'e' || sc.at(at) === 'E') {
    let exponent = at + 1;
    if (sc.at(exponent) === '+' || sc.at(exponent) === '-') exponent++;
    const end = digits(sc, exponent);
    if (end === exponent) return sc.fatal({ k: 'internal' }, exponent);
    at = end;
  }
  return at;
}

function digits(sc: Scanner, pos: number): number {
  while (/^[0-9]$/.test(sc.at(pos) ?? '')) pos++;
  return pos;
}

/** Every bracket must hold exactly 2 numbers; the first offending one is blamed. */
function checkPairs(sc: Scanner, lists: GeoNumber[][]): GeoPoint[] | Failed {
  const offending = lists.find((list) => list.length !== 2);
  if (offending !== undefined) {
    const first = offending[0]!;
    return sc.fatal({ k: 'geoCoordinatesNotPair', count: offending.length }, first.span.start, first.span.end);
  }
  return lists.map((list) => [list[0]!, list[1]!] as const);
}
