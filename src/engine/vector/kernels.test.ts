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

test('dotMany agrees with one dot product per vector, four at a time and the rest', () => {
  const r = rng(5);
  for (const n of [3, 4, 7, 100, 130]) {
    for (const count of [1, 3, 4, 5, 8, 9, 33]) {
      const arena = new KernelArena();
      const base = 1024;
      const vectors = 50;
      arena.reserve(base + vectors * n + 16);
      for (let i = 0; i < n; i++) arena.floats[i] = r() * 2 - 1;
      for (let i = 0; i < vectors * n; i++) arena.floats[base + i] = r() * 2 - 1;
      const slots = 200;
      const out = 300;
      const picked = Array.from({ length: count }, () => Math.floor(r() * vectors));
      picked.forEach((s, k) => (arena.words[slots + k] = s));
      arena.dotMany(0, base, n, n, slots, count, out);
      picked.forEach((s, k) => {
        const want = arena.dot(0, base + s * n, n);
        assert.ok(Math.abs(arena.floats[out + k]! - want) <= 1e-5 * Math.max(1, Math.abs(want)), `n ${n}, count ${count}, #${k}`);
      });
    }
  }
});
