// UUID parsing as the Rust `uuid` crate (`Uuid::parse_str`) does it: accepted forms and the exact
// wording of its errors, which Meilisearch embeds in ``Invalid value at `.uid`: <reason>``.
//
// Accepted: simple (32 hex), hyphenated (36), braced `{hyphenated}` (38), `urn:uuid:hyphenated` (45);
// hex digits of either case. The canonical form is lowercase hyphenated.

export type UuidParse = { ok: true; uuid: string } | { ok: false; reason: string };

const HEX32 = /^[0-9a-fA-F]{32}$/;
const HYPHENATED = /^([0-9a-fA-F]{8})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{12})$/;

export function parseUuid(input: string): UuidParse {
  const canonical = tryParse(input);
  if (canonical !== null) return { ok: true, uuid: canonical };
  return { ok: false, reason: describeError(input) };
}

/** The canonical (lowercase hyphenated) form, or null when `input` is not a UUID. */
export function canonicalUuid(input: string): string | null {
  return tryParse(input);
}

function tryParse(input: string): string | null {
  let body: string;
  if (input.length === 32) {
    if (!HEX32.test(input)) return null;
    body = input;
  } else {
    let hyphenated: string;
    if (input.length === 36) hyphenated = input;
    else if (input.length === 38 && input.startsWith('{') && input.endsWith('}')) hyphenated = input.slice(1, -1);
    else if (input.length === 45 && input.startsWith('urn:uuid:')) hyphenated = input.slice(9);
    else return null;
    const m = HYPHENATED.exec(hyphenated);
    if (!m) return null;
    body = m.slice(1).join('');
  }
  const h = body.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const BLOCK_STARTS = [0, 9, 14, 19, 24];
const GROUP_LENGTHS = [8, 4, 4, 4, 12];

/**
 * The message of `InvalidUuid::into_err` (uuid ≥ 1.17), including its quirks: byte-based lengths and
 * indexes, zero-based character positions, the odd bounds used for braced / urn inputs, and the
 * truncation of a non-ASCII character to its low byte before the hex test.
 */
function describeError(input: string): string {
  const bytes = Buffer.from(input, 'utf8');
  const len = bytes.length;
  if (len === 0 || len > 45) return `invalid length: found ${len}`;

  let start: number;
  let end: number;
  let format: 'any' | 'hyphenated' | 'braced' | 'urn';
  if (len >= 2 && bytes[0] === 0x7b /* { */ && bytes[len - 1] === 0x7d /* } */) {
    // Rust: bounds = 1..(inner.len() - 1) with inner = input[1..len-1]
    start = 1;
    end = len - 3;
    format = 'braced';
  } else if (bytes.subarray(0, 9).toString('latin1') === 'urn:uuid:') {
    // Rust: bounds = 9..(rest.len()) with rest = input[9..]
    start = 9;
    end = len - 9;
    format = 'urn';
  } else {
    start = 0;
    end = len;
    format = 'any';
  }

  let hyphens = 0;
  const groupBounds = [0, 0, 0, 0];
  if (end > start) {
    const slice = bytes.subarray(start, end).toString('utf8');
    let index = 0;
    for (const ch of slice) {
      const cp = ch.codePointAt(0)!;
      let byte = cp & 0xff;
      if (byte >= 0x41 && byte <= 0x5a) byte += 0x20;
      const isHex = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66);
      if (!isHex) {
        if (byte === 0x2d /* - */) {
          if (format === 'any') format = 'hyphenated';
          if (hyphens < 4) groupBounds[hyphens] = index;
          hyphens++;
        } else {
          return `invalid character: found \`${ch}\` at ${index + start}`;
        }
      }
      index += Buffer.byteLength(ch, 'utf8');
    }
  }

  if (format === 'any') return `invalid length: found ${len}`;
  if (hyphens !== 4) return `invalid group count: expected 5, found ${hyphens + 1}`;
  for (let i = 0; i < 4; i++) {
    if (groupBounds[i] !== BLOCK_STARTS[i + 1]! - 1) {
      return `invalid group length in group ${i}: expected ${GROUP_LENGTHS[i]}, found ${groupBounds[i]! - BLOCK_STARTS[i]!}`;
    }
  }
  return `invalid group length in group 4: expected 12, found ${len - BLOCK_STARTS[4]!}`;
}
