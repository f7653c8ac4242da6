// A document's embeddings for one embedder, as stored (vector-embeddings table):
//
//   u8 flags (1: regenerate, 2: binary-quantized, 4: kept but not given by the user — an
//   entry `{ regenerate: false }` without embeddings) · u8 0 · u16 count · u32 dimensions
//   then `count` vectors: float  → f32 norm, `dimensions` × f32 (stride dimensions + 1)
//                         binary → ⌈dimensions / 32⌉ × u32 bits (stride in words)
//
// The header is 8 bytes so the vectors sit 4-byte aligned in a copied value.
import { norm, quantize, unquantize } from './distance.ts';

const REGENERATE = 1;
const QUANTIZED = 2;
const NOT_GIVEN = 4;
const HEADER = 8;

export interface EmbeddingsInput {
  vectors: ArrayLike<number>[];
  regenerate: boolean;
  quantized: boolean;
  dimensions: number;
  /** no vectors, by an entry `{ regenerate: false }` rather than `null` (not the user's vectors) */
  notGiven?: boolean;
}

export function encodeEmbeddings(e: EmbeddingsInput): Uint8Array {
  const stride = strideOf(e.quantized, e.dimensions);
  const bytes = new Uint8Array(HEADER + e.vectors.length * stride * 4);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, (e.regenerate ? REGENERATE : 0) | (e.quantized ? QUANTIZED : 0) | (e.notGiven === true ? NOT_GIVEN : 0));
  view.setUint16(2, e.vectors.length, true);
  view.setUint32(4, e.dimensions, true);
  if (e.quantized) {
    const words = new Uint32Array(bytes.buffer, HEADER);
    e.vectors.forEach((v, k) => words.set(quantize(v), k * stride));
  } else {
    const floats = new Float32Array(bytes.buffer, HEADER);
    e.vectors.forEach((v, k) => {
      floats.set(v, k * stride + 1);
      floats[k * stride] = norm(floats, k * stride + 1, e.dimensions);
    });
  }
  return bytes;
}

/** A decoded view of stored embeddings (over the bytes given: copy them first if the store reuses its buffer). */
export class StoredEmbeddings {
  readonly regenerate: boolean;
  readonly quantized: boolean;
  readonly notGiven: boolean;
  readonly count: number;
  readonly dimensions: number;
  readonly stride: number;
  /** float vectors with their norms (float embedders) */
  readonly floats: Float32Array | null;
  /** packed bits (binary-quantized embedders) */
  readonly bits: Uint32Array | null;

  constructor(bytes: Uint8Array) {
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
    const view = new DataView(aligned.buffer, aligned.byteOffset, aligned.byteLength);
    const flags = view.getUint8(0);
    this.regenerate = (flags & REGENERATE) !== 0;
    this.quantized = (flags & QUANTIZED) !== 0;
    this.notGiven = (flags & NOT_GIVEN) !== 0;
    this.count = view.getUint16(2, true);
    this.dimensions = view.getUint32(4, true);
    this.stride = strideOf(this.quantized, this.dimensions);
    const length = this.count * this.stride;
    this.floats = this.quantized ? null : new Float32Array(aligned.buffer, aligned.byteOffset + HEADER, length);
    this.bits = this.quantized ? new Uint32Array(aligned.buffer, aligned.byteOffset + HEADER, length) : null;
  }

  /** The k-th vector as numbers (f32 values widened; 0/1 components when quantized). */
  vector(k: number): number[] {
    if (this.bits !== null) return unquantize(this.bits.subarray(k * this.stride, (k + 1) * this.stride), this.dimensions);
    const start = k * this.stride + 1;
    return Array.from(this.floats!.subarray(start, start + this.dimensions));
  }

  vectors(): number[][] {
    const out: number[][] = [];
    for (let k = 0; k < this.count; k++) out.push(this.vector(k));
    return out;
  }
}

function strideOf(quantized: boolean, dimensions: number): number {
  return quantized ? Math.ceil(dimensions / 32) : dimensions + 1;
}
