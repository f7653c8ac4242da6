// Numbers the way milli reads and prints them.
//
// • `parseRustFloat`: Rust's `f64::from_str` (`[+-]? (inf | infinity | nan | digits[.digits] |
//   .digits) ([eE][+-]?digits)?`, case-insensitive words, nothing else: no spaces, no `0x`, no
//   `_`, no empty string). A value is numeric when this gives a finite number
//   (`Token::parse_finite_float`), so `price = 10` also matches `10.0`, and `inf` is a string.
// • `formatRustFloat`: Rust's `Display` for f64 (shortest round-trip digits, never an exponent,
//   `-0` kept), used in the geo error messages.

const RUST_FLOAT = /^[+-]?(?:inf|infinity|nan|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)$/i;

/** Rust `f64::from_str`, or null when the text is not a float literal. */
export function parseRustFloat(text: string): number | null {
  if (!RUST_FLOAT.test(text)) return null;
  const body = text.replace(/^[+-]/, '');
  const negative = text.startsWith('-');
  const lower = body.toLowerCase();
  let value: number;
  if (lower === 'nan') value = NaN;
  else if (lower === 'inf' || lower === 'infinity') value = Infinity;
  else value = Number(body);
  return negative ? -value : value;
}

/** The finite f64 `text` parses to, or null (milli's `parse_finite_float(…).ok()`). */
export function parseFiniteFloat(text: string): number | null {
  const value = parseRustFloat(text);
  return value !== null && Number.isFinite(value) ? value : null;
}

/** Rust's `{}` formatting of an f64. */
export function formatRustFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const shortest = String(value);
  const parts = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(shortest);
  if (parts === null) return shortest;
  const [, sign, whole, fraction = '', exponent] = parts;
  const digits = whole! + fraction;
  const point = whole!.length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Rust `f64 as usize` on 64 bits: truncates, saturates at 0 and 2^64 − 1, NaN → 0. */
export function toUsize(value: number): bigint {
  if (Number.isNaN(value) || value <= 0) return 0n;
  if (value >= 2 ** 64) return 2n ** 64n - 1n;
  return BigInt(Math.trunc(value));
}
