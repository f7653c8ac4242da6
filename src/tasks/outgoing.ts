// Outgoing HTTP (export and webhooks now; embedders later): the one place that applies the
// private-network rule of `--experimental-allowed-ip-networks` (cli.md: by default only global
// addresses may be reached; `any` lifts the rule; CIDRs open those networks), a timeout on every
// attempt, and bounded retries with backoff, so that a stuck remote fails its task instead of
// holding the queue. Built on Node's fetch; a cancelation aborts the attempt in flight.
import dns from 'node:dns/promises';
import net from 'node:net';

/** `any`, or the networks that may be reached beside global addresses (parsed by the CLI). */
export type AllowedNetworks = 'any' | readonly { address: string; prefix: number; family: 'ipv4' | 'ipv6' }[];

export interface OutgoingOptions {
  allowed: AllowedNetworks;
  /** ms one attempt may take (default 30 s) */
  timeoutMs?: number;
  /** attempts for network errors, 429 and 5xx answers (default 5) */
  attempts?: number;
  /** ms before the first retry, doubled each time (default 500) */
  backoffMs?: number;
  /** aborts the request (a cancelation) */
  signal?: AbortSignal;
  /** answer 429 and 5xx responses too instead of retrying them (the caller has its own rules) */
  anyStatus?: boolean;
}

export class OutgoingError extends Error {
  override name = 'OutgoingError';
}

const BLOCKED_V4: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];
const BLOCKED_V6: [string, number][] = [
  ['::', 128], ['::1', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
];

function bits(address: string): bigint {
  if (net.isIPv4(address)) return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
  let text = address;
  // an embedded IPv4 tail (::ffff:1.2.3.4) is two groups
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = bits(v4[1]!);
    text = `${text.slice(0, -v4[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const split = (s: string) => (s === '' ? [] : s.split(':'));
  const [head = '', tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = split(head);
  const t = tail === undefined ? [] : split(tail);
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

function inNetwork(address: string, network: string, prefix: number): boolean {
  const width = net.isIPv4(address) ? 32 : 128;
  if (net.isIPv4(address) !== net.isIPv4(network)) return false;
  const shift = BigInt(width - prefix);
  return bits(address) >> shift === bits(network) >> shift;
}

/** Whether an IP address may be reached under the rule. */
export function reachable(address: string, allowed: AllowedNetworks): boolean {
  if (allowed === 'any') return true;
  // an IPv4-mapped IPv6 address is judged as its IPv4 address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  if (allowed.some((n) => inNetwork(ip, n.address, n.prefix))) return true;
  const blocked = net.isIPv4(ip) ? BLOCKED_V4 : BLOCKED_V6;
  return !blocked.some(([network, prefix]) => inNetwork(ip, network, prefix));
}

/** Throws unless every address the URL's host resolves to may be reached. */
export async function checkDestination(url: URL, allowed: AllowedNetworks): Promise<void> {
  if (allowed === 'any') return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true })).map((a) => a.address);
  const refused = addresses.find((a) => !reachable(a, allowed));
  if (refused !== undefined) {
    throw new OutgoingError(
      `\`${url.origin}\` resolves to ${refused}, a non-global address that outgoing requests may not reach; allow its network with \`--experimental-allowed-ip-networks\``,
    );
  }
}

export interface OutgoingResponse {
  status: number;
  text: string;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** One request with the rule, a timeout per attempt and retries on network errors, 429 and 5xx. */
export async function send(url: URL, init: { method: string; headers?: Record<string, string>; body?: Uint8Array | string }, opts: OutgoingOptions): Promise<OutgoingResponse> {
  await checkDestination(url, opts.allowed);
  const attempts = opts.attempts ?? 5;
  let wait = opts.backoffMs ?? 500;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    opts.signal?.throwIfAborted();
    const signals = [AbortSignal.timeout(opts.timeoutMs ?? 30_000), ...(opts.signal ? [opts.signal] : [])];
    try {
      const res = await fetch(url, { method: init.method, headers: init.headers ?? {}, signal: AbortSignal.any(signals), redirect: 'error', ...(init.body !== undefined ? { body: init.body as BodyInit } : {}) });
      const text = await res.text();
      if (opts.anyStatus || (res.status !== 429 && res.status < 500)) return { status: res.status, text };
      last = `${init.method} ${url.pathname} answered ${res.status}: ${text.slice(0, 300)}`;
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      last = `${init.method} ${url.pathname}: ${cause?.code ?? cause?.message ?? (err as Error).message}`;
    }
    if (attempt < attempts) {
      await sleep(wait, opts.signal);
      wait *= 2;
    }
  }
  throw new OutgoingError(`${last} (after ${attempts} attempts)`);
}
