// A binary heap of (distance, node) pairs in two typed arrays: `min` pops the nearest first,
// `max` the farthest first. No object per entry: HNSW pushes thousands per search.

export class DistanceHeap {
  #d: Float64Array;
  #n: Uint32Array;
  #size = 0;
  /** +1: nearest on top; −1: farthest on top */
  readonly #sign: number;

  constructor(order: 'min' | 'max', capacity = 64) {
    this.#sign = order === 'min' ? 1 : -1;
    this.#d = new Float64Array(capacity);
    this.#n = new Uint32Array(capacity);
  }

  get size(): number {
    return this.#size;
  }

  clear(): void {
    this.#size = 0;
  }

  /** Distance of the top entry (Infinity / −Infinity when empty, by order). */
  topDistance(): number {
    return this.#size === 0 ? this.#sign * Infinity : this.#d[0]!;
  }

  topNode(): number {
    return this.#n[0]!;
  }

  push(distance: number, node: number): void {
    if (this.#size === this.#d.length) this.#grow();
    const d = this.#d;
    const n = this.#n;
    const s = this.#sign;
    let i = this.#size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (s * d[parent]! <= s * distance) break;
      d[i] = d[parent]!;
      n[i] = n[parent]!;
      i = parent;
    }
    d[i] = distance;
    n[i] = node;
  }

  /** Removes the top entry; read it first with `topDistance` / `topNode`. */
  pop(): void {
    const size = --this.#size;
    if (size <= 0) return;
    const d = this.#d;
    const n = this.#n;
    const s = this.#sign;
    const lastD = d[size]!;
    const lastN = n[size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && s * d[child + 1]! < s * d[child]!) child++;
      if (s * d[child]! >= s * lastD) break;
      d[i] = d[child]!;
      n[i] = n[child]!;
      i = child;
    }
    d[i] = lastD;
    n[i] = lastN;
  }

  /** The entries, nearest first (the heap is left empty). */
  drainSorted(): { nodes: number[]; distances: number[] } {
    const nodes: number[] = [];
    const distances: number[] = [];
    while (this.#size > 0) {
      nodes.push(this.topNode());
      distances.push(this.topDistance());
      this.pop();
    }
    if (this.#sign < 0) {
      nodes.reverse();
      distances.reverse();
    }
    return { nodes, distances };
  }

  #grow(): void {
    const d = new Float64Array(this.#d.length * 2);
    const n = new Uint32Array(this.#n.length * 2);
    d.set(this.#d);
    n.set(this.#n);
    this.#d = d;
    this.#n = n;
  }
}
