// Entry of every worker thread of ours: worker threads do not inherit the TypeScript loader
// of the main thread, so register it here before importing the TypeScript entry.
import { workerData } from 'node:worker_threads';

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.entry);
