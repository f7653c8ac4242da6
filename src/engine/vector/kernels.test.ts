// The WebAssembly SIMD kernels answer what the TypeScript ones do (within f32 rounding), for
// every length (SIMD blocks and tails) and after the arena grows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from '../random.fixtures.ts';
import { KernelArena, kernelKind } from './kernels.ts';

test('WebAssembly SIMD is used where the runtime has it', () => {
  assert.equal(kernelKind(), 'wasm-simd');
  assert.equal(new KernelArena().kind, 'wasm-simd');
  assert.equal(new KernelArena('typescript').kind, 'typescript');
});

test('dot, l2 and hamming agree between WebAssembly and TypeScript', () => {
  const r = rng(17);
  const wasm = new KernelArena();
  const ts = new KernelArena('typescript');
  for (const n of [1, 3, 4, 7, 8, 9, 16, 31, 100, 128, 384, 1536]) {
    const cells = 2 * n + 8;
    wasm.reserve(cells + 200_000);
    ts.reserve(cells + 200_000);
    // far into the arena, after it grew
    const a = 150_000;
    const b = a + n + 3;
    for (let i = 0; i < n; i++) {
      const x = r() * 2 - 1;
      const y = r() * 2 - 1;
      wasm.floats[a + i] = ts.floats[a + i] = x;
      wasm.floats[b + i] = ts.floats[b + i] = y;
    }
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) <= 1e-5 * Math.max(1, Math.abs(y)), `${x} vs ${y} (n ${n})`);
    close(wasm.dot(a, b, n), ts.dot(a, b, n));
    close(wasm.l2(a, b, n), ts.l2(a, b, n));
    for (let i = 0; i < n; i++) {
      wasm.words[a + i] = ts.words[a + i] = (r() * 2 ** 32) >>> 0;
      wasm.words[b + i] = ts.words[b + i] = (r() * 2 ** 32) >>> 0;
    }
    assert.equal(wasm.hamming(a, b, n), ts.hamming(a, b, n));
  }
});
