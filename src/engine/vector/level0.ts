// Level 0 of an HNSW graph in memory, which walks read most: one flat table of rows of
// `LEVEL0_STRIDE` words (the link count + 1, then the links), found through an `Int32Array`
// indexed by node. A walk reads a node's links without an object between it and them. Lists too
// long for a row (none with the default parameters) are kept apart. A row is rewritten in place
// when the node's links change (the writer's link-backs), so changes allocate nothing.

/** Words of a row: the link count + 1, then up to M0 (32) links. */
export const LEVEL0_STRIDE = 33;

/** `array` doubled until it holds `length` items (at least `min`), its items kept. */
export function grown<T extends Int32Array | Uint32Array>(array: T, length: number, min: number): T {
  let size = Math.max(min, array.length);
  while (size < length) size *= 2;
  const out = new (array.constructor as new (n: number) => T)(size);
  out.set(array);
  return out;
}

/** `at` of a node the table has not been told about. */
export const UNKNOWN = -2;
/** `at` of a node without a row: no links on level 0, or more than a row holds (`long`). */
export const NO_ROW = -1;

export class Level0Table {
  /** the rows; read it again after `put` (the table may grow) */
  words = new Uint32Array(0);
  /** 0: unknown · −1: no row · r: row r − 1 */
  #row = new Int32Array(0);
  #rows = 0;
  readonly #long = new Map<number, Uint32Array>();

  /** Rows and long lists held (what the table costs, in lists). */
  get size(): number {
    return this.#rows + this.#long.size;
  }

  /** Where `node`'s row starts in `words`; `NO_ROW` or `UNKNOWN`. */
  at(node: number): number {
    const r = node < this.#row.length ? this.#row[node]! : 0;
    return r === 0 ? UNKNOWN : r < 0 ? NO_ROW : (r - 1) * LEVEL0_STRIDE;
  }

  /** The node's links (a view into the table for a row: do not keep it across `put`); undefined: none or unknown. */
  links(node: number): Uint32Array | undefined {
    const at = this.at(node);
    if (at >= 0) return this.words.subarray(at + 1, at + this.words[at]!);
    return this.#long.get(node);
  }

  /** Sets the node's links (null: none), in its row when it has one; returns `at(node)`. */
  put(node: number, links: Uint32Array | null): number {
    if (node >= this.#row.length) this.#row = grown(this.#row, node + 1, 1024);
    const r = this.#row[node]!;
    if (links === null || links.length >= LEVEL0_STRIDE) {
      this.#row[node] = -1;
      if (links !== null) this.#long.set(node, links);
      else this.#long.delete(node);
      return NO_ROW;
    }
    this.#long.delete(node);
    let at: number;
    if (r > 0) at = (r - 1) * LEVEL0_STRIDE;
    else {
      at = this.#rows * LEVEL0_STRIDE;
      if (at + LEVEL0_STRIDE > this.words.length) this.words = grown(this.words, at + LEVEL0_STRIDE, LEVEL0_STRIDE * 1024);
      this.#row[node] = ++this.#rows;
    }
    this.words[at] = links.length + 1;
    this.words.set(links, at + 1);
    return at;
  }
}
