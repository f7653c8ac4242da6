// One task of a document batch applied to the batch's `DocumentsWriter` (additions, deletions by
// id or filter, clear, settings), inside the transaction its step gives it (document-steps.ts).
import type { DocumentsWriter } from '../../engine/indexing/documents.ts';
import { Bitmap } from '../../engine/bitmap/index.ts';
import { EngineError } from '../../engine/errors.ts';
import { documentId } from '../../engine/index/primary-key.ts';
import { facetReader } from '../../engine/facet/index.ts';
import { ExtractionStopped } from '../../engine/indexing/extract/extractor.ts';
import { compileFilter, type FilterFeatures } from '../../api/filter/index.ts';
import { vectorFilterSource } from '../../api/vectors/retrieve.ts';
import { applyPatch, checkSettingsAgainstIndex, embedderConfigs, reindexNeeds, type SettingsPatch } from '../../api/settings/index.ts';
import type { Task, TaskKind } from '../types.ts';
import { facetConfig, facetSignature, searchConfig, searchSignature, storedSettings } from '../index-settings.ts';
import { Aborted, type ProcessContext } from './context.ts';
import { generatedVectors } from './embedding.ts';

const ALL_FEATURES: FilterFeatures = { containsFilter: true, foreignKeys: true, network: true, multimodal: true };
const PROGRESS_EVERY = 4096;

/** Applies `task` and ends its writes; returns its success details (the trace names the kind of task). */
export function applyDocumentTask(writer: DocumentsWriter, task: Task, ctx: ProcessContext): Record<string, unknown> {
  const details = ctx.trace.time(TASK_STEPS[task.kind.kind] ?? task.kind.kind, () => applyTask(writer, task, ctx));
  writer.endTask();
  return details;
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
  // rendering or embedding its documents failed before the batch's writes (embedding.ts)
  const failure = ctx.embedded?.failures.get(task.uid);
  if (failure !== undefined) throw failure;
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
          : filter.evaluate({ filterableAttributes: storedSettings(index).filterableAttributes, reader: facetReader(index), documents: used, vectors: vectorFilterSource(index, storedSettings(index)) }, task.indexUid!);
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
      const vectors = embedderConfigs(next.embedders);
      const actions = reindexNeeds(current, next).embedders;
      if (Object.keys(actions).length > 0 || JSON.stringify(vectors) !== JSON.stringify(embedderConfigs(current.embedders))) {
        const quantize = new Set(Object.entries(actions).filter(([, a]) => a.quantize).map(([name]) => name));
        ctx.trace.time('updating the vector store', () => writer.reconfigureVectors(vectors, quantize));
      }
      // the documents embedded again for embedders this task added or changed
      for (const [embedder, file] of ctx.embedded?.regenerated.get(task.uid) ?? []) {
        ctx.trace.time('storing the embeddings', () => writer.setGeneratedVectors(embedder, generatedVectors(file)));
      }
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
      const file = ctx.embedded?.payloads.get(task.uid) ?? ctx.files.path(kind.contentFile);
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

