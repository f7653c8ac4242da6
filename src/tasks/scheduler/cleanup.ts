// Automatic task deletion when the queue is full (tasks.md §10).
import { Bitmap } from '../../engine/bitmap/index.ts';
import { formatDate } from '../../api/format/time.ts';
import { enqueuedDetails } from '../../api/tasks/details.ts';
import type { TaskQueue } from '../queue.ts';
import type { TaskKind } from '../types.ts';

/**
 * Registers a deletion of the `count` oldest finished tasks, unless one is already waiting or
 * fewer than two tasks are finished. Its filter names the newest selected task's enqueue time + 1 ns.
 */
export function enqueueCleanup(queue: TaskQueue, count: number): void {
  if (queue.bitmap('type:taskDeletion').intersects(queue.bitmap('status:enqueued'))) return;
  const finished = Bitmap.orMany([queue.bitmap('status:succeeded'), queue.bitmap('status:failed'), queue.bitmap('status:canceled')]);
  if (finished.size < 2) return;
  const selected = new Bitmap(finished.rangeUint32Array(0, count));
  const newest = queue.get(selected.maximum());
  if (!newest) return;
  const query = `?beforeEnqueuedAt=${plusOneNanosecond(newest.enqueuedAt)}&statuses=succeeded,failed,canceled`;
  const kind: TaskKind = { kind: 'taskDeletion', query, matched: selected.serialize('portable') };
  queue.register({ indexUid: null, kind, details: enqueuedDetails(kind, { matchedTasks: selected.size }) });
}

/** RFC 3339 of a µs time plus one nanosecond (nine fraction digits). */
function plusOneNanosecond(micros: number): string {
  const whole = formatDate(Math.floor(micros / 1e6) * 1e6).replace(/Z$/, '');
  const nanos = (micros % 1e6) * 1000 + 1;
  return `${whole}.${String(nanos).padStart(9, '0')}Z`;
}
