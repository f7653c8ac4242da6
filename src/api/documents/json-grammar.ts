// The JSON scanner's states, serde_json's error reasons (ErrorCode Display) and byte tables.

// States; the structural ones (whitespace skipped before the next token) come first.
export const enum S {
  TOP = 0, // ndjson: between documents; json: before anything
  TOP_ARR_FIRST = 1, // after the top-level `[`
  TOP_ARR_AFTER = 2, // after a top-level element
  TOP_ARR_NEXT = 3, // after a top-level `,`
  TOP_END = 4, // after a single top-level object: whitespace only
  VALUE = 5,
  ARR_FIRST = 6,
  ARR_NEXT = 7,
  ARR_AFTER = 8,
  OBJ_FIRST = 9,
  OBJ_NEXT = 10,
  OBJ_COLON = 11,
  OBJ_AFTER = 12,
  BAD_ELEM = 13, // json: after an element RawMap rejects; serde's end_seq still runs
  BAD_ELEM_COMMA = 14, // ... after its `,`
  LAST_STRUCTURAL = 14,
  STR = 15,
  KEY = 16,
  ESC = 17,
  HEX = 18,
  SUR_BS = 19, // a leading surrogate must be followed by `\`
  SUR_U = 20, // ... and `u`
  NUM_MINUS = 21,
  NUM_ZERO = 22,
  NUM_INT = 23,
  NUM_DOT = 24,
  NUM_FRAC = 25,
  NUM_EXP = 26,
  NUM_EXP_SIGN = 27,
  NUM_EXP_DIGITS = 28,
  LIT = 29,
  SCALAR_END = 30, // ndjson: after a top-level number/literal serde peeks one byte
  IGNORE_REST = 31, // json: serde never reads past the top-level `]`
}


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
