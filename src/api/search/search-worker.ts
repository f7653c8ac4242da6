// A search thread of the pool (pool.ts): runs one search at a time on the index environments it
// opens itself (LMDB shares them with the rest of the process) and answers with the response body
// already serialised, so the HTTP thread only writes it out.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { Index } from '../../engine/index/index.ts';
import { toApiError } from '../errors/index.ts';
import { indexNotFound } from '../indexes/index.ts';
import { executeSearch } from './execute.ts';
import { degradedSearches } from './degraded.ts';
import { runMultiSearch } from './multi-search.ts';
import type { FromSearchWorker, SearchJob, SearchWorkerData, ToSearchWorker } from './pool.ts';

const config = workerData as SearchWorkerData;
const port = parentPort!;
const post = (m: FromSearchWorker) => port.postMessage(m);

/** Open indexes by uuid. */
const open = new Map<string, Index>();

function indexOf(uuid: string): Index | null {
  const known = open.get(uuid);
  if (known !== undefined && !known.env.closed) return known;
  const dir = path.join(config.indexesDir, uuid);
  // deleted since the HTTP thread looked it up: never create it again
  if (!fs.existsSync(dir)) return null;
  const index = Index.open(dir);
  open.set(uuid, index);
  return index;
}

async function forget(keep: (uuid: string) => boolean): Promise<void> {
  for (const [uuid, index] of [...open]) {
    if (keep(uuid)) continue;
    open.delete(uuid);
    await index.close();
  }
}

function run(job: SearchJob): unknown {
  if (job.kind === 'search') {
    const index = indexOf(job.uuid);
    if (index === null) throw indexNotFound(job.uid);
    return executeSearch(index, job.uid, job.query, job.options);
  }
  const index = (uid: string) => {
    const uuid = Object.hasOwn(job.uuids, uid) ? job.uuids[uid] : undefined;
    return uuid === undefined ? undefined : (indexOf(uuid) ?? undefined);
  };
  return runMultiSearch(job.request, { index, metadata: job.metadata, features: job.features });
}

port.on('message', (m: ToSearchWorker) => {
  switch (m.type) {
    case 'run': {
      try {
        const before = degradedSearches();
        const body = JSON.stringify(run(m.job));
        post({ type: 'done', id: m.id, body, degraded: degradedSearches() - before });
      } catch (err) {
        const apiErr = toApiError(err);
        post({ type: 'error', id: m.id, code: apiErr.code, message: apiErr.message, status: apiErr.status, ...(apiErr.code === 'internal' ? { stack: (err as Error)?.stack ?? String(err) } : {}) });
      }
      break;
    }
    case 'forget':
      // indexes deleted or swapped away, or all of them before the thread stops
      void forget((uuid) => m.keep.includes(uuid)).then(() => {
        if (m.thenStop) port.close();
      });
      break;
  }
});

post({ type: 'ready' });
