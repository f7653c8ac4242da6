// Wire formats of dates, durations and byte sizes (tasks.md "Date and duration formats",
// stats-health.md §4). Stored times are integer microseconds since the Unix epoch.
import { ApiError, isErrorCode, type ErrorCode } from '../errors/index.ts';

const MICROS_PER_SECOND = 1_000_000;
const SECONDS_PER_DAY = 86_400;
const MICROS_PER_DAY = SECONDS_PER_DAY * MICROS_PER_SECOND;

/** RFC 3339 in UTC with `Z`; the fraction keeps µs precision without trailing zeros and is omitted when whole. */
export function formatDate(micros: number): string {
  const us = Math.floor(micros);
  const days = Math.floor(us / MICROS_PER_DAY);
  const inDay = us - days * MICROS_PER_DAY;
  const [year, month, day] = civilFromDays(days);
  const secs = Math.floor(inDay / MICROS_PER_SECOND);
  const frac = inDay - secs * MICROS_PER_SECOND;
  const hh = Math.floor(secs / 3600);
  const mm = Math.floor((secs % 3600) / 60);
  const ss = secs % 60;
  const date = `${formatYear(year)}-${pad(month, 2)}-${pad(day, 2)}`;
  const time = `${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}`;
  const fraction = frac === 0 ? '' : '.' + pad(frac, 6).replace(/0+$/, '');
  return `${date}T${time}${fraction}Z`;
}

/** A nullable stored time as RFC 3339, `null` stays `null`. */
export function formatOptionalDate(micros: number | null | undefined): string | null {
  return micros === null || micros === undefined ? null : formatDate(micros);
}

/**
 * ISO-8601 duration exactly as Meilisearch's serializer writes it: `P[<d>D][T<s>[.fff|.ffffff|.fffffffff]S]`;
 * negative → null. Input is µs; a fractional µs input is rounded to the nanosecond (1 ns = 0.001).
 */
export function formatDuration(micros: number): string | null {
  if (!Number.isFinite(micros) || micros < 0) return null;
  let wholeSecs: number;
  let nanos: number;
  if (Number.isInteger(micros)) {
    wholeSecs = Math.floor(micros / MICROS_PER_SECOND);
    nanos = (micros - wholeSecs * MICROS_PER_SECOND) * 1000;
  } else {
    const totalNanos = Math.round(micros * 1000);
    wholeSecs = Math.floor(totalNanos / 1e9);
    nanos = totalNanos - wholeSecs * 1e9;
  }
  const days = Math.floor(wholeSecs / SECONDS_PER_DAY);
  const secs = wholeSecs - days * SECONDS_PER_DAY;
  const hasDate = days !== 0;
  const hasTime = secs !== 0 || nanos !== 0 || !hasDate;
  let out = 'P';
  if (hasDate) out += `${days}D`;
  if (hasTime) {
    if (nanos === 0) out += `T${secs}S`;
    else if (nanos % 1_000_000 === 0) out += `T${secs}.${pad(nanos / 1_000_000, 3)}S`;
    else if (nanos % 1000 === 0) out += `T${secs}.${pad(nanos / 1000, 6)}S`;
    else out += `T${secs}.${pad(nanos, 9)}S`;
  }
  return out;
}

/**
 * A step duration as Rust's `{:.2?}` prints a `Duration` (batch `progressTrace`, search
 * `performanceDetails`): `1.74s`, `9.40ms`, `915.10µs`, `120.00ns`. Input is milliseconds.
 */
export function formatStepDuration(ms: number): string {
  const nanos = Number.isFinite(ms) && ms > 0 ? Math.round(ms * 1e6) : 0;
  if (nanos >= 1e9) return `${(nanos / 1e9).toFixed(2)}s`;
  if (nanos >= 1e6) return `${(nanos / 1e6).toFixed(2)}ms`;
  if (nanos >= 1e3) return `${(nanos / 1e3).toFixed(2)}µs`;
  return `${nanos.toFixed(2)}ns`;
}

/** The codes of the six date filters of the task/batch routes. */
export const TASK_DATE_PARAMS = {
  afterEnqueuedAt: 'invalid_task_after_enqueued_at',
  beforeEnqueuedAt: 'invalid_task_before_enqueued_at',
  afterStartedAt: 'invalid_task_after_started_at',
  beforeStartedAt: 'invalid_task_before_started_at',
  afterFinishedAt: 'invalid_task_after_finished_at',
  beforeFinishedAt: 'invalid_task_before_finished_at',
} as const satisfies Record<string, ErrorCode>;

export type TaskDateParam = keyof typeof TASK_DATE_PARAMS;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses a task date filter to µs: RFC 3339 (offsets, any number of fraction digits) or a bare
 * `YYYY-MM-DD` (midnight UTC; the next midnight for `after`). Sub-µs fractions round down for `after`
 * and up for `before`, so the exclusive comparisons on µs timestamps stay exact.
 * Anything else → `invalid_task_<snake name>`.
 */
export function parseFilterDate(name: string, raw: string, bound: 'after' | 'before'): number {
  const fail = (): ApiError =>
    new ApiError(
      dateErrorCode(name),
      `Invalid value in parameter \`${name}\`: \`${raw}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`,
    );
  const full = RFC3339.exec(raw);
  if (full) {
    const [, y, mo, d, h, mi, s, fraction, zulu, sign, oh, om] = full;
    const year = Number(y);
    const month = Number(mo);
    const day = Number(d);
    const hour = Number(h);
    const minute = Number(mi);
    let second = Number(s);
    const offH = zulu ? 0 : Number(oh);
    const offM = zulu ? 0 : Number(om);
    if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 60 || offH > 23 || offM > 59) throw fail();
    let nanos = fraction ? Number((fraction + '00000000').slice(0, 9)) : 0;
    const offsetSecs = (sign === '-' ? -1 : 1) * (offH * 3600 + offM * 60);
    if (second === 60) {
      // RFC 3339 leap second: accepted only as the last second of a UTC day that ends a month.
      const utc = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + 59 - offsetSecs;
      const utcDays = Math.floor(utc / SECONDS_PER_DAY);
      const [uy, um, ud] = civilFromDays(utcDays);
      if (utc - utcDays * SECONDS_PER_DAY !== SECONDS_PER_DAY - 1 || ud !== daysInMonth(uy, um)) throw fail();
      second = 59;
      nanos = 999_999_999;
    }
    const secs = daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offsetSecs;
    const micros = bound === 'after' ? Math.floor(nanos / 1000) : Math.ceil(nanos / 1000);
    return secs * MICROS_PER_SECOND + micros;
  }
  const bare = BARE_DATE.exec(raw);
  if (bare) {
    const year = Number(bare[1]);
    const month = Number(bare[2]);
    const day = Number(bare[3]);
    if (!validDate(year, month, day)) throw fail();
    const days = daysFromCivil(year, month, day) + (bound === 'after' ? 1 : 0);
    return days * MICROS_PER_DAY;
  }
  throw fail();
}

function dateErrorCode(name: string): ErrorCode {
  const known = (TASK_DATE_PARAMS as Record<string, ErrorCode>)[name];
  if (known) return known;
  const snake = 'invalid_task_' + name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
  return isErrorCode(snake) ? snake : 'bad_request';
}

const BINARY_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'] as const;
const BOTH_UNITS: readonly (readonly [string, number])[] = [
  ['EiB', 2 ** 60], ['EB', 1e18], ['PiB', 2 ** 50], ['PB', 1e15], ['TiB', 2 ** 40], ['TB', 1e12],
  ['GiB', 2 ** 30], ['GB', 1e9], ['MiB', 2 ** 20], ['MB', 1e6], ['KiB', 1024], ['KB', 1000],
];

/**
 * `sizeFormat=human`: byte_unit's `{:#.2}` of the binary unit — value rounded to 2 decimals, trailing
 * zeros dropped, one space: `0 B`, `512 B`, `1 KiB`, `1.5 KiB`, `9.77 KiB`.
 */
export function formatHumanSize(bytes: number): string {
  const b = Math.max(0, Math.floor(bytes));
  let unit = 'B';
  let value = b;
  for (let i = BINARY_UNITS.length - 1; i >= 0; i--) {
    const size = 1024 ** (i + 1);
    if (b >= size) {
      unit = BINARY_UNITS[i]!;
      value = b / size;
      break;
    }
  }
  return `${Math.round(value * 100) / 100} ${unit}`;
}

/**
 * byte_unit's `get_appropriate_unit(UnitType::Both).to_string()` (task details `payloadSize`,
 * `preCompactionSize`, `postCompactionSize`): the largest binary or decimal unit not above the value,
 * full precision: `1.5 GiB`, `1 MB`, `512 B`.
 */
export function formatByteSize(bytes: number): string {
  const b = Math.max(0, Math.floor(bytes));
  for (const [unit, size] of BOTH_UNITS) {
    if (b >= size) return `${b / size} ${unit}`;
  }
  return `${b} B`;
}

/** byte_unit's `get_appropriate_unit(UnitType::Binary)`, full precision: `120 KiB`, `92.671875 MiB`, `512 B`. */
export function formatBinarySize(bytes: number): string {
  const b = Math.max(0, Math.floor(bytes));
  for (let i = BINARY_UNITS.length - 1; i >= 0; i--) {
    const size = 1024 ** (i + 1);
    if (b >= size) return `${b / size} ${BINARY_UNITS[i]}`;
  }
  return `${b} B`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function formatYear(year: number): string {
  return year < 0 ? '-' + pad(-year, 4) : pad(year, 4);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
