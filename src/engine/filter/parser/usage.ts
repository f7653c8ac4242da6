// Questions the layers above ask a parsed filter before evaluating it, answered in the order
// milli answers them (the first token found is the one the error quotes):
//
// • `containsKeyword`: the `CONTAINS` token for the `containsFilter` feature gate (in-order
//   search; `STARTS WITH` is not gated in 1.50).
// • `vectorFilterField`, `foreignField`, `fieldUse`: the `_vectors`, `_foreign` and `_shard`
//   feature gates.
// • `filterFields`: every field token, for the filterable-attributes check, in milli's
//   stack order (last operand first), down to `depth` levels of `and`/`or`/`not`.
// • `checkConditionDepth`: milli refuses a condition nested under 2000 `and`/`or` levels.

import type { FilterNode, Span, Token } from './ast.ts';
import { spanError } from './errors.ts';

/** Depth limit of milli's `Filter::from_str` / `from_array` (`MAX_FILTER_DEPTH`). */
export const MAX_CONDITION_DEPTH = 2000;

/** The `CONTAINS` keyword of the first `CONTAINS` condition, in reading order. */
export function containsKeyword(node: FilterNode): Span | null {
  switch (node.kind) {
    case 'contains':
      return node.keyword;
    case 'not':
      return containsKeyword(node.child);
    case 'and':
    case 'or':
      return firstOf(node.children, containsKeyword);
    case 'foreign':
      return containsKeyword(node.filter);
    default:
      return null;
  }
}

/** The `_vectors` token of the first vector filter, in reading order. */
export function vectorFilterField(node: FilterNode): Token | null {
  switch (node.kind) {
    case 'vectorExists':
      return node.field;
    case 'not':
      return vectorFilterField(node.child);
    case 'and':
    case 'or':
      return firstOf(node.children, vectorFilterField);
    case 'foreign':
      return vectorFilterField(node.filter);
    default:
      return null;
  }
}

/** The first condition on the field `name` (or `_foreign` on it), in reading order. */
export function fieldUse(node: FilterNode, name: string): Token | null {
  switch (node.kind) {
    case 'not':
      return fieldUse(node.child, name);
    case 'and':
    case 'or':
      return firstOf(node.children, (child) => fieldUse(child, name));
    case 'foreign':
      return node.field.text === name ? node.field : fieldUse(node.filter, name);
    case 'geoRadius':
    case 'geoBoundingBox':
    case 'geoPolygon':
    case 'vectorExists':
      return null;
    default:
      return node.field.text === name ? node.field : null;
  }
}

/** The field of a `_foreign(…)` filter: the first one milli's stack walk meets (last in the text). */
export function foreignField(node: FilterNode): Token | null {
  const stack: [number, FilterNode][] = [[150, node]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [depth, current] = entry;
    if (current.kind === 'foreign') return current.field;
    if (depth === 0) continue;
    if (current.kind === 'not') stack.push([depth - 1, current.child]);
    else if (current.kind === 'and' || current.kind === 'or') {
      for (const child of current.children) stack.push([depth - 1, child]);
    }
  }
  return null;
}

/**
 * Field tokens in milli's `fids` order: a stack walk, so the last operand of an `and`/`or`
 * comes first. Geo and vector conditions name no field; a `_foreign` yields its own field only.
 */
export function filterFields(node: FilterNode, depth = MAX_CONDITION_DEPTH): Token[] {
  const fields: Token[] = [];
  const stack: [number, FilterNode][] = [[depth, node]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [level, current] = entry;
    switch (current.kind) {
      case 'not':
        if (level > 0) stack.push([level - 1, current.child]);
        break;
      case 'and':
      case 'or':
        if (level > 0) for (const child of current.children) stack.push([level - 1, child]);
        break;
      case 'geoRadius':
      case 'geoBoundingBox':
      case 'geoPolygon':
      case 'vectorExists':
        break;
      default:
        fields.push(current.field);
    }
  }
  return fields;
}

/** Throws milli's "Too many filter conditions" when a condition sits under too many `and`/`or`. */
export function checkConditionDepth(node: FilterNode): void {
  const token = tokenAtDepth(node, MAX_CONDITION_DEPTH);
  if (token !== null) {
    throw spanError(
      `Too many filter conditions, can't process more than ${MAX_CONDITION_DEPTH} filters.`,
      token.span,
    );
  }
}

/**
 * milli's `token_at_depth`: the first field (or `_geoRadius` latitude) reached through `depth`
 * levels of `and`/`or`; `not` and other nodes stop the walk.
 */
export function tokenAtDepth(node: FilterNode, depth: number): Token | null {
  switch (node.kind) {
    case 'compare':
    case 'range':
    case 'exists':
    case 'isNull':
    case 'isEmpty':
    case 'contains':
    case 'startsWith':
      return depth === 0 ? node.field : null;
    case 'geoRadius':
      return depth === 0 ? node.lat : null;
    case 'and':
    case 'or':
      return firstOf(node.children, (child) => tokenAtDepth(child, Math.max(0, depth - 1)));
    default:
      return null;
  }
}

function firstOf<T>(nodes: readonly FilterNode[], find: (node: FilterNode) => T | null): T | null {
  for (const node of nodes) {
    const found = find(node);
    if (found !== null) return found;
  }
  return null;
}
