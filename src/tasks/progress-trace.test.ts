// ProgressTrace: the `progressTrace` shape of Meilisearch 1.50 batches. Properties checked:
// 1. nested steps are joined with " > " and listed as they finish (children before parents)
// 2. a step path met again adds up; a throwing step is still timed
// 3. durations are printed as Rust's `{:.2?}`
// 4. a step measured by the caller (`add`) takes its place under the open steps
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProgressTrace } from './progress-trace.ts';

test('nested steps, in finishing order, repeated paths summed', async () => {
  let clock = 0;
  const trace = new ProgressTrace(() => clock);
  await trace.timeAsync('processing tasks', async () => {
    trace.time('retrieving config', () => (clock += 0.5));
    trace.time('indexing', () => {
      for (let i = 0; i < 2; i++) trace.time('adding documents', () => (clock += 3));
      assert.throws(() => trace.time('deleting documents', () => {
        clock += 0.01;
        throw new Error('task failed');
      }));
    });
    await Promise.resolve();
    clock += 1;
  });
  trace.time('writing tasks to disk', () => trace.time('tasks', () => (clock += 1500)));
  assert.deepEqual(Object.entries(trace.view()), [
    ['processing tasks > retrieving config', '500.00µs'],
    ['processing tasks > indexing > adding documents', '6.00ms'],
    ['processing tasks > indexing > deleting documents', '10.00µs'],
    ['processing tasks > indexing', '6.01ms'],
    ['processing tasks', '7.51ms'],
    ['writing tasks to disk > tasks', '1.50s'],
    ['writing tasks to disk', '1.50s'],
  ]);
});

test('no step, no entry', () => {
  assert.deepEqual(new ProgressTrace().view(), {});
});

test('a step measured outside a callback joins the open steps', () => {
  let clock = 0;
  const trace = new ProgressTrace(() => clock);
  trace.time('processing tasks', () => {
    trace.add('committing', 2.5);
    clock += 3;
  });
  assert.deepEqual(trace.view(), { 'processing tasks > committing': '2.50ms', 'processing tasks': '3.00ms' });
});
