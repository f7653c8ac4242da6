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
import { enqueueCleanup } from './cleanup.ts';
import { upgradeSearchLayouts } from './search-layout.ts';
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

async function loop(): Promise<void> {
  const upgraded = upgradeSearchLayouts(queue, registry);
  if (upgraded.length > 0) post({ type: 'notice', message: `re-indexed the search tables of ${upgraded.length} index(es) in the chunked layout: ${upgraded.join(', ')}` });
  post({ type: 'ready' });
  while (!stopping) {
    await waitForWake();
    if (stopping) break;
    woken = false;
    queue.env.refresh();
    if (queue.count() >= config.cleanup.maxTasks) enqueueCleanup(queue, config.cleanup.deleteCount);
    const plan = nextBatch({
      enqueued: queue.enqueued(),
      index: (uid) => {
        const index = registry.get(uid);
        return { exists: index !== undefined, primaryKey: index ? index.meta().primaryKey : null };
      },
      limits: { maxTasks: config.maxBatchedTasks, maxBytes: config.maxBatchedBytes },
    });
    if (!plan) continue;
    woken = true; // look again right after this batch
    const batchUid = nextBatchUid++;
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
    } catch (err) {
      if (err instanceof Aborted) {
        nextBatchUid--; // nothing was committed under this uid
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
