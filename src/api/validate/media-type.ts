// Content-Type headers read as Meilisearch reads them: actix's `mime_type()`, which is the
// header as visible ASCII parsed by the `mime` crate (0.3):
//
//   media-type = token "/" subtype [";" params]        type: 1*tchar   ("/" at index > 0)
//   subtype    = *tchar, "+" after its first byte marks the suffix (the last "+" wins)
//   params     = *(" ") name "=" (token | quoted) [";" params]     no space around "=" or ";"
//   quoted     = DQUOTE 1*(%x20-7E except a DQUOTE at the first place) DQUOTE *(" ")
//
// `application/json ; x=y`, `application/json;;` and `application/json; x` are invalid,
// `application/json;` and `application/json; x=` are valid. Type, subtype and suffix are
// lower-cased; the subtype stops at the suffix (`application/vnd.api+json` → `vnd.api`).

export interface MediaType {
  type: string;
  subtype: string;
  /** what follows the last `+` of the subtype, or null */
  suffix: string | null;
}

/** RFC 7230 tchar: the bytes `mime` accepts in types, subtypes and parameter names and values. */
const TOKEN = new Uint8Array(128);
for (const ch of "!#$%&'*+-.^_`|~") TOKEN[ch.charCodeAt(0)] = 1;
for (let c = 48; c <= 57; c++) TOKEN[c] = 1;
for (let c = 65; c <= 90; c++) TOKEN[c] = 1;
for (let c = 97; c <= 122; c++) TOKEN[c] = 1;

const SPACE = 32;
const QUOTE = 34;
const PLUS = 43;
const SLASH = 47;
const SEMICOLON = 59;
const EQUALS = 61;

function isToken(c: number): boolean {
  return c < 128 && TOKEN[c] === 1;
}

/** actix's `to_str()`: visible ASCII and tabs only (Node gives header bytes as latin1 characters). */
export function isVisibleAscii(header: string): boolean {
  for (let i = 0; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if ((c < 32 && c !== 9) || c >= 127) return false;
  }
  return true;
}

/** The media type of a Content-Type header, or null when `mime` would not parse it. */
export function parseMediaType(header: string): MediaType | null {
  if (!isVisibleAscii(header)) return null;
  const n = header.length;
  let i = 0;
  while (i < n && isToken(header.charCodeAt(i))) i++;
  if (i === 0 || i === n || header.charCodeAt(i) !== SLASH) return null;
  const slash = i++;
  const start = i;
  let plus = -1;
  for (; i < n; i++) {
    const c = header.charCodeAt(i);
    if (c === PLUS && i > start) plus = i;
    else if (c === SEMICOLON && i > start) break;
    else if (!isToken(c)) return null;
  }
  if (i < n && !validParams(header, i + 1)) return null;
  const end = i;
  const lower = header.slice(0, end).toLowerCase();
  return {
    type: lower.slice(0, slash),
    subtype: lower.slice(start, plus < 0 ? end : plus),
    suffix: plus < 0 ? null : lower.slice(plus + 1, end),
  };
}

/** The parameters after the `;` at `start - 1` (mime's `params_from_str`). */
function validParams(s: string, start: number): boolean {
  const n = s.length;
  let i = start;
  while (i < n) {
    // name: leading spaces, then tchars up to a `=` that is not first
    let nameStart = i;
    for (;;) {
      if (i === n) return i === nameStart; // only spaces since the `;`, or a name without `=`
      const c = s.charCodeAt(i);
      if (c === SPACE && i === nameStart) nameStart = ++i;
      else if (c === EQUALS && i > nameStart) break;
      else if (isToken(c)) i++;
      else return false;
    }
    i++; // `=`
    if (i < n && s.charCodeAt(i) === QUOTE) {
      const valueStart = ++i;
      for (;;) {
        if (i === n) return false; // no closing quote
        const c = s.charCodeAt(i);
        if (c === QUOTE && i > valueStart) break;
        if (c < 32 || c === 127) return false;
        i++;
      }
      i++; // closing quote: spaces, then `;` or the end
      while (i < n && s.charCodeAt(i) === SPACE) i++;
      if (i === n) return true;
      if (s.charCodeAt(i) !== SEMICOLON) return false;
      i++;
    } else {
      const valueStart = i;
      while (i < n && isToken(s.charCodeAt(i))) i++;
      if (i === n) return true;
      if (s.charCodeAt(i) !== SEMICOLON || i === valueStart) return false;
      i++;
    }
  }
  return true;
}

/** actix's default JSON check: subtype `json` or suffix `json`, whatever the type. */
export function isJsonMediaType(media: MediaType): boolean {
  return media.subtype === 'json' || media.suffix === 'json';
}

/** The header as Rust's lossy UTF-8 reading of its bytes shows it (`�` for invalid sequences). */
export function lossyHeader(header: string): string {
  return Buffer.from(header, 'latin1').toString('utf8');
}
