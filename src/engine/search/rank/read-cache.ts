// Table reads shared by the searches of one index generation (the tables cannot change under it),
// bounded by an estimate of the bytes it holds (bitmaps, their wrappers, keys). Least recently used
// entries go first; every operation is O(1): a map from key to a node of a doubly linked list in
// use order. (Iterating a Map from its front to find the oldest entry is not: V8 keeps the slots
// of deleted entries until the next rehash, and a busy cache deletes on every hit and eviction,
// so each scan walked thousands of dead slots.)
import { Bitmap } from '../../bitmap/index.ts';

/** Default budget of one index generation's cache. */
export const READ_CACHE_BYTES = 16 * 1024 * 1024;
/** A map entry, its node, the key string and a bitmap wrapper, roughly. */
const ENTRY_BYTES = 160;
const BITMAP_BYTES = 96;

interface Node {
  key: string;
  value: unknown;
  bytes: number;
  /** toward the most recently used end */
  newer: Node | null;
  /** toward the least recently used end */
  older: Node | null;
}

export class ReadCache {
  readonly #nodes = new Map<string, Node>();
  readonly #budget: number;
  #bytes = 0;
  #newest: Node | null = null;
  #oldest: Node | null = null;

  constructor(budgetBytes = READ_CACHE_BYTES) {
    this.#budget = budgetBytes;
  }

  get<T>(key: string, load: () => T): T {
    const hit = this.#nodes.get(key);
    if (hit !== undefined) {
      if (hit !== this.#newest) {
        this.#unlink(hit);
        this.#pushNewest(hit);
      }
      return hit.value as T;
    }
    const value = load();
    const bytes = ENTRY_BYTES + 2 * key.length + sizeOf(value);
    if (bytes > this.#budget) return value;
    this.#bytes += bytes;
    while (this.#bytes > this.#budget && this.#oldest !== null) {
      const old = this.#oldest;
      this.#unlink(old);
      this.#nodes.delete(old.key);
      this.#bytes -= old.bytes;
    }
    const node: Node = { key, value, bytes, newer: null, older: null };
    this.#nodes.set(key, node);
    this.#pushNewest(node);
    return value;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#nodes.size;
  }

  #unlink(n: Node): void {
    if (n.newer !== null) n.newer.older = n.older;
    else this.#newest = n.older;
    if (n.older !== null) n.older.newer = n.newer;
    else this.#oldest = n.newer;
    n.newer = n.older = null;
  }

  #pushNewest(n: Node): void {
    n.older = this.#newest;
    n.newer = null;
    if (this.#newest !== null) this.#newest.newer = n;
    this.#newest = n;
    if (this.#oldest === null) this.#oldest = n;
  }
}

/** Bytes of a cached value: bitmaps (native size), maps and arrays of them, conditions. */
function sizeOf(value: unknown): number {
  if (value instanceof Bitmap) return BITMAP_BYTES + value.getSerializationSizeInBytes('croaring');
  if (value instanceof Map) {
    let n = 64;
    for (const v of value.values()) n += 32 + sizeOf(v);
    return n;
  }
  if (Array.isArray(value)) {
    let n = 32;
    for (const v of value) n += 16 + sizeOf(v);
    return n;
  }
  if (typeof value === 'object' && value !== null && 'docids' in value) return 32 + sizeOf((value as { docids: unknown }).docids);
  return 32;
}
