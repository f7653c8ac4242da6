// The 1.50 search quirk (filters.md §8, search.md §13): search filters are normalized before
// they run — re-serialized the way milli's `serialize_index_filter_condition` writes them — so
// evaluation errors of the search routes quote that text, not the one sent:
//
//   many = Glass                    →  "many" = "Glass"           (2:6 points at many)
//   a = 1 AND (b = 2 OR c NOT IN [x])  →  ("a" = "1") AND (("b" = "2") OR (NOT ("c" IN ["x"])))
//
//   condition   "field" <op> "value" | "field" "from" TO "to" | "field" IS NULL | IS EMPTY |
//               EXISTS | CONTAINS "v" | STARTS WITH "v";   "field" IN ["a", "b"]
//   and / or    each operand in parentheses, joined by ` AND ` / ` OR `
//   not         NOT (…)
//   geo         _geoRadius(lat, lng, radius[, resolution]), _geoBoundingBox([a, b], [c, d]),
//               _geoPolygon([a, b], …) with the numbers as written
//
// Field names and values are double-quoted with `\` and `"` escaped. The result is a new AST
// whose spans point into the new text.

import type { FilterNode, FilterSource, GeoNumber, GeoPoint, Span, Token, Value } from '../../engine/filter/parser/index.ts';

/** `node` rewritten over its re-serialized text. */
export function reserializeFilter(node: FilterNode): FilterNode {
  const source = { text: '', shown: '' };
  const writer = new Writer(source);
  const result = writer.node(node);
  source.text = source.shown = writer.text;
  return result;
}

class Writer {
  text = '';
  #length = 0; // in code points, as spans count
  readonly #source: FilterSource;

  constructor(source: FilterSource) {
    this.#source = source;
  }

  #raw(text: string): Span {
    const start = this.#length;
    this.text += text;
    this.#length += Array.from(text).length;
    return { start, end: this.#length, source: this.#source };
  }

  /** A quoted token; its span covers the text between the quotes. */
  #quoted<T extends Token>(token: T): T {
    this.#raw('"');
    const span = this.#raw(token.text.replace(/["\\]/g, (c) => `\\${c}`));
    this.#raw('"');
    return { ...token, span };
  }

  #number(token: GeoNumber): GeoNumber {
    return { ...token, span: this.#raw(token.text) };
  }

  #point([lat, lng]: GeoPoint): GeoPoint {
    this.#raw('[');
    const a = this.#number(lat);
    this.#raw(', ');
    const b = this.#number(lng);
    this.#raw(']');
    return [a, b];
  }

  node(node: FilterNode): FilterNode {
    switch (node.kind) {
      case 'and':
      case 'or': {
        const children = node.children.map((child, i) => {
          if (i > 0) this.#raw(node.kind === 'and' ? ' AND ' : ' OR ');
          this.#raw('(');
          const out = this.node(child);
          this.#raw(')');
          return out;
        });
        return { kind: node.kind, children };
      }
      case 'not': {
        this.#raw('NOT (');
        const child = this.node(node.child);
        this.#raw(')');
        return { kind: 'not', child };
      }
      case 'compare': {
        const field = this.#quoted(node.field);
        this.#raw(` ${node.op} `);
        return { ...node, field, value: this.#quoted(node.value) };
      }
      case 'range': {
        const field = this.#quoted(node.field);
        this.#raw(' ');
        const from = this.#quoted(node.from);
        this.#raw(' TO ');
        return { ...node, field, from, to: this.#quoted(node.to) };
      }
      case 'in': {
        const field = this.#quoted(node.field);
        this.#raw(' IN [');
        const values: Value[] = node.values.map((value, i) => {
          if (i > 0) this.#raw(', ');
          return this.#quoted(value);
        });
        this.#raw(']');
        return { ...node, field, values };
      }
      case 'exists':
      case 'isNull':
      case 'isEmpty': {
        const field = this.#quoted(node.field);
        this.#raw(node.kind === 'exists' ? ' EXISTS' : node.kind === 'isNull' ? ' IS NULL' : ' IS EMPTY');
        return { ...node, field };
      }
      case 'contains':
      case 'startsWith': {
        const field = this.#quoted(node.field);
        this.#raw(' ');
        const keyword = this.#raw(node.kind === 'contains' ? 'CONTAINS' : 'STARTS WITH');
        this.#raw(' ');
        return { ...node, field, keyword, value: this.#quoted(node.value) };
      }
      case 'geoRadius': {
        this.#raw('_geoRadius(');
        const lat = this.#number(node.lat);
        this.#raw(', ');
        const lng = this.#number(node.lng);
        this.#raw(', ');
        const radius = this.#number(node.radius);
        let resolution: GeoNumber | null = null;
        if (node.resolution !== null) {
          this.#raw(', ');
          resolution = this.#number(node.resolution);
        }
        this.#raw(')');
        return { kind: 'geoRadius', lat, lng, radius, resolution };
      }
      case 'geoBoundingBox': {
        this.#raw('_geoBoundingBox(');
        const topRight = this.#point(node.topRight);
        this.#raw(', ');
        const bottomLeft = this.#point(node.bottomLeft);
        this.#raw(')');
        return { kind: 'geoBoundingBox', topRight, bottomLeft };
      }
      case 'geoPolygon': {
        this.#raw('_geoPolygon(');
        const points = node.points.map((point, i) => {
          if (i > 0) this.#raw(', ');
          return this.#point(point);
        });
        this.#raw(')');
        return { kind: 'geoPolygon', points };
      }
      case 'vectorExists': {
        const field = { ...node.field, span: this.#raw('_vectors') };
        let embedder: Token | null = null;
        let fragment: Token | null = null;
        if (node.embedder !== null) {
          this.#raw('.');
          embedder = this.#quoted(node.embedder);
        }
        if (node.subset === 'fragment' && node.fragment !== null) {
          this.#raw('.fragments.');
          fragment = this.#quoted(node.fragment);
        } else if (node.subset !== 'all' && node.subset !== 'fragment') {
          this.#raw(`.${node.subset}`);
        }
        this.#raw(' EXISTS');
        return { ...node, field, embedder, fragment };
      }
      case 'foreign': {
        this.#raw('_foreign(');
        const field = this.#quoted(node.field);
        this.#raw(', ');
        const filter = this.node(node.filter);
        this.#raw(')');
        return { kind: 'foreign', field, filter };
      }
    }
  }
}
