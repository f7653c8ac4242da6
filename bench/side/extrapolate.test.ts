// The power-law fit behind growth's 10M extrapolation.
//  1. Points on an exact power law give back its exponent and its value far outside the points.
//  2. One size (or one distinct x) gives no fit.
import assert from 'node:assert/strict';
import test from 'node:test';
import { fitPower } from './extrapolate.ts';

test('an exact power law is recovered and extrapolated', () => {
  const fit = fitPower([10_000, 100_000, 1_000_000].map((n) => [n, 2e-4 * n ** 1.1] as const));
  assert.ok(fit);
  assert.ok(Math.abs(fit.b - 1.1) < 1e-9);
  assert.ok(Math.abs(fit.at(1e7) / (2e-4 * 1e7 ** 1.1) - 1) < 1e-9);
});

test('a single size gives no fit', () => {
  assert.equal(fitPower([[10_000, 2]]), null);
  assert.equal(fitPower([[10_000, 2], [10_000, 3]]), null);
});
