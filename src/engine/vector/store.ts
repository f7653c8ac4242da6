// Reading the vector store of an index: a document's embeddings, the documents an embedder has,
// and nearest-neighbour search (HNSW per store, or an exact scan of few candidates).
import { Bitmap, bitmapFrom } from '../bitmap/index.ts';
import type { Index, VectorTables } from '../index/index.ts';
import type { EmbedderState } from '../index/layout.ts';
import { similarity, type Metric } from './distance.ts';
import { StoredEmbeddings } from './embeddings.ts';
import { setKey } from '../json.ts';
import { searchGraph, Visited, type DistanceTo, type GraphReader } from './hnsw.ts';
import { VectorSlab } from './slab.ts';
import { DistanceHeap } from './heap.ts';
import { Level0Table, UNKNOWN } from './level0.ts';

/** What the engine needs of an embedder's settings. */
export interface EmbedderConfig {
  name: string;
  /** required length of its vectors (null: taken from the first vector stored) */
  dimensions: number | null;
  metric: Metric;
  quantized: boolean;
  /** `source: userProvided`: documents must bring their vectors */
  userProvided: boolean;
}

/** An embedder with its id in the vector tables (main `embedderIds`). */
export interface EmbedderSpec extends Omit<EmbedderConfig, 'userProvided'> {
  id: number;
  userProvided?: boolean;
}

/**
 * The specs of configured embedders: names mapped to their ids. With `allocate` (inside a write),
 * an embedder without an id gets the next free one; without, it is left out (it has no vectors).
 */
export function embedderSpecs(index: Index, configs: readonly EmbedderConfig[], allocate: boolean): EmbedderSpec[] {
  const ids = { ...(index.getMain('embedderIds') ?? {}) };
  let next = Math.max(-1, ...Object.values(ids)) + 1;
  let changed = false;
  const out: EmbedderSpec[] = [];
  for (const c of configs) {
    let id = Object.prototype.hasOwnProperty.call(ids, c.name) ? ids[c.name] : undefined;
    if (id === undefined) {
      if (!allocate) continue;
      id = next++;
      setKey(ids, c.name, id);
      changed = true;
    }
    out.push({ ...c, id });
  }
  if (changed) index.setMain('embedderIds', ids);
  return out;
}

/** Exact-scan thresholds (Meilisearch's `MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW` and `_RATIO`). */
export interface LinearScan {
  below: number;
  ratio: number;
}

export const DEFAULT_LINEAR_SCAN: LinearScan = { below: 300_000, ratio: 0.1 };

/** Candidates compared per block of an exact scan. */
const SCAN_BLOCK = 1024;

/**
 * Search breadth on the bottom level: Meilisearch's max(10 × limit, 100) gives recall@10 0.93 on
 * GloVe 100k; 150 at least gives 0.95 (bench/RESULTS.md, vectors-library) for a quarter fewer QPS.
 */
export function defaultEf(limit: number): number {
  return Math.max(10 * limit, 150);
}

export interface NearestQuery {
  vector: ArrayLike<number>;
  /** how many nearest documents */
  limit: number;
  /** only these documents (a filter); null: all */
  candidates: Bitmap | null;
  /** a document to leave out (the reference document of a similar search) */
  exclude?: number;
  linear?: LinearScan;
  /** search breadth on the bottom level (default `defaultEf(limit)`) */
  ef?: number;
  /** only the graph of this store (documents' k-th vectors), not every store */
  store?: number;
}

export interface Nearest {
  /** internal document ids, nearest first */
  ids: number[];
  /** their similarity in [0, 1] (before any distribution shift) */
  similarities: number[];
}

/**
 * The HNSW links of one (embedder, store) graph, read from LMDB once and kept (a reader's cache).
 * Level 0, which searches walk most, is a flat table of rows in the order nodes are read
 * (`level0.ts`); upper levels are kept by (level, node).
 */
export class CachedGraph implements GraphReader {
  readonly #links: VectorTables['links'];
  readonly #key: [number, number, number, number];
  readonly #level0 = new Level0Table();
  readonly #upper = new Map<number, Uint32Array | null>();

  constructor(tables: VectorTables, embedder: number, store: number) {
    this.#links = tables.links;
    this.#key = [embedder, store, 0, 0];
  }

  get level0Words(): Uint32Array {
    return this.#level0.words;
  }

  /** Keeps links read elsewhere (a prefetch walking the upper levels in key order). */
  keep(level: number, node: number, links: Uint32Array): void {
    if (level === 0) this.#level0.put(node, links);
    else this.#upper.set(level * 2 ** 32 + node, links);
  }

  links(level: number, node: number): Uint32Array | undefined {
    if (level === 0) {
      if (this.#level0.at(node) === UNKNOWN) this.#level0.put(node, this.#read(0, node));
      return this.#level0.links(node);
    }
    const k = level * 2 ** 32 + node;
    let v = this.#upper.get(k);
    if (v === undefined) this.#upper.set(k, (v = this.#read(level, node)));
    return v ?? undefined;
  }

  /**
   * Where `node`'s level-0 row starts in `level0Words` (read it again after this call: the table
   * may grow): the count + 1, then the links. −1 when the node has none, or more than a row holds
   * (then `links` has them).
   */
  level0At(node: number): number {
    const at = this.#level0.at(node);
    return at === UNKNOWN ? this.#level0.put(node, this.#read(0, node)) : at;
  }

  #read(level: number, node: number): Uint32Array | null {
    this.#key[2] = level;
    this.#key[3] = node;
    const bytes = this.#links.get(this.#key);
    return bytes === undefined ? null : linksOf(bytes);
  }
}

/**
 * What searches keep of one embedder's vectors while its version stands: its state, the slabs
 * of its graphs and the link lists they walked. A batch that changes other things keeps it
 * whole; one that changes the embedder's vectors on top of the version read keeps the slabs, less
 * the documents it changed, and drops the link lists (inserts re-link neighbours anywhere).
 */
interface EmbedderCache {
  version: number;
  state: EmbedderState;
  items: Bitmap;
  slabs: Map<string, VectorSlab>;
  graphs: Map<number, CachedGraph>;
  prefetched: boolean;
}

/** The embedders' caches of one index, checked against its state once per generation. */
interface IndexCache {
  generation: number;
  embedders: Map<number, EmbedderCache | null>;
  /** the caches of the generation before, reused or carried over when their version allows */
  previous: Map<number, EmbedderCache | null>;
}

const caches = new WeakMap<Index, IndexCache>();

function cacheOf(index: Index): IndexCache {
  const generation = index.generation();
  let c = caches.get(index);
  if (c === undefined) {
    c = { generation, embedders: new Map(), previous: new Map() };
    caches.set(index, c);
  } else if (c.generation !== generation) {
    for (const [id, e] of c.embedders) c.previous.set(id, e);
    c.generation = generation;
    c.embedders = new Map();
  }
  return c;
}

/** The embedder's cache for the state now stored, reusing what the previous generation read. */
function embedderCache(c: IndexCache, embedder: number, state: EmbedderState | undefined): EmbedderCache | null {
  if (state === undefined) return null;
  const version = state.version ?? 0;
  const prev = c.previous.get(embedder) ?? null;
  c.previous.delete(embedder);
  if (prev !== null && prev.version === version) return prev;
  const fresh: EmbedderCache = { version, state, items: bitmapFrom(state.docids), slabs: new Map(), graphs: new Map(), prefetched: false };
  if (prev !== null && state.base === prev.version && state.changed !== undefined) {
    const changed = bitmapFrom(state.changed);
    for (const [key, slab] of prev.slabs) {
      for (const doc of changed) slab.forget(doc);
      fresh.slabs.set(key, slab);
    }
  }
  return fresh;
}

/** Links stored as little-endian u32s (copied values are aligned). */
export function linksOf(bytes: Uint8Array): Uint32Array {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >>> 2);
}

export function linksBytes(links: Uint32Array): Uint8Array {
  return new Uint8Array(links.buffer, links.byteOffset, links.byteLength);
}

/** Reads of the vector store of one index (inside a read snapshot of its environment). */
export class VectorReader {
  readonly #tables: VectorTables;
  readonly #cache: IndexCache;
  readonly #visited = new Visited();

  constructor(index: Index) {
    this.#tables = index.vectors;
    this.#cache = cacheOf(index);
  }

  state(embedder: number): EmbedderState | undefined {
    return this.#tables.embedders.get(embedder);
  }

  /** Length of the vectors stored for the embedder (undefined: none stored yet). */
  dimensions(embedder: number): number | undefined {
    return this.#stored(embedder)?.state.dimensions;
  }

  /** Documents with at least one embedding of the embedder. */
  docids(embedder: number): Bitmap {
    return bitmapFrom(this.state(embedder)?.docids);
  }

  embeddings(embedder: number, doc: number): StoredEmbeddings | undefined {
    const bytes = this.#tables.embeddings.get([embedder, doc]);
    return bytes === undefined ? undefined : new StoredEmbeddings(bytes);
  }

  /** Every stored document's flags: regenerate, and whether its (empty) entry was not given by its user. */
  *entryFlags(embedder: number): Generator<[number, { regenerate: boolean; notGiven: boolean }]> {
    for (const [key, bytes] of this.#tables.embeddings.entries({ start: [embedder, 0], end: [embedder + 1, 0] })) {
      yield [key[1], { regenerate: (bytes[0]! & 1) !== 0, notGiven: (bytes[0]! & 4) !== 0 }];
    }
  }

  #slab(e: EmbedderCache, spec: EmbedderSpec, store: number): VectorSlab {
    const key = `${store}/${spec.quantized ? 'q' : spec.metric}`;
    let slab = e.slabs.get(key);
    if (slab === undefined) {
      slab = new VectorSlab((doc) => this.embeddings(spec.id, doc), store, spec.metric, spec.quantized);
      e.slabs.set(key, slab);
    }
    return slab;
  }

  #graph(e: EmbedderCache, embedder: number, store: number): CachedGraph {
    let g = e.graphs.get(store);
    if (g === undefined) e.graphs.set(store, (g = new CachedGraph(this.#tables, embedder, store)));
    return g;
  }

  /** The embedder's cache (its state read once per generation); null when it has no vectors. */
  #stored(embedder: number): EmbedderCache | null {
    let e = this.#cache.embedders.get(embedder);
    if (e === undefined) {
      e = embedderCache(this.#cache, embedder, this.state(embedder));
      this.#cache.embedders.set(embedder, e);
    }
    return e;
  }

  /**
   * Reads an embedder's graphs into this generation's caches before they are searched, top
   * level first, then level 0 with the vectors, until `budget` bytes (links and vectors) are
   * read (`HANNOY_READER_PREFETCH_MEMORY`); once per generation. Returns the bytes read.
   */
  prefetch(spec: EmbedderSpec, budget: number): number {
    const stored = this.#stored(spec.id);
    if (budget <= 0 || stored === null || stored.prefetched) return 0;
    stored.prefetched = true;
    let used = 0;
    stored.state.graphs.forEach((start, store) => {
      if (start === null) return;
      const graph = this.#graph(stored, spec.id, store);
      const slab = this.#slab(stored, spec, store);
      for (let level = start.top; level > 0 && used < budget; level--) {
        const range = { start: [spec.id, store, level, 0] as [number, number, number, number], end: [spec.id, store, level + 1, 0] as [number, number, number, number] };
        for (const [key, bytes] of this.#tables.links.entries(range)) {
          graph.keep(level, key[3], linksOf(bytes));
          used += bytes.length;
          if (used >= budget) break;
        }
      }
      // level 0 breadth first from the entry point, the order walks meet it: a node's neighbours
      // get rows and vector slots near its own (in key order, a walk's reads are spread)
      const queue = [start.entry];
      const seen = new Set(queue);
      for (let i = 0; i < queue.length && used < budget; i++) {
        const node = queue[i]!;
        const links = graph.links(0, node);
        if (links !== undefined) {
          used += links.byteLength;
          for (const n of links) {
            if (seen.has(n)) continue;
            seen.add(n);
            queue.push(n);
          }
        }
        const before = slab.bytes;
        slab.slotOf(node);
        used += slab.bytes - before;
      }
    });
    return used;
  }

  /** The best distance of a document's stored vectors (or its vector in `store`) to `query`, in f64 (`fallback` when it has none). */
  #exactDistance(spec: EmbedderSpec, id: number, query: ArrayLike<number>, metric: Metric, fallback: number, store?: number): number {
    const e = this.embeddings(spec.id, id);
    if (e === undefined || e.floats === null) return fallback;
    let qq = 0;
    for (let i = 0; i < query.length; i++) qq += query[i]! * query[i]!;
    let best = Infinity;
    for (let k = store ?? 0; k < (store === undefined ? e.count : Math.min(e.count, store + 1)); k++) {
      const at = k * e.stride + 1;
      let dot = 0;
      let l2 = 0;
      for (let i = 0; i < e.dimensions; i++) {
        const v = e.floats[at + i]!;
        dot += query[i]! * v;
        l2 += (query[i]! - v) ** 2;
      }
      let d: number;
      if (metric === 'euclidean') d = l2;
      else if (metric === 'dot') d = -dot;
      else {
        const denominator = Math.sqrt(qq) * e.floats[at - 1]!;
        d = denominator <= 1.1920929e-7 ? 0 : (1 - Math.min(1, Math.max(-1, dot / denominator))) / 2;
      }
      best = Math.min(best, d);
    }
    return best < Infinity ? best : fallback;
  }

  /** The documents nearest to `q.vector`, each at its best vector's distance. */
  nearest(spec: EmbedderSpec, q: NearestQuery): Nearest {
    const stored = this.#stored(spec.id);
    if (stored === null || q.limit <= 0) return { ids: [], similarities: [] };
    const { state, items } = stored;
    let candidates = items;
    if (q.candidates !== null) candidates = Bitmap.and(q.candidates, items);
    if (q.exclude !== undefined && candidates.has(q.exclude)) {
      if (candidates === items) candidates = items.clone();
      candidates.remove(q.exclude);
    }
    if (candidates.size === 0) return { ids: [], similarities: [] };
    const stores = Math.max(1, state.graphs.length);
    const linear = q.linear ?? DEFAULT_LINEAR_SCAN;
    const exact = candidates.size <= q.limit || (candidates.size < linear.below && candidates.size / items.size <= linear.ratio);
    const filtered = candidates.size < items.size;
    const best = new Map<number, number>();
    const dimensions = spec.dimensions ?? q.vector.length;
    const first = q.store ?? 0;
    const last = q.store ?? stores - 1;
    for (let store = first; store <= last; store++) {
      const slab = this.#slab(stored, spec, store);
      const prepared = slab.prepare(q.vector);
      const dist: DistanceTo = {
        one: (node) => {
          const slot = slab.slotOf(node);
          return slot < 0 ? Infinity : slab.toQuery(prepared, slot);
        },
        many: (nodes, count, out) => slab.distances(prepared, nodes, count, out),
      };
      const keep = (node: number, d: number) => {
        if (!(d < Infinity) || node === q.exclude) return;
        const was = best.get(node);
        if (was === undefined || d < was) best.set(node, d);
      };
      if (exact) {
        // in blocks, so that the kernel compares many vectors a call
        // the `limit` nearest of this store (the best overall are among each store's best)
        const ids = candidates.toUint32Array();
        const out = new Float64Array(Math.min(ids.length, SCAN_BLOCK));
        const top = new DistanceHeap('max', q.limit + 1);
        for (let from = 0; from < ids.length; from += SCAN_BLOCK) {
          const block = ids.subarray(from, Math.min(ids.length, from + SCAN_BLOCK));
          dist.many(block, block.length, out);
          for (let i = 0; i < block.length; i++) {
            const d = out[i]!;
            if (top.size < q.limit || d < top.topDistance()) {
              top.push(d, block[i]!);
              if (top.size > q.limit) top.pop();
            }
          }
        }
        const kept = top.drainSorted();
        kept.nodes.forEach((node, i) => keep(node, kept.distances[i]!));
        continue;
      }
      const start = state.graphs[store];
      if (start === null || start === undefined) continue;
      const accept = filtered ? (node: number) => candidates.has(node) : undefined;
      const found = searchGraph(this.#graph(stored, spec.id, store), start, dist, q.ef ?? defaultEf(q.limit), this.#visited, accept);
      // nearest first: with one store, only the first `limit` kept can rank
      const enough = first === last ? q.limit : Infinity;
      for (let i = 0; i < found.nodes.length && best.size < enough; i++) keep(found.nodes[i]!, found.distances[i]!);
    }
    const metric = spec.quantized ? 'hamming' : spec.metric;
    // the walk compared normalized f32 vectors: the distances of the results are computed again
    // from the stored vectors in f64 (as Meilisearch's f32 scores come out of its raw vectors)
    const ranked = [...best]
      .sort((a, b) => a[1] - b[1] || a[0] - b[0])
      .slice(0, q.limit)
      .map(([id, d]) => [id, similarity(metric, metric === 'hamming' ? d : this.#exactDistance(spec, id, q.vector, metric, d, q.store), dimensions)] as const)
      // by the similarity users see (an f32): equal ones by document, as Meilisearch orders them
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return { ids: ranked.map((r) => r[0]), similarities: ranked.map((r) => r[1]) };
  }
}
