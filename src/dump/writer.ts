// Writes a dump in Meilisearch's V6 layout (dumps-snapshots.md §2). The files are streamed into a
// hidden staging directory beside the target, packed into a gzip tar under a temporary name, fsynced
// and renamed: a reader never sees a half-written `.dump`, and memory stays flat whatever the size.
//
//   <dir>/.tmp-<name>/            files, written line by line
//   <dir>/.tmp-<name>.dump        the archive being packed (archive.ts)
//   <dir>/<name>.dump             after the rename
import fs from 'node:fs';
import path from 'node:path';
import { packDirectory, removeStaleStaging } from './archive.ts';
import type { ApiKey } from '../auth/key-store.ts';
import { keyToDump } from './keys.ts';

const FLUSH_BYTES = 1 << 20;

/** Lines of one JSONL file, buffered and written in large pieces. */
export class LineWriter {
  readonly #fd: number;
  #parts: string[] = [];
  #pending = 0;
  #closed = false;

  constructor(file: string) {
    this.#fd = fs.openSync(file, 'w');
  }

  /** Appends one JSON value as a line. */
  write(value: unknown): void {
    this.writeRaw(JSON.stringify(value));
  }

  /** Appends a line of JSON text as it is. */
  writeRaw(json: string): void {
    this.#parts.push(json, '\n');
    this.#pending += json.length + 1;
    if (this.#pending >= FLUSH_BYTES) this.#flush();
  }

  close(): void {
    if (this.#closed) return;
    this.#flush();
    fs.closeSync(this.#fd);
    this.#closed = true;
  }

  #flush(): void {
    if (this.#parts.length === 0) return;
    fs.writeSync(this.#fd, this.#parts.join(''));
    this.#parts = [];
    this.#pending = 0;
  }
}

export interface DumpMetadata {
  dbVersion: string;
  /** RFC 3339 */
  dumpDate: string;
}

export interface DumpIndexMetadata {
  uid: string;
  primaryKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export class DumpWriter {
  readonly target: string;
  readonly #staging: string;
  readonly #open = new Set<LineWriter>();

  private constructor(dir: string, name: string) {
    this.target = path.join(dir, `${name}.dump`);
    this.#staging = path.join(dir, `.tmp-${name}`);
  }

  /** Starts a dump named `<name>.dump` in `dir` (created if missing); stale staging files are removed. */
  static create(dir: string, name: string): DumpWriter {
    fs.mkdirSync(dir, { recursive: true });
    removeStaleStaging(dir);
    const w = new DumpWriter(dir, name);
    for (const sub of ['', 'tasks', 'tasks/update_files', 'batches', 'indexes', 'chat-completions-settings']) {
      fs.mkdirSync(path.join(w.#staging, sub), { recursive: true });
    }
    return w;
  }

  writeMetadata(meta: DumpMetadata): void {
    this.#json('metadata.json', { dumpVersion: 'V6', dbVersion: meta.dbVersion, dumpDate: meta.dumpDate });
  }

  writeInstanceUid(uid: string | null): void {
    if (uid !== null) fs.writeFileSync(path.join(this.#staging, 'instance_uid.uuid'), uid);
  }

  writeKeys(keys: readonly ApiKey[]): void {
    const w = this.#lines('keys.jsonl');
    for (const k of keys) w.write(keyToDump(k));
    this.#done(w);
  }

  writeFeatures(features: Record<string, boolean>): void {
    this.#json('experimental-features.json', features);
  }

  writeNetwork(network: Record<string, unknown>): void {
    this.#json('network.json', network);
  }

  writeWebhooks(webhooks: Record<string, unknown>): void {
    this.#json('webhooks.json', { webhooks });
  }

  /** The task queue, one line per task; close it when done. */
  tasks(): LineWriter {
    return this.#lines('tasks/queue.jsonl');
  }

  /** The documents of an enqueued task (NDJSON, as received). */
  updateFile(taskUid: number): LineWriter {
    return this.#lines(`tasks/update_files/${taskUid}.jsonl`);
  }

  /** Copies the payload file of an enqueued task (already NDJSON) as its update file. */
  copyUpdateFile(taskUid: number, source: string): void {
    fs.copyFileSync(source, path.join(this.#staging, 'tasks', 'update_files', `${taskUid}.jsonl`));
  }

  batches(): LineWriter {
    return this.#lines('batches/queue.jsonl');
  }

  /** Writes an index's metadata and settings and returns the writer of its documents. */
  index(meta: DumpIndexMetadata, settings: Record<string, unknown>): LineWriter {
    const dir = path.join('indexes', meta.uid);
    fs.mkdirSync(path.join(this.#staging, dir), { recursive: true });
    this.#json(path.join(dir, 'metadata.json'), meta);
    this.#json(path.join(dir, 'settings.json'), settings);
    return this.#lines(path.join(dir, 'documents.jsonl'));
  }

  /** Packs the staged files into the archive, makes it durable and gives it its final name. */
  async finish(): Promise<string> {
    for (const w of this.#open) w.close();
    this.#open.clear();
    await packDirectory(this.#staging, this.target);
    fs.rmSync(this.#staging, { recursive: true, force: true });
    return this.target;
  }

  /** Drops everything written so far (an interrupted or failed dump leaves no file). */
  abort(): void {
    for (const w of this.#open) {
      try {
        w.close();
      } catch {
        // already failing: the files go anyway
      }
    }
    this.#open.clear();
    fs.rmSync(this.#staging, { recursive: true, force: true });
  }

  #lines(rel: string): LineWriter {
    const w = new LineWriter(path.join(this.#staging, rel));
    this.#open.add(w);
    return w;
  }

  #done(w: LineWriter): void {
    w.close();
    this.#open.delete(w);
  }

  #json(rel: string, value: unknown): void {
    fs.writeFileSync(path.join(this.#staging, rel), JSON.stringify(value));
  }
}
