// Byte layout constants and readers of the word-set automaton (diagram in word-set.ts).

export const MAGIC = [0x4d, 0x57, 0x52, 0x44] as const; // "MWRD"
export const VERSION = 1;
export const HEADER_SIZE = 24;

/** Node header byte: bit 7 = final, bit 6 = transition 0's target is the next node, bits 0-5 = n. */
export const FINAL = 0x80;
export const NEXT0 = 0x40;
export const COUNT_MASK = 0x3f;
/** A count field of 63 means "63 + the next byte" (a node has at most 256 transitions). */
export const COUNT_ESCAPE = 63;

export interface Header {
  /** Address width in bytes (1..4). */
  width: number;
  size: number;
  root: number;
  /** Longest word, in UTF-8 bytes. */
  maxLen: number;
}

export function readU32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)) + b[p + 3]! * 0x1000000;
}

export function writeU32(b: Uint8Array, p: number, v: number): void {
  b[p] = v & 0xff;
  b[p + 1] = (v >>> 8) & 0xff;
  b[p + 2] = (v >>> 16) & 0xff;
  b[p + 3] = (v >>> 24) & 0xff;
}

/** Reads a little-endian address of `w` bytes. */
export function readAddr(b: Uint8Array, p: number, w: number): number {
  switch (w) {
    case 1:
      return b[p]!;
    case 2:
      return b[p]! | (b[p + 1]! << 8);
    case 3:
      return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16);
    default:
      return readU32(b, p);
  }
}

export function writeAddr(b: Uint8Array, p: number, v: number, w: number): void {
  for (let i = 0; i < w; i++) b[p + i] = (v >>> (8 * i)) & 0xff;
}

export function parseHeader(b: Uint8Array): Header {
  if (b.length < HEADER_SIZE) throw new Error('word set: buffer too short');
  for (let i = 0; i < 4; i++) {
    if (b[i] !== MAGIC[i]) throw new Error('word set: bad magic');
  }
  if (b[4] !== VERSION) throw new Error(`word set: unsupported version ${b[4]}`);
  const width = b[5]!;
  if (width < 1 || width > 4) throw new Error('word set: bad address width');
  const size = readU32(b, 8);
  const root = readU32(b, 12);
  const total = readU32(b, 16);
  const maxLen = readU32(b, 20);
  if (total !== b.length) throw new Error(`word set: length ${b.length}, header says ${total}`);
  if (root < HEADER_SIZE || root >= total) throw new Error('word set: bad root address');
  return { width, size, root, maxLen };
}

export function nodeSize(n: number, next0: boolean, width: number): number {
  return 1 + (n >= COUNT_ESCAPE ? 1 : 0) + n + (next0 ? n - 1 : n) * width;
}
