// Test support for the document-batch processor: a temp data directory, an extractor thread, a
// registry, task builders and `run` (process a batch and commit it), set up by node:test hooks.
import { after, before } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Extractor } from '../../engine/indexing/extract/extractor.ts';
import type { Index } from '../../engine/index/index.ts';
import { IndexRegistry } from '../index-registry.ts';
import type { TaskQueue } from '../queue.ts';
import type { Task, TaskKind } from '../types.ts';
import { UpdateFiles } from '../update-files.ts';
import { task } from '../autobatcher.fixtures.ts';
import type { ProcessContext } from './context.ts';
import { processIndexOperation } from './index-operation.ts';
import { ProgressTrace } from '../progress-trace.ts';

export interface BatchHarness {
  /** the processing context (valid once the `before` hook ran) */
  ctx(): ProcessContext;
  addition(index: string, docs: Record<string, unknown>[], method?: 'replace' | 'update'): Task;
  settings(index: string, patch: Record<string, unknown>): Task;
  deletion(index: string, ids: string[]): Task;
  clear(index: string): Task;
  /** processes one batch of `tasks` on `index` and commits it */
  run(index: string, tasks: Task[]): Promise<Task[]>;
  indexOf(name: string): Index;
}

/** Registers the hooks of a test file and returns its harness. */
export function batchHarness(prefix: string): BatchHarness {
  let dir: string;
  let extractor: Extractor;
  let ctx: ProcessContext;
  const mapping = new Map<string, string>();
  let uid = 0;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    extractor = Extractor.start();
    const queue = { indexUuid: (name: string) => mapping.get(name), setIndex: (name: string, uuid: string) => mapping.set(name, uuid) } as unknown as TaskQueue;
    ctx = {
      queue,
      extractor,
      registry: new IndexRegistry(path.join(dir, 'indexes'), queue),
      files: new UpdateFiles(path.join(dir, 'update_files')),
      batchUid: 0,
      startedAt: 1,
      shouldAbort: () => false,
      progress: () => {},
      trace: new ProgressTrace(),
    };
  });

  after(async () => {
    await extractor.close();
    for (const uuid of mapping.values()) await ctx.registry.byUuid(uuid).close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  return {
    ctx: () => ctx,
    addition(index, docs, method = 'replace') {
      const { uuid, path: file } = ctx.files.reserve();
      fs.writeFileSync(file, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
      const kind: TaskKind = { kind: 'documentAddition', method, primaryKey: 'id', contentFile: uuid, documentsCount: docs.length, payloadBytes: 0, allowIndexCreation: true, skipCreation: false };
      return task(++uid, index, kind);
    },
    settings: (index, patch) => task(++uid, index, { kind: 'settingsUpdate', settings: patch, isDeletion: false, allowIndexCreation: true }),
    deletion: (index, ids) => task(++uid, index, { kind: 'documentDeletion', ids }),
    clear: (index) => task(++uid, index, { kind: 'documentClear' }),
    async run(index, tasks) {
      const result = await processIndexOperation(index, tasks, true, ctx);
      result.commit?.();
      return result.tasks;
    },
    indexOf: (name) => ctx.registry.get(name)!,
  };
}
