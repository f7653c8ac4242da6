// Writes documents into an index inside one write transaction: additions (replace or
// partial update), deletions by id, clear. Internal ids are dense u32, the smallest free
// one first (documents.md §2.8). Callers run each task in a child transaction and use
// `checkpoint`/`rollback` so that a failing task leaves no trace.
import { Bitmap, bitmapBytes } from '../bitmap/index.ts';
import { EngineError } from '../errors.ts';
import type { Index } from '../index/index.ts';
import { fieldPaths } from '../index/fields.ts';
import { documentId, inferPrimaryKey } from '../index/primary-key.ts';

const MAX_FIELDS = 65_535;

interface WriterState {
  used: Bitmap;
  free: Bitmap;
  nextId: number;
  distribution: Map<string, number>;
  fieldsOrder: string[];
  documentBytes: number;
  primaryKey: string | null;
}

export interface AddOptions {
  method: 'replace' | 'update';
  /** primary key given with the task, if any */
  primaryKey: string | null;
  skipCreation: boolean;
}

/** Mutable view of an index during one batch. */
export class DocumentsWriter {
  readonly index: Index;
  #s: WriterState;
  #fieldSet: Set<string>;

  constructor(index: Index) {
    this.index = index;
    const used = index.usedIds();
    const max = used.size === 0 ? -1 : used.maximum();
    const free = new Bitmap();
    if (max >= 0) {
      free.addRange(0, max + 1);
      free.andNotInPlace(used);
    }
    this.#s = {
      used,
      free,
      nextId: max + 1,
      distribution: new Map(Object.entries(index.fieldDistribution())),
      fieldsOrder: [...index.fieldsOrder()],
      documentBytes: index.getMain('documentBytes') ?? 0,
      primaryKey: index.meta().primaryKey,
    };
    this.#fieldSet = new Set(this.#s.fieldsOrder);
  }

  get primaryKey(): string | null {
    return this.#s.primaryKey;
  }

  /** A copy of the in-memory state, to restore if the current task fails. */
  checkpoint(): WriterState {
    const s = this.#s;
    return { ...s, used: s.used.clone(), free: s.free.clone(), distribution: new Map(s.distribution), fieldsOrder: [...s.fieldsOrder] };
  }

  rollback(state: WriterState): void {
    this.#s = state;
    this.#fieldSet = new Set(state.fieldsOrder);
  }

  /**
   * Resolves the primary key for a document addition task (documents.md §2.5); `first` is the
   * first document of the payload, undefined when the payload is empty.
   */
  resolvePrimaryKey(taskPrimaryKey: string | null, first: Record<string, unknown> | undefined): string | null {
    const current = this.#s.primaryKey;
    if (current !== null) {
      if (taskPrimaryKey !== null && taskPrimaryKey !== current) {
        throw new EngineError('index_primary_key_already_exists', `Index already has a primary key: \`${current}\`.`);
      }
      return current;
    }
    if (taskPrimaryKey !== null) {
      this.#s.primaryKey = taskPrimaryKey;
      return taskPrimaryKey;
    }
    if (first === undefined) return null;
    const inferred = inferPrimaryKey(first);
    this.#s.primaryKey = inferred;
    return inferred;
  }

  /** Adds or updates one document; returns false when skipped (skipCreation of an unknown id). */
  addDocument(doc: Record<string, unknown>, primaryKey: string, opts: AddOptions, jsonBytes?: number): boolean {
    const extId = documentId(doc, primaryKey);
    const { externalIds, documents } = this.index;
    const existing = externalIds.get(extId);
    if (existing === undefined) {
      if (opts.skipCreation) return false;
      const id = this.#allocate();
      externalIds.put(extId, id);
      this.#store(id, doc, jsonBytes);
      return true;
    }
    const old = documents.get(existing);
    const next = opts.method === 'update' && old ? { ...old, ...doc } : doc;
    if (old) this.#forget(old);
    this.#store(existing, next, next === doc ? jsonBytes : undefined);
    return true;
  }

  /** Deletes documents by external id; returns how many existed. */
  deleteByIds(ids: Iterable<string>): number {
    let deleted = 0;
    const { externalIds, documents } = this.index;
    for (const extId of ids) {
      const id = externalIds.get(extId);
      if (id === undefined) continue;
      const old = documents.get(id);
      if (old) this.#forget(old);
      documents.remove(id);
      externalIds.remove(extId);
      this.#s.used.remove(id);
      this.#s.free.add(id);
      deleted++;
    }
    return deleted;
  }

  /** Deletes every document; returns how many there were. */
  clear(): number {
    const count = this.#s.used.size;
    this.index.documents.clear();
    this.index.externalIds.clear();
    this.#s.used = new Bitmap();
    this.#s.free = new Bitmap();
    this.#s.nextId = 0;
    this.#s.distribution.clear();
    this.#s.documentBytes = 0;
    return count;
  }

  /** Sets the primary key directly (index update with no documents). */
  setPrimaryKey(pk: string | null): void {
    this.#s.primaryKey = pk;
  }

  /** Writes the counters and state back to the main table and bumps the generation. */
  save(now: number): void {
    const { index } = this;
    const s = this.#s;
    const meta = index.meta();
    index.setMain('meta', { ...meta, primaryKey: s.primaryKey, updatedAt: now });
    index.setMain('usedIds', bitmapBytes(s.used));
    const distribution: Record<string, number> = {};
    for (const [k, v] of s.distribution) if (v > 0) distribution[k] = v;
    index.setMain('fieldDistribution', distribution);
    index.setMain('fieldsOrder', s.fieldsOrder);
    index.setMain('documentBytes', s.documentBytes);
    index.setMain('generation', index.generation() + 1);
  }

  #allocate(): number {
    const s = this.#s;
    let id: number;
    if (s.free.size > 0) {
      id = s.free.minimum();
      s.free.remove(id);
    } else {
      id = s.nextId++;
    }
    s.used.add(id);
    return id;
  }

  #store(id: number, doc: Record<string, unknown>, jsonBytes?: number): void {
    const s = this.#s;
    for (const path of fieldPaths(doc)) {
      s.distribution.set(path, (s.distribution.get(path) ?? 0) + 1);
      if (!this.#fieldSet.has(path)) {
        if (this.#fieldSet.size >= MAX_FIELDS) {
          throw new EngineError('max_fields_limit_exceeded', 'A document cannot contain more than 65,535 fields.');
        }
        this.#fieldSet.add(path);
        s.fieldsOrder.push(path);
      }
    }
    s.documentBytes += jsonBytes ?? this.#approxSize(doc);
    this.index.documents.put(id, doc);
  }

  #forget(doc: Record<string, unknown>): void {
    const s = this.#s;
    for (const path of fieldPaths(doc)) s.distribution.set(path, (s.distribution.get(path) ?? 1) - 1);
    s.documentBytes = Math.max(0, s.documentBytes - this.#approxSize(doc));
  }

  /** Size of the document as JSON text, the figure reported as rawDocumentDbSize. */
  #approxSize(doc: Record<string, unknown>): number {
    return Buffer.byteLength(JSON.stringify(doc));
  }
}
