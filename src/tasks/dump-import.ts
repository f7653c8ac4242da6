// Imports the indexes, batches and tasks of a dump into a new database (dumps-snapshots.md §3).
// Each index is created with its dump dates and primary key, then its settings and its documents
// go through the same processors as tasks do (embeddings given in `_vectors` are kept); the tasks
// and batches are stored as they were, uids included, and enqueued ones get their payload back.
import fs from 'node:fs';
import { DumpError, type DumpIndex, type DumpReader, parseDate, taskFromDump, batchFromDump, settingsFromDump } from '../dump/index.ts';
import { readLineBuffers } from '../engine/files.ts';
import { Extractor } from '../engine/indexing/extract/extractor.ts';
import { nowMicros } from '../engine/time.ts';
import type { IndexRegistry } from './index-registry.ts';
import type { TaskQueue } from './queue.ts';
import type { Task, TaskKind } from './types.ts';
import type { UpdateFiles } from './update-files.ts';
import { ProgressTrace } from './progress-trace.ts';
import { processIndexOperation } from './processors/index-operation.ts';
import type { ProcessContext } from './processors/context.ts';

/** Task uids of the import's own operations: above any real uid, never stored in the queue. */
const SETTINGS_TASK = 0xffff_fffe;
const DOCUMENTS_TASK = 0xffff_fffd;

export interface ImportTarget {
  queue: TaskQueue;
  registry: IndexRegistry;
  files: UpdateFiles;
  log?: (level: 'info' | 'warn', message: string) => void;
}

/** Creates every index of the dump with its settings and documents. */
export async function importIndexes(dump: DumpReader, target: ImportTarget): Promise<string[]> {
  const extractor = Extractor.start();
  const imported: string[] = [];
  try {
    for (const entry of dump.indexes()) {
      await importIndex(entry, target, extractor);
      imported.push(entry.uid);
    }
  } finally {
    await extractor.close();
  }
  return imported;
}

async function importIndex(entry: DumpIndex, target: ImportTarget, extractor: Extractor): Promise<void> {
  const { queue, registry, files } = target;
  if (registry.exists(entry.uid)) throw new DumpError(`index \`${entry.uid}\` appears twice in the dump`);
  const createdAt = parseDate(entry.createdAt, `indexes/${entry.uid}/metadata.json createdAt`);
  // Meilisearch 1.50 keeps the dump's creation date; the update date becomes the import's
  parseDate(entry.updatedAt, `indexes/${entry.uid}/metadata.json updatedAt`);
  const { uuid, index } = registry.create(entry.primaryKey, createdAt);
  queue.env.write(() => queue.setIndex(entry.uid, uuid));

  const ctx: ProcessContext = {
    queue,
    extractor,
    registry,
    files,
    batchUid: 0,
    startedAt: nowMicros(),
    shouldAbort: () => false,
    progress: () => undefined,
    trace: new ProgressTrace(),
  };
  const fail = (task: Task | undefined, what: string) => {
    if (task?.status === 'failed') throw new DumpError(`index \`${entry.uid}\`: its ${what} could not be imported: ${task.error?.message ?? 'unknown error'}`);
  };

  const settings = settingsPatch(entry.uid, entry.settings, target.log);
  if (Object.keys(settings).length > 0) {
    const kind: TaskKind = { kind: 'settingsUpdate', settings, isDeletion: false, allowIndexCreation: false };
    const result = await processIndexOperation(entry.uid, [internalTask(SETTINGS_TASK, entry.uid, kind)], false, ctx);
    fail(result.tasks[0], 'settings');
  }

  if (fs.existsSync(entry.documentsFile)) {
    // the lines the payload reader will read (update-files.ts), not decoded
    let count = 0;
    for (const _line of readLineBuffers(entry.documentsFile)) count++;
    if (count > 0) {
      const { uuid: contentFile, path: payload } = files.reserve();
      fs.renameSync(entry.documentsFile, payload);
      const kind: TaskKind = {
        kind: 'documentAddition',
        method: 'replace',
        primaryKey: entry.primaryKey,
        contentFile,
        documentsCount: count,
        payloadBytes: fs.statSync(payload).size,
        allowIndexCreation: false,
        skipCreation: false,
      };
      try {
        const result = await processIndexOperation(entry.uid, [internalTask(DOCUMENTS_TASK, entry.uid, kind)], false, ctx);
        fail(result.tasks[0], 'documents');
      } finally {
        files.remove(contentFile);
      }
    }
  }

  index.env.write(() => {
    index.setMain('meta', { ...index.meta(), createdAt, updatedAt: Math.max(nowMicros(), createdAt) });
    // the import's own operations must not pass for tasks already applied
    index.removeMain('applied');
  });
  await index.env.flushed();
}

/** The dump's settings as a settings patch; settings Muninn does not know are left out with a warning. */
function settingsPatch(uid: string, settings: Record<string, unknown>, log: ImportTarget['log']): Record<string, unknown> {
  try {
    const { patch, unknown } = settingsFromDump(settings);
    for (const key of unknown) log?.('warn', `index \`${uid}\`: the setting \`${key}\` of the dump is not known to Muninn and was left out`);
    return patch;
  } catch (err) {
    throw new DumpError(`index \`${uid}\`: its settings could not be imported: ${(err as Error).message}`);
  }
}

function internalTask(uid: number, indexUid: string, kind: TaskKind): Task {
  return {
    uid,
    batchUid: null,
    indexUid,
    status: 'enqueued',
    kind,
    canceledBy: null,
    details: null,
    error: null,
    enqueuedAt: nowMicros(),
    startedAt: null,
    finishedAt: null,
  };
}

/** Stores the dump's batches and tasks as they were; enqueued document tasks get their payload. */
export function importQueue(dump: DumpReader, target: ImportTarget): { tasks: number; batches: number } {
  const { queue, files } = target;
  const batches = storeInChunks(target, map(dump.batches(), batchFromDump), (chunk) => chunk.forEach((b) => queue.putBatch(b)));
  let maxUid = -1;
  const read = map(dump.tasks(), (line) => {
    const task = taskFromDump(line, {
      contentFile: (uid) => {
        const reserved = files.reserve();
        const source = line.status === 'enqueued' ? dump.updateFile(uid) : null;
        if (source === null) return { uuid: reserved.uuid, bytes: 0 };
        fs.renameSync(source, reserved.path);
        return { uuid: reserved.uuid, bytes: fs.statSync(reserved.path).size };
      },
    });
    if (task.status === 'processing') task.status = 'enqueued';
    maxUid = Math.max(maxUid, task.uid);
    return task;
  });
  const tasks = storeInChunks(target, read, (chunk) => queue.putTasks(chunk));
  queue.env.write(() => {
    if (maxUid >= 0) queue.meta.put('nextTaskUid', Math.max(maxUid + 1, queue.nextUid('nextTaskUid')));
  });
  return { tasks, batches };
}

const CHUNK = 10_000;

/** Writes the items in task-queue transactions of `CHUNK` items; returns how many there were. */
function storeInChunks<T>(target: ImportTarget, items: Iterable<T>, put: (chunk: T[]) => void): number {
  let chunk: T[] = [];
  let count = 0;
  const flush = () => {
    const full = chunk;
    chunk = [];
    target.queue.env.write(() => put(full));
    count += full.length;
  };
  for (const item of items) {
    chunk.push(item);
    if (chunk.length >= CHUNK) flush();
  }
  if (chunk.length > 0) flush();
  return count;
}

function* map<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}
