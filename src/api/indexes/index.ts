// The /indexes and /swap-indexes contract: body and query validation, and views.
import { ApiError } from '../errors/index.ts';
import { formatDate, formatHumanSize } from '../format/time.ts';
import {
  asArray,
  asBoolean,
  checkFields,
  compact,
  expectObject,
  missingField,
  typeError,

} from '../validate/index.ts';
import { checkParams, intParam, type RawQuery } from '../validate/query.ts';
import { invalidIndexUid, isValidIndexUid } from './uid.ts';

export { isValidIndexUid, invalidIndexUid, pathIndexUid } from './uid.ts';

export interface IndexView {
  uid: string;
  createdAt: string;
  updatedAt: string;
  primaryKey: string | null;
}

export function indexView(uid: string, meta: { createdAt: number; updatedAt: number; primaryKey: string | null }): IndexView {
  return { uid, createdAt: formatDate(meta.createdAt), updatedAt: formatDate(meta.updatedAt), primaryKey: meta.primaryKey };
}

export interface Pagination {
  offset: number;
  limit: number;
}

export function parseListIndexesQuery(query: RawQuery): Pagination {
  checkParams(query, ['offset', 'limit']);
  return { offset: intParam(query, 'offset', 0, 'invalid_index_offset'), limit: intParam(query, 'limit', 20, 'invalid_index_limit') };
}

function bodyUid(value: unknown): string {
  if (typeof value !== 'string') throw typeError('.uid', 'a string', value, 'invalid_index_uid');
  if (!isValidIndexUid(value)) throw invalidIndexUid(value, 'Invalid value at `.uid`: ');
  return value;
}

function bodyPrimaryKey(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw typeError('.primaryKey', 'a string', value, 'invalid_index_primary_key');
  return value;
}

export function parseCreateIndex(body: unknown): { uid: string; primaryKey: string | null } {
  const obj = expectObject(body);
  checkFields(obj, { known: ['uid', 'primaryKey'] });
  if (!('uid' in obj)) throw missingField('uid', 'missing_index_uid');
  return { uid: bodyUid(obj.uid), primaryKey: bodyPrimaryKey(obj.primaryKey) };
}

export function parseUpdateIndex(body: unknown): { primaryKey: string | null; uid: string | null } {
  const obj = expectObject(body);
  checkFields(obj, {
    known: ['primaryKey', 'uid'],
    immutable: { createdAt: 'immutable_index_created_at', updatedAt: 'immutable_index_updated_at' },
  });
  return { primaryKey: bodyPrimaryKey(obj.primaryKey), uid: obj.uid === undefined ? null : bodyUid(obj.uid) };
}

export interface SwapInput {
  indexes: [string, string];
  rename: boolean;
}

/** POST /swap-indexes body (indexes.md §3.6). */
export function parseSwaps(body: unknown): SwapInput[] {
  const list = asArray(body, '', 'bad_request');
  const swaps = list.map((item, i): SwapInput => {
    const obj = expectObject(item, `[${i}]`, 'bad_request');
    checkFields(obj, { known: ['indexes', 'rename'], path: `[${i}]` });
    if (!('indexes' in obj)) throw missingField('indexes', 'missing_swap_indexes', `[${i}]`);
    const indexes = asArray(obj.indexes, `[${i}].indexes`, 'invalid_swap_indexes');
    const uids = indexes.map((v, j) => {
      if (typeof v !== 'string') throw typeError(`[${i}].indexes[${j}]`, 'a string', v, 'invalid_swap_indexes');
      if (!isValidIndexUid(v)) throw invalidIndexUid(v, `Invalid value at \`[${i}].indexes[${j}]\`: `);
      return v;
    });
    if (uids.length !== 2) {
      throw new ApiError(
        'invalid_swap_indexes',
        `Two indexes must be given for each swap. The list \`[${uids.map((u) => compact(u)).join(', ')}]\` contains ${uids.length} indexes.`,
      );
    }
    const rename = obj.rename === undefined ? false : asBoolean(obj.rename, `[${i}].rename`, 'invalid_swap_rename');
    return { indexes: [uids[0]!, uids[1]!], rename };
  });
  const seen = new Set<string>();
  const dups: string[] = [];
  for (const s of swaps) {
    for (const uid of s.indexes) {
      if (seen.has(uid) && !dups.includes(uid)) dups.push(uid);
      seen.add(uid);
    }
  }
  if (dups.length === 1) {
    throw new ApiError('invalid_swap_duplicate_index_found', `Indexes must be declared only once during a swap. \`${dups[0]}\` was specified several times.`);
  }
  if (dups.length > 1) {
    throw new ApiError(
      'invalid_swap_duplicate_index_found',
      `Indexes must be declared only once during a swap. ${dups.map((d) => `\`${d}\``).join(', ')} were specified several times.`,
    );
  }
  return swaps;
}

/** `GET /stats` and index stats query (stats-health.md §3). */
export function parseStatsQuery(query: RawQuery): { human: boolean; internalSizes: boolean } {
  checkParams(query, ['showInternalDatabaseSizes', 'sizeFormat']);
  const fmt = query.sizeFormat ?? 'raw';
  if (fmt !== 'raw' && fmt !== 'human') {
    throw new ApiError('invalid_stats_size_format', `Unknown value \`${fmt}\` at \`sizeFormat\`: expected one of \`raw\`, \`human\``);
  }
  const raw = query.showInternalDatabaseSizes;
  let internalSizes = false;
  if (raw !== undefined) {
    if (raw !== 'true' && raw !== 'false') {
      throw new ApiError(
        'invalid_stats_show_internal_database_sizes',
        `Invalid value in parameter \`showInternalDatabaseSizes\`: could not parse \`${raw}\` as a boolean, expected either \`true\` or \`false\``,
      );
    }
    internalSizes = raw === 'true';
  }
  return { human: fmt === 'human', internalSizes };
}



export interface IndexStatsInput {
  numberOfDocuments: number;
  numberOfEmbeddings?: number;
  numberOfEmbeddedDocuments?: number;
  rawDocumentDbSize: number;
  avgDocumentSize: number;
  fieldDistribution: Record<string, number>;
  isIndexing: boolean;
  internalDatabaseSizes?: Record<string, number>;
}

/** The index stats object in Meilisearch's key order (stats-health.md §4). */
export function indexStatsView(s: IndexStatsInput, opts: { human: boolean; internalSizes: boolean }): Record<string, unknown> {
  const size = (n: number) => (opts.human ? formatHumanSize(n) : n);
  const view: Record<string, unknown> = {
    numberOfDocuments: s.numberOfDocuments,
    rawDocumentDbSize: size(s.rawDocumentDbSize),
    avgDocumentSize: size(s.avgDocumentSize),
    isIndexing: s.isIndexing,
  };
  if (opts.internalSizes) {
    const sizes: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s.internalDatabaseSizes ?? {})) sizes[k] = size(v);
    view.internalDatabaseSizes = sizes;
  }
  view.numberOfEmbeddings = s.numberOfEmbeddings ?? 0;
  view.numberOfEmbeddedDocuments = s.numberOfEmbeddedDocuments ?? 0;
  view.fieldDistribution = s.fieldDistribution;
  return view;
}

/** ``Index `uid` not found.`` (404), for routes, tasks and the library alike. */
export function indexNotFound(uid: string): ApiError {
  return new ApiError('index_not_found', `Index \`${uid}\` not found.`);
}
