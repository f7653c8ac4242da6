// Imports the indexes, batches and tasks of a dump into a new database (dumps-snapshots.md §3).
// Each index is created with its dump dates and primary key, then its settings and its documents
// go through the same processors as tasks do (embeddings given in `_vectors` are kept); the tasks
// and batches are stored as they were, uids included, and enqueued ones get their payload back.
import fs from 'node:fs';
import { DumpError, type DumpReader, parseDate, taskFromDump, batchFromDump, readLines } from '../dump/index.ts';
import { parseSettingsPatch, SETTING_NAMES } from '../api/settings/index.ts';
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
const ALL_FEATURES = { chatCompletions: true, foreignKeys: true, compositeEmbedders: true, multimodal: true };

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
      await importIndex(entry, dump, target, extractor);
      imported.push(entry.uid);
    }
  } finally {
    await extractor.close();
  }
  return imported;
}

async function importIndex(entry: ReturnType<DumpReader['indexes']>[number], _dump: DumpReader, target: ImportTarget, extractor: Extractor): Promise<void> {
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
    let count = 0;
    for (const _line of readLines(entry.documentsFile)) count++;
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
  const known: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if ((SETTING_NAMES as readonly string[]).includes(key)) known[key] = value;
    else log?.('warn', `index \`${uid}\`: the setting \`${key}\` of the dump is not known to Muninn and was left out`);
  }
  try {
    return parseSettingsPatch(known, { features: ALL_FEATURES }) as Record<string, unknown>;
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
  let batches = 0;
  let tasks = 0;
  const flushEvery = 10_000;
  let pendingBatches = [];
  for (const line of dump.batches()) {
    pendingBatches.push(batchFromDump(line));
    if (pendingBatches.length >= flushEvery) {
      const chunk = pendingBatches;
      queue.env.write(() => chunk.forEach((b) => queue.putBatch(b)));
      batches += chunk.length;
      pendingBatches = [];
    }
  }
  const lastBatches = pendingBatches;
  queue.env.write(() => lastBatches.forEach((b) => queue.putBatch(b)));
  batches += lastBatches.length;

  let maxUid = -1;
  let pending: Task[] = [];
  const flush = () => {
    const chunk = pending;
    queue.env.write(() => queue.putTasks(chunk));
    tasks += chunk.length;
    pending = [];
  };
  for (const line of dump.tasks()) {
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
    pending.push(task);
    if (pending.length >= flushEvery) flush();
  }
  flush();
  queue.env.write(() => {
    if (maxUid >= 0) queue.meta.put('nextTaskUid', Math.max(maxUid + 1, queue.nextUid('nextTaskUid')));
  });
  return { tasks, batches };
}
