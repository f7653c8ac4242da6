// An arena of 32-bit cells with the distance kernels that read it: WebAssembly SIMD
// (kernels.wat) where the runtime has it, plain TypeScript otherwise (or with
// MUNINN_VECTOR_KERNELS=ts). Both compute the same sums; the SIMD one adds in f32 lanes, so
// results may differ in the last bits of a float (the tests compare them with a tolerance).
import { dotWithin, hammingWithin, squaredL2Within } from './distance.ts';
import { KERNELS_WASM } from './kernels-wasm.ts';

interface WasmKernels {
  memory: WebAssembly.Memory;
  dot(a: number, b: number, n: number): number;
  l2(a: number, b: number, n: number): number;
  hamming(a: number, b: number, n: number): number;
  dotMany(q: number, base: number, stride: number, n: number, slots: number, count: number, out: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

function wasmModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    compiled = process.env.MUNINN_VECTOR_KERNELS === 'ts' ? null : new WebAssembly.Module(Buffer.from(KERNELS_WASM, 'base64'));
  } catch {
    compiled = null;
  }
  return compiled;
}

/** Which kernels arenas use in this process. */
export function kernelKind(): 'wasm-simd' | 'typescript' {
  return wasmModule() === null ? 'typescript' : 'wasm-simd';
}

/** Cells addressed by index (f32 through `floats`, u32 through `words`, the same memory). */
export class KernelArena {
  floats: Float32Array;
  words: Uint32Array;
  readonly #wasm: WasmKernels | null;
  #buffer: ArrayBuffer;

  constructor(kind: 'auto' | 'typescript' = 'auto') {
    const module = kind === 'auto' ? wasmModule() : null;
    this.#wasm = module === null ? null : (new WebAssembly.Instance(module).exports as unknown as WasmKernels);
    this.#buffer = this.#wasm?.memory.buffer ?? new ArrayBuffer(65536);
    this.floats = new Float32Array(this.#buffer);
    this.words = new Uint32Array(this.#buffer);
  }

  get kind(): 'wasm-simd' | 'typescript' {
    return this.#wasm === null ? 'typescript' : 'wasm-simd';
  }

  /** Cells available. */
  get size(): number {
    return this.floats.length;
  }

  /** Makes room for `cells` cells (views are replaced: read `floats`/`words` again). */
  reserve(cells: number): void {
    const bytes = cells * 4;
    if (bytes <= this.#buffer.byteLength) return;
    let size = this.#buffer.byteLength;
    while (size < bytes) size *= 2;
    if (this.#wasm !== null) {
      this.#wasm.memory.grow((size - this.#buffer.byteLength) / 65536);
      this.#buffer = this.#wasm.memory.buffer;
    } else {
      const next = new ArrayBuffer(size);
      new Uint8Array(next).set(new Uint8Array(this.#buffer));
      this.#buffer = next;
    }
    this.floats = new Float32Array(this.#buffer);
    this.words = new Uint32Array(this.#buffer);
  }

  /** Σ a[i] × b[i] over `n` floats from cells `a` and `b`. */
  dot(a: number, b: number, n: number): number {
    return this.#wasm !== null ? this.#wasm.dot(a * 4, b * 4, n) : dotWithin(this.floats, a, b, n);
  }

  /** Σ (a[i] − b[i])² over `n` floats. */
  l2(a: number, b: number, n: number): number {
    return this.#wasm !== null ? this.#wasm.l2(a * 4, b * 4, n) : squaredL2Within(this.floats, a, b, n);
  }

  /**
   * Dot products of the `n` floats at cell `q` with `count` vectors: vector `s` starts at cell
   * `base + s × stride`, the slots are the words at cell `slots`, the results go to the floats at `out`.
   */
  dotMany(q: number, base: number, stride: number, n: number, slots: number, count: number, out: number): void {
    if (this.#wasm !== null) return this.#wasm.dotMany(q * 4, base * 4, stride * 4, n, slots * 4, count, out * 4);
    for (let k = 0; k < count; k++) this.floats[out + k] = dotWithin(this.floats, q, base + this.words[slots + k]! * stride, n);
  }

  /** Differing bits of `n` words. */
  hamming(a: number, b: number, n: number): number {
    return this.#wasm !== null ? this.#wasm.hamming(a * 4, b * 4, n) : hammingWithin(this.words, a, b, n);
  }
}
