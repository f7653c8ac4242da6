// The conditions on a field (filter-parser `condition.rs` and `parse_in`), each tried at the
// same position by the primary rule:
//
//   in          = value "IN" "[" value_list "]"          value_list = (value ("," value)* ","?)?
//   not_in      = value "NOT" "IN" "[" value_list "]"
//   comparison  = value ( "<=" | ">=" | "!=" | "<" | ">" | "=" ) value
//   is_null     = value "IS" multispace+ ( "NOT" multispace+ )? "NULL"     (same for EMPTY)
//   exists      = value "EXISTS"      not_exists = value "NOT" multispace+ "EXISTS"
//   range       = value value "TO" multispace+ value
//   contains    = value ( "NOT" multispace+ )? "CONTAINS" value
//   starts_with = value ( "NOT" multispace+ )? "STARTS WITH" value
//
// Keywords after a value are nom `tag`s: case-sensitive prefix matches, with no space eaten after
// them unless the grammar says so (`x EXISTS ` ends in a trailing-characters error, `x
// CONTAINSfoo` reads as `x CONTAINS foo`). Once the operator is read, a missing value after it is
// fatal. After `IN`, a missing `[` is fatal and blames what follows; a list that does not end in
// `]` blames the end of the filter (`Expected matching ]`) or the first thing that is not a value.

import type { CompareOp, FilterNode, Value } from './ast.ts';
import { cut, ok, type Result, type Scanner } from './scanner.ts';
import { asField, parseValue } from './value.ts';

export function parseIn(sc: Scanner, pos: number): Result<FilterNode> {
  const field = parseValue(sc, pos);
  if (!field.ok) return field;
  const values = parseInBody(sc, field.pos);
  if (!values.ok) return values;
  return ok(values.pos, { kind: 'in', field: asField(field.value), values: values.value });
}

export function parseNotIn(sc: Scanner, pos: number): Result<FilterNode> {
  const field = parseValue(sc, pos);
  if (!field.ok) return field;
  const not = sc.wordEnd(field.pos);
  if (sc.text(field.pos, not) !== 'NOT') return sc.error({ k: 'internal' }, field.pos);
  const values = parseInBody(sc, not);
  if (!values.ok) return values;
  const node: FilterNode = { kind: 'in', field: asField(field.value), values: values.value };
  return ok(values.pos, { kind: 'not', child: node });
}

/** `"IN" "[" value_list "]"` and the spaces around. */
function parseInBody(sc: Scanner, pos: number): Result<Value[]> {
  const open = sc.keyword(pos, 'IN');
  if (open === null) return sc.error({ k: 'internal' }, pos);
  if (sc.at(open) !== '[') return sc.fatal({ k: 'inOpeningBracket' }, open);
  const list = parseValueList(sc, open + 1);
  if (!list.ok) return cut(list);
  const close = sc.skipMultispace(list.pos);
  if (sc.at(close) !== ']') {
    if (list.pos === sc.length) return sc.fatal({ k: 'inClosingBracket' }, list.pos);
    return sc.fatal({ k: 'inExpectedValue' }, list.pos);
  }
  return ok(sc.skipMultispace(close + 1), list.value);
}

function parseValueList(sc: Scanner, pos: number): Result<Value[]> {
  const first = parseValue(sc, pos);
  if (!first.ok) return first.fatal ? first : ok(pos, []);
  const values = [first.value];
  let at = first.pos;
  for (;;) {
    const comma = sc.skipMultispace(at);
    if (sc.at(comma) !== ',') break;
    const next = parseValue(sc, sc.skipMultispace(comma + 1));
    if (!next.ok) {
      if (next.fatal) return next;
      break;
    }
    values.push(next.value);
    at = next.pos;
  }
  const trailing = sc.skipMultispace(at);
  if (sc.at(trailing) === ',') at = sc.skipMultispace(trailing + 1);
  return ok(at, values);
}

const OPERATORS: readonly CompareOp[] = ['<=', '>=', '!=', '<', '>', '='];

export function parseComparison(sc: Scanner, pos: number): Result<FilterNode> {
  const field = parseValue(sc, pos);
  if (!field.ok) return field;
  const op = OPERATORS.find((candidate) => sc.startsWith(field.pos, candidate));
  if (op === undefined) return sc.error({ k: 'internal' }, field.pos);
  const value = parseValue(sc, field.pos + op.length);
  if (!value.ok) return cut(value);
  return ok(value.pos, { kind: 'compare', field: asField(field.value), op, value: value.value });
}

/** `value "IS" [NOT] NULL|EMPTY`. */
export function parseIs(what: 'NULL' | 'EMPTY', negated: boolean) {
  return (sc: Scanner, pos: number): Result<FilterNode> => {
    const field = parseValue(sc, pos);
    if (!field.ok) return field;
    let at: number | null = sc.startsWith(field.pos, 'IS') ? sc.multispace1(field.pos + 2) : null;
    if (at !== null && negated) at = sc.startsWith(at, 'NOT') ? sc.multispace1(at + 3) : null;
    if (at === null || !sc.startsWith(at, what)) return sc.error({ k: 'internal' }, field.pos);
    const node: FilterNode = { kind: what === 'NULL' ? 'isNull' : 'isEmpty', field: asField(field.value) };
    return ok(at + what.length, negated ? { kind: 'not', child: node } : node);
  };
}

export function parseExists(sc: Scanner, pos: number): Result<FilterNode> {
  const field = parseValue(sc, pos);
  if (!field.ok) return field;
  if (!sc.startsWith(field.pos, 'EXISTS')) return sc.error({ k: 'internal' }, field.pos);
  return ok(field.pos + 6, { kind: 'exists', field: asField(field.value) });
}

export function parseNotExists(sc: Scanner, pos: number): Result<FilterNode> {
  const field = parseValue(sc, pos);
  if (!field.ok) return field;
  const exists = sc.startsWith(field.pos, 'NOT') ? sc.multispace1(field.pos + 3) : null;
  if (exists === null || !sc.startsWith(exists, 'EXISTS')) return sc.error({ k: 'internal' }, field.pos);
  return ok(exists + 6, { kind: 'not', child: { kind: 'exists', field: asField(field.value) } });
}

export function parseRange(sc: Scanner, pos: number): Result<FilterNode> {
  const field = parseValue(sc, pos);
  if (!field.ok) return field;
  const from = parseValue(sc, field.pos);
  if (!from.ok) return from;
  const to = sc.startsWith(from.pos, 'TO') ? sc.multispace1(from.pos + 2) : null;
  if (to === null) return sc.error({ k: 'internal' }, from.pos);
  const value = parseValue(sc, to);
  if (!value.ok) return cut(value);
  return ok(value.pos, { kind: 'range', field: asField(field.value), from: from.value, to: value.value });
}

/** `value [NOT] CONTAINS value` and `value [NOT] STARTS WITH value`. */
export function parseStringOperator(kind: 'contains' | 'startsWith', negated: boolean) {
  const keyword = kind === 'contains' ? 'CONTAINS' : 'STARTS WITH';
  return (sc: Scanner, pos: number): Result<FilterNode> => {
    const field = parseValue(sc, pos);
    if (!field.ok) return field;
    let at: number | null = field.pos;
    if (negated) at = sc.startsWith(at, 'NOT') ? sc.multispace1(at + 3) : null;
    if (at === null || !sc.startsWith(at, keyword)) return sc.error({ k: 'internal' }, field.pos);
    const value = parseValue(sc, at + keyword.length);
    if (!value.ok) return cut(value);
    const node: FilterNode = {
      kind,
      field: asField(field.value),
      value: value.value,
      keyword: sc.span(at, at + keyword.length),
    };
    return ok(value.pos, negated ? { kind: 'not', child: node } : node);
  };
}
