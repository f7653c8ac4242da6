// The server's log lines, shaped like Meilisearch's (tracing-subscriber) so the same eyes and tools read
// both: `--log-level` filters them, `--experimental-logs-mode` picks one of two forms.
//
//   human: 2026-11-28T04:11:11.476Z  INFO HTTP request{method=GET route=/health status_code=200}: muninn::http: close time.busy=717µs
//   json:  {"timestamp":"…","level":"INFO","fields":{"message":"close","time.busy":"717µs"},"target":"muninn::http",
//           "span":{"method":"GET","route":"/health","status_code":200,"name":"HTTP request"},"spans":[]}
import type { LogLevel, LogsMode } from './cli/index.ts';
import { allows, levelFilter, maxRank, type LogFilter, type LogStreamRequest } from './api/logs/index.ts';
import type { LogControl, LogSink, LogStream } from './http/context.ts';

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
/** A log that writes nothing (embedders and tests that do not read logs). */
export function silentLogs(): LogHub {
  return new LogHub({ level: 'OFF', mode: 'human', write: () => {} });
}

export function createLog(opts: { level: LogLevel; mode: LogsMode; write: (line: string) => void; now?: () => Date }): Log {
  const max = RANK[opts.level];
  const now = opts.now ?? (() => new Date());
  const format = opts.mode === 'json' ? jsonLine : humanLine;
  return (record) => {
    if (RECORD_RANK[record.level] > max) return;
    opts.write(`${format(record, now().toISOString())}\n`);
  };
}

/**
 * Where log records go: stderr, filtered by `--log-level` until `POST /logs/stderr` sets another
 * filter, and the one stream of `POST /logs/stream` with its own filter and form (stats-health.md §7).
 * A stream whose reader falls more than 16 MiB behind loses lines rather than the server's memory.
 */
export class LogHub implements LogControl {
  #stderr: LogFilter;
  readonly #stderrMode: LogsMode;
  readonly #write: (line: string) => void;
  readonly #now: () => Date;
  #stream: { filter: LogFilter; format: typeof humanLine; sink: LogSink; handle: LogStream } | null = null;
  /** the most verbose rank any sink takes */
  #max = 0;

  constructor(opts: { level: LogLevel; mode: LogsMode; write: (line: string) => void; now?: () => Date }) {
    this.#stderr = levelFilter(opts.level);
    this.#stderrMode = opts.mode;
    this.#write = opts.write;
    this.#now = opts.now ?? (() => new Date());
    this.#updateMax();
  }

  /** Writes a record to every sink whose filter takes it. */
  readonly log: Log = (record) => {
    if (RECORD_RANK[record.level] > this.#max) return;
    let timestamp: string | undefined;
    if (allows(this.#stderr, record.level, record.target)) {
      timestamp = this.#now().toISOString();
      this.#write(`${(this.#stderrMode === 'json' ? jsonLine : humanLine)(record, timestamp)}\n`);
    }
    const stream = this.#stream;
    if (stream !== null && allows(stream.filter, record.level, record.target)) {
      stream.sink.write(`${stream.format(record, timestamp ?? this.#now().toISOString())}\n`);
    }
  };

  wants(level: RecordLevel, target: string): boolean {
    if (RECORD_RANK[level] > this.#max) return false;
    return allows(this.#stderr, level, target) || (this.#stream !== null && allows(this.#stream.filter, level, target));
  }

  setStderrFilter(filter: LogFilter): void {
    this.#stderr = filter;
    this.#updateMax();
  }

  openStream(request: LogStreamRequest, sink: LogSink): LogStream | null {
    if (this.#stream !== null) return null;
    const handle: LogStream = {
      close: () => {
        if (this.#stream?.handle !== handle) return;
        this.#stream = null;
        this.#updateMax();
        sink.end();
      },
    };
    // `profile` (Meilisearch's span trace format) is written as JSON lines: docs/compat.md
    this.#stream = { filter: request.filter, format: request.mode === 'human' ? humanLine : jsonLine, sink, handle };
    this.#updateMax();
    return handle;
  }

  /** Ends the stream, if one is open (`DELETE /logs/stream`). */
  closeStream(): void {
    this.#stream?.handle.close();
  }

  #updateMax(): void {
    this.#max = Math.max(maxRank(this.#stderr), this.#stream === null ? 0 : maxRank(this.#stream.filter));
  }
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
