// The server's log lines, shaped like Meilisearch's (tracing-subscriber) so the same eyes and tools read
// both: `--log-level` filters them, `--experimental-logs-mode` picks one of two forms.
//
//   human: 2026-11-28T04:11:11.476Z  INFO HTTP request{method=GET route=/health status_code=200}: muninn::http: close time.busy=717µs
//   json:  {"timestamp":"…","level":"INFO","fields":{"message":"close","time.busy":"717µs"},"target":"muninn::http",
//           "span":{"method":"GET","route":"/health","status_code":200,"name":"HTTP request"},"spans":[]}
import type { LogLevel, LogsMode } from './cli/index.ts';

export type RecordLevel = 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Fields = Record<string, string | number>;

/** One log event: a message with fields, optionally inside a named span (the HTTP request it belongs to). */
export interface LogRecord {
  level: RecordLevel;
  /** the part of Muninn speaking, `muninn::http`-style */
  target: string;
  message: string;
  fields?: Fields;
  span?: { name: string; fields: Fields };
}

export type Log = (record: LogRecord) => void;

const RANK: Record<LogLevel, number> = { OFF: 0, ERROR: 1, WARN: 2, INFO: 3, DEBUG: 4, TRACE: 5 };
const RECORD_RANK: Record<RecordLevel, number> = { error: 1, warn: 2, info: 3, debug: 4, trace: 5 };

/** A log that writes the records at `level` or more severe, one line each, in `mode`'s form. */
export function createLog(opts: { level: LogLevel; mode: LogsMode; write: (line: string) => void; now?: () => Date }): Log {
  const max = RANK[opts.level];
  const now = opts.now ?? (() => new Date());
  const format = opts.mode === 'json' ? jsonLine : humanLine;
  return (record) => {
    if (RECORD_RANK[record.level] > max) return;
    opts.write(`${format(record, now().toISOString())}\n`);
  };
}

function humanLine(record: LogRecord, timestamp: string): string {
  const level = record.level.toUpperCase().padStart(5);
  const span = record.span ? `${record.span.name}{${pairs(record.span.fields)}}: ` : '';
  const fields = record.fields && Object.keys(record.fields).length > 0 ? ` ${pairs(record.fields)}` : '';
  return `${timestamp} ${level} ${span}${record.target}: ${record.message}${fields}`;
}

function pairs(fields: Fields): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' && /[\s"{}]/.test(value) ? JSON.stringify(value) : String(value)}`)
    .join(' ');
}

function jsonLine(record: LogRecord, timestamp: string): string {
  const line: Record<string, unknown> = {
    timestamp,
    level: record.level.toUpperCase(),
    fields: { message: record.message, ...record.fields },
    target: record.target,
  };
  if (record.span) {
    line.span = { ...record.span.fields, name: record.span.name };
    line.spans = [];
  }
  return JSON.stringify(line);
}
