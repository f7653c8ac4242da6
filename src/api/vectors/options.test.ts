import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linearScan, prefetchBudget } from './options.ts';

test('exact-scan thresholds come from MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW(_RATIO), defaults otherwise', () => {
  assert.deepEqual(linearScan({}), { below: 300_000, ratio: 0.1 });
  assert.deepEqual(linearScan({ MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW: '1000', MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW_RATIO: '0.5' }), { below: 1000, ratio: 0.5 });
  assert.deepEqual(linearScan({ MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW: 'many', MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW_RATIO: '2' }), { below: 300_000, ratio: 0.1 });
  assert.deepEqual(linearScan({ MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW: '0' }), { below: 0, ratio: 0.1 });
});

test('HANNOY_READER_PREFETCH_MEMORY: bytes, `true` for everything, off otherwise', () => {
  assert.equal(prefetchBudget({}), 0);
  assert.equal(prefetchBudget({ HANNOY_READER_PREFETCH_MEMORY: '1048576' }), 1048576);
  assert.equal(prefetchBudget({ HANNOY_READER_PREFETCH_MEMORY: 'true' }), Infinity);
  assert.equal(prefetchBudget({ HANNOY_READER_PREFETCH_MEMORY: 'lots' }), 0);
});
