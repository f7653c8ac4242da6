// The /logs routes without HTTP (stats-health.md §7): their bodies, and the `target` filter in the
// syntax of tracing's EnvFilter (`info`, `muninn::http=debug`, `index_scheduler=info,milli=off`),
// with the messages Meilisearch 1.50 answers.
//
// A directive is `level`, `target=level` or a bare `target` (every level). A record passes when the
// directive with the longest target that prefixes the record's target allows its level; records no
// directive names pass only under a bare level. Meilisearch's targets name the parts of Muninn that
// do the same work: `meilisearch` and `actix_web`/`tracing_actix_web` the HTTP lines
// (`muninn::http`), `index_scheduler` and `milli` the instance and its tasks (`muninn::instance`).
import { ApiError } from '../errors/index.ts';
import { checkFields, expectObject, typeError, unknownValue, valueError } from '../validate/index.ts';

export type LogLevelName = 'error' | 'warn' | 'info' | 'debug' | 'trace';
/** 0 = off … 5 = trace */
export const LEVEL_RANK: Record<LogLevelName, number> = { error: 1, warn: 2, info: 3, debug: 4, trace: 5 };

export interface LogFilter {
  /** the rank of a bare level (null: records no directive names are off) */
  fallback: number | null;
  /** target prefixes with their rank, longest first */
  directives: { target: string; rank: number }[];
}

export type LogStreamMode = 'human' | 'json' | 'profile';

export interface LogStreamRequest {
  filter: LogFilter;
  mode: LogStreamMode;
  profileMemory: boolean;
}

const STREAM_FIELDS = ['target', 'mode', 'profileMemory'] as const;
const STDERR_FIELDS = ['target'] as const;
const MODES = ['human', 'json', 'profile'] as const;
const LEVELS = ['off', 'error', 'warn', 'info', 'debug', 'trace'];

/** Meilisearch's target names, and the Muninn targets doing that work. */
const ALIASES: Record<string, string> = {
  meilisearch: 'muninn',
  actix_web: 'muninn::http',
  tracing_actix_web: 'muninn::http',
  index_scheduler: 'muninn::instance',
  milli: 'muninn::instance',
};

/** Whether `filter` lets a record of `level` from `target` through. */
export function allows(filter: LogFilter, level: LogLevelName, target: string): boolean {
  const rank = LEVEL_RANK[level];
  for (const d of filter.directives) if (target === d.target || target.startsWith(`${d.target}::`)) return rank <= d.rank;
  return filter.fallback !== null && rank <= filter.fallback;
}

/** The most verbose rank a filter can let through (to skip building records nobody reads). */
export function maxRank(filter: LogFilter): number {
  return Math.max(filter.fallback ?? 0, ...filter.directives.map((d) => d.rank));
}

/** The filter of a `--log-level` (every target at that level). */
export function levelFilter(level: string): LogFilter {
  return { fallback: LEVELS.indexOf(level.toLowerCase()), directives: [] };
}

/** Parses a `target` text; throws Meilisearch's `bad_request` messages. */
export function parseLogFilter(text: string): LogFilter {
  if (text === '') {
    throw valueError(
      '.target',
      'Empty string is not a valid target. If you want to get no logs use `OFF`. Usage: `info`, `meilisearch=info`, or you can write multiple filters in one target: `index_scheduler=info,milli=trace`',
      'bad_request',
    );
  }
  const filter: LogFilter = { fallback: null, directives: [] };
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const pieces = part.split('=');
    if (pieces.length > 2) throw valueError('.target', "invalid filter directive: too many '=' in filter directive, expected 0 or 1", 'bad_request');
    if (pieces.length === 1) {
      const rank = levelRank(part);
      if (rank !== null) filter.fallback = rank;
      else filter.directives.push({ target: targetOf(part), rank: 5 });
      continue;
    }
    const rank = levelRank(pieces[1]!.trim());
    if (rank === null) {
      throw valueError('.target', 'error parsing level filter: expected one of "off", "error", "warn", "info", "debug", "trace", or a number 0-5', 'bad_request');
    }
    filter.directives.push({ target: targetOf(pieces[0]!.trim()), rank });
  }
  filter.directives.sort((a, b) => b.target.length - a.target.length);
  return filter;
}

function levelRank(text: string): number | null {
  if (/^[0-5]$/.test(text)) return Number(text);
  const i = LEVELS.indexOf(text.toLowerCase());
  return i < 0 ? null : i;
}

function targetOf(name: string): string {
  const [head, ...rest] = name.split('::');
  const alias = ALIASES[head!];
  return alias === undefined ? name : [alias, ...rest].join('::');
}

/** `POST /logs/stream`: `target` (default `info`), `mode` (default `human`), `profileMemory`. */
export function parseLogStreamBody(body: unknown): LogStreamRequest {
  const obj = expectObject(body);
  const out: LogStreamRequest = { filter: parseLogFilter('info'), mode: 'human', profileMemory: false };
  for (const [field, value] of Object.entries(obj)) {
    if (field === 'target') out.filter = parseLogFilter(targetText(value));
    else if (field === 'mode') {
      if (typeof value !== 'string') throw typeError('.mode', 'a string', value, 'bad_request');
      if (!(MODES as readonly string[]).includes(value)) throw unknownValue('.mode', value, MODES, 'bad_request');
      out.mode = value as LogStreamMode;
    } else if (field === 'profileMemory') {
      if (typeof value !== 'boolean') throw typeError('.profileMemory', 'a boolean', value, 'bad_request');
      out.profileMemory = value;
    } else checkFields({ [field]: value }, { known: STREAM_FIELDS });
  }
  return out;
}

/** `POST /logs/stderr`: `target` (default `info`). */
export function parseLogStderrBody(body: unknown): LogFilter {
  const obj = expectObject(body);
  let filter = parseLogFilter('info');
  for (const [field, value] of Object.entries(obj)) {
    if (field === 'target') filter = parseLogFilter(targetText(value));
    else checkFields({ [field]: value }, { known: STDERR_FIELDS });
  }
  return filter;
}

function targetText(value: unknown): string {
  if (typeof value !== 'string') throw typeError('.target', 'a string', value, 'bad_request');
  return value;
}

export function logsRouteInUse(): ApiError {
  return new ApiError('bad_request', 'The `/logs/stream` route is currently in use by someone else.');
}

export function logsFeatureNotEnabled(): ApiError {
  return new ApiError(
    'feature_not_enabled',
    'Modifying logs through the `/logs/*` routes requires enabling the `logs route` experimental feature. See https://github.com/orgs/meilisearch/discussions/721',
  );
}
