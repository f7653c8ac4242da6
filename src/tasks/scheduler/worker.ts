// The scheduler worker: the only writer of index environments. It picks the next batch
// with the autobatcher, runs it, and tells the HTTP thread what changed.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { nextBatch } from '../autobatcher.ts';
import { IndexRegistry } from '../index-registry.ts';
import { TaskQueue } from '../queue.ts';
import { UpdateFiles } from '../update-files.ts';
import { Extractor } from '../../engine/indexing/extract/extractor.ts';
import { nowMicros } from '../../engine/time.ts';
import { Aborted, type ProcessContext } from '../processors/context.ts';
import { indexingBudget } from '../../engine/indexing/budget.ts';
import { runBatch } from './run-batch.ts';
import { ProgressTrace } from '../progress-trace.ts';
import { lowerThreadPriority } from '../../engine/threads/priority.ts';
import { releaseFreedNativeMemory } from '../../engine/threads/native-memory.ts';
import { enqueueCleanup } from './cleanup.ts';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { STORAGE_VERSION } from '../../engine/version.ts';
import { storageVersionOf } from '../processors/upgrade.ts';
import { CONTROL_ABORT, type FromWorker, type SchedulerConfig, type ToWorker } from './messages.ts';

// indexing must never slow the HTTP thread (search and enqueue latency)
lowerThreadPriority();

const config = workerData.config as SchedulerConfig;
const control = new Int32Array(workerData.control as SharedArrayBuffer);
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);

const queue = TaskQueue.open(path.join(config.dataDir, 'tasks'));
const registry = new IndexRegistry(path.join(config.dataDir, 'indexes'), queue);
const files = new UpdateFiles(path.join(config.dataDir, 'update_files'));
let extractor = Extractor.start();

let wakeUp: (() => void) | null = null;
let woken = true;
let stopping = false;
let wakes = 0;

port.on('message', (m: ToWorker) => {
  if (m.type === 'stop') stopping = true;
  else wakes++;
  woken = true;
  wakeUp?.();
});

function waitForWake(): Promise<void> {
  if (woken) return Promise.resolve();
  // the HTTP thread retires a worker that stays idle (scheduler/index.ts)
  post({ type: 'idle', wakes });
  return new Promise((resolve) => {
    wakeUp = () => {
      wakeUp = null;
      resolve();
    };
  });
}

let nextBatchUid = queue.nextUid('nextBatchUid');
const indexing = indexingBudget(config.maxIndexingMemory);

/** After a failed upgrade nothing but cancelations runs in this process (upgrade.md §3). */
let halted = config.halted === true;

/** Batches that may run while the task queue is in an older storage format than this release's. */
const WHILE_UPGRADING = new Set(['upgradeDatabase', 'taskCancelation']);

async function loop(): Promise<void> {
  post({ type: 'ready' });
  while (!stopping) {
    await waitForWake();
    if (stopping) break;
    woken = false;
    queue.env.refresh();
    if (queue.count() >= config.cleanup.maxTasks) enqueueCleanup(queue, config.cleanup.deleteCount);
    const upgrading = storageVersionOf(queue) !== STORAGE_VERSION;
    const failedUpgrades = upgrading ? Bitmap.and(queue.bitmap('type:upgradeDatabase'), queue.bitmap('status:failed')).toArray().flatMap((uid) => queue.get(uid) ?? []) : [];
    const plan = nextBatch({
      enqueued: queue.enqueued(),
      ...(halted ? {} : { failedUpgrades }),
      index: (uid) => {
        const index = registry.get(uid);
        return { exists: index !== undefined, primaryKey: index ? index.meta().primaryKey : null };
      },
      limits: { maxTasks: config.maxBatchedTasks, maxBytes: config.maxBatchedBytes },
    });
    if (!plan) continue;
    // no other task runs before the upgrade succeeds; after a failed one only cancelations run
    if ((upgrading || halted) && !WHILE_UPGRADING.has(plan.plan.op)) continue;
    if (halted && plan.plan.op !== 'taskCancelation') continue;
    woken = true; // look again right after this batch
    // a retried upgrade keeps the batch uid of its first run (upgrade.md §3)
    const reuse = plan.plan.op === 'upgradeDatabase' ? plan.plan.reuseBatchUid : null;
    const batchUid = reuse ?? nextBatchUid++;
    const startedAt = nowMicros();
    Atomics.store(control, CONTROL_ABORT, 0);
    const indexUids = [...new Set(plan.tasks.flatMap((t) => (t.indexUid === null ? [] : [t.indexUid])))];
    post({ type: 'started', batchUid, taskUids: plan.tasks.map((t) => t.uid), startedAt, indexUids, batchStrategy: plan.batchStrategy });
    let lastProgress = 0;
    const ctx: ProcessContext = {
      queue,
      extractor,
      registry,
      files,
      batchUid,
      startedAt,
      trace: new ProgressTrace(),
      indexing,
      dataDir: config.dataDir,
      ...(config.dumpDir !== undefined ? { dumpDir: config.dumpDir } : {}),
      ...(config.snapshotDir !== undefined ? { snapshotDir: config.snapshotDir } : {}),
      ...(config.allowedNetworks !== undefined ? { allowedNetworks: config.allowedNetworks } : {}),
      shouldAbort: () => Atomics.load(control, CONTROL_ABORT) === batchUid + 1,
      progress: (step, finished, total) => {
        const now = Date.now();
        if (now - lastProgress < 100) return;
        lastProgress = now;
        const percentage = total > 0 ? (finished / total) * 100 : 0;
        post({ type: 'progress', batchUid, progress: { steps: [{ currentStep: step, finished, total }], percentage }, trace: ctx.trace.view() });
      },
    };
    try {
      if (extractor.dead) {
        await extractor.close().catch(() => undefined);
        extractor = Extractor.start();
        ctx.extractor = extractor;
      }
      const { result } = await runBatch(plan, ctx);
      post({ type: 'finished', batchUid, indexUids: result.indexUids });
      // the queue is empty: what the batch freed goes back to the system now (native-memory.ts);
      // the next batch would have reused it
      if (queue.bitmap('status:enqueued').isEmpty) releaseFreedNativeMemory();
      if (result.halt) {
        halted = true;
        post({ type: 'halted' });
        post({ type: 'error', message: `the database upgrade failed: this process runs no other task (cancel the upgrade to roll it back, or restart to retry it): ${result.tasks[0]?.error?.message ?? ''}` });
      }
    } catch (err) {
      if (err instanceof Aborted) {
        if (reuse === null) nextBatchUid--; // nothing was committed under this uid
        post({ type: 'aborted', batchUid });
        continue;
      }
      post({ type: 'error', message: (err as Error)?.stack ?? String(err) });
      // Leave the tasks enqueued; wait for the next wake-up rather than spinning on a failing batch.
      woken = false;
    }
  }
  await extractor.close();
  await registry.closeAll();
  await queue.close();
  post({ type: 'stopped' });
}

loop().catch((err) => post({ type: 'error', message: (err as Error)?.stack ?? String(err) }));
