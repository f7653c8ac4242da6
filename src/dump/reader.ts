// Reads a V6 dump (dumps-snapshots.md §2, §4): the archive is unpacked into a temporary directory,
// then each file is read as a stream of lines. Files added by later 1.x releases (batches, network,
// webhooks, chat settings, experimental features) are optional.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unpackArchive } from './archive.ts';
import type { ApiKey } from '../auth/key-store.ts';
import { DumpError } from './dates.ts';
import { keyFromDump } from './keys.ts';
import { readLineBuffers } from '../engine/files.ts';

export interface DumpIndex {
  uid: string;
  primaryKey: string | null;
  createdAt: string;
  updatedAt: string;
  settings: Record<string, unknown>;
  /** path of the index's documents.jsonl (may be missing: no documents) */
  documentsFile: string;
}

export class DumpReader {
  readonly dir: string;
  readonly metadata: { dumpVersion: string; dbVersion: string; dumpDate: string };

  private constructor(dir: string, metadata: DumpReader['metadata']) {
    this.dir = dir;
    this.metadata = metadata;
  }

  /** Unpacks a dump archive; throws a `DumpError` for anything that is not a V6 dump. */
  static async open(file: string, tmpParent: string = os.tmpdir()): Promise<DumpReader> {
    const dir = fs.mkdtempSync(path.join(tmpParent, 'muninn-dump-'));
    try {
      await unpackArchive(file, dir);
      const metaFile = path.join(dir, 'metadata.json');
      if (!fs.existsSync(metaFile)) throw new DumpError('the dump has no `metadata.json`: it is not a Meilisearch dump');
      const metadata = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as DumpReader['metadata'];
      if (metadata.dumpVersion !== 'V6') {
        throw new DumpError(
          `dumps of version ${String(metadata.dumpVersion)} (written by Meilisearch ${String(metadata.dbVersion ?? 'before v1.0')}) cannot be imported: Muninn imports V6 dumps, written by Meilisearch 1.x and by Muninn. Import it in Meilisearch 1.x, then create a new dump there.`,
        );
      }
      return new DumpReader(dir, metadata);
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      if (err instanceof DumpError) throw err;
      throw new DumpError(`the dump could not be read: ${(err as Error).message}`);
    }
  }

  instanceUid(): string | null {
    const file = path.join(this.dir, 'instance_uid.uuid');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || null : null;
  }

  keys(): ApiKey[] {
    return [...this.#lines('keys.jsonl')].map((k) => keyFromDump(k));
  }

  features(): Record<string, unknown> | null {
    return this.#json('experimental-features.json');
  }

  network(): Record<string, unknown> | null {
    return this.#json('network.json');
  }

  webhooks(): Record<string, unknown> | null {
    return this.#json('webhooks.json');
  }

  *tasks(): Generator<Record<string, unknown>> {
    yield* this.#lines('tasks/queue.jsonl');
  }

  *batches(): Generator<Record<string, unknown>> {
    yield* this.#lines('batches/queue.jsonl');
  }

  /** The payload file of an enqueued task, when the dump has one. */
  updateFile(taskUid: number): string | null {
    const file = path.join(this.dir, 'tasks', 'update_files', `${taskUid}.jsonl`);
    return fs.existsSync(file) ? file : null;
  }

  indexes(): DumpIndex[] {
    const root = path.join(this.dir, 'indexes');
    if (!fs.existsSync(root)) return [];
    const out: DumpIndex[] = [];
    for (const entry of fs.readdirSync(root).sort()) {
      const dir = path.join(root, entry);
      if (!fs.statSync(dir).isDirectory()) continue;
      const meta = this.#json(path.join('indexes', entry, 'metadata.json'));
      if (meta === null) throw new DumpError(`index \`${entry}\` has no metadata.json in the dump`);
      out.push({
        uid: typeof meta.uid === 'string' ? meta.uid : entry,
        primaryKey: typeof meta.primaryKey === 'string' ? meta.primaryKey : null,
        createdAt: String(meta.createdAt),
        updatedAt: String(meta.updatedAt),
        settings: this.#json(path.join('indexes', entry, 'settings.json')) ?? {},
        documentsFile: path.join(dir, 'documents.jsonl'),
      });
    }
    return out;
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  #json(rel: string): Record<string, unknown> | null {
    const file = path.join(this.dir, rel);
    if (!fs.existsSync(file)) return null;
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new DumpError(`\`${rel}\` of the dump is not valid JSON: ${(err as Error).message}`);
    }
  }

  *#lines(rel: string): Generator<Record<string, unknown>> {
    const file = path.join(this.dir, rel);
    if (!fs.existsSync(file)) return;
    let n = 0;
    for (const line of readLines(file)) {
      n++;
      try {
        yield JSON.parse(line) as Record<string, unknown>;
      } catch (err) {
        throw new DumpError(`line ${n} of \`${rel}\` in the dump is not valid JSON: ${(err as Error).message}`);
      }
    }
  }
}

/** The non-blank lines of a UTF-8 text file, read in large chunks. */
export function* readLines(file: string): Generator<string> {
  for (const bytes of readLineBuffers(file)) {
    const line = bytes.toString('utf8').trim();
    if (line !== '') yield line;
  }
}
