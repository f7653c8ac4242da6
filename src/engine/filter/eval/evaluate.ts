// A parsed filter → the bitmap of matching internal document ids (filters.md §4), in milli's
// order (`IndexFilter::inner_evaluate`), so that errors come out exactly when Meilisearch's do:
//
//   and   children left to right; the running result is the next child's universe; an empty
//         universe stops the walk (later children are not evaluated, so raise nothing)
//   or    every child with the same universe, then the union
//   not   universe − child (the universe is every document at the top level)
//   cond  unknown field (never seen by the index) → ∅; no filterable rule → ∅; operator not
//         allowed by the rule's features → OperatorNotAllowedError; else facet lookups:
//           = v      strings[norm v] ∪ numbers[v] (when v is a finite float)
//           != v     documents − (= v)
//           > ≥ < ≤  numeric range (when v is a number) ∪ byte-wise range of normalized strings
//           a TO b   inclusive; numeric part only when both are numbers; a > b → ∅ per part
//           IN [..]  ∪ of `=` (each checked as `=`); NOT IN is not(IN)
//           EXISTS / IS NULL / IS EMPTY from their own sets
//           CONTAINS s       strings containing norm s
//           STARTS WITH s    strings starting with norm s; empty s → EXISTS
//   geo   arguments checked (geo-check.ts); neither `_geo` nor `_geojson` filterable →
//         GeoNotFilterableError; radius and box: `_geo` points ∪ `_geojson` shapes meeting the
//         area (each when filterable); polygon: `_geojson` shapes only
//
// Filterability of the fields named in the filter is checked by the caller before this runs
// (milli checks every field up front, even in branches never evaluated).

import { Bitmap } from '../../bitmap/index.ts';
import {
  geoBoundingBoxArgs,
  geoPolygonPoints,
  geoRadiusArgs,
  spanError,
  type CompareNode,
  type FilterNode,
  type GeoBoundingBoxNode,
  type GeoRadiusNode,
  type Token,
  type Value,
} from '../parser/index.ts';
import {
  GeoNotFilterableError,
  OperatorNotAllowedError,
  UnsupportedFilterError,
  type FieldAccess,
  type FilterOperator,
} from './errors.ts';
import { compareUtf8, normalizeFilterValue, type Bound, type FacetReader } from './reader.ts';

/** What a filter is evaluated against. */
export interface FilterScope {
  reader: FacetReader;
  /** Every document of the index: what `NOT` and `!=` complement. Not mutated. */
  documents: Bitmap;
  /** The features of the first filterable rule matching `field`; null when none matches. */
  access(field: string): FieldAccess | null;
  /** `_geo` is filterable (points) / `_geojson` is filterable (shapes). */
  geo: { readonly points: boolean; readonly shapes: boolean };
  /** what `_vectors … EXISTS` selects; without it such a filter is not supported */
  vectors?: VectorFilterSource;
}

/** The documents with embeddings, for `_vectors` filters (filters.md §9). */
export interface VectorFilterSource {
  /** the configured embedders */
  embedders: readonly string[];
  /** documents with embeddings of that kind from `embedder` (null: any embedder) */
  docids(embedder: string | null, subset: 'all' | 'userProvided' | 'documentTemplate' | 'regenerate'): Bitmap;
}

/**
 * The documents matching `node`, as a new bitmap the caller owns. Throws
 * OperatorNotAllowedError, GeoNotFilterableError, UnsupportedFilterError, or the parser's
 * FilterSyntaxError for bad geo arguments.
 */
export function evaluateFilter(node: FilterNode, scope: FilterScope): Bitmap {
  const result = new Evaluator(scope).node(node, null);
  return result.owned ? result.bits : result.bits.clone();
}

/** A bitmap and whether this evaluation made it (may be changed in place) or borrowed it. */
interface Bits {
  bits: Bitmap;
  owned: boolean;
}

const owned = (bits: Bitmap): Bits => ({ bits, owned: true });
const borrowed = (bits: Bitmap): Bits => ({ bits, owned: false });
const none = (): Bits => owned(new Bitmap());

class Evaluator {
  readonly #scope: FilterScope;
  readonly #reader: FacetReader;

  constructor(scope: FilterScope) {
    this.#scope = scope;
    this.#reader = scope.reader;
  }

  /** `universe`: the documents still possible (milli's `universe_hint`), null at the top. */
  node(node: FilterNode, universe: Bitmap | null): Bits {
    if (universe !== null && universe.isEmpty) return none();
    switch (node.kind) {
      case 'and':
        return this.#and(node.children, universe);
      case 'or': {
        const parts = node.children.map((child) => this.node(child, universe));
        return parts.length === 1 ? parts[0]! : owned(Bitmap.orMany(parts.map((p) => p.bits)));
      }
      case 'not': {
        const selected = this.node(node.child, universe);
        return owned(Bitmap.andNot(universe ?? this.#scope.documents, selected.bits));
      }
      case 'compare':
        return this.#compare(node);
      case 'range':
        return this.#condition(node.field, 'TO', (fid) => this.#between(fid, node.from, node.to));
      case 'in':
        return this.#in(node.field, node.values);
      case 'exists':
        return this.#condition(node.field, 'EXISTS', (fid) => borrowed(this.#reader.exists(fid)));
      case 'isNull':
        return this.#condition(node.field, 'IS NULL', (fid) => borrowed(this.#reader.isNull(fid)));
      case 'isEmpty':
        return this.#condition(node.field, 'IS EMPTY', (fid) => borrowed(this.#reader.isEmpty(fid)));
      case 'contains':
        return this.#condition(node.field, null, (fid) =>
          borrowed(this.#reader.stringContains(fid, normalizeFilterValue(node.value.text))),
        );
      case 'startsWith':
        return this.#condition(node.field, null, (fid) => {
          const prefix = normalizeFilterValue(node.value.text);
          return borrowed(prefix === '' ? this.#reader.exists(fid) : this.#reader.stringStartsWith(fid, prefix));
        });
      case 'geoRadius':
        return this.#geoRadius(node);
      case 'geoBoundingBox':
        return this.#geoBoundingBox(node);
      case 'geoPolygon': {
        if (!this.#scope.geo.shapes) throw new GeoNotFilterableError('_geojson', node.points[0]![0]);
        return borrowed(this.#reader.geoShapes({ kind: 'polygon', points: geoPolygonPoints(node) }));
      }
      case 'vectorExists':
        return { bits: this.#vectors(node), owned: true };
      case 'foreign':
        throw new UnsupportedFilterError('a `_foreign` filter', node.field.span);
    }
  }

  #vectors(node: Extract<FilterNode, { kind: 'vectorExists' }>): Bitmap {
    const source = this.#scope.vectors;
    if (source === undefined) throw new UnsupportedFilterError('a `_vectors` filter', node.field.span);
    const name = node.embedder?.text ?? null;
    if (node.embedder !== null && !source.embedders.includes(name!)) {
      const available = source.embedders.length === 0 ? 'This index does not have configured embedders.' : `Available embedders are: ${source.embedders.map((e) => `\`${e}\``).join(', ')}.`;
      throw spanError(`The embedder \`${name}\` does not exist. ${available}`, node.embedder.span);
    }
    if (node.subset === 'fragment') {
      throw spanError(
        `The fragment \`${node.fragment?.text ?? ''}\` does not exist on embedder \`${name}\`. This embedder does not have any configured fragments.`,
        (node.fragment ?? node.field).span,
      );
    }
    return source.docids(name, node.subset);
  }

  #and(children: readonly FilterNode[], universe: Bitmap | null): Bits {
    let result = this.node(children[0]!, universe);
    for (let i = 1; i < children.length; i++) {
      if (result.bits.isEmpty) return result;
      const next = this.node(children[i]!, result.bits);
      if (!result.owned) result = owned(result.bits.clone());
      result.bits.andInPlace(next.bits);
    }
    return result;
  }

  /**
   * A condition on `field`: ∅ when the index never saw the field or no rule matches it, an
   * error when the rule's features forbid `operator` (null: no check, as for CONTAINS,
   * STARTS WITH, and IN which checks each element), else `evaluate(fieldId, features)`.
   */
  #condition(field: Token, operator: FilterOperator | null, evaluate: (fid: number, access: FieldAccess) => Bits): Bits {
    const fid = this.#reader.fieldId(field.text);
    if (fid === undefined) return none();
    const access = this.#scope.access(field.text);
    if (access === null) return none();
    if (operator !== null) checkOperator(field.text, operator, access);
    return evaluate(fid, access);
  }

  #compare(node: CompareNode): Bits {
    const { op, value } = node;
    return this.#condition(node.field, op, (fid) => {
      switch (op) {
        case '=':
          return this.#equal(fid, value);
        case '!=':
          return owned(Bitmap.andNot(this.#scope.documents, this.#equal(fid, value).bits));
        case '>':
          return this.#range(fid, value, { value: normalizeFilterValue(value.text), inclusive: false }, null);
        case '>=':
          return this.#range(fid, value, { value: normalizeFilterValue(value.text), inclusive: true }, null);
        case '<':
          return this.#range(fid, value, null, { value: normalizeFilterValue(value.text), inclusive: false });
        case '<=':
          return this.#range(fid, value, null, { value: normalizeFilterValue(value.text), inclusive: true });
      }
    });
  }

  #equal(fid: number, value: Value): Bits {
    const strings = this.#reader.stringEquals(fid, normalizeFilterValue(value.text));
    if (value.number === null) return borrowed(strings);
    return owned(Bitmap.or(strings, this.#reader.numberEquals(fid, value.number)));
  }

  /** One-sided comparison: the string bound is given; the numeric one mirrors it when `value` is a number. */
  #range(fid: number, value: Value, lo: Bound<string> | null, hi: Bound<string> | null): Bits {
    const strings = this.#reader.stringRange(fid, lo, hi);
    if (value.number === null) return borrowed(strings);
    const n = value.number;
    const numbers =
      lo !== null
        ? this.#reader.numberRange(fid, { value: n, inclusive: lo.inclusive }, null)
        : this.#reader.numberRange(fid, null, { value: n, inclusive: hi!.inclusive });
    return owned(Bitmap.or(strings, numbers));
  }

  #between(fid: number, from: Value, to: Value): Bits {
    const parts: Bitmap[] = [];
    if (from.number !== null && to.number !== null && from.number <= to.number) {
      parts.push(this.#reader.numberRange(fid, { value: from.number, inclusive: true }, { value: to.number, inclusive: true }));
    }
    const lo = normalizeFilterValue(from.text);
    const hi = normalizeFilterValue(to.text);
    if (compareUtf8(lo, hi) <= 0) {
      parts.push(this.#reader.stringRange(fid, { value: lo, inclusive: true }, { value: hi, inclusive: true }));
    }
    if (parts.length === 0) return none();
    return parts.length === 1 ? borrowed(parts[0]!) : owned(Bitmap.or(parts[0]!, parts[1]!));
  }

  #in(field: Token, values: readonly Value[]): Bits {
    // every element is an `=` condition (milli reports IN as `=`); `IN []` checks nothing
    return this.#condition(field, null, (fid, access) => {
      const parts = values.map((value) => {
        checkOperator(field.text, '=', access);
        return this.#equal(fid, value).bits;
      });
      return parts.length === 1 ? borrowed(parts[0]!) : owned(Bitmap.orMany(parts));
    });
  }

  #geoRadius(node: GeoRadiusNode): Bits {
    const { lat, lng, radius, resolution } = geoRadiusArgs(node);
    const { points, shapes } = this.#scope.geo;
    if (!points && !shapes) throw new GeoNotFilterableError('_geo/_geojson', node.lat);
    const near = points ? this.#reader.geoRadius(lat, lng, radius) : null;
    const meeting = shapes ? this.#reader.geoShapes({ kind: 'circle', lat, lng, meters: radius, resolution }) : null;
    return union(near, meeting);
  }

  #geoBoundingBox(node: GeoBoundingBoxNode): Bits {
    const { top, right, bottom, left } = geoBoundingBoxArgs(node);
    const { points, shapes } = this.#scope.geo;
    if (!points && !shapes) throw new GeoNotFilterableError('_geo/_geojson', node.topRight[0]);
    let inside: Bitmap | null = null;
    if (points) {
      // milli evaluates the box as `_geo.lat` and `_geo.lng` TO ranges: the rules matching those
      // fields decide (no rule → no document; no comparison → an operator error)
      const latitudes = this.#geoPart('_geo.lat');
      const longitudes = this.#geoPart('_geo.lng');
      inside = latitudes && longitudes ? this.#reader.geoBox(top, right, bottom, left) : new Bitmap();
    }
    const meeting = shapes ? this.#reader.geoShapes({ kind: 'box', top, right, bottom, left }) : null;
    return union(inside, meeting);
  }

  /** Whether the `TO` range milli runs on `field` for a bounding box can select anything. */
  #geoPart(field: string): boolean {
    if (this.#reader.fieldId(field) === undefined) return false;
    const access = this.#scope.access(field);
    if (access === null) return false;
    checkOperator(field, 'TO', access);
    return true;
  }
}

/** The union of the parts found (at least one is). */
function union(a: Bitmap | null, b: Bitmap | null): Bits {
  if (a === null) return borrowed(b!);
  if (b === null) return borrowed(a);
  return owned(Bitmap.or(a, b));
}

function checkOperator(field: string, operator: FilterOperator, access: FieldAccess): void {
  if (!operatorAllowed(operator, access)) throw new OperatorNotAllowedError(field, operator, access);
}

/** milli `FilterFeatures`: equality → = != IN, comparison → < > <= >= TO, either → the rest. */
export function operatorAllowed(operator: FilterOperator, access: Pick<FieldAccess, 'equality' | 'comparison'>): boolean {
  switch (operator) {
    case '=':
    case '!=':
      return access.equality;
    case '>':
    case '>=':
    case '<':
    case '<=':
    case 'TO':
      return access.comparison;
    default:
      return access.equality || access.comparison;
  }
}
