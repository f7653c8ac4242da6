// Accumulates the NDJSON update file in large blocks; the caller writes the full blocks
// out between two input chunks (so memory stays bounded by one input chunk + one block).

const BLOCK = 1 << 20; // 1 MiB

export class OutputBuffer {
  /** Bytes accepted so far (written or pending). */
  bytes = 0;
  private block: Buffer = Buffer.allocUnsafe(BLOCK);
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

  private rotate(): void {
    this.full.push(this.block.subarray(0, this.pos));
    this.block = Buffer.allocUnsafe(BLOCK);
    this.pos = 0;
  }
}
