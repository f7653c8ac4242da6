// Files read and written whole: small ones written through a temporary name, fsynced, then renamed
// over the target; large line-based ones read in chunks.
import fs from 'node:fs';

/**
 * Makes a file's content, or a directory's entries, durable. A directory that cannot be fsynced (not
 * every platform allows it) is left as it is.
 */
export function fsyncPath(file: string, opts: { directory?: boolean } = {}): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    if (opts.directory) return;
    throw err;
  }
  try {
    fs.fsyncSync(fd);
  } catch (err) {
    if (!opts.directory) throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a file through a temporary name and a rename, fsynced. */
export function writeAtomically(file: string, content: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

const CHUNK = 4 * 1024 * 1024;

/**
 * The non-empty lines of a file, read in large chunks, as bytes without their newline. A yielded
 * buffer is only valid until the next one (copy to keep).
 */
export function* readLineBuffers(file: string): Generator<Buffer> {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | null = null;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      let data = buf.subarray(0, n);
      if (carry) data = Buffer.concat([carry, data]);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
        if (nl > start) yield data.subarray(start, nl);
        start = nl + 1;
      }
      carry = start < data.length ? Buffer.from(data.subarray(start)) : null;
    }
    if (carry && carry.length > 0) yield carry;
  } finally {
    fs.closeSync(fd);
  }
}
