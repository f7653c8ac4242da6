// serde_json's error reasons (ErrorCode Display) and the byte tables of the JSON scanner.


export const EOF_LIST = 'EOF while parsing a list';
export const EOF_OBJECT = 'EOF while parsing an object';
export const EOF_STRING = 'EOF while parsing a string';
export const EOF_VALUE = 'EOF while parsing a value';
export const EXPECTED_COLON = 'expected `:`';
export const EXPECTED_LIST = 'expected `,` or `]`';
export const EXPECTED_OBJECT = 'expected `,` or `}`';
export const EXPECTED_IDENT = 'expected ident';
export const EXPECTED_VALUE = 'expected value';
export const INVALID_ESCAPE = 'invalid escape';
export const INVALID_NUMBER = 'invalid number';
export const OUT_OF_RANGE = 'number out of range';
export const INVALID_UNICODE = 'invalid unicode code point';
export const CONTROL = 'control character (\\u0000-\\u001F) found while parsing a string';
export const KEY_STRING = 'key must be a string';
export const LONE_SURROGATE = 'lone leading surrogate in hex escape';
export const UNEXPECTED_END_HEX = 'unexpected end of hex escape';
export const RECURSION = 'recursion limit exceeded';
export const TRAILING_COMMA = 'trailing comma';
export const TRAILING_CHARS = 'trailing characters';

/** 1 for the bytes that end a run of string content: `"`, `\` and control characters. */
export const STRING_STOP = new Uint8Array(256);
for (let b = 0; b < 32; b++) STRING_STOP[b] = 1;
STRING_STOP[34] = 1;
STRING_STOP[92] = 1;

/** 1 for the bytes serde accepts right after a top-level number/literal of a stream. */
export const VALUE_END = new Uint8Array(256);
for (const b of ' \n\t\r"[]{},:') VALUE_END[b.charCodeAt(0)] = 1;

export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * serde's f64 range check of a number's text: -1 when finite, else the offset (in `text`)
 * where serde reports `number out of range` — after the exponent digit that overflows an i32
 * (positive exponent, non-zero significand), or at the end.
 */
export function numberOverflow(text: string): number {
  const e = text.search(/[eE]/);
  if (e >= 0) {
    let k = e + 1;
    const positive = text[k] !== '-';
    if (text[k] === '+' || text[k] === '-') k++;
    const zero = !/[1-9]/.test(text.slice(0, e));
    for (let exp = 0; k < text.length; k++) {
      const digit = text.charCodeAt(k) - 48;
      if (exp > 214748364 || (exp === 214748364 && digit > 7)) return !zero && positive ? k + 1 : -1;
      exp = exp * 10 + digit;
    }
  }
  return Number.isFinite(Number(text)) ? -1 : text.length;
}
