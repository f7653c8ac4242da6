// Small files written whole: through a temporary name, fsynced, then renamed over the target.
import fs from 'node:fs';

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
