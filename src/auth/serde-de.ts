// serde's derived deserialization over the serde_json reader (serde-json.ts): the `invalid type`
// wording of visitors, structs read from an object or a sequence (unknown keys skipped,
// duplicates and missing fields refused), and the few field types tenant tokens use.
import { E, JsonError, JsonReader, type JsonNumber } from './serde-json.ts';

const QUOTE = 0x22;
const LBRACKET = 0x5b;
const LBRACE = 0x7b;
const MINUS = 0x2d;
const I64_MAX = (1n << 63n) - 1n;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * `peek_invalid_type`: ``invalid type: <what is there>, expected <expected>``; scalars are
 * consumed, `[` and `{` are not.
 */
export function invalidType(r: JsonReader, expected: string): JsonError {
  const c = r.peek();
  let found: string;
  if (c === 0x6e) {
    r.eat();
    r.ident('ull');
    found = 'null';
  } else if (c === 0x74 || c === 0x66) {
    r.eat();
    r.ident(c === 0x74 ? 'rue' : 'alse');
    found = `boolean \`${c === 0x74}\``;
  } else if (c === MINUS) {
    r.eat();
    found = describeNumber(r.number(false));
  } else if (isDigit(c)) {
    found = describeNumber(r.number(true));
  } else if (c === QUOTE) {
    r.eat();
    found = `string ${rustDebugString(r.string())}`;
  } else if (c === LBRACKET) {
    found = 'sequence';
  } else if (c === LBRACE) {
    found = 'map';
  } else {
    return r.peekError(E.VALUE);
  }
  return r.fix(new JsonError(`invalid type: ${found}, expected ${expected}`)) as JsonError;
}

/** serde_json's `Unexpected` text for a number. */
export function describeNumber(n: JsonNumber): string {
  return n.kind === 'f64' ? `floating point \`${ryu(n.value)}\`` : `integer \`${n.value}\``;
}

/** A finite f64 as the `ryu` crate prints it (serde_json's wording of floats). */
export function ryu(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const length = digits.length;
  const kk = Number(exponent) + 1; // 10^(kk-1) <= |x| < 10^kk
  const k = kk - length;
  let text: string;
  if (k >= 0 && kk <= 16) text = digits + '0'.repeat(k) + '.0';
  else if (kk > 0 && kk <= 16) text = `${digits.slice(0, kk)}.${digits.slice(kk)}`;
  else if (kk > -5 && kk <= 0) text = `0.${'0'.repeat(-kk)}${digits}`;
  else if (length === 1) text = `${digits}e${kk - 1}`;
  else text = `${digits[0]}.${digits.slice(1)}e${kk - 1}`;
  return x < 0 ? `-${text}` : text;
}

/** Rust's `{:?}` of a string (control characters as `\u{..}`). */
export function rustDebugString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp === 0) out += '\\0';
    else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) out += `\\u{${cp.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

/** One field of a struct deserialized the way `#[derive(Deserialize)]` does it. */
export interface FieldSpec {
  readonly name: string;
  read(r: JsonReader): unknown;
  /** may be absent from an object (an `Option`, or `#[serde(default)]`) */
  readonly optional?: boolean;
  /** may be absent from a sequence (`#[serde(default)]` only) */
  readonly seqDefault?: boolean;
}

/**
 * A derived struct read by serde_json's `deserialize_struct`: from an object (unknown keys
 * ignored, duplicates and missing fields refused) or from a sequence of its fields in order.
 * Returns the fields present.
 */
export function readStruct(r: JsonReader, name: string, fields: readonly FieldSpec[]): Map<string, unknown> {
  const c = r.ws();
  if (c === -1) throw r.peekError(E.EOF_VALUE);
  if (c !== LBRACE && c !== LBRACKET) throw invalidType(r, `struct ${name}`);
  r.enter();
  r.eat();
  let out: Map<string, unknown>;
  try {
    out = c === LBRACE ? visitMap(r, fields) : visitSeq(r, name, fields);
  } catch (err) {
    r.leave();
    if (err instanceof JsonError && err.line === 0) {
      if (c === LBRACE) r.tryEndMap();
      else r.tryEndSeq();
    }
    throw r.fix(err);
  }
  r.leave();
  if (c === LBRACE) r.endMap();
  else r.endSeq();
  return out;
}

function visitMap(r: JsonReader, fields: readonly FieldSpec[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (let first = true; ; first = false) {
    const key = r.key(first);
    if (key === null) break;
    const field = fields.find((f) => f.name === key);
    if (field === undefined) {
      r.colon();
      r.ignoreValue();
      continue;
    }
    if (out.has(key)) throw new JsonError(`duplicate field \`${key}\``);
    r.colon();
    out.set(key, field.read(r));
  }
  for (const f of fields) if (!out.has(f.name) && !f.optional) throw new JsonError(`missing field \`${f.name}\``);
  return out;
}

function visitSeq(r: JsonReader, name: string, fields: readonly FieldSpec[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  let first = true;
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k]!;
    if (r.element(first)) {
      first = false;
      out.set(field.name, field.read(r));
    } else if (!field.seqDefault) {
      const n = fields.length;
      throw new JsonError(`invalid length ${k}, expected struct ${name} with ${n} element${n === 1 ? '' : 's'}`);
    }
  }
  return out;
}

/** `Option<T>`: null, or `read`. */
export function readOption<T>(r: JsonReader, read: (r: JsonReader) => T): T | null {
  if (r.ws() === 0x6e) {
    r.eat();
    r.ident('ull');
    return null;
  }
  return read(r);
}

/** `deserialize_str` / `deserialize_string` with a visitor expecting `expected`. */
export function readString(r: JsonReader, expected = 'a string'): string {
  const c = r.ws();
  if (c === -1) throw r.peekError(E.EOF_VALUE);
  if (c !== QUOTE) throw invalidType(r, expected);
  r.eat();
  return r.string();
}

/** `deserialize_i64` (through `deserialize_number`). */
export function readI64(r: JsonReader): bigint {
  const c = r.ws();
  if (c === -1) throw r.peekError(E.EOF_VALUE);
  let n: JsonNumber;
  if (c === MINUS) {
    r.eat();
    n = r.number(false);
  } else if (isDigit(c)) {
    n = r.number(true);
  } else {
    throw invalidType(r, 'i64');
  }
  if (n.kind === 'i64' || (n.kind === 'u64' && n.value <= I64_MAX)) return n.value;
  const verb = n.kind === 'u64' ? 'invalid value' : 'invalid type';
  throw r.fix(new JsonError(`${verb}: ${describeNumber(n)}, expected i64`));
}

/** `deserialize_seq` of strings (`Vec<String>`). */
export function readStringList(r: JsonReader): string[] {
  const c = r.ws();
  if (c === -1) throw r.peekError(E.EOF_VALUE);
  if (c !== LBRACKET) throw invalidType(r, 'a sequence');
  r.enter();
  r.eat();
  const out: string[] = [];
  for (let first = true; r.element(first); first = false) out.push(readString(r));
  r.leave();
  r.endSeq();
  return out;
}

/** Runs `read` over a whole document: serde_json's `from_slice`. */
export function fromSlice<T>(bytes: Uint8Array, read: (r: JsonReader) => T): T {
  const r = new JsonReader(bytes);
  const value = read(r);
  r.end();
  return value;
}
