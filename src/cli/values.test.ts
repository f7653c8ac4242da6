import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatByteSize, parseByteSize, splitHttpAddr } from './index.ts';
import {
  allowedIpNetworksValue,
  InvalidValue,
  logLevelValue,
  logsModeValue,
  scheduleSnapshotValue,
  unsignedValue,
} from './values.ts';

test('parseByteSize accepts plain bytes and decimal/binary units, case-insensitively', () => {
  const cases: Array<[string, number | null]> = [
    ['107374182400', 107_374_182_400],
    ['107.7Gb', 107_700_000_000],
    ['107374 Mb', 107_374_000_000],
    ['100 MB', 100_000_000],
    ['100MB', 100_000_000],
    ['2 GiB', 2 * 1024 ** 3],
    ['2 gib', 2 * 1024 ** 3],
    ['10 MiB', 10 * 1024 ** 2],
    ['1 KB', 1000],
    ['1 kib', 1024],
    ['3 TB', 3e12],
    ['1 TiB', 1024 ** 4],
    ['5 B', 5],
    ['1.5 KB', 1500],
    ['  42  ', 42],
    ['0', 0],
    ['', null],
    ['MB', null],
    ['-1 MB', null],
    ['1,5 MB', null],
    ['12 parsecs', null],
    ['1 MB extra', null],
    ['1e9', null],
    ['99999999999999999999 EB', null],
  ];
  for (const [text, expected] of cases) assert.equal(parseByteSize(text), expected, text);
});

test('formatByteSize uses binary units for multiples of 1024 and decimal units otherwise', () => {
  const cases: Array<[number, string]> = [
    [100_000_000, '100 MB'],
    [10 * 1024 ** 2, '10 MiB'],
    [1024, '1 KiB'],
    [1000, '1 KB'],
    [2 * 1024 ** 3, '2 GiB'],
    [1536, '1.536 KB'],
    [3 * 512 * 1024, '1.5 MiB'],
    [500, '500 B'],
    [0, '0 B'],
    [107_700_000_000, '107.7 GB'],
  ];
  for (const [bytes, expected] of cases) assert.equal(formatByteSize(bytes), expected, String(bytes));
});

test('formatByteSize output parses back to the same number of bytes', () => {
  for (const bytes of [100_000_000, 10 * 1024 ** 2, 1000, 20 * 1024 ** 2, 1_500_000]) {
    assert.equal(parseByteSize(formatByteSize(bytes)), bytes);
  }
});

test('splitHttpAddr handles host:port and bracketed IPv6', () => {
  const cases: Array<[string, { host: string; port: number }]> = [
    ['localhost:7700', { host: 'localhost', port: 7700 }],
    ['0.0.0.0:7700', { host: '0.0.0.0', port: 7700 }],
    ['[::1]:7700', { host: '::1', port: 7700 }],
    ['[::]:80', { host: '::', port: 80 }],
    ['::1:7700', { host: '::1', port: 7700 }],
    ['example.com:0', { host: 'example.com', port: 0 }],
  ];
  for (const [addr, expected] of cases) assert.deepEqual(splitHttpAddr(addr), expected, addr);
});

test('splitHttpAddr rejects malformed addresses with a message naming the address', () => {
  for (const addr of ['localhost', ':7700', 'localhost:', 'localhost:99999', 'localhost:http', '[::1]', '[::1:7700', 'fe80::1', '[nope]:1']) {
    assert.throws(() => splitHttpAddr(addr), (err: Error) => err.message.includes(`'${addr}'`), addr);
  }
});

test('log level and logs mode are case-insensitive and keep the Meilisearch messages', () => {
  assert.equal(logLevelValue('debug'), 'DEBUG');
  assert.equal(logLevelValue('Off'), 'OFF');
  assert.throws(() => logLevelValue('verbose'), {
    message: "Log level 'verbose' is invalid. Accepted values are 'OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', and 'TRACE'.",
  });
  assert.equal(logsModeValue('JSON'), 'json');
  assert.equal(logsModeValue('human'), 'human');
  assert.throws(() => logsModeValue('xml'), {
    message: 'Unsupported log mode level `xml`. Supported values are `HUMAN` and `JSON`.',
  });
});

test('schedule snapshot values', () => {
  assert.equal(scheduleSnapshotValue(''), 86_400);
  assert.equal(scheduleSnapshotValue('true'), 86_400);
  assert.equal(scheduleSnapshotValue('false'), null);
  assert.equal(scheduleSnapshotValue('3600'), 3600);
  for (const bad of ['0', '-5', 'hourly', '1.5']) assert.throws(() => scheduleSnapshotValue(bad), InvalidValue, bad);
});

test('unsigned integers follow Rust usize parsing', () => {
  assert.equal(unsignedValue('12'), 12);
  assert.equal(unsignedValue('+12'), 12);
  for (const bad of ['-1', '1.0', ' 1', '', 'ten', '18446744073709551616']) {
    assert.throws(() => unsignedValue(bad), InvalidValue, bad);
  }
});

test('allowed IP networks: any, CIDR lists and bare addresses', () => {
  assert.equal(allowedIpNetworksValue('any'), 'any');
  assert.deepEqual(allowedIpNetworksValue('10.0.0.0/8, fd00::/8,192.168.1.10'), [
    { cidr: '10.0.0.0/8', address: '10.0.0.0', prefix: 8, family: 'ipv4' },
    { cidr: 'fd00::/8', address: 'fd00::', prefix: 8, family: 'ipv6' },
    { cidr: '192.168.1.10', address: '192.168.1.10', prefix: 32, family: 'ipv4' },
  ]);
  for (const bad of ['10.0.0.0/33', 'fd00::/129', 'intranet', '10.0.0.0/8,,', 'any,10.0.0.0/8', '10.0.0.0/x']) {
    assert.throws(() => allowedIpNetworksValue(bad), InvalidValue, bad);
  }
});
