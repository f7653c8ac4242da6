// Distance kernels of the vector store. Every distance is "smaller is nearer" and the store turns
// it into a similarity in [0, 1] the way Meilisearch's store (hannoy) does (vectors-embedders.md §6):
//
//   cosine     d = (1 − cos(q, v)) / 2          similarity 1 − d = (1 + cos) / 2
//              (a vector of zero norm is at distance 0 of everything: similarity 1, hannoy's quirk)
//   hamming    d = differing bits / bits of whole 64-bit words    similarity 1 − d   (binary-quantized)
//   euclidean  d = |q − v|²                       similarity 1 / (1 + |q − v|)
//   dot        d = −q·v                           similarity (1 + tanh(q·v)) / 2
//
// Euclidean and dot are Muninn's own (the library API and the embedder's `distance` option,
// docs/compat.md); Meilisearch's API only uses cosine and hamming.

export type Metric = 'cosine' | 'euclidean' | 'dot' | 'hamming';

/** Dot product of the `n` floats at offsets `a` and `b` of one array (no view allocated). */
export function dotWithin(v: Float32Array, a: number, b: number, n: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += v[a + i]! * v[b + i]!;
    s1 += v[a + i + 1]! * v[b + i + 1]!;
    s2 += v[a + i + 2]! * v[b + i + 2]!;
    s3 += v[a + i + 3]! * v[b + i + 3]!;
  }
  for (; i < n; i++) s0 += v[a + i]! * v[b + i]!;
  return s0 + s1 + s2 + s3;
}

/** Squared euclidean distance of the `n` floats at offsets `a` and `b` of one array. */
export function squaredL2Within(v: Float32Array, a: number, b: number, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) {
    const d = v[a + i]! - v[b + i]!;
    s += d * d;
  }
  return s;
}

/** Differing bits of the `n` words at offsets `a` and `b` of one array. */
export function hammingWithin(v: Uint32Array, a: number, b: number, n: number): number {
  let bits = 0;
  for (let i = 0; i < n; i++) {
    let x = (v[a + i]! ^ v[b + i]!) >>> 0;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    bits += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return bits;
}


/** Euclidean norm of `n` floats of `v` from `offset`. */
export function norm(v: Float32Array, offset = 0, n = v.length): number {
  return Math.sqrt(dotWithin(v, offset, offset, n));
}



/** The similarity in [0, 1] of a distance of `metric` (1 = identical). */
export function similarity(metric: Metric, distance: number, dimensions: number): number {
  switch (metric) {
    case 'cosine':
      return Math.fround(1 - distance);
    case 'hamming':
      // over the bits of whole 64-bit words, as Meilisearch's store keeps them (3 dimensions, one
      // bit apart: 1 − 1/64)
      return dimensions === 0 ? 1 : Math.fround(1 - distance / (Math.ceil(dimensions / 64) * 64));
    case 'euclidean':
      return 1 / (1 + Math.sqrt(Math.max(0, distance)));
    case 'dot':
      return (1 + Math.tanh(-distance)) / 2;
  }
}

/** Packs a float vector into bits (1 where a component is positive), 32 dimensions a word. */
export function quantize(v: ArrayLike<number>): Uint32Array {
  const out = new Uint32Array(Math.ceil(v.length / 32));
  for (let i = 0; i < v.length; i++) if (v[i]! > 0) out[i >>> 5]! |= 1 << (i & 31);
  return out;
}

/** The 0/1 components of packed bits (what a quantized embedder returns as its vectors). */
export function unquantize(bits: Uint32Array, dimensions: number): number[] {
  const out = new Array<number>(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = (bits[i >>> 5]! >>> (i & 31)) & 1;
  return out;
}
