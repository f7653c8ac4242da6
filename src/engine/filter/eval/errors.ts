// What evaluation can refuse, as data: the API layer turns each into Meilisearch's message with
// the route's error code (filters.md §8). Geo argument errors are the parser's
// `FilterSyntaxError` (geo-check.ts), already worded.

import type { Span, Token } from '../parser/index.ts';

/** The operators a filterable rule's features allow or not (milli `Condition::operator`). */
export type FilterOperator = '=' | '!=' | '>' | '>=' | '<' | '<=' | 'TO' | 'IS NULL' | 'IS EMPTY' | 'EXISTS';

/** The filter features of the first `filterableAttributes` rule matching a field, and its index. */
export interface FieldAccess {
  readonly equality: boolean;
  readonly comparison: boolean;
  readonly rule: number;
}

/** An operator used on a field whose first matching rule does not enable it. */
export class OperatorNotAllowedError extends Error {
  constructor(
    readonly field: string,
    readonly operator: FilterOperator,
    readonly access: FieldAccess,
  ) {
    super(`Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.`);
    this.name = 'OperatorNotAllowedError';
  }
}

/** A geo filter on an index where the geo field it needs is not filterable. */
export class GeoNotFilterableError extends Error {
  constructor(
    /** `_geo/_geojson` for radius and box, `_geojson` for polygons */
    readonly attribute: string,
    /** the argument the error quotes (the first latitude) */
    readonly token: Token,
  ) {
    super(`Attribute \`${attribute}\` is not filterable.`);
    this.name = 'GeoNotFilterableError';
  }
}

/** A construct this engine cannot evaluate yet (vector filters, `_foreign`). */
export class UnsupportedFilterError extends Error {
  constructor(
    /** what is refused, already quoted: ``a `_foreign` filter`` */
    readonly what: string,
    readonly span: Span,
  ) {
    super(`Using ${what} is not supported yet.`);
    this.name = 'UnsupportedFilterError';
  }
}
