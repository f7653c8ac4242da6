// Value parsers shared by flags, MEILI_* variables and the config file: one textual grammar per option type,
// so a value means the same thing whatever its source. Parsers throw InvalidValue; callers add the source.
import net from 'node:net';
import type { AllowedIpNetworks, Environment, IpNetwork, LogLevel, LogsMode } from './options.ts';
import { DEFAULT_SNAPSHOT_INTERVAL } from './options.ts';

/** A rejected value: `message` explains what was expected, `possibleValues` lists a closed set. */
export class InvalidValue extends Error {
  readonly possibleValues: readonly string[] | undefined;

  constructor(message: string, possibleValues?: readonly string[]) {
    super(message);
    this.possibleValues = possibleValues;
  }
}

const U64_MAX = (1n << 64n) - 1n;

// Decimal units multiply by 1000, binary ones by 1024; single letters are the decimal units (byte-unit crate).
const UNIT_FACTORS: ReadonlyMap<string, bigint> = (() => {
  const map = new Map<string, bigint>([['', 1n], ['b', 1n]]);
  ['k', 'm', 'g', 't', 'p', 'e'].forEach((letter, i) => {
    const power = BigInt(i + 1);
    map.set(letter, 1000n ** power);
    map.set(`${letter}b`, 1000n ** power);
    map.set(`${letter}i`, 1024n ** power);
    map.set(`${letter}ib`, 1024n ** power);
  });
  return map;
})();

/** Parses `107374182400`, `'107.7Gb'`, `100 MB`, `2 GiB` (units case-insensitive) into bytes; null if malformed. */
export function parseByteSize(text: string): number | null {
  const match = /^\s*(\d+)(?:\.(\d+))?\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return null;
  const [, whole = '', fraction = '', unit = ''] = match;
  const factor = UNIT_FACTORS.get(unit.toLowerCase());
  if (factor === undefined) return null;
  // Exact decimal arithmetic so that `107.7Gb` is 107700000000, not a float neighbour of it.
  const scale = 10n ** BigInt(fraction.length);
  const scaled = (BigInt(whole) * scale + BigInt(fraction || '0')) * factor;
  const bytes = (scaled + scale / 2n) / scale;
  if (bytes > U64_MAX) return null;
  return Number(bytes);
}

const DECIMAL_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];
const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** Human size as Meilisearch prints it: binary units for multiples of 1024 (`10 MiB`), decimal otherwise (`100 MB`). */
export function formatByteSize(bytes: number): string {
  const binary = bytes % 1024 === 0;
  const base = binary ? 1024 : 1000;
  const units = binary ? BINARY_UNITS : DECIMAL_UNITS;
  let index = 0;
  while (index < units.length - 1 && bytes >= base ** (index + 1)) index += 1;
  return `${bytes / base ** index} ${units[index]}`;
}

/** A byte size option value. */
export function byteSizeValue(raw: string): number {
  const bytes = parseByteSize(raw);
  if (bytes === null) {
    throw new InvalidValue('expected a number of bytes, optionally with a unit such as `100 MB`, `2 GiB` or `107.7Gb`');
  }
  return bytes;
}

/** An unsigned integer (Rust `usize`); values beyond 2^53 lose precision but keep their magnitude. */
export function unsignedValue(raw: string): number {
  if (!/^\+?\d+$/.test(raw)) throw new InvalidValue('expected a non-negative integer');
  const value = BigInt(raw);
  if (value > U64_MAX) throw new InvalidValue('number too large to fit in target type');
  return Number(value);
}

/** A strictly positive integer (Rust `NonZeroUsize`). */
export function positiveValue(raw: string): number {
  const value = unsignedValue(raw);
  if (value === 0) throw new InvalidValue('number would be zero for non-zero type');
  return value;
}

/** `--experimental-max-number-of-batched-tasks`: beyond 2^53 nothing is distinguishable from unlimited. */
export function batchedTasksValue(raw: string): number {
  const value = unsignedValue(raw);
  return value > Number.MAX_SAFE_INTEGER ? Number.POSITIVE_INFINITY : value;
}

/** A boolean given as text (environment, config file); flags themselves take no value. */
export function booleanValue(raw: string): boolean {
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new InvalidValue('', ['true', 'false']);
}

/** A non-empty string (paths, keys, URLs). */
export function stringValue(raw: string): string {
  if (raw === '') throw new InvalidValue('a non-empty value is required');
  return raw;
}

/** `--task-webhook-url`: an absolute URL (the `url` crate's first reason when it is not one). */
export function urlValue(raw: string): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) throw new InvalidValue('relative URL without a base');
  try {
    new URL(raw);
  } catch {
    throw new InvalidValue('invalid URL');
  }
  return raw;
}

const LOG_LEVELS: readonly LogLevel[] = ['OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'];

/** `--log-level`, case-insensitive, with Meilisearch's own message. */
export function logLevelValue(raw: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toUpperCase());
  if (level === undefined) {
    throw new InvalidValue(
      `Log level '${raw}' is invalid. Accepted values are 'OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', and 'TRACE'.`,
    );
  }
  return level;
}

/** `--env`: exactly `development` or `production`. */
export function environmentValue(raw: string): Environment {
  if (raw === 'development' || raw === 'production') return raw;
  throw new InvalidValue('', ['development', 'production']);
}

/** `--experimental-logs-mode`, case-insensitive. */
export function logsModeValue(raw: string): LogsMode {
  const lower = raw.toLowerCase();
  if (lower === 'human' || lower === 'json') return lower;
  throw new InvalidValue(`Unsupported log mode level \`${raw}\`. Supported values are \`HUMAN\` and \`JSON\`.`);
}

/** `--max-indexing-threads`: null for the default (`unlimited` or empty), else a count where 0 means every CPU. */
export function indexingThreadsValue(raw: string): number | null {
  if (raw === '' || raw === 'unlimited') return null;
  return unsignedValue(raw);
}

/** `--schedule-snapshot`: seconds, `true` (one day) or `false` (disabled → null). */
export function scheduleSnapshotValue(raw: string): number | null {
  if (raw === 'false') return null;
  if (raw === 'true' || raw === '') return DEFAULT_SNAPSHOT_INTERVAL;
  // A zero interval would snapshot in a busy loop; Meilisearch takes it, we refuse it.
  if (!/^\+?\d+$/.test(raw) || /^\+?0+$/.test(raw)) {
    throw new InvalidValue('expected a positive number of seconds, `true` or `false`');
  }
  return unsignedValue(raw);
}

/** `--experimental-s3-multipart-part-size`: a byte size between 10 MiB and 8 GiB. */
export function multipartPartSizeValue(raw: string): number {
  const bytes = byteSizeValue(raw);
  if (bytes < 10 * 1024 ** 2 || bytes > 8 * 1024 ** 3) {
    throw new InvalidValue('the part size must be between 10 MiB and 8 GiB');
  }
  return bytes;
}

/** `--experimental-allowed-ip-networks`: `any` or comma-separated CIDRs (a bare IP is a one-host network). */
export function allowedIpNetworksValue(raw: string): AllowedIpNetworks {
  if (raw.trim().toLowerCase() === 'any') return 'any';
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    throw new InvalidValue('expected `any` or a comma-separated list of CIDRs such as `10.0.0.0/8,fd00::/8`');
  }
  return parts.map(parseNetwork);
}

function parseNetwork(cidr: string): IpNetwork {
  const slash = cidr.indexOf('/');
  const address = slash === -1 ? cidr : cidr.slice(0, slash);
  const version = net.isIP(address);
  if (version === 0) {
    throw new InvalidValue(
      `\`${cidr}\` is not a CIDR: expected \`any\` or a comma-separated list of CIDRs such as \`10.0.0.0/8,fd00::/8\``,
    );
  }
  const maxPrefix = version === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(maxPrefix) : cidr.slice(slash + 1);
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix <= maxPrefix)) {
    throw new InvalidValue(`\`${cidr}\` has an invalid prefix length: expected 0 to ${maxPrefix}`);
  }
  return { cidr, address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Splits `host:port`, `[::1]:7700` (or a bare `::1:7700`) into its parts; throws an Error when malformed. */
export function splitHttpAddr(addr: string): { host: string; port: number } {
  const parts = trySplitHttpAddr(addr);
  if (typeof parts === 'string') throw new Error(`invalid HTTP address '${addr}': ${parts}`);
  return parts;
}

/** `--http-addr`: kept as given once it is known to split cleanly. */
export function httpAddrValue(raw: string): string {
  const parts = trySplitHttpAddr(raw);
  if (typeof parts === 'string') throw new InvalidValue(parts);
  return raw;
}

// Returns the parts, or the reason the address is malformed.
function trySplitHttpAddr(addr: string): { host: string; port: number } | string {
  const expected = 'expected <host>:<port>, e.g. localhost:7700 or [::1]:7700';
  let host: string;
  let portText: string;
  if (addr.startsWith('[')) {
    const close = addr.indexOf(']');
    if (close === -1) return `missing closing bracket; ${expected}`;
    host = addr.slice(1, close);
    if (addr[close + 1] !== ':') return `missing port; ${expected}`;
    portText = addr.slice(close + 2);
    if (!net.isIPv6(host)) return `'${host}' is not an IPv6 address; ${expected}`;
  } else {
    const colon = addr.lastIndexOf(':');
    if (colon === -1) return `missing port; ${expected}`;
    host = addr.slice(0, colon);
    portText = addr.slice(colon + 1);
    // Unbracketed IPv6 is only unambiguous when what precedes the last colon is itself a full address.
    if (host.includes(':') && !net.isIPv6(host)) return `IPv6 addresses must be written in brackets; ${expected}`;
  }
  if (host === '') return `missing host; ${expected}`;
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) {
    return `invalid port '${portText}' (expected 0 to 65535); ${expected}`;
  }
  return { host, port: Number(portText) };
}
