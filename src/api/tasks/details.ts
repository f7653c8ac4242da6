// Task `details` (tasks.md §3): the enqueued form of each kind, the failed/canceled downgrade
// (`to_failed`), the batch aggregation (`DetailsView::accumulate`) and the canonical key order
// (the field order of Meilisearch's DetailsView, settings keys flattened after `function`).
import type { Task, TaskKind } from './model.ts';
import { bitmapFrom } from '../../engine/bitmap/index.ts';
import { formatByteSize } from '../format/time.ts';
import { setKey } from '../../engine/json.ts';

export type Details = Record<string, unknown>;

/** The version an `upgradeDatabase` task upgrades to when the caller gives none. */
export const DEFAULT_TARGET_VERSION: readonly [number, number, number] = [1, 50, 0];

/** Key order of Meilisearch's DetailsView; unknown keys (flattened settings) go where `settings` is. */
const KEYS_BEFORE_SETTINGS = [
  'receivedDocuments', 'indexedDocuments', 'editedDocuments', 'primaryKey', 'providedIds', 'deletedDocuments',
  'matchedTasks', 'canceledTasks', 'deletedTasks', 'originalFilter', 'dumpUid', 'context', 'function',
] as const;
const KEYS_AFTER_SETTINGS = [
  'swaps', 'upgradeFrom', 'upgradeTo', 'url', 'apiKey', 'payloadSize', 'indexes', 'oldIndexUid', 'newIndexUid',
  'preCompactionSize', 'postCompactionSize', 'movedDocuments', 'message', 'rule', 'updatedRules',
] as const;
const KNOWN_KEYS: ReadonlySet<string> = new Set([...KEYS_BEFORE_SETTINGS, ...KEYS_AFTER_SETTINGS]);

/** Returns the details with their keys in Meilisearch's serialization order (settings keys keep theirs). */
export function orderDetails(details: Details): Details {
  const out: Details = {};
  for (const k of KEYS_BEFORE_SETTINGS) if (k in details) out[k] = details[k];
  for (const k of Object.keys(details)) if (!KNOWN_KEYS.has(k)) out[k] = details[k];
  for (const k of KEYS_AFTER_SETTINGS) if (k in details) out[k] = details[k];
  return out;
}

/** Secret masking of tasks.md §3: <10 → `XXX...`, <20 → 2 chars + `XXXX...`, <30 → 3 + `XXXXX...`, else 5 + `XXXXXX...`. */
export function maskSecret(secret: string): string {
  const len = Buffer.byteLength(secret, 'utf8');
  if (len < 10) return 'XXX...';
  if (len < 20) return secret.slice(0, 2) + 'XXXX...';
  if (len < 30) return secret.slice(0, 3) + 'XXXXX...';
  return secret.slice(0, 5) + 'XXXXXX...';
}

/** A copy of a settings payload with every embedder `apiKey` masked (also inside composite sub-embedders). */
export function maskSettingsSecrets(settings: Record<string, unknown>): Record<string, unknown> {
  const embedders = settings.embedders;
  if (!isPlainObject(embedders)) return { ...settings };
  const masked: Record<string, unknown> = {};
  for (const [name, embedder] of Object.entries(embedders)) setKey(masked, name, maskEmbedder(embedder));
  return { ...settings, embedders: masked };
}

function maskEmbedder(embedder: unknown): unknown {
  if (!isPlainObject(embedder)) return embedder;
  const out: Record<string, unknown> = { ...embedder };
  if (typeof out.apiKey === 'string') out.apiKey = maskSecret(out.apiKey);
  for (const sub of ['indexingEmbedder', 'searchEmbedder']) if (sub in out) out[sub] = maskEmbedder(out[sub]);
  return out;
}

/** What `enqueuedDetails` needs beyond the kind itself. */
export interface EnqueueContext {
  /** The task's index uid; for an `indexUpdate` rename it becomes `oldIndexUid`. */
  indexUid?: string | null;
  /** taskCancelation/taskDeletion: the matched count; defaults to the size of `kind.matched`. */
  matchedTasks?: number;
  /** upgradeDatabase: the version upgraded to; defaults to DEFAULT_TARGET_VERSION. */
  targetVersion?: readonly [number, number, number];
}

/** The details of a task right after registration ("details when enqueued" of tasks.md §3); null = no details key. */
export function enqueuedDetails(kind: TaskKind, ctx: EnqueueContext = {}): Details | null {
  switch (kind.kind) {
    case 'documentAddition':
      return { receivedDocuments: kind.documentsCount, indexedDocuments: null };
    case 'documentDeletion':
      // no originalFilter key for deletions by id (documents.md §5.1–5.2; the serializer skips the unset option)
      return { providedIds: kind.ids.length, deletedDocuments: null };
    case 'documentDeletionByFilter':
      return { providedIds: 0, deletedDocuments: null, originalFilter: JSON.stringify(kind.filter ?? null) };
    case 'documentClear':
    case 'indexDeletion':
      return { deletedDocuments: null };
    case 'documentEdition':
      return {
        editedDocuments: null,
        deletedDocuments: null,
        originalFilter: kind.filter === null || kind.filter === undefined ? null : JSON.stringify(kind.filter),
        context: kind.context ?? null,
        function: kind.function,
      };
    case 'settingsUpdate':
      return maskSettingsSecrets(kind.settings);
    case 'indexCreation':
      return { primaryKey: kind.primaryKey };
    case 'indexUpdate': {
      const out: Details = { primaryKey: kind.primaryKey };
      if (kind.newIndexUid !== null) {
        out.oldIndexUid = ctx.indexUid ?? null;
        out.newIndexUid = kind.newIndexUid;
      }
      return out;
    }
    case 'indexSwap':
      return { swaps: kind.swaps.map((s) => ({ indexes: [s.indexes[0], s.indexes[1]], rename: s.rename })) };
    case 'taskCancelation':
      return { matchedTasks: matchedCount(kind.matched, ctx), canceledTasks: null, originalFilter: kind.query };
    case 'taskDeletion':
      return { matchedTasks: matchedCount(kind.matched, ctx), deletedTasks: null, originalFilter: kind.query };
    case 'dumpCreation':
      return { dumpUid: null };
    case 'snapshotCreation':
      return null;
    case 'export':
      return exportDetails(kind.payload);
    case 'upgradeDatabase': {
      const to = ctx.targetVersion ?? DEFAULT_TARGET_VERSION;
      return { upgradeFrom: `v${kind.from.join('.')}`, upgradeTo: `v${to.join('.')}` };
    }
    case 'indexCompaction':
      return {};
  }
}

function matchedCount(matched: Uint8Array, ctx: EnqueueContext): number {
  return ctx.matchedTasks ?? bitmapFrom(matched).size;
}

/** Export details: url, masked apiKey, human payloadSize (both omitted when absent), indexes by pattern. */
function exportDetails(payload: Record<string, unknown>): Details {
  const out: Details = { url: payload.url ?? null };
  if (typeof payload.apiKey === 'string') out.apiKey = maskSecret(payload.apiKey);
  if (typeof payload.payloadSize === 'number') out.payloadSize = formatByteSize(payload.payloadSize);
  else if (typeof payload.payloadSize === 'string') out.payloadSize = payload.payloadSize;
  const indexes: Record<string, unknown> = {};
  const given = isPlainObject(payload.indexes) ? payload.indexes : {};
  for (const pattern of Object.keys(given).sort(byCodeUnit)) {
    const settings = isPlainObject(given[pattern]) ? given[pattern] : {};
    const entry: Record<string, unknown> = { filter: settings.filter ?? null, overrideSettings: settings.overrideSettings ?? false };
    if (typeof settings.matchedDocuments === 'number') entry.matchedDocuments = settings.matchedDocuments;
    indexes[pattern] = entry;
  }
  out.indexes = indexes;
  return out;
}

/** The failed/canceled downgrade (`to_failed`): counters forced to 0, compaction sizes removed. */
export function failedDetails(details: Details | null): Details | null {
  if (details === null) return null;
  const out: Details = { ...details };
  if ('indexedDocuments' in out) out.indexedDocuments = 0;
  // a document edition keeps its deletedDocuments; every other type with deletedDocuments zeroes it
  if ('editedDocuments' in out) out.editedDocuments = 0;
  else if ('deletedDocuments' in out) out.deletedDocuments = 0;
  if ('canceledTasks' in out) out.canceledTasks = 0;
  if ('deletedTasks' in out) out.deletedTasks = 0;
  delete out.preCompactionSize;
  delete out.postCompactionSize;
  if ('movedDocuments' in out && typeof out.message === 'string') out.message = `Failed. Previous status: ${out.message}`;
  return out;
}

type Rule = (left: unknown, right: unknown) => unknown;

const sumPlain: Rule = (l, r) => (l as number) + (r as number);
const sumNullable: Rule = (l, r) => (l === null ? r : r === null ? l : (l as number) + (r as number));
const firstNonNull: Rule = (l, r) => (l === null ? r : l);
const first: Rule = (l) => l;
const last: Rule = (_l, r) => r;

const RULES: Record<string, Rule> = {
  receivedDocuments: sumPlain,
  providedIds: sumPlain,
  matchedTasks: sumPlain,
  indexedDocuments: sumNullable,
  editedDocuments: sumNullable,
  deletedDocuments: sumNullable,
  canceledTasks: sumNullable,
  deletedTasks: sumNullable,
  primaryKey: firstNonNull,
  dumpUid: firstNonNull,
  context: firstNonNull,
  originalFilter: (l, r) => (l === null ? r : r === null ? l : `${String(l)}&${String(r)}`),
  swaps: (l, r) => [...(l as unknown[]), ...(r as unknown[])],
  upgradeTo: last,
};
const FIRST_WINS = ['function', 'upgradeFrom', 'url', 'apiKey', 'payloadSize', 'indexes', 'oldIndexUid', 'newIndexUid',
  'preCompactionSize', 'postCompactionSize', 'movedDocuments', 'message', 'rule', 'updatedRules'];
for (const k of FIRST_WINS) RULES[k] = first;

/** Merges details `right` into `left` with Meilisearch's batch accumulation rules; settings keys merge (later wins). */
export function accumulateDetails(left: Details, right: Details): Details {
  const out: Details = { ...left };
  for (const [key, value] of Object.entries(right)) {
    if (!(key in out)) {
      out[key] = Array.isArray(value) ? [...value] : value;
      continue;
    }
    const rule = RULES[key];
    out[key] = rule ? rule(out[key], value) : mergeSetting(out[key], value);
  }
  return out;
}

/** Settings::merge: a later value wins; two objects (typoTolerance, faceting, embedders...) merge key by key. */
function mergeSetting(left: unknown, right: unknown): unknown {
  if (!isPlainObject(left) || !isPlainObject(right)) return right;
  const out: Record<string, unknown> = { ...left };
  for (const [k, v] of Object.entries(right)) setKey(out, k, Object.prototype.hasOwnProperty.call(out, k) ? mergeSetting(out[k], v) : v);
  return out;
}

/** The `details` of a batch: the accumulation of its tasks' details in order (always an object, maybe `{}`). */
export function aggregateBatchDetails(tasks: readonly Task[]): Details {
  let acc: Details = {};
  for (const task of tasks) if (task.details !== null) acc = accumulateDetails(acc, task.details);
  return orderDetails(acc);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
