// Every named database of an index environment, declared once.
import { table } from '../store/index.ts';

export interface IndexMeta {
  primaryKey: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Outcome of one task applied to this index, kept in the same commit as the data it wrote. */
export interface AppliedTask {
  ok: boolean;
  details: Record<string, unknown>;
  /** opaque to the engine: the error object of the task */
  error?: unknown;
}

/** Keys of the `main` table and their value types. */
export interface MainValues {
  meta: IndexMeta;
  /** top-level field names in order of first appearance */
  fieldsOrder: string[];
  /** field name → number of documents holding it */
  fieldDistribution: Record<string, number>;
  /** portable roaring bitmap of the internal ids in use */
  usedIds: Uint8Array;
  /** byte size of the stored documents (values only) */
  documentBytes: number;
  /** bumped by every write transaction; readers cache by it */
  generation: number;
  /** the index settings, stored as the API layer shapes them (opaque to the engine for now) */
  settings: unknown;
  /** outcomes of the tasks of the last batch applied, by task uid (makes a replayed batch idempotent) */
  applied: Record<string, AppliedTask>;
}

export const MAIN = table<keyof MainValues, MainValues[keyof MainValues]>(
  'main',
  'string',
  'msgpack',
  'maps a setting or counter name to its value (meta, fieldsOrder, fieldDistribution, usedIds, ...)',
);

export const EXTERNAL_IDS = table<string, number>('external-ids', 'string', 'msgpack', 'maps a document external id to its internal u32 id');

/** Documents are kept as the JSON text they were sent as (compact, one line): no re-encoding on write, and reads can splice them. */
export const DOCUMENTS = table<number, Uint8Array>('documents', 'uint32', 'binary', 'maps an internal u32 id to the JSON text of the stored document');
