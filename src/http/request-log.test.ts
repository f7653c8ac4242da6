import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatElapsed } from './request-log.ts';

test('durations print as tracing prints them', () => {
  assert.equal(formatElapsed(0.717), '717µs');
  assert.equal(formatElapsed(0.0263), '26.3µs');
  assert.equal(formatElapsed(1.55), '1.55ms');
  assert.equal(formatElapsed(1.5), '1.5ms');
  assert.equal(formatElapsed(100), '100ms');
  assert.equal(formatElapsed(2034), '2.03s');
});
