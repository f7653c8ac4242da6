import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { formatByteSize, formatDate, formatDuration, formatHumanSize, formatOptionalDate, formatStepDuration, parseFilterDate } from './time.ts';

const S = 1_000_000;
const iso = (s: string): number => Date.parse(s) * 1000;

test('formatDate: RFC 3339 UTC, trailing zeros trimmed, no fraction when whole', () => {
  const cases: [number, string][] = [
    [0, '1970-01-01T00:00:00Z'],
    [iso('2024-08-08T09:01:13Z') + 348471, '2024-08-08T09:01:13.348471Z'],
    [iso('2026-01-05T10:12:09Z') + 393721, '2026-01-05T10:12:09.393721Z'],
    [iso('2025-02-04T10:14:43Z') + 550379, '2025-02-04T10:14:43.550379Z'],
    [iso('2024-08-08T09:01:13Z') + 500000, '2024-08-08T09:01:13.5Z'],
    [iso('2024-08-08T09:01:13Z') + 120, '2024-08-08T09:01:13.00012Z'],
    [iso('2024-02-29T23:59:59Z'), '2024-02-29T23:59:59Z'],
    [iso('2000-01-01T00:00:00Z'), '2000-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59.999999Z'],
    [iso('1900-03-01T12:00:00Z') + 10, '1900-03-01T12:00:00.00001Z'],
  ];
  for (const [micros, expected] of cases) assert.equal(formatDate(micros), expected, String(micros));
  assert.equal(formatOptionalDate(null), null);
  assert.equal(formatOptionalDate(0), '1970-01-01T00:00:00Z');
});

test('formatDuration: the reference examples', () => {
  const cases: [number, string | null][] = [
    [0, 'PT0S'],
    [1 * S, 'PT1S'],
    [110_000, 'PT0.110S'],
    [9_330, 'PT0.009330S'],
    [364_788, 'PT0.364788S'],
    [86_400 * S + 2 * S, 'P1DT2S'],
    [2 * 86_400 * S, 'P2D'],
    [0.001, 'PT0.000000001S'],
    [1, 'PT0.000001S'],
    [1_000, 'PT0.001S'],
    [61 * S + 500_000, 'PT61.500S'],
    [86_400 * S + 1, 'P1DT0.000001S'],
    [3 * 86_400 * S + 3_600 * S, 'P3DT3600S'],
    [-1, null],
    [-86_400 * S, null],
  ];
  for (const [micros, expected] of cases) assert.equal(formatDuration(micros), expected, String(micros));
});

test('parseFilterDate: RFC 3339 date-times', () => {
  const cases: [string, 'after' | 'before', number][] = [
    ['2021-12-03T23:45:23Z', 'before', iso('2021-12-03T23:45:23Z')],
    ['2021-12-03T23:45:23Z', 'after', iso('2021-12-03T23:45:23Z')],
    ['1997-11-12T09:55:06-06:20', 'before', iso('1997-11-12T16:15:06Z')],
    ['1997-11-12T09:55:06+06:20', 'after', iso('1997-11-12T03:35:06Z')],
    ['2021-12-03t23:45:23z', 'after', iso('2021-12-03T23:45:23Z')],
    ['2021-12-03T23:45:23.5Z', 'after', iso('2021-12-03T23:45:23Z') + 500_000],
    ['2021-12-03T23:45:23.123456Z', 'before', iso('2021-12-03T23:45:23Z') + 123_456],
    // nanoseconds: floor for after, ceil for before (exclusive bounds on µs timestamps stay exact)
    ['2021-12-03T23:45:23.1234567Z', 'after', iso('2021-12-03T23:45:23Z') + 123_456],
    ['2021-12-03T23:45:23.1234567Z', 'before', iso('2021-12-03T23:45:23Z') + 123_457],
    ['2021-12-03T23:45:23.123456789123Z', 'after', iso('2021-12-03T23:45:23Z') + 123_456],
    ['2016-12-31T23:59:60Z', 'after', iso('2016-12-31T23:59:59Z') + 999_999],
  ];
  for (const [raw, bound, expected] of cases) assert.equal(parseFilterDate('afterEnqueuedAt', raw, bound), expected, raw);
});

test('parseFilterDate: bare dates are midnight UTC, the next midnight for after*', () => {
  assert.equal(parseFilterDate('beforeEnqueuedAt', '2021-12-03', 'before'), iso('2021-12-03T00:00:00Z'));
  assert.equal(parseFilterDate('afterEnqueuedAt', '2021-12-03', 'after'), iso('2021-12-04T00:00:00Z'));
  assert.equal(parseFilterDate('afterEnqueuedAt', '2021-12-31', 'after'), iso('2022-01-01T00:00:00Z'));
  assert.equal(parseFilterDate('afterStartedAt', '2024-02-28', 'after'), iso('2024-02-29T00:00:00Z'));
  assert.equal(parseFilterDate('beforeStartedAt', '1969-07-20', 'before'), iso('1969-07-20T00:00:00Z'));
});

test('parseFilterDate: invalid values give invalid_task_<field> with the exact message', () => {
  const bad = ['2021', '2021-12', '2021-12-03T23', '2021-12-03T23:45', '2021-02-30', '2021-13-01', '2021-12-03T24:00:00Z',
    '2021-12-03T23:45:23', '2021-12-03 23:45:23Z', '2021-12-03T23:45:23.Z', '2021-12-03T23:45:23+0100', '*', '',
    'doggo', '2021-06-30T23:59:60+01:00', '21-12-03'];
  for (const raw of bad) {
    assert.throws(
      () => parseFilterDate('afterEnqueuedAt', raw, 'after'),
      (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.code, 'invalid_task_after_enqueued_at');
        assert.equal(
          err.message,
          `Invalid value in parameter \`afterEnqueuedAt\`: \`${raw}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`,
        );
        return true;
      },
      raw,
    );
  }
  const codes: [string, string][] = [
    ['afterEnqueuedAt', 'invalid_task_after_enqueued_at'],
    ['beforeEnqueuedAt', 'invalid_task_before_enqueued_at'],
    ['afterStartedAt', 'invalid_task_after_started_at'],
    ['beforeStartedAt', 'invalid_task_before_started_at'],
    ['afterFinishedAt', 'invalid_task_after_finished_at'],
    ['beforeFinishedAt', 'invalid_task_before_finished_at'],
  ];
  for (const [name, code] of codes) {
    assert.throws(() => parseFilterDate(name, 'nope', 'before'), { code });
  }
});

test('formatHumanSize: binary units, two decimals at most, as byte_unit {:#.2}', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [10_000, '9.77 KiB'],
    [1_048_576, '1 MiB'],
    [1_610_612_736, '1.5 GiB'],
    [262_144 + 1, '256 KiB'],
  ];
  for (const [bytes, expected] of cases) assert.equal(formatHumanSize(bytes), expected, String(bytes));
});

test('formatByteSize: largest binary or decimal unit, full precision', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 KB'],
    [1024, '1 KiB'],
    [10_000, '9.765625 KiB'],
    [1_610_612_736, '1.5 GiB'],
    [1_000_000_000, '1 GB'],
  ];
  for (const [bytes, expected] of cases) assert.equal(formatByteSize(bytes), expected, String(bytes));
});

test('formatStepDuration: Rust `{:.2?}` of a Duration, as in the binary\'s progressTrace', () => {
  const cases: [number, string][] = [
    [1744.6, '1.74s'],
    [9.4, '9.40ms'],
    [0.91510, '915.10µs'],
    [0.01993, '19.93µs'],
    [0.00012, '120.00ns'],
    [0, '0.00ns'],
    [-1, '0.00ns'],
    [61_000, '61.00s'],
  ];
  for (const [ms, expected] of cases) assert.equal(formatStepDuration(ms), expected, String(ms));
});
