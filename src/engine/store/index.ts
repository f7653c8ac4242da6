// The one wrapper around `lmdb`: environments, typed tables, atomic write transactions,
// read snapshots and consistent copies. Nothing else in the project imports `lmdb`.
//
// Buffer lifetime: `getBinaryFast` returns a reused buffer; this module never hands one out,
// every binary value returned here is a fresh copy.
//
// Transaction size: a write transaction holds its dirty pages in memory, at most 131,071 of
// them (LMDB's MDB_IDL_UM_MAX, 512 MiB at 4 KiB pages). A top-level transaction spills older
// dirty pages to the file when it nears that limit; a nested one can spill only its own, so
// the pages its parent holds count against its room and it fails with MDB_TXN_FULL once the
// parent holds nearly all of them. Callers that nest keep the parent small with
// `writeCounters` (an estimate of the pages written) and commit in steps.
import { open, type Database, type RootDatabase, type Key } from 'lmdb';
import fs from 'node:fs';
import path from 'node:path';

export type KeyCodec = 'uint32' | 'string' | 'ordered';
/**
 * `msgpack-keys`: msgpack for values holding keys users choose (settings maps, field names): msgpack
 * renames a `__proto__` key to `__proto_` when it reads it back, so object keys are escaped
 * (`__proto__` and keys starting with U+0000 get one more U+0000 in front). Values written by
 * plain `msgpack` read the same, unless a key of theirs starts with U+0000.
 */
export type ValueCodec = 'msgpack' | 'json' | 'binary' | 'string' | 'msgpack-keys';

const ESCAPE = '\u0000';

function escapeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(escapeKeys);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k === '__proto__' || k.startsWith(ESCAPE) ? ESCAPE + k : k] = escapeKeys(v);
  return out;
}

function unescapeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unescapeKeys);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k.startsWith(ESCAPE) ? k.slice(1) : k;
    Object.defineProperty(out, key, { value: unescapeKeys(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A named database declared once: name, codecs, and what it maps. */
export interface TableSpec<K, V> {
  readonly name: string;
  readonly key: KeyCodec;
  readonly value: ValueCodec;
  /** "maps X to Y" */
  readonly doc: string;
  /** phantom fields for typing */
  readonly _k?: K;
  readonly _v?: V;
}

export function table<K, V>(name: string, key: KeyCodec, value: ValueCodec, doc: string): TableSpec<K, V> {
  return { name, key, value, doc };
}

export interface RangeOptions<K> {
  start?: K;
  end?: K;
  reverse?: boolean;
  limit?: number;
  offset?: number;
}

/** A typed view over one named database. Writes must happen inside `Env.write`. */
export class Table<K, V> {
  readonly #db: Database<V, Key>;
  readonly #env: Env;
  readonly #name: string;
  readonly #escaped: boolean;
  /** puts into this table and the bytes of their values, since it was opened (instrumentation) */
  #puts = 0;
  #bytes = 0;

  constructor(env: Env, db: Database<V, Key>, name: string, escaped = false) {
    this.#env = env;
    this.#db = db;
    this.#name = name;
    this.#escaped = escaped;
  }

  #decode(value: V | undefined): V | undefined {
    return this.#escaped ? (unescapeKeys(value) as V | undefined) : value;
  }

  get(key: K): V | undefined {
    return this.#decode(this.#db.get(key as Key));
  }

  has(key: K): boolean {
    return this.#db.doesExist(key as Key);
  }

  /** A fresh copy of the raw bytes of a value. */
  getBytes(key: K): Buffer | undefined {
    return this.#db.getBinary(key as Key);
  }

  put(key: K, value: V): void {
    this.#env.assertWriting();
    // lmdb-js reports a failed put inside a transaction only by this result (the error, such as
    // MDB_TXN_FULL, goes to stderr): going on would leave the transaction unable to commit
    const written = this.#db.putSync(key as Key, this.#escaped ? (escapeKeys(value) as V) : value) as unknown as boolean;
    if (!written) throw new WriteRefused(`table ${this.#name}`);
    const bytes = valueBytes(value);
    this.#puts++;
    this.#bytes += bytes;
    this.#env.notePut(bytes);
  }

  /**
   * Puts `key` at the end of the table with LMDB's append flag (no search of the tree, pages filled
   * in order) when it sorts after every key already there. Returns false, having written nothing,
   * when it does not (or when the put fails): `put` it then.
   */
  tryAppend(key: K, value: V): boolean {
    this.#env.assertWriting();
    const written = this.#db.putSync(key as Key, this.#escaped ? (escapeKeys(value) as V) : value, { append: true }) as unknown as boolean;
    if (!written) return false;
    const bytes = valueBytes(value);
    this.#puts++;
    this.#bytes += bytes;
    this.#env.notePut(bytes);
    return true;
  }

  remove(key: K): boolean {
    this.#env.assertWriting();
    this.#env.noteRemove();
    return this.#db.removeSync(key as Key);
  }

  clear(): void {
    this.#env.assertWriting();
    this.#env.noteRemove();
    this.#db.clearSync();
  }

  *entries(opts: RangeOptions<K> = {}): Generator<[K, V]> {
    for (const { key, value } of this.#db.getRange(opts as Parameters<Database<V, Key>['getRange']>[0])) {
      yield [key as K, this.#decode(value)!];
    }
  }

  *keys(opts: RangeOptions<K> = {}): Generator<K> {
    for (const key of this.#db.getKeys(opts as Parameters<Database<V, Key>['getKeys']>[0])) yield key as K;
  }

  count(): number {
    return this.#db.getCount();
  }

  /** Puts into this table since it was opened, and the bytes of their values (as `WriteCounters`). */
  writeCounters(): { puts: number; bytes: number } {
    return { puts: this.#puts, bytes: this.#bytes };
  }

  /** Bytes used by this table's pages (branch + leaf + overflow). */
  usedBytes(): number {
    const s = this.#db.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
    return s.pageSize * (s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages);
  }
}

/** Thrown when LMDB refuses a write: the transaction is too big (MDB_TXN_FULL) or the map is full. */
export class WriteRefused extends Error {
  /** `what`: the table written to, or what failed before */
  constructor(what: string) {
    super(`LMDB refused a write (${what}): the write transaction is too big or the disk is full`);
    this.name = 'WriteRefused';
  }
}

/**
 * Writes since the environment was opened (instrumentation). `pages` estimates the dirty pages
 * they cost from above: one leaf page per put or removal, plus the overflow pages of a large value.
 */
export interface WriteCounters {
  puts: number;
  removes: number;
  /** bytes of the values put (for values the codec encodes, the byte length of binary or string values only) */
  bytes: number;
  pages: number;
}

const PAGE_SIZE = 4096;
/** Values past this size go to overflow pages of their own. */
const OVERFLOW_AT = PAGE_SIZE / 2;

function valueBytes(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === 'string') return value.length;
  return 0;
}

export interface EnvOptions {
  /** Maximum number of named tables (default 32). */
  maxTables?: number;
}

/** One LMDB environment (a directory holding data.mdb). */
export class Env {
  readonly path: string;
  readonly #root: RootDatabase;
  #writing = 0;
  #closed = false;
  /** a nested transaction failed to commit: LMDB marked the enclosing one as failed too */
  #failed = false;
  readonly #counters: WriteCounters = { puts: 0, removes: 0, bytes: 0, pages: 0 };

  private constructor(dir: string, root: RootDatabase) {
    this.path = dir;
    this.#root = root;
  }

  static open(dir: string, opts: EnvOptions = {}): Env {
    fs.mkdirSync(dir, { recursive: true });
    const root = open({ path: dir, maxDbs: opts.maxTables ?? 32, noSubdir: false, cache: false });
    return new Env(dir, root);
  }

  table<K, V>(spec: TableSpec<K, V>): Table<K, V> {
    const keyEncoding = spec.key === 'uint32' ? 'uint32' : spec.key === 'string' ? 'ordered-binary' : 'ordered-binary';
    const encoding = spec.value === 'msgpack-keys' ? 'msgpack' : spec.value;
    const db = this.#root.openDB<V, Key>(spec.name, { keyEncoding, encoding } as Parameters<RootDatabase['openDB']>[1]);
    return new Table<K, V>(this, db, spec.name, spec.value === 'msgpack-keys');
  }

  /**
   * Runs `fn` in one synchronous write transaction; a throw aborts everything it wrote. Inside
   * another `write` it runs in a nested transaction: a throw aborts only what `fn` wrote.
   */
  write<T>(fn: () => T): T {
    // a nested transaction cannot start under a failed one (lmdb-js would then use the parent itself)
    if (this.#failed) throw new WriteRefused('a nested transaction failed before');
    const outer = this.#writing === 0;
    let result!: T;
    let ran = false;
    this.#writing++;
    try {
      this.#root.transactionSync(() => {
        result = fn();
        ran = true;
        if (outer && this.#failed) throw new WriteRefused('a nested transaction failed before');
      });
    } catch (err) {
      if (ran && !outer) {
        // `fn` returned but the nested commit failed: LMDB has marked the enclosing transaction failed
        this.#failed = true;
        throw new WriteRefused(`nested commit: ${(err as Error)?.message ?? String(err)}`);
      }
      throw err;
    } finally {
      this.#writing--;
      if (outer) this.#failed = false;
    }
    return result;
  }

  /** The writes made since the environment was opened (for budgets and measurements). */
  writeCounters(): WriteCounters {
    return { ...this.#counters };
  }

  /** Counts a put of a value of `bytes` in `writeCounters`. */
  notePut(bytes: number): void {
    const c = this.#counters;
    c.puts++;
    c.bytes += bytes;
    c.pages += 1 + (bytes > OVERFLOW_AT ? Math.ceil(bytes / PAGE_SIZE) : 0);
  }

  /** Counts a removal (or a clear) in `writeCounters`. */
  noteRemove(): void {
    this.#counters.removes++;
    this.#counters.pages++;
  }

  /** Resolves once every committed write is flushed to disk. */
  async flushed(): Promise<void> {
    await this.#root.flushed;
  }

  /** Runs `fn` against one consistent read snapshot. */
  read<T>(fn: () => T): T {
    // lmdb-js keeps one read transaction per event turn, renewed after writes of this thread:
    // a synchronous function sees one snapshot unless it writes itself.
    return fn();
  }

  /** Lets reads of this thread see commits made by other threads right away. */
  refresh(): void {
    this.#root.resetReadTxn?.();
  }

  assertWriting(): void {
    if (this.#writing === 0) throw new Error('store: write outside of Env.write()');
  }

  /** A consistent copy of the whole environment into `targetDir` (for snapshots and compaction). */
  async copyTo(targetDir: string, compact = false): Promise<void> {
    fs.mkdirSync(targetDir, { recursive: true });
    // environments are opened as directories: mdb_env_copy2 then takes the directory and writes data.mdb in it
    await (this.#root as unknown as { backup(p: string, compact: boolean): Promise<void> }).backup(targetDir, compact);
  }

  /** Size of the data file on disk, and the part of it in use. */
  sizes(): { fileBytes: number; usedBytes: number } {
    const s = this.#root.getStats() as { pageSize: number; lastPageNumber: number; free?: { entryCount?: number } };
    let fileBytes = 0;
    try {
      fileBytes = fs.statSync(path.join(this.path, 'data.mdb')).size;
    } catch {
      fileBytes = 0;
    }
    const usedBytes = Math.min(fileBytes, s.pageSize * (s.lastPageNumber + 1));
    return { fileBytes, usedBytes };
  }

  get closed(): boolean {
    return this.#closed;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#root.close();
  }
}
