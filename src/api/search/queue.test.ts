import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { SearchQueue } from './queue.ts';

const refused = async (p: Promise<void>) => {
  await assert.rejects(p, (err: unknown) => err instanceof ApiError && err.code === 'too_many_search_requests');
};

test('the search queue: permits first, then up to `capacity` waiting, a random waiting one dropped past it', async () => {
  const q = new SearchQueue({ capacity: 2, permits: 1, dropAfterMs: 60_000 });
  const a = q.arrive();
  await q.ready(a);
  const b = q.arrive();
  const c = q.arrive();
  assert.deepEqual([q.running, q.waiting], [1, 2]);
  const order: string[] = [];
  const pb = q.ready(b).then(() => order.push('b'), () => order.push('b dropped'));
  const pc = q.ready(c).then(() => order.push('c'), () => order.push('c dropped'));
  // a third waiting search evicts b or c
  const d = q.arrive();
  assert.equal(q.waiting, 2);
  await new Promise((r) => setImmediate(r));
  assert.equal(order.length, 1);
  assert.match(order[0]!, /dropped/);
  // the permit goes to the one left waiting, then to d
  q.leave(a);
  await Promise.all([pb, pc]);
  assert.equal(order.filter((o) => !o.includes('dropped')).length, 1);
  assert.deepEqual([q.running, q.waiting], [1, 1]);
  q.leave(order.includes('b') ? b : c);
  await q.ready(d);
  assert.deepEqual([q.running, q.waiting], [1, 0]);
});

test('capacity 0: no search waits; one that waited past dropAfterMs is not run', async () => {
  const q = new SearchQueue({ capacity: 0, permits: 1, dropAfterMs: 60_000 });
  const a = q.arrive();
  await q.ready(a);
  await refused(q.ready(q.arrive()));
  q.leave(a);
  await q.ready(q.arrive());

  let now = 0;
  const slow = new SearchQueue({ capacity: 10, permits: 1, dropAfterMs: 1000 }, () => now);
  const x = slow.arrive();
  now = 1500;
  await refused(slow.ready(x));
  assert.equal(slow.running, 0, 'its permit was given back');
  const err = await slow.ready(slow.arrive()).then(() => null, (e: ApiError) => e);
  assert.equal(err, null);
  assert.equal(new ApiError('too_many_search_requests', 'x').status, 503);
});
