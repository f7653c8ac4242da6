// The vectors of one graph (embedder, store k) in memory, read from LMDB once and kept in one
// contiguous array: graph walks compare thousands of vectors, and a read, a copy and a decode per
// comparison cost ten times the comparison. Cosine vectors are kept normalized (the distance is
// then (1 − q·v) / 2), with their norm to keep the zero-vector quirk; binary-quantized ones as
// bits. A slab belongs to one index generation (readers) or one batch (the writer).
//
//   slot[docId] ─► 0: not read yet · −1: no vector in this store · s + 1: in slot s
//   arena cells: [query | batch slots | batch results | slot 0 | slot 1 | …]  (stride cells a slot)
//
// The arena is the kernels' WebAssembly memory (kernels.ts): the query and the vectors are where
// the SIMD kernels read them, and a batch of neighbours is compared in one call.
import { dotWithin, quantize, type Metric } from './distance.ts';
import { KernelArena } from './kernels.ts';
import type { StoredEmbeddings } from './embeddings.ts';

/** A query vector prepared for one slab's metric, held in the slab's query cells (until the next `prepare`). */
export interface PreparedQuery {
  /** |q| (1 for a normalized cosine query), 0 when it is zero */
  norm: number;
}

/** Vectors compared in one kernel call. */
const BATCH = 64;
const batchSlots = new Int32Array(BATCH);

export class VectorSlab {
  readonly metric: Metric;
  readonly quantized: boolean;
  readonly store: number;
  #stride = 0;
  #dimensions = 0;
  /** first cell of slot 0: cells before it hold the prepared query, then the batch scratch */
  #base = 0;
  /** cells of a batch: its slots, then its dot products */
  #scratch = 0;
  #slot = new Int32Array(1024);
  readonly #arena: KernelArena;
  #norms = new Float32Array(1024);
  #count = 0;
  readonly #load: (doc: number) => StoredEmbeddings | undefined;

  /** `load`: a document's stored embeddings (the slab takes vector `store` of them). */
  constructor(load: (doc: number) => StoredEmbeddings | undefined, store: number, metric: Metric, quantized: boolean, arena = new KernelArena()) {
    this.#load = load;
    this.store = store;
    this.metric = quantized ? 'hamming' : metric;
    this.quantized = quantized;
    this.#arena = arena;
  }

  /** Bytes held (vectors, norms and slots). */
  get bytes(): number {
    return this.#slot.byteLength + (this.#base + this.#count * this.#stride) * 4 + this.#norms.byteLength;
  }

  /** The slot of a document's vector in this store, −1 when it has none. */
  slotOf(doc: number): number {
    if (doc >= this.#slot.length) this.#growSlots(doc);
    const s = this.#slot[doc]!;
    if (s !== 0) return s - 1;
    const e = this.#load(doc);
    if (e === undefined || e.count <= this.store) {
      this.#slot[doc] = -1;
      return -1;
    }
    return this.#put(doc, e);
  }

  /** Takes a document's embeddings read by the caller (a scan of the table), unless it holds them already. */
  fill(doc: number, e: StoredEmbeddings): void {
    if (doc >= this.#slot.length) this.#growSlots(doc);
    if (this.#slot[doc] !== 0) return;
    if (e.count <= this.store) this.#slot[doc] = -1;
    else this.#put(doc, e);
  }

  /** Forgets a document (its vectors changed): the next `slotOf` reads it again. */
  forget(doc: number): void {
    if (doc < this.#slot.length) this.#slot[doc] = 0;
  }

  /** Sizes the slab for vectors of `dimensions` (the first vector or query decides). */
  #shape(dimensions: number): void {
    if (this.#stride !== 0) return;
    this.#dimensions = dimensions;
    this.#stride = this.quantized ? Math.ceil(dimensions / 32) : dimensions;
    this.#scratch = Math.ceil(this.#stride / 4) * 4;
    this.#base = this.#scratch + 2 * BATCH;
    this.#arena.reserve(this.#base);
  }

  prepare(vector: ArrayLike<number>): PreparedQuery {
    this.#shape(vector.length);
    const arena = this.#arena;
    if (this.quantized) {
      arena.words.set(quantize(vector).subarray(0, this.#stride), 0);
      return { norm: 0 };
    }
    const n = Math.min(vector.length, this.#stride);
    const floats = arena.floats;
    for (let i = 0; i < n; i++) floats[i] = vector[i]!;
    let norm = Math.sqrt(dotWithin(floats, 0, 0, n));
    if (this.metric === 'cosine' && norm > Number.EPSILON) {
      for (let i = 0; i < n; i++) floats[i]! /= norm;
      norm = 1;
    }
    return { norm: norm > Number.EPSILON ? norm : 0 };
  }

  /** Distance from the prepared query to the vector in `slot`. */
  toQuery(q: PreparedQuery, slot: number): number {
    const arena = this.#arena;
    const at = this.#base + slot * this.#stride;
    if (this.quantized) return arena.hamming(0, at, this.#stride);
    switch (this.metric) {
      case 'euclidean':
        return arena.l2(0, at, this.#dimensions);
      case 'dot':
        return -arena.dot(0, at, this.#dimensions);
      default: {
        if (q.norm === 0 || this.#norms[slot] === 0) return 0;
        const d = (1 - arena.dot(0, at, this.#dimensions)) / 2;
        return d < 0 ? 0 : d > 1 ? 1 : d;
      }
    }
  }

  /** Copies the vector in `slot` into the query cells (the writer compares a new node with the graph). */
  prepareSlot(slot: number): PreparedQuery {
    const arena = this.#arena;
    const at = this.#base + slot * this.#stride;
    if (this.quantized) arena.words.copyWithin(0, at, at + this.#stride);
    else arena.floats.copyWithin(0, at, at + this.#stride);
    return { norm: this.quantized ? 0 : this.#norms[slot] === 0 ? 0 : this.metric === 'cosine' ? 1 : this.#norms[slot]! };
  }

  /** Distances from the prepared query to `nodes[0..count)` into `out` (Infinity: no vector here). */
  distances(q: PreparedQuery, nodes: Uint32Array, count: number, out: Float64Array): void {
    if (this.quantized || this.metric === 'euclidean') {
      for (let i = 0; i < count; i++) {
        const slot = this.slotOf(nodes[i]!);
        out[i] = slot < 0 ? Infinity : this.toQuery(q, slot);
      }
      return;
    }
    for (let from = 0; from < count; from += BATCH) {
      const n = Math.min(BATCH, count - from);
      // slots first: reading a vector may grow the arena and replace its views
      let slots = this.#slot;
      for (let i = 0; i < n; i++) {
        const doc = nodes[from + i]!;
        const s = doc < slots.length ? slots[doc]! : 0;
        if (s !== 0) batchSlots[i] = s > 0 ? s - 1 : -1;
        else {
          batchSlots[i] = this.slotOf(doc);
          slots = this.#slot;
        }
      }
      const arena = this.#arena;
      const words = arena.words;
      let k = 0;
      for (let i = 0; i < n; i++) if (batchSlots[i]! >= 0) words[this.#scratch + k++] = batchSlots[i]!;
      arena.dotMany(0, this.#base, this.#stride, this.#dimensions, this.#scratch, k, this.#scratch + BATCH);
      const floats = arena.floats;
      const results = this.#scratch + BATCH;
      const norms = this.#norms;
      const dotMetric = this.metric === 'dot';
      const zeroQuery = q.norm === 0;
      k = 0;
      for (let i = 0; i < n; i++) {
        const slot = batchSlots[i]!;
        if (slot < 0) {
          out[from + i] = Infinity;
          continue;
        }
        const dot = floats[results + k++]!;
        if (dotMetric) out[from + i] = -dot;
        else if (zeroQuery || norms[slot] === 0) out[from + i] = 0;
        else {
          const d = (1 - dot) / 2;
          out[from + i] = d < 0 ? 0 : d > 1 ? 1 : d;
        }
      }
    }
  }

  /** Distance between the vectors in two slots. */
  between(a: number, b: number): number {
    const arena = this.#arena;
    const s = this.#stride;
    const at = this.#base + a * s;
    const bt = this.#base + b * s;
    if (this.quantized) return arena.hamming(at, bt, s);
    switch (this.metric) {
      case 'euclidean':
        return arena.l2(at, bt, this.#dimensions);
      case 'dot':
        return -arena.dot(at, bt, this.#dimensions);
      default: {
        if (this.#norms[a] === 0 || this.#norms[b] === 0) return 0;
        const d = (1 - arena.dot(at, bt, this.#dimensions)) / 2;
        return d < 0 ? 0 : d > 1 ? 1 : d;
      }
    }
  }

  #put(doc: number, e: StoredEmbeddings): number {
    this.#shape(e.dimensions);
    const slot = this.#count++;
    const s = this.#stride;
    const at = this.#base + slot * s;
    const arena = this.#arena;
    arena.reserve(at + s);
    if (this.#norms.length < this.#count) {
      const norms = new Float32Array(this.#norms.length * 2);
      norms.set(this.#norms);
      this.#norms = norms;
    }
    if (this.quantized) {
      const bits = e.bits !== null ? e.bits.subarray(this.store * e.stride, this.store * e.stride + s) : quantize(e.vector(this.store));
      arena.words.set(bits.subarray(0, s), at);
      this.#norms[slot] = 1;
    } else {
      const from = this.store * e.stride + 1;
      const v = e.floats!.subarray(from, from + Math.min(s, e.dimensions));
      const n = e.floats![this.store * e.stride]!;
      this.#norms[slot] = n;
      const out = arena.floats;
      if (this.metric === 'cosine' && n > Number.EPSILON) for (let i = 0; i < v.length; i++) out[at + i] = v[i]! / n;
      else out.set(v, at);
    }
    this.#slot[doc] = slot + 1;
    return slot;
  }

  #growSlots(doc: number): void {
    let size = this.#slot.length;
    while (size <= doc) size *= 2;
    const slots = new Int32Array(size);
    slots.set(this.#slot);
    this.#slot = slots;
  }
}
