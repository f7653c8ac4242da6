// The filter AST (filters.md §2): what `parseFilter` returns and the evaluator walks against the
// facet bitmaps. Shaped like milli's `FilterCondition`, with the same normalisations:
//
// • `a NOT IN [..]`, `a IS NOT NULL`, `a IS NOT EMPTY`, `a NOT EXISTS`, `a NOT CONTAINS v`,
//   `a NOT STARTS WITH v` and `_vectors… NOT EXISTS` are `not` around the positive node;
//   `NOT NOT x` is `x` (a `NOT` in front of a `not` node removes it). `a != v` stays a `compare`.
// • Parentheses leave no node; `and`/`or` are n-ary in source order and never empty.
// • Every token keeps its source span (code point offsets into the string it was parsed from),
//   so evaluation errors (not filterable, bad latitude…) can quote it like parse errors do.
// • Values keep the unescaped text (what Meilisearch normalises and compares) and `number`, the
//   finite f64 the text parses to with Rust's grammar, or null.
// • Geo arguments keep their text and f64 value; their range checks run at evaluation time
//   (`geo-check.ts`), after the filterable checks, as in milli.

/** The string a span points into, and the text printed after the columns in error messages. */
export interface FilterSource {
  /** The filter string the offsets count in. */
  readonly text: string;
  /** The whole filter, except inside `_foreign(…)`: the filter from the `_foreign` on. */
  readonly shown: string;
}

/** A fragment of a filter: code point offsets, `end` exclusive. */
export interface Span {
  readonly start: number;
  readonly end: number;
  readonly source: FilterSource;
}

/** A field name or another word of the filter, unescaped. */
export interface Token {
  readonly text: string;
  readonly span: Span;
}

/** A value: its unescaped text and the finite number it parses to (Rust `f64` grammar), or null. */
export interface Value extends Token {
  readonly number: number | null;
}

/** A geo argument as written (nom `recognize_float`) and its f64 value (±Infinity on overflow). */
export interface GeoNumber extends Token {
  readonly value: number;
}

export type GeoPoint = readonly [lat: GeoNumber, lng: GeoNumber];

export type CompareOp = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** Which embeddings `_vectors[.embedder[.kind]] EXISTS` selects. */
export type VectorSubset = 'all' | 'userProvided' | 'documentTemplate' | 'regenerate' | 'fragment';

export interface AndNode {
  readonly kind: 'and';
  readonly children: FilterNode[];
}
export interface OrNode {
  readonly kind: 'or';
  readonly children: FilterNode[];
}
export interface NotNode {
  readonly kind: 'not';
  readonly child: FilterNode;
}
/** `field op value`. */
export interface CompareNode {
  readonly kind: 'compare';
  readonly field: Token;
  readonly op: CompareOp;
  readonly value: Value;
}
/** `field from TO to`, both bounds inclusive. */
export interface RangeNode {
  readonly kind: 'range';
  readonly field: Token;
  readonly from: Value;
  readonly to: Value;
}
export interface InNode {
  readonly kind: 'in';
  readonly field: Token;
  readonly values: Value[];
}
export interface ExistsNode {
  readonly kind: 'exists';
  readonly field: Token;
}
export interface IsNullNode {
  readonly kind: 'isNull';
  readonly field: Token;
}
export interface IsEmptyNode {
  readonly kind: 'isEmpty';
  readonly field: Token;
}
/** `field CONTAINS value`; `keyword` is the `CONTAINS` token (the feature-gate error quotes it). */
export interface ContainsNode {
  readonly kind: 'contains';
  readonly field: Token;
  readonly value: Value;
  readonly keyword: Span;
}
export interface StartsWithNode {
  readonly kind: 'startsWith';
  readonly field: Token;
  readonly value: Value;
  readonly keyword: Span;
}
/** `_geoRadius(lat, lng, radius[, resolution])`. */
export interface GeoRadiusNode {
  readonly kind: 'geoRadius';
  readonly lat: GeoNumber;
  readonly lng: GeoNumber;
  readonly radius: GeoNumber;
  readonly resolution: GeoNumber | null;
}
/** `_geoBoundingBox([topLat, rightLng], [bottomLat, leftLng])`. */
export interface GeoBoundingBoxNode {
  readonly kind: 'geoBoundingBox';
  readonly topRight: GeoPoint;
  readonly bottomLeft: GeoPoint;
}
/** `_geoPolygon([lat, lng], …)`, at least 3 points. */
export interface GeoPolygonNode {
  readonly kind: 'geoPolygon';
  readonly points: GeoPoint[];
}
/** Experimental: `_vectors[.embedder[.userProvided|.documentTemplate|.regenerate|.fragments.name]] EXISTS`. */
export interface VectorExistsNode {
  readonly kind: 'vectorExists';
  /** The `_vectors` token. */
  readonly field: Token;
  readonly embedder: Token | null;
  readonly subset: VectorSubset;
  /** The fragment name when `subset` is `fragment`. */
  readonly fragment: Token | null;
}
/** Experimental: `_foreign(field, filter)`. */
export interface ForeignNode {
  readonly kind: 'foreign';
  readonly field: Token;
  readonly filter: FilterNode;
}

export type FilterNode =
  | AndNode
  | OrNode
  | NotNode
  | CompareNode
  | RangeNode
  | InNode
  | ExistsNode
  | IsNullNode
  | IsEmptyNode
  | ContainsNode
  | StartsWithNode
  | GeoRadiusNode
  | GeoBoundingBoxNode
  | GeoPolygonNode
  | VectorExistsNode
  | ForeignNode;

/** `NOT node`, removing a `not` instead of doubling it (milli's `parse_not`). */
export function negate(node: FilterNode): FilterNode {
  return node.kind === 'not' ? node.child : { kind: 'not', child: node };
}
