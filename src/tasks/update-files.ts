// Payloads of enqueued document tasks: one NDJSON file per task in update_files/,
// written and fsynced before the task is registered, removed once its batch is finished.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

const CHUNK = 4 * 1024 * 1024;

export interface ParsedLine {
  doc: Record<string, unknown>;
  /** the JSON text of the line; only valid until the next iteration (copy to keep) */
  json: Buffer;
}

export class UpdateFiles {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
  }

  /** A fresh file name for a payload about to be written. */
  reserve(): { uuid: string; path: string } {
    const uuid = randomUUID();
    return { uuid, path: this.path(uuid) };
  }

  path(uuid: string): string {
    return path.join(this.dir, uuid);
  }

  remove(uuid: string): void {
    fs.rmSync(this.path(uuid), { force: true });
  }

  /** Streams the documents of a payload file, one parsed object per line. */
  *read(uuid: string): Generator<ParsedLine> {
    const fd = fs.openSync(this.path(uuid), 'r');
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
          if (nl > start) yield { doc: JSON.parse(data.toString('utf8', start, nl)), json: data.subarray(start, nl) };
          start = nl + 1;
        }
        carry = start < data.length ? Buffer.from(data.subarray(start)) : null;
      }
      if (carry && carry.length > 0) yield { doc: JSON.parse(carry.toString('utf8')), json: carry };
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The first document of a payload, or undefined when it is empty. */
  first(uuid: string): Record<string, unknown> | undefined {
    for (const { doc } of this.read(uuid)) return doc;
    return undefined;
  }

  /** Removes files no task refers to (left by a crash before registration). */
  removeOrphans(known: Set<string>): void {
    for (const entry of fs.readdirSync(this.dir)) if (!known.has(entry)) fs.rmSync(path.join(this.dir, entry), { force: true });
  }
}
