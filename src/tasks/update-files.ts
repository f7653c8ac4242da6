// Payloads of enqueued document tasks: one NDJSON file per task in update_files/,
// written and fsynced before the task is registered, removed once its batch is finished.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { readLineBuffers } from '../engine/files.ts';

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
    for (const json of readLineBuffers(this.path(uuid))) yield { doc: JSON.parse(json.toString('utf8')), json };
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
