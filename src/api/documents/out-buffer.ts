// Accumulates the NDJSON update file in large blocks; the caller takes the full blocks between
// two input chunks and writes them out (payload.ts: in the background, a few at a time), then
// gives them back with OutputBuffer.recycle: up to MAX_SPARE blocks are kept for reuse.

const BLOCK = 1 << 20; // 1 MiB
/** Blocks already written out, to fill again (saves allocating and faulting in fresh memory). */
const spare: Buffer[] = [];
const MAX_SPARE = 4;

export class OutputBuffer {
  /** Bytes accepted so far (written or pending). */
  bytes = 0;
  private block: Buffer = spare.pop() ?? Buffer.allocUnsafe(BLOCK);
  private pos = 0;
  private full: Buffer[] = [];

  /** Appends src[start, end). */
  copy(src: Uint8Array, start: number, end: number): void {
    let len = end - start;
    if (len <= 0) return;
    this.bytes += len;
    for (;;) {
      const room = BLOCK - this.pos;
      if (len <= room) {
        if (len < 24) {
          const block = this.block;
          let p = this.pos;
          for (let k = start; k < end; k++) block[p++] = src[k]!;
        } else {
          this.block.set(src.subarray(start, end), this.pos);
        }
        this.pos += len;
        return;
      }
      this.block.set(src.subarray(start, start + room), this.pos);
      this.pos = BLOCK;
      start += room;
      len -= room;
      this.rotate();
    }
  }

  /** Appends src[start, end) with the bytes at the `count` first offsets of `at` turned into `\n`, then a `\n`. */
  copyLines(src: Uint8Array, start: number, end: number, at: Int32Array, count: number): void {
    const len = end - start;
    if (len < BLOCK - this.pos) {
      const block = this.block;
      block.set(src.subarray(start, end), this.pos);
      const shift = this.pos - start;
      for (let k = 0; k < count; k++) block[at[k]! + shift] = 10;
      block[this.pos + len] = 10;
      this.pos += len + 1;
      this.bytes += len + 1;
      return;
    }
    for (let k = 0; k < count; k++) {
      this.copy(src, start, at[k]!);
      this.byte(10);
      start = at[k]! + 1;
    }
    this.copy(src, start, end);
    this.byte(10);
  }

  /** Appends src[start, end) minus the `count / 2` runs [at[k], at[k + 1]) inside it, then a `\n`. */
  copyWithout(src: Uint8Array, start: number, end: number, at: Int32Array, count: number): void {
    if (end - start >= BLOCK - this.pos) {
      for (let k = 0; k < count; k += 2) {
        this.copy(src, start, at[k]!);
        start = at[k + 1]!;
      }
      this.copy(src, start, end);
      this.byte(10);
      return;
    }
    const block = this.block;
    let p = this.pos;
    for (let k = 0; ; k += 2) {
      const stop = k < count ? at[k]! : end;
      if (stop - start > 32) {
        block.set(src.subarray(start, stop), p);
        p += stop - start;
      } else {
        let j = start;
        for (; j + 4 <= stop; j += 4, p += 4) {
          block[p] = src[j]!;
          block[p + 1] = src[j + 1]!;
          block[p + 2] = src[j + 2]!;
          block[p + 3] = src[j + 3]!;
        }
        while (j < stop) block[p++] = src[j++]!;
      }
      if (k >= count) break;
      start = at[k + 1]!;
    }
    block[p++] = 10;
    this.bytes += p - this.pos;
    this.pos = p;
  }

  byte(b: number): void {
    if (this.pos === BLOCK) this.rotate();
    this.block[this.pos++] = b;
    this.bytes++;
  }

  text(s: string): void {
    if (s.length * 3 > BLOCK - this.pos) {
      const bytes = Buffer.from(s, 'utf8');
      this.copy(bytes, 0, bytes.length);
      return;
    }
    const written = this.block.write(s, this.pos, 'utf8');
    this.pos += written;
    this.bytes += written;
  }

  /** Full blocks ready to be written, in order; the buffer forgets them. */
  takeFull(): Buffer[] {
    const full = this.full;
    this.full = [];
    return full;
  }

  /** Everything still pending (full blocks, then the partial one). */
  takeAll(): Buffer[] {
    if (this.pos > 0) this.rotate();
    return this.takeFull();
  }

  /** Gives back a block returned by takeFull/takeAll once the caller is done with it. */
  static recycle(block: Buffer): void {
    if (spare.length >= MAX_SPARE || block.byteOffset !== 0 || block.buffer.byteLength !== BLOCK) return;
    spare.push(Buffer.from(block.buffer, 0, BLOCK));
  }

  private rotate(): void {
    this.full.push(this.block.subarray(0, this.pos));
    this.block = spare.pop() ?? Buffer.allocUnsafe(BLOCK);
    this.pos = 0;
  }
}
