// The JSON forms of the `filter` parameter (filters.md §1; index-scheduler `filter.rs`, milli
// `Filter::from_array`):
//
//   null / absent        no filter
//   "expr"               one expression
//   ["a", ["b", "c"]]    a AND (b OR c); strings are parsed one by one, blank ones skipped, a
//                        one-string OR group is that string, an empty result is no filter
//
// The shape is checked for the whole array before any string is parsed; a bad element is
// reported with its compact JSON and no span:
//   top level           `expected String, Array, found: true`
//   array element       `expected String, [String], found: 12`
//   inner element       `expected String, found: 2`
// Each parse error quotes only the string it comes from.

import type { FilterNode } from './ast.ts';
import { FilterSyntaxError } from './errors.ts';
import { parseFilter } from './grammar.ts';
import { checkConditionDepth } from './usage.ts';

/** Parses a filter given as JSON; null when there is no filter. Throws `FilterSyntaxError`. */
export function parseFilterJson(value: unknown): FilterNode | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return parseFilter(value);
  if (!Array.isArray(value)) throw shapeError(['String', 'Array'], value);
  for (const item of value) {
    if (typeof item === 'string') continue;
    if (!Array.isArray(item)) throw shapeError(['String', '[String]'], item);
    const wrong = item.find((inner) => typeof inner !== 'string');
    if (wrong !== undefined) throw shapeError(['String'], wrong);
  }

  const ands: FilterNode[] = [];
  for (const item of value as (string | string[])[]) {
    if (typeof item === 'string') {
      const node = parseFilter(item);
      if (node !== null) ands.push(node);
      continue;
    }
    const ors: FilterNode[] = [];
    for (const text of item) {
      const node = parseFilter(text);
      if (node !== null) ors.push(node);
    }
    if (ors.length === 1) ands.push(ors[0]!);
    else if (ors.length > 1) ands.push({ kind: 'or', children: ors });
  }
  if (ands.length === 0) return null;
  const node: FilterNode = ands.length === 1 ? ands[0]! : { kind: 'and', children: ands };
  checkConditionDepth(node);
  return node;
}

function shapeError(expected: string[], found: unknown): FilterSyntaxError {
  return new FilterSyntaxError(
    `Invalid syntax for the filter parameter: \`expected ${expected.join(', ')}, found: ${compactJson(found)}\`.`,
    null,
  );
}

/** serde_json's compact text of a JSON value (floats without `+` in exponents). */
export function compactJson(value: unknown): string {
  if (typeof value === 'number') return formatJsonNumber(value);
  if (Array.isArray(value)) return `[${value.map(compactJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${compactJson(item)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function formatJsonNumber(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (Number.isSafeInteger(value)) return String(value);
  return String(value).replace('e+', 'e');
}
