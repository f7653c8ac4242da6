// Backslash escapes in filter values, as the `unescaper` crate resolves them after the parser
// has taken the value (filter-parser `value.rs`):
//
//   \b \f \n \r \t \v      control characters        \' \" \\ \/   the character itself
//   \uHHHH  \u{H…}         a code point (hex)        \xHH          a byte, as U+0000–U+00FF
//   \0–\3 + up to 2 octal digits, \4–\7 + up to 1    a byte in octal
//
// Anything else after a backslash is an invalid character (→ `Malformed value`), digits that do
// not parse are a bad number (→ `Found an invalid escaped sequence number`), and a sequence cut
// short by the end of the value (`\`, `\x4`, `\u12`) makes the parse incomplete. `\u{…` without
// its `}` takes the rest of the value as digits. Hex digits parse like Rust's `from_str_radix`,
// which accepts one leading `+`.

export type Unescaped =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: 'incomplete' | 'badNumber' | 'invalidChar' };

const SIMPLE: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '"': '"',
  '\\': '\\',
  '/': '/',
};
const RADIX_16 = /^\+?[0-9a-fA-F]+$/;
const OCTAL = /^[0-7]$/;

class Stop {
  constructor(readonly error: 'incomplete' | 'badNumber' | 'invalidChar') {}
}

/** Resolves the escapes of `text` (unescaper 0.1 `unescape`). */
export function unescape(text: string): Unescaped {
  if (!text.includes('\\')) return { ok: true, text };
  const chars = Array.from(text);
  let i = 0;
  const next = (): string => {
    const c = chars[i++];
    if (c === undefined) throw new Stop('incomplete');
    return c;
  };
  let out = '';
  try {
    while (i < chars.length) {
      const c = chars[i++]!;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const marker = next();
      const simple = SIMPLE[marker];
      if (simple !== undefined) out += simple;
      else if (marker === 'u') out += unicodeEscape(next, () => chars[i] !== undefined);
      else if (marker === 'x') out += String.fromCodePoint(parseHex(next() + next(), 0xff));
      else {
        let digits = marker;
        const more = '0123'.includes(marker) ? 2 : '4567'.includes(marker) ? 1 : -1;
        if (more < 0) throw new Stop('invalidChar');
        for (let n = 0; n < more && OCTAL.test(chars[i] ?? ''); n++) digits += chars[i++];
        out += String.fromCodePoint(parseInt(digits, 8));
      }
    }
  } catch (e) {
    if (e instanceof Stop) return { ok: false, error: e.error };
    throw e;
  }
  return { ok: true, text: out };
}

function unicodeEscape(next: () => string, hasMore: () => boolean): string {
  const first = next();
  let digits = '';
  if (first === '{') {
    while (hasMore()) {
      const c = next();
      if (c === '}') break;
      digits += c;
    }
  } else {
    digits = first + next() + next() + next();
  }
  const code = parseHex(digits, 0xffffffff);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new Stop('invalidChar');
  return String.fromCodePoint(code);
}

/** Rust `uN::from_str_radix(digits, 16)` with `max = uN::MAX`. */
function parseHex(digits: string, max: number): number {
  if (!RADIX_16.test(digits)) throw new Stop('badNumber');
  const value = parseInt(digits.replace('+', ''), 16);
  if (value > max) throw new Stop('badNumber');
  return value;
}
