// Open index environments by uid, through the uid → uuid mapping of the task queue.
// Each thread has its own registry; the LMDB environments themselves are shared by the process.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Index } from '../engine/index/index.ts';
import type { TaskQueue } from './queue.ts';

export class IndexRegistry {
  readonly #dir: string;
  readonly #queue: TaskQueue;
  readonly #open = new Map<string, Index>();

  constructor(indexesDir: string, queue: TaskQueue) {
    this.#dir = indexesDir;
    this.#queue = queue;
    fs.mkdirSync(indexesDir, { recursive: true });
  }

  exists(uid: string): boolean {
    return this.#queue.indexUuid(uid) !== undefined;
  }

  /** The index of a uid, or undefined when there is none. */
  get(uid: string): Index | undefined {
    const uuid = this.#queue.indexUuid(uid);
    return uuid === undefined ? undefined : this.byUuid(uuid);
  }

  byUuid(uuid: string): Index {
    let index = this.#open.get(uuid);
    if (!index || index.env.closed) {
      index = Index.open(path.join(this.#dir, uuid));
      this.#open.set(uuid, index);
    }
    return index;
  }

  /** Creates the directory of a new index; the caller records the mapping in its commit. */
  create(primaryKey: string | null, now: number): { uuid: string; index: Index } {
    const uuid = randomUUID();
    const index = Index.open(path.join(this.#dir, uuid), { primaryKey, now });
    this.#open.set(uuid, index);
    return { uuid, index };
  }

  /** A fresh directory name for an index about to be written elsewhere (compaction), and its path. */
  reserve(): { uuid: string; dir: string } {
    const uuid = randomUUID();
    return { uuid, dir: path.join(this.#dir, uuid) };
  }

  /** Closes the handle of an index (after its deletion elsewhere). */
  async forget(uuid: string): Promise<void> {
    const index = this.#open.get(uuid);
    this.#open.delete(uuid);
    if (index) await index.close();
  }

  /** Closes and removes an index directory. */
  async destroy(uuid: string): Promise<void> {
    await this.forget(uuid);
    fs.rmSync(path.join(this.#dir, uuid), { recursive: true, force: true });
  }

  /** Closes handles of indexes no mapping points to any more (deleted or swapped away by the writer). */
  async closeUnmapped(): Promise<void> {
    const mapped = new Set(this.#queue.indexUids().map((uid) => this.#queue.indexUuid(uid)));
    for (const uuid of [...this.#open.keys()]) if (!mapped.has(uuid)) await this.forget(uuid);
  }

  /** How many index environments this registry holds open. */
  get openCount(): number {
    return this.#open.size;
  }

  /** Removes directories that no mapping points to (left by a crash between two commits). */
  removeOrphans(): string[] {
    const known = new Set(this.#queue.indexUids().map((uid) => this.#queue.indexUuid(uid)));
    const removed: string[] = [];
    for (const entry of fs.readdirSync(this.#dir)) {
      if (!known.has(entry)) {
        fs.rmSync(path.join(this.#dir, entry), { recursive: true, force: true });
        removed.push(entry);
      }
    }
    return removed;
  }

  async closeAll(): Promise<void> {
    const all = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(all.map((i) => i.close()));
  }
}
