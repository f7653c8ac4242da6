// Query parameters of GET /tasks, GET /batches, POST /tasks/cancel and DELETE /tasks (tasks.md §5, §8, §9)
// with Meilisearch's (deserr) messages. Parameters are read in query-string order; the first error wins.
import { ApiError, type ErrorCode } from '../errors/index.ts';
import { isValidIndexUid } from '../indexes/uid.ts';
import { checkParams, paramError, queryBoolean, type RawQuery } from '../validate/index.ts';
import { TASK_STATUSES, TASK_TYPES, type Page, type TaskFilter, type TaskStatus, type TaskType } from './model.ts';
import { parseFilterDate, TASK_DATE_PARAMS, type TaskDateParam } from '../format/time.ts';

export type TasksQueryMode = 'list' | 'cancel' | 'delete';

export interface ParsedTasksQuery {
  filter: TaskFilter;
  /** For cancel/delete: `{ limit: Infinity, reverse: false }` (every match). */
  page: Page;
  /** cancel/delete only: `?` + the raw query string, the `originalFilter` of the task details. */
  originalQuery?: string;
}

export const DEFAULT_TASKS_LIMIT = 20;
const U32_MAX = 4_294_967_295;

const DATE_PARAMS = Object.keys(TASK_DATE_PARAMS) as TaskDateParam[];

/** Accepted parameters of GET /tasks and GET /batches, in Meilisearch's declaration order. */
export const LIST_PARAMS = [
  'limit', 'from', 'reverse', 'batchUids', 'uids', 'canceledBy', 'types', 'statuses', 'indexUids', ...DATE_PARAMS,
] as const;

/** Accepted parameters of POST /tasks/cancel and DELETE /tasks, in Meilisearch's declaration order. */
export const FILTER_PARAMS = ['uids', 'batchUids', 'canceledBy', 'types', 'statuses', 'indexUids', ...DATE_PARAMS] as const;

const MISSING_FILTERS_TAIL =
  'are missing. Available query parameters are: `uids`, `indexUids`, `statuses`, `types`, `canceledBy`, `beforeEnqueuedAt`, `afterEnqueuedAt`, `beforeStartedAt`, `afterStartedAt`, `beforeFinishedAt`, `afterFinishedAt`.';

const UID_LIST_CODES = {
  uids: 'invalid_task_uids',
  batchUids: 'invalid_batch_uids',
  canceledBy: 'invalid_task_canceled_by',
} as const satisfies Record<string, ErrorCode>;

/**
 * Parses the task/batch filters. `*` anywhere in a list (or a date equal to `*`) means "no filter on
 * that field"; an empty list (`uids=`) is a filter that matches nothing. For cancel/delete, pass the raw
 * query string (as received, without decoding) so that `originalQuery` is exact; without it the parsed
 * query is re-encoded.
 */
export function parseTasksQuery(query: RawQuery, mode: TasksQueryMode, rawQueryString?: string): ParsedTasksQuery {
  const known: readonly string[] = mode === 'list' ? LIST_PARAMS : FILTER_PARAMS;
  const filter: TaskFilter = {};
  const page: Page = mode === 'list' ? { limit: DEFAULT_TASKS_LIMIT, reverse: false } : { limit: Infinity, reverse: false };

  for (const [name, raw] of Object.entries(query)) {
    if (!known.includes(name)) checkParams({ [name]: raw }, known);
    switch (name) {
      case 'limit':
        page.limit = parseU32(name, raw, 'invalid_task_limit');
        break;
      case 'from':
        page.from = parseU32(name, raw, 'invalid_task_from');
        break;
      case 'reverse':
        page.reverse = queryBoolean(name, raw, 'invalid_task_reverse');
        break;
      case 'uids':
      case 'batchUids':
      case 'canceledBy': {
        const code = UID_LIST_CODES[name];
        const list = parseList(name, raw, (el, path) => parseU32(path, el, code));
        if (list) filter[name] = list;
        else delete filter[name];
        break;
      }
      case 'types': {
        const list = parseList(name, raw, parseType);
        if (list) filter.types = list;
        else delete filter.types;
        break;
      }
      case 'statuses': {
        const list = parseList(name, raw, parseStatus);
        if (list) filter.statuses = list;
        else delete filter.statuses;
        break;
      }
      case 'indexUids': {
        const list = parseList(name, raw, parseIndexUid);
        if (list) filter.indexUids = list;
        else delete filter.indexUids;
        break;
      }
      default: {
        const date = name as TaskDateParam;
        if (raw === '*') delete filter[date];
        else filter[date] = parseFilterDate(date, raw, date.startsWith('after') ? 'after' : 'before');
      }
    }
  }

  if (mode === 'list') return { filter, page };
  if (Object.keys(query).length === 0) {
    const verb = mode === 'cancel' ? 'cancel' : 'delete';
    throw new ApiError('missing_task_filters', `Query parameters to filter the tasks to ${verb} ${MISSING_FILTERS_TAIL}`);
  }
  const rawString = rawQueryString === undefined ? encodeQuery(query) : rawQueryString.replace(/^\?/, '');
  return { filter, page, originalQuery: `?${rawString}` };
}

/** Path parameter of GET /tasks/{uid}; non-numeric → `invalid_task_uids`. */
export function parseTaskUid(raw: string): number {
  const uid = u32OrNull(raw);
  if (uid === null) {
    throw new ApiError('invalid_task_uids', `Task uid \`${raw}\` is invalid. It should only contain numeric characters.`);
  }
  return uid;
}

/** Path parameter of GET /batches/{uid}; non-numeric → `invalid_batch_uids`. */
export function parseBatchUid(raw: string): number {
  const uid = u32OrNull(raw);
  if (uid === null) {
    throw new ApiError('invalid_batch_uids', `Batch uid \`${raw}\` is invalid. It should only contain numeric characters.`);
  }
  return uid;
}

/** Index uid rule of indexes.md §2: ASCII alphanumerics, `-`, `_`, 1 to 400 bytes. */
export { isValidIndexUid };

/** Rust's `u32::from_str`: optional `+`, ASCII digits, at most 4294967295. */
function u32OrNull(raw: string): number | null {
  if (!/^\+?[0-9]+$/.test(raw)) return null;
  const n = Number(raw);
  return n <= U32_MAX ? n : null;
}

function parseU32(path: string, raw: string, code: ErrorCode): number {
  const n = u32OrNull(raw);
  if (n === null) throw paramError(path, `could not parse \`${raw}\` as a positive integer`, code);
  return n;
}

/**
 * serde_cs + OptionStarOrList: split on `,`, drop empty elements, no trimming; `*` → null (no filter).
 * Element errors are reported at `name[i]` when the list has several elements, at `name` otherwise.
 */
function parseList<T>(name: string, raw: string, parse: (el: string, path: string) => T): T[] | null {
  const elements = raw.split(',').filter((el) => el !== '');
  const out: T[] = [];
  let star = false;
  elements.forEach((el, i) => {
    if (el === '*') star = true;
    else out.push(parse(el, elements.length > 1 ? `${name}[${i}]` : name));
  });
  return star ? null : out;
}

function parseType(el: string, path: string): TaskType {
  const lower = el.toLowerCase();
  const found = TASK_TYPES.find((t) => t.toLowerCase() === lower);
  if (found && isAscii(el)) return found;
  throw paramError(
    path,
    `\`${el}\` is not a valid task type. Available types are ${TASK_TYPES.map((t) => `\`${t}\``).join(', ')}.`,
    'invalid_task_types',
  );
}

function parseStatus(el: string, path: string): TaskStatus {
  const lower = el.toLowerCase();
  const found = TASK_STATUSES.find((s) => s === lower);
  if (found && isAscii(el)) return found;
  throw paramError(
    path,
    `\`${el}\` is not a valid task status. Available statuses are ${TASK_STATUSES.map((s) => `\`${s}\``).join(', ')}.`,
    'invalid_task_statuses',
  );
}

function parseIndexUid(el: string, path: string): string {
  if (isValidIndexUid(el)) return el;
  throw paramError(
    path,
    `\`${el}\` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.`,
    'invalid_index_uid',
  );
}

function isAscii(s: string): boolean {
  return /^[\x00-\x7f]*$/.test(s);
}

/** Fallback re-encoding of a parsed query; keeps `,`, `*` and `:` readable like a typed URL. */
function encodeQuery(query: RawQuery): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%2C/gi, ',').replace(/%3A/gi, ':');
  return Object.entries(query)
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');
}
