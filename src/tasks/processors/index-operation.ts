// Document operations on one index (additions, updates, deletions by id, clear), applied in
// task order inside one index write transaction; each task runs in a child transaction so a
// failing task leaves no trace while the others of the batch succeed.
import { DocumentsWriter } from '../../engine/indexing/documents.ts';
import { EngineError } from '../../engine/errors.ts';
import { documentId } from '../../engine/index/primary-key.ts';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { facetReader } from '../../engine/facet/index.ts';
import { compileFilter, type FilterFeatures } from '../../api/filter/index.ts';

const ALL_FEATURES: FilterFeatures = { containsFilter: true, foreignKeys: true, network: true, multimodal: true };
import { ExtractionStopped } from '../../engine/indexing/extract/extractor.ts';
import type { Index } from '../../engine/index/index.ts';
import type { AppliedTask } from '../../engine/index/layout.ts';
import type { Task, TaskKind } from '../types.ts';
import { applyPatch, checkSettingsAgainstIndex, type SettingsPatch } from '../../api/settings/index.ts';
import { facetConfig, facetSignature, searchConfig, searchSignature, storedSettings } from '../index-settings.ts';
import { Aborted, failed, indexNotFound, succeeded, type BatchResult, type ProcessContext } from './context.ts';

const PROGRESS_EVERY = 4096;

/** Processes a batch of document operations on `indexUid` (tasks in uid order). */
export async function processIndexOperation(indexUid: string, tasks: Task[], mayCreate: boolean, ctx: ProcessContext): Promise<BatchResult> {
  let index = ctx.registry.get(indexUid);
  let createdUuid: string | null = null;
  if (!index) {
    if (!mayCreate) {
      const err = indexNotFound(indexUid);
      return { tasks: tasks.map((t) => failed(t, err)), indexUids: [] };
    }
    const created = ctx.trace.time('creating the index', () => ctx.registry.create(null, ctx.startedAt));
    index = created.index;
    createdUuid = created.uuid;
  }

  try {
    return await applyBatch(index, indexUid, tasks, createdUuid, ctx);
  } catch (err) {
    // an interrupted batch must not leave the directory of an index it was creating
    if (createdUuid !== null) await ctx.registry.destroy(createdUuid);
    throw err;
  }
}

async function applyBatch(target: Index, indexUid: string, tasks: Task[], createdUuid: string | null, ctx: ProcessContext): Promise<BatchResult> {
  const previous = target.getMain('applied') ?? {};
  const outcomes: Record<string, AppliedTask> = {};
  const { trace } = ctx;
  // the commit is the end of the write transaction, after its callback returns
  let commitStart = 0;
  target.env.write(() => {
    const writer = trace.time('retrieving config', () => {
      const settings = storedSettings(target);
      // the extractor thread is idle between document jobs: it prepares the search writes then
      return new DocumentsWriter(target, searchConfig(settings), { prepare: (request) => ctx.extractor.prepare(request), facets: facetConfig(settings) });
    });
    trace.time('checking the search and facet tables', () => {
      writer.indexSearchIfMissing();
      writer.indexFacetsIfStale();
    });
    trace.time('indexing', () => {
      for (const task of tasks) {
        const replay = previous[task.uid];
        if (replay) {
          outcomes[task.uid] = replay;
          continue;
        }
        const checkpoint = writer.checkpoint();
        try {
          const details = target.env.write(() => {
            const d = trace.time(TASK_STEPS[task.kind.kind] ?? task.kind.kind, () => applyTask(writer, task, ctx));
            writer.endTask();
            return d;
          });
          outcomes[task.uid] = { ok: true, details };
        } catch (err) {
          if (err instanceof Aborted) throw err;
          writer.rollback(checkpoint);
          const f = failed(task, err);
          outcomes[task.uid] = { ok: false, details: f.details ?? {}, error: f.error };
        }
      }
      trace.time('writing the search and facet tables', () => writer.save(ctx.startedAt));
    });
    target.setMain('applied', outcomes);
    commitStart = performance.now();
  });
  trace.add('committing', performance.now() - commitStart);
  await trace.timeAsync('waiting for the disk', () => target.env.flushed());

  const results = tasks.map((task): Task => {
    const o = outcomes[task.uid]!;
    return { ...task, status: o.ok ? 'succeeded' : 'failed', details: o.details, error: o.ok ? null : (o.error as Task['error']) };
  });
  const uuid = createdUuid;
  return {
    tasks: results,
    indexUids: [indexUid],
    ...(uuid !== null ? { commit: () => ctx.queue.setIndex(indexUid, uuid) } : {}),
  };
}

/** The trace step of each kind of task in a document batch. */
const TASK_STEPS: Partial<Record<TaskKind['kind'], string>> = {
  documentAddition: 'adding documents',
  documentDeletion: 'deleting documents',
  documentDeletionByFilter: 'deleting documents by filter',
  documentClear: 'clearing documents',
  settingsUpdate: 'applying the settings',
};

/** Applies one task to the writer; returns its success details. */
function applyTask(writer: DocumentsWriter, task: Task, ctx: ProcessContext): Record<string, unknown> {
  const kind = task.kind;
  switch (kind.kind) {
    case 'documentAddition':
      return addDocuments(writer, task, kind, ctx);
    case 'documentDeletion': {
      const deleted = writer.deleteByIds(kind.ids);
      return { ...task.details, providedIds: kind.ids.length, deletedDocuments: deleted };
    }
    case 'documentDeletionByFilter': {
      // the feature gates were checked when the task was enqueued
      const filter = compileFilter(kind.filter, 'documentsDelete', ALL_FEATURES);
      const index = writer.index;
      const used = writer.usedIds();
      const matched =
        filter === null
          ? new Bitmap()
          : filter.evaluate({ filterableAttributes: storedSettings(index).filterableAttributes, reader: facetReader(index), documents: used }, task.indexUid!);
      matched.andInPlace(used);
      return { ...task.details, providedIds: 0, deletedDocuments: writer.deleteByInternalIds(matched) };
    }
    case 'documentClear':
      return { ...task.details, deletedDocuments: writer.clear() };
    case 'settingsUpdate': {
      const index = writer.index;
      const current = storedSettings(index);
      const patch = kind.settings as SettingsPatch;
      checkSettingsAgainstIndex(current, patch, { indexUid: task.indexUid! });
      const next = applyPatch(current, patch);
      index.setMain('settings', next);
      // last step of the task: what follows in the batch is indexed with the new settings
      if (searchSignature(next) !== searchSignature(current)) ctx.trace.time('re-indexing search data', () => writer.reindexSearch(searchConfig(next)));
      // an invalid `_geo` in a stored document fails the task when `_geo` becomes filterable or sortable
      if (facetSignature(next) !== facetSignature(current)) ctx.trace.time('re-indexing facets', () => writer.reindexFacets(facetConfig(next)));
      return task.details ?? {};
    }
    default:
      throw new Error(`task kind ${kind.kind} cannot run in a document batch`);
  }
}

function addDocuments(
  writer: DocumentsWriter,
  task: Task,
  kind: Extract<TaskKind, { kind: 'documentAddition' }>,
  ctx: ProcessContext,
): Record<string, unknown> {
  // the primary key is settled before extraction starts (inference needs the first document only)
  const first = writer.primaryKey === null && kind.primaryKey === null ? ctx.files.first(kind.contentFile) : undefined;
  const pk = writer.resolvePrimaryKey(kind.primaryKey, first);
  let indexed = 0;
  if (pk !== null && kind.documentsCount > 0 && kind.valueError !== undefined) refuseValue(kind, pk, ctx);
  if (pk !== null && kind.documentsCount > 0) {
    const opts = { method: kind.method, primaryKey: kind.primaryKey, skipCreation: kind.skipCreation };
    let seen = 0;
    try {
      const file = ctx.files.path(kind.contentFile);
      for (const doc of ctx.extractor.documents(file, pk, ctx.shouldAbort, writer.searchConfig, writer.facetConfig)) {
        if (writer.addExtracted(doc, opts)) indexed++;
        if (++seen % PROGRESS_EVERY === 0) ctx.progress('indexing documents', seen, kind.documentsCount);
      }
    } catch (err) {
      if (err instanceof ExtractionStopped) throw new Aborted();
      throw err;
    }
  }
  return { ...task.details, receivedDocuments: kind.documentsCount, indexedDocuments: indexed };
}

/**
 * A payload with a field value Meilisearch's indexer refuses (too deep, a lone surrogate, a
 * number out of range; found while the payload was read) fails its task. Meilisearch checks
 * every document id first: an id error wins. The documents are never extracted, so no walk over
 * an unbounded value runs.
 */
function refuseValue(kind: Extract<TaskKind, { kind: 'documentAddition' }>, pk: string, ctx: ProcessContext): never {
  for (const { doc } of ctx.files.read(kind.contentFile)) {
    try {
      documentId(doc, pk);
    } catch (err) {
      // the message of an id error prints the document: past the stack's depth, the value error stands
      if (!(err instanceof RangeError)) throw err;
    }
  }
  throw new EngineError('internal', `internal: ${kind.valueError}.`);
}

/** Deletes an index with the tasks batched before its deletion (they succeed without being applied). */
export async function processIndexDeletion(indexUid: string, tasks: Task[], ctx: ProcessContext): Promise<BatchResult> {
  const uuid = ctx.queue.indexUuid(indexUid);
  if (uuid === undefined) {
    const err = indexNotFound(indexUid);
    return { tasks: tasks.map((t) => failed(t, err)), indexUids: [] };
  }
  // the index's directory is removed once the task queue commit is durable (`after`, not traced)
  const count = ctx.trace.time('counting documents', () => ctx.registry.byUuid(uuid).numberOfDocuments());
  const results = tasks.map((t) => (t.kind.kind === 'indexDeletion' ? succeeded(t, { deletedDocuments: count }) : succeeded(t)));
  return {
    tasks: results,
    indexUids: [indexUid],
    commit: () => ctx.queue.removeIndex(indexUid),
    after: () => ctx.registry.destroy(uuid),
  };
}
