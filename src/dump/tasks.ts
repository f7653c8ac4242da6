// Tasks in `tasks/queue.jsonl` (dumps-snapshots.md §2): camelCase top-level keys, `type` an
// externally tagged enum with camelCase variants and snake_case fields, `details` tagged with
// PascalCase variants and snake_case fields; null optional keys left out.
import { enqueuedDetails, maskSettingsSecrets, type Details } from '../api/tasks/details.ts';
import { formatByteSize } from '../api/format/time.ts';
import { payloadSize } from '../api/export/index.ts';
import type { ErrorBody } from '../api/errors/index.ts';
import type { Task, TaskKind, TaskStatus } from '../api/tasks/model.ts';
import { TASK_STATUSES } from '../api/tasks/model.ts';
import { DumpError, formatDate, parseDate, parseOptionalDate } from './dates.ts';
import { keyFromDump, keyToDump, type DumpKey } from './keys.ts';
import { settingsFromDump } from './settings.ts';
import { versionTriple } from '../engine/version.ts';
import type { ApiKey } from '../auth/key-store.ts';

type Obj = Record<string, unknown>;

/** The dump line of a stored task. */
export function taskToDump(task: Task): Obj {
  const out: Obj = { uid: task.uid, batchUid: task.batchUid, indexUid: task.indexUid, status: task.status, type: kindToDump(task.kind, task.indexUid) };
  if (task.canceledBy !== null) out.canceledBy = task.canceledBy;
  const details = detailsToDump(task);
  if (details !== null) out.details = details;
  if (task.error !== null) out.error = { message: task.error.message, code: task.error.code, type: task.error.type, link: task.error.link };
  out.enqueuedAt = formatDate(task.enqueuedAt);
  if (task.startedAt !== null) out.startedAt = formatDate(task.startedAt);
  if (task.finishedAt !== null) out.finishedAt = formatDate(task.finishedAt);
  if (task.customMetadata !== undefined) out.customMetadata = task.customMetadata;
  return out;
}

function kindToDump(kind: TaskKind, indexUid: string | null): unknown {
  switch (kind.kind) {
    case 'documentAddition':
      return {
        documentImport: {
          primary_key: kind.primaryKey,
          method: kind.method === 'replace' ? 'ReplaceDocuments' : 'UpdateDocuments',
          documents_count: kind.documentsCount,
          allow_index_creation: kind.allowIndexCreation,
        },
      };
    case 'documentDeletion':
      return { documentDeletion: { documents_ids: kind.ids } };
    case 'documentDeletionByFilter':
      return { documentDeletionByFilter: { filter: kind.filter ?? null } };
    case 'documentClear':
      return 'documentClear';
    case 'documentEdition':
      return { documentEdition: { filter: kind.filter ?? null, context: kind.context ?? null, function: kind.function } };
    case 'settingsUpdate':
      return { settings: { settings: kind.settings, is_deletion: kind.isDeletion, allow_index_creation: kind.allowIndexCreation } };
    case 'indexCreation':
      return { indexCreation: { primary_key: kind.primaryKey } };
    case 'indexUpdate':
      return { indexUpdate: { primary_key: kind.primaryKey, uid: kind.newIndexUid } };
    case 'indexDeletion':
      return 'indexDeletion';
    case 'indexSwap':
      return { indexSwap: { swaps: kind.swaps.map((s) => ({ indexes: [...s.indexes], rename: s.rename })) } };
    case 'taskCancelation':
      return { taskCancelation: { query: kind.query, tasks: [...kind.matched] } };
    case 'taskDeletion':
      return { tasksDeletion: { query: kind.query, tasks: [...kind.matched] } };
    case 'dumpCreation':
      return { dumpCreation: { keys: (kind.keys ?? []).map(keyToDump), instance_uid: kind.instanceUid ?? null } };
    case 'snapshotCreation':
      return 'snapshotCreation';
    case 'export':
      return { export: exportToDump(kind.payload) };
    case 'upgradeDatabase':
      return { upgradeDatabase: { from: [...kind.from] } };
    case 'indexCompaction':
      return { indexCompaction: { index_uid: indexUid } };
  }
}

function exportToDump(payload: Obj): Obj {
  // Meilisearch writes the payload size as its human text (`"1 MiB"`)
  const size = typeof payload.payloadSize === 'number' ? formatByteSize(payload.payloadSize) : (payload.payloadSize ?? null);
  return { url: payload.url ?? null, api_key: payload.apiKey ?? null, payload_size: size, indexes: payload.indexes ?? {} };
}

/** Field names (snake_case) of each details variant, in Meilisearch's order. */
const DETAIL_FIELDS: Record<string, readonly string[]> = {
  DocumentAdditionOrUpdate: ['received_documents', 'indexed_documents'],
  DocumentDeletion: ['provided_ids', 'deleted_documents'],
  DocumentDeletionByFilter: ['original_filter', 'deleted_documents'],
  DocumentEdition: ['deleted_documents', 'edited_documents', 'original_filter', 'context', 'function'],
  ClearAll: ['deleted_documents'],
  IndexInfo: ['primary_key', 'new_index_uid', 'old_index_uid'],
  IndexSwap: ['swaps'],
  TaskCancelation: ['matched_tasks', 'canceled_tasks', 'original_filter'],
  TaskDeletion: ['matched_tasks', 'deleted_tasks', 'original_filter'],
  Dump: ['dump_uid'],
  IndexCompaction: ['index_uid', 'pre_compaction_size', 'post_compaction_size'],
};

function variantOf(kind: TaskKind): string | null {
  switch (kind.kind) {
    case 'documentAddition':
      return 'DocumentAdditionOrUpdate';
    case 'documentDeletion':
      return 'DocumentDeletion';
    case 'documentDeletionByFilter':
      return 'DocumentDeletionByFilter';
    case 'documentEdition':
      return 'DocumentEdition';
    case 'documentClear':
    case 'indexDeletion':
      return 'ClearAll';
    case 'indexCreation':
    case 'indexUpdate':
      return 'IndexInfo';
    case 'indexSwap':
      return 'IndexSwap';
    case 'taskCancelation':
      return 'TaskCancelation';
    case 'taskDeletion':
      return 'TaskDeletion';
    case 'dumpCreation':
      return 'Dump';
    case 'indexCompaction':
      return 'IndexCompaction';
    default:
      return null;
  }
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

function detailsToDump(task: Task): Obj | null {
  const kind = task.kind;
  if (task.details === null && kind.kind !== 'settingsUpdate') return null;
  const d = task.details ?? {};
  switch (kind.kind) {
    case 'settingsUpdate':
      // the settings as given, secrets in clear (the stored details are masked)
      return { SettingsUpdate: { settings: kind.settings } };
    case 'export':
      return { Export: exportToDump(kind.payload) };
    case 'upgradeDatabase':
      return { UpgradeDatabase: { from: [...kind.from], to: versionOf(d.upgradeTo) ?? [...kind.from] } };
    default:
      break;
  }
  const variant = variantOf(kind);
  if (variant === null) return null;
  const fields: Obj = {};
  for (const snake of DETAIL_FIELDS[variant]!) {
    let value = d[camel(snake)];
    if (snake === 'index_uid') value = task.indexUid;
    fields[snake] = value === undefined ? null : value;
  }
  return { [variant]: fields };
}

/** `[major, minor, patch]` of a `v`-prefixed version of the details, null when it is not one. */
function versionOf(v: unknown): number[] | null {
  if (typeof v !== 'string') return null;
  try {
    return versionTriple(v.replace(/^v/, ''));
  } catch {
    return null;
  }
}

// ---- reading ----

/** What a dump task needs besides its line: its payload file, when it came with one. */
export interface DumpTaskContext {
  /** the uuid under which the task's payload was stored, and its size */
  contentFile: (uid: number) => { uuid: string; bytes: number };
}

/** A stored task from a dump line. */
export function taskFromDump(line: Obj, ctx: DumpTaskContext): Task {
  const uid = uint(line.uid, 'uid');
  const status = line.status;
  if (typeof status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(status)) {
    throw new DumpError(`task ${uid}: unknown status ${JSON.stringify(status)}`);
  }
  const indexUid = typeof line.indexUid === 'string' ? line.indexUid : null;
  const kind = kindFromDump(line.type, uid, indexUid, ctx);
  const dumpDetails = isObj(line.details) ? line.details : null;
  const task: Task = {
    uid,
    batchUid: line.batchUid === null || line.batchUid === undefined ? null : uint(line.batchUid, 'batchUid'),
    indexUid,
    status: status as TaskStatus,
    kind,
    canceledBy: line.canceledBy === null || line.canceledBy === undefined ? null : uint(line.canceledBy, 'canceledBy'),
    // a settings task shows the settings as they were sent (secrets masked), not the parsed patch
    details: kind.kind === 'settingsUpdate' ? maskSettingsSecrets(rawSettings(line.type)) : detailsFromDump(kind, indexUid, dumpDetails),
    error: errorFromDump(line.error),
    enqueuedAt: parseDate(line.enqueuedAt, 'enqueuedAt'),
    startedAt: parseOptionalDate(line.startedAt, 'startedAt'),
    finishedAt: parseOptionalDate(line.finishedAt, 'finishedAt'),
  };
  if (typeof line.customMetadata === 'string') task.customMetadata = line.customMetadata;
  return task;
}

function kindFromDump(type: unknown, uid: number, indexUid: string | null, ctx: DumpTaskContext): TaskKind {
  if (typeof type === 'string') {
    switch (type) {
      case 'documentClear':
        return { kind: 'documentClear' };
      case 'indexDeletion':
        return { kind: 'indexDeletion' };
      case 'snapshotCreation':
        return { kind: 'snapshotCreation' };
      default:
        throw new DumpError(`task ${uid}: unknown task type ${JSON.stringify(type)}`);
    }
  }
  if (!isObj(type) || Object.keys(type).length !== 1) throw new DumpError(`task ${uid}: invalid task type ${JSON.stringify(type)}`);
  const [variant, raw] = Object.entries(type)[0]!;
  const f: Obj = isObj(raw) ? raw : {};
  switch (variant) {
    case 'documentImport': {
      const file = ctx.contentFile(uid);
      return {
        kind: 'documentAddition',
        method: f.method === 'UpdateDocuments' ? 'update' : 'replace',
        primaryKey: optString(f.primary_key),
        contentFile: file.uuid,
        documentsCount: Number(f.documents_count ?? 0),
        payloadBytes: file.bytes,
        allowIndexCreation: f.allow_index_creation !== false,
        skipCreation: false,
      };
    }
    case 'documentDeletion':
      return { kind: 'documentDeletion', ids: Array.isArray(f.documents_ids) ? f.documents_ids.map(String) : [] };
    case 'documentDeletionByFilter':
      return { kind: 'documentDeletionByFilter', filter: f.filter ?? f.filter_expr ?? null };
    case 'documentEdition':
      return { kind: 'documentEdition', filter: f.filter ?? null, context: f.context ?? null, function: String(f.function ?? '') };
    case 'settings':
      return {
        kind: 'settingsUpdate',
        settings: settingsOfTask(f.settings),
        isDeletion: f.is_deletion === true,
        allowIndexCreation: f.allow_index_creation !== false,
      };
    case 'indexCreation':
      return { kind: 'indexCreation', primaryKey: optString(f.primary_key) };
    case 'indexUpdate':
      return { kind: 'indexUpdate', primaryKey: optString(f.primary_key), newIndexUid: optString(f.uid) };
    case 'indexSwap':
      return {
        kind: 'indexSwap',
        swaps: (Array.isArray(f.swaps) ? f.swaps : []).map((s: unknown) => {
          const o = isObj(s) ? s : {};
          const pair = Array.isArray(o.indexes) ? o.indexes.map(String) : [];
          return { indexes: [pair[0] ?? '', pair[1] ?? ''] as [string, string], rename: o.rename === true };
        }),
      };
    case 'taskCancelation':
      return { kind: 'taskCancelation', query: String(f.query ?? ''), matched: bytes(f.tasks) };
    case 'tasksDeletion':
    case 'taskDeletion':
      return { kind: 'taskDeletion', query: String(f.query ?? ''), matched: bytes(f.tasks) };
    case 'dumpCreation':
      return {
        kind: 'dumpCreation',
        keys: (Array.isArray(f.keys) ? f.keys : []).map((k) => keyFromDump(k)),
        instanceUid: optString(f.instance_uid),
      };
    case 'export':
      return { kind: 'export', payload: { url: f.url ?? '', apiKey: f.api_key ?? null, payloadSize: bytesOf(f.payload_size), indexes: f.indexes ?? {} } };
    case 'upgradeDatabase': {
      const from = Array.isArray(f.from) ? f.from.map(Number) : [0, 0, 0];
      return { kind: 'upgradeDatabase', from: [from[0] ?? 0, from[1] ?? 0, from[2] ?? 0] };
    }
    case 'indexCompaction':
      return { kind: 'indexCompaction' };
    default:
      throw new DumpError(`task ${uid}: unknown task type \`${variant}\``);
  }
}

/** The settings a dumped settings task carries, as written. */
function rawSettings(type: unknown): Obj {
  const inner = isObj(type) && isObj(type.settings) ? type.settings : {};
  return isObj(inner.settings) ? inner.settings : {};
}

/**
 * A settings task's payload as the patch the processors expect (defaults of nested settings filled
 * in); one that does not parse is kept as written (a finished task's record).
 */
function settingsOfTask(settings: unknown): Record<string, unknown> {
  if (!isObj(settings)) return {};
  try {
    return settingsFromDump(settings).patch;
  } catch {
    return settings;
  }
}

/** The API details of an imported task: the enqueued shape of its kind, filled from the dump's counts. */
function detailsFromDump(kind: TaskKind, indexUid: string | null, dump: Obj | null): Details | null {
  const inner = dump !== null ? Object.values(dump)[0] : undefined;
  const fields: Obj = isObj(inner) ? inner : {};
  const base = enqueuedDetails(kind, {
    indexUid,
    ...(typeof fields.matched_tasks === 'number' ? { matchedTasks: fields.matched_tasks } : {}),
    ...(kind.kind === 'upgradeDatabase' && Array.isArray(fields.to) ? { targetVersion: fields.to.map(Number) as [number, number, number] } : {}),
  });
  if (base === null) return null;
  if (kind.kind === 'export' || kind.kind === 'upgradeDatabase') return base;
  const out: Details = { ...base };
  for (const [snake, value] of Object.entries(fields)) {
    const key = camel(snake);
    if (key === 'indexUid') continue;
    if (key in out || ((key === 'preCompactionSize' || key === 'postCompactionSize') && value !== null)) out[key] = value;
  }
  // Meilisearch 1.50 shows a deletion by ids imported from a dump with `originalFilter: null`
  if (kind.kind === 'documentDeletion' && !('originalFilter' in out)) out.originalFilter = null;
  return out;
}

function errorFromDump(e: unknown): ErrorBody | null {
  if (!isObj(e)) return null;
  return { message: String(e.message ?? ''), code: String(e.code ?? 'internal'), type: String(e.type ?? 'internal'), link: String(e.link ?? '') } as ErrorBody;
}

/** A payload size as a dump writes it (`"1 MiB"`, or a number) in bytes; null when absent or unreadable. */
function bytesOf(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  try {
    return payloadSize(v);
  } catch {
    return null;
  }
}

function bytes(v: unknown): Uint8Array {
  return Array.isArray(v) ? Uint8Array.from(v.map(Number)) : new Uint8Array(0);
}

function uint(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new DumpError(`invalid \`${what}\` in a dump task: ${JSON.stringify(v)}`);
  return v;
}

function optString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export type { DumpKey, ApiKey };
