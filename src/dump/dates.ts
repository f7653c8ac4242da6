// Dates in dump files: RFC 3339 in UTC, as the API writes them; read back to µs (dumps written by
// Meilisearch carry nanoseconds, of which µs are kept).
import { formatDate } from '../api/format/time.ts';

export { formatDate };

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i;

/** µs since the epoch of an RFC 3339 date; throws a `DumpError` on anything else. */
export function parseDate(text: unknown, what: string): number {
  const m = typeof text === 'string' ? RFC3339.exec(text) : null;
  if (!m) throw new DumpError(`invalid date for \`${what}\`: ${JSON.stringify(text)}`);
  const zone = m[3]!.toUpperCase() === 'Z' ? 'Z' : m[3]!;
  const seconds = Date.parse(`${m[1]}${zone}`);
  if (Number.isNaN(seconds)) throw new DumpError(`invalid date for \`${what}\`: ${JSON.stringify(text)}`);
  const micros = m[2] === undefined ? 0 : Number(m[2].padEnd(9, '0').slice(0, 6));
  return seconds * 1000 + micros;
}

export function parseOptionalDate(text: unknown, what: string): number | null {
  return text === null || text === undefined ? null : parseDate(text, what);
}

/** A dump that cannot be read: the import stops with this message. */
export class DumpError extends Error {
  override name = 'DumpError';
}
