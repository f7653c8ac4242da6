// Incremental UTF-8 validation of a byte stream whose chunks may split a character.
import { isUtf8 } from 'node:buffer';

/** Length of the sequence a lead byte announces; 1 for ASCII and for invalid leads. */
function sequenceLength(b: number): number {
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 1;
}

/** Offset of the first byte of the first invalid sequence in bytes[start, end), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len = sequenceLength(b);
    if (len === 1 || i + len > end) return i;
    const b1 = bytes[i + 1]!;
    if ((b1 & 0xc0) !== 0x80) return i;
    if (b === 0xe0 && b1 < 0xa0) return i; // overlong
    if (b === 0xed && b1 > 0x9f) return i; // surrogate
    if (b === 0xf0 && b1 < 0x90) return i; // overlong
    if (b === 0xf4 && b1 > 0x8f) return i; // > U+10FFFF
    for (let k = 2; k < len; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    i += len;
  }
  return -1;
}

export class Utf8Checker {
  /** Global offset of the first invalid byte seen, or -1. */
  firstBad = -1;
  private readonly carry = Buffer.alloc(4);
  private carryLen = 0;
  private carryStart = 0;

  /** Checks the chunk that starts at global offset `base`. */
  check(chunk: Uint8Array, base: number): void {
    if (this.firstBad >= 0) return;
    let start = 0;
    if (this.carryLen > 0) {
      const need = sequenceLength(this.carry[0]!);
      while (this.carryLen < need && start < chunk.length) {
        const b = chunk[start++]!;
        if ((b & 0xc0) !== 0x80) {
          this.firstBad = this.carryStart;
          return;
        }
        this.carry[this.carryLen++] = b;
      }
      if (this.carryLen < need) return;
      if (!isUtf8(this.carry.subarray(0, need))) {
        this.firstBad = this.carryStart;
        return;
      }
      this.carryLen = 0;
    }
    let end = chunk.length;
    for (let k = end - 1; k >= start && k >= end - 3; k--) {
      const b = chunk[k]!;
      if (b < 0x80) break;
      if (b >= 0xc0) {
        if (sequenceLength(b) > end - k) end = k;
        break;
      }
    }
    if (end > start && !isUtf8(chunk.subarray(start, end))) {
      this.firstBad = base + Math.max(start, firstInvalidUtf8(chunk, start, end));
      return;
    }
    for (let k = end; k < chunk.length; k++) this.carry[this.carryLen++] = chunk[k]!;
    this.carryStart = base + end;
  }

  /** At the end of the stream: an incomplete trailing sequence is invalid. */
  finish(): void {
    if (this.firstBad < 0 && this.carryLen > 0) this.firstBad = this.carryStart;
  }
}
