// Writes the vector store of an index inside a batch's transaction. Tasks put and remove a
// document's embeddings as they apply (a failed task's writes go with its child transaction; its
// in-memory changes with `rollback`); the graphs are brought up to date once, at the end of the
// batch (`save`): the changed documents' old nodes are removed (their neighbours re-linked), then
// their new vectors are inserted, one graph per store (a document's k-th vector is in store k).
// Link lists being changed are kept in memory and written when they pass a bound and at the end,
// so a committed batch is fully searchable after a restart.
import { Bitmap, bitmapBytes, bitmapFrom } from '../bitmap/index.ts';
import type { Index, VectorTables } from '../index/index.ts';
import type { EmbedderState } from '../index/layout.ts';
import { encodeEmbeddings, StoredEmbeddings } from './embeddings.ts';
import {
  DEFAULT_HNSW, insertNode, nodeLevel, removeNodes, Visited, type DistanceTo, type GraphEntry, type GraphWriter, type HnswParams,
} from './hnsw.ts';
import { linksBytes, linksOf, type EmbedderSpec } from './store.ts';
import { VectorSlab } from './slab.ts';
import { Level0Table, UNKNOWN } from './level0.ts';

interface Run {
  spec: EmbedderSpec;
  docids: Bitmap;
  embeddings: number;
  graphs: Array<GraphEntry | null>;
  /** documents whose embeddings changed in this batch */
  dirty: Set<number>;
  /** the state must be stored again (documents changed, or everything was cleared) */
  touched: boolean;
}

export interface VectorCheckpoint {
  runs: Array<{ docids: Bitmap; embeddings: number; dirty: Set<number>; graphs: Array<GraphEntry | null>; touched: boolean }>;
}

/** Changed link lists kept in memory before they are written. */
const DIRTY_BOUND = 200_000;
/** Link lists kept in memory, changed or read (about 200 MB at most). */
const KNOWN_BOUND = 1_000_000;
/** A batch changing at least 1/SCAN_RATIO of a graph's documents reads all its vectors at once. */
const SCAN_RATIO = 200;

export class VectorIndexWriter {
  readonly #tables: VectorTables;
  #runs: Run[];
  readonly #params: HnswParams;

  constructor(index: Index, embedders: readonly EmbedderSpec[], params: HnswParams = DEFAULT_HNSW) {
    this.#tables = index.vectors;
    this.#params = params;
    this.#runs = embedders.map((spec) => {
      const state = this.#tables.embedders.get(spec.id);
      return { spec, docids: bitmapFrom(state?.docids), embeddings: state?.embeddings ?? 0, graphs: state?.graphs ?? [], dirty: new Set(), touched: false };
    });
  }

  embeddings(id: number, embedder: EmbedderSpec): StoredEmbeddings | undefined {
    const bytes = this.#tables.embeddings.get([embedder.id, id]);
    return bytes === undefined ? undefined : new StoredEmbeddings(bytes);
  }

  /** True when the document has a stored entry for the embedder (possibly without vectors). */
  stored(id: number, embedder: EmbedderSpec): boolean {
    return this.#tables.embeddings.has([embedder.id, id]);
  }

  /**
   * Stores the document's vectors for the embedder (an empty list is kept too: "no vector, by
   * choice"); `notGiven`: an empty list from `{ regenerate: false }`, which is not the user's vectors.
   */
  set(id: number, embedder: EmbedderSpec, vectors: ArrayLike<number>[], regenerate: boolean, notGiven = false): void {
    const run = this.#run(embedder);
    this.#drop(run, id);
    const dimensions = embedder.dimensions ?? vectors[0]?.length ?? 0;
    this.#tables.embeddings.put([embedder.id, id], encodeEmbeddings({ vectors, regenerate, quantized: embedder.quantized, dimensions, notGiven }));
    run.touched = true;
    if (vectors.length === 0) return;
    run.docids.add(id);
    run.embeddings += vectors.length;
    run.dirty.add(id);
  }

  /** Removes the document's entries of every embedder. */
  remove(id: number): void {
    for (const run of this.#runs) this.#drop(run, id);
  }

  #drop(run: Run, id: number): void {
    const old = this.embeddings(id, run.spec);
    if (old === undefined) return;
    this.#tables.embeddings.remove([run.spec.id, id]);
    run.touched = true;
    if (!run.docids.has(id)) return;
    run.docids.remove(id);
    run.embeddings -= old.count;
    run.dirty.add(id);
  }

  /** Every stored entry of an embedder (copied values: safe to keep while writing). */
  *entries(embedder: EmbedderSpec): Generator<[number, StoredEmbeddings]> {
    const e = embedder.id;
    for (const [key, bytes] of this.#tables.embeddings.entries({ start: [e, 0], end: [e + 1, 0] })) yield [key[1], new StoredEmbeddings(bytes)];
  }

  /** Removes everything of an embedder that is no longer configured: entries, graphs, state. */
  static dropEmbedder(tables: VectorTables, embedder: number): void {
    const doomed = [...tables.embeddings.keys({ start: [embedder, 0], end: [embedder + 1, 0] })];
    for (const key of doomed) tables.embeddings.remove(key);
    const links = [...tables.links.keys({ start: [embedder, 0, 0, 0], end: [embedder + 1, 0, 0, 0] })];
    for (const key of links) tables.links.remove(key);
    tables.embedders.remove(embedder);
  }

  /** Binary-quantizes the stored vectors of an embedder (now `quantized`) and rebuilds its graphs. */
  requantize(embedder: EmbedderSpec): void {
    const run = this.#run(embedder);
    const entries = [...this.entries(embedder)];
    for (const [id, e] of entries) {
      if (e.quantized) continue;
      const vectors = e.vectors();
      this.#tables.embeddings.put([embedder.id, id], encodeEmbeddings({ vectors, regenerate: e.regenerate, quantized: true, dimensions: e.dimensions, notGiven: e.notGiven }));
    }
    const links = [...this.#tables.links.keys({ start: [embedder.id, 0, 0, 0], end: [embedder.id + 1, 0, 0, 0] })];
    for (const key of links) this.#tables.links.remove(key);
    run.graphs = [];
    run.touched = true;
    for (const id of run.docids) run.dirty.add(id);
  }

  /** Removes every vector and graph. */
  clearAll(): void {
    this.#tables.embeddings.clear();
    this.#tables.links.clear();
    for (const run of this.#runs) {
      run.docids = new Bitmap();
      run.embeddings = 0;
      run.graphs = [];
      run.dirty.clear();
      // the stored state still names the documents and graphs that are gone
      run.touched = true;
    }
  }

  beginTask(): VectorCheckpoint {
    return { runs: this.#runs.map((r) => ({ docids: r.docids.clone(), embeddings: r.embeddings, dirty: new Set(r.dirty), graphs: [...r.graphs], touched: r.touched })) };
  }

  rollback(cp: VectorCheckpoint): void {
    cp.runs.forEach((saved, i) => Object.assign(this.#runs[i]!, saved));
  }

  /**
   * Brings the graphs up to date with the batch's changes and stores each embedder's state;
   * `version`: the index generation the batch commits as (readers key their caches on it).
   */
  save(version: number): void {
    for (const run of this.#runs) {
      const before = this.#tables.embedders.get(run.spec.id);
      if (!run.touched && before !== undefined) continue;
      const changed = new Bitmap([...run.dirty]);
      if (run.dirty.size > 0) this.#updateGraphs(run);
      const state: EmbedderState = {
        docids: bitmapBytes(run.docids),
        embeddings: run.embeddings,
        graphs: run.graphs,
        version,
        ...(before?.version !== undefined ? { base: before.version } : {}),
        changed: bitmapBytes(changed),
      };
      // the stored vectors keep the length they were written with, whatever the setting says now
      const dimensions = run.docids.size > 0 ? (before?.dimensions ?? run.spec.dimensions) : run.spec.dimensions;
      if (dimensions !== null && dimensions !== undefined) state.dimensions = dimensions;
      this.#tables.embedders.put(run.spec.id, state);
      run.dirty.clear();
      run.touched = false;
    }
  }

  #updateGraphs(run: Run): void {
    const changed = [...run.dirty].sort((a, b) => a - b);
    // a batch may change hundreds of thousands of documents: no spread into Math.max
    let stores = run.graphs.length;
    for (const id of changed) stores = Math.max(stores, this.embeddings(id, run.spec)?.count ?? 0);
    for (let store = 0; store < stores; store++) {
      const g = new GraphBuild(this.#tables, run.spec, store);
      let start = run.graphs[store] ?? null;
      const removed = new Set(changed.filter((id) => g.links(0, id) !== undefined));
      if (removed.size > 0) start = removeNodes(g, start, removed, this.#params);
      // a walk touches most of a graph after a few hundred inserts: one scan of the table reads
      // its vectors for less than a lookup each
      if (changed.length * SCAN_RATIO >= run.docids.size) g.readAllVectors();
      const visited = new Visited();
      for (const id of changed) {
        const slot = g.slotOf(id);
        if (slot < 0) continue;
        const dist = g.from(slot);
        start = insertNode(g, start, id, nodeLevel(id, store, this.#params.m), dist, this.#params, visited);
      }
      g.flush();
      run.graphs[store] = start;
    }
    while (run.graphs.length > 0 && run.graphs[run.graphs.length - 1] === null) run.graphs.pop();
  }

  #run(embedder: EmbedderSpec): Run {
    const run = this.#runs.find((r) => r.spec.id === embedder.id);
    if (run === undefined) throw new Error(`vector writer: embedder \`${embedder.name}\` is not configured`);
    return run;
  }
}

/** One graph being changed: links read once and changed in memory (written at `flush`), vectors in a slab. */
class GraphBuild implements GraphWriter {
  readonly #tables: VectorTables;
  readonly #embedder: number;
  readonly #store: number;
  /**
   * Link lists known, by node: level 0 in a flat table (rows rewritten in place), upper levels by
   * level. Read from the table (clean) or changed in this batch (their nodes in `#dirty`); null /
   * no row: removed or none; unknown: not read yet. An insert reads ~10,000 lists.
   */
  #level0 = new Level0Table();
  #known: Array<Array<Uint32Array | null | undefined>> = [];
  #knownCount = 0;
  readonly #dirty: Array<Set<number>> = [];
  #dirtyCount = 0;
  readonly #slab: VectorSlab;

  constructor(tables: VectorTables, spec: EmbedderSpec, store: number) {
    this.#tables = tables;
    this.#embedder = spec.id;
    this.#store = store;
    const load = (doc: number) => {
      const bytes = tables.embeddings.get([spec.id, doc]);
      return bytes === undefined ? undefined : new StoredEmbeddings(bytes);
    };
    this.#slab = new VectorSlab(load, store, spec.metric, spec.quantized);
  }

  /** Reads every vector of the embedder into the slab, in key order. */
  readAllVectors(): void {
    const e = this.#embedder;
    for (const [key, bytes] of this.#tables.embeddings.entries({ start: [e, 0], end: [e + 1, 0] })) this.#slab.fill(key[1], new StoredEmbeddings(bytes));
  }

  /** The slab slot of a document's vector in this store (−1: none). */
  slotOf(node: number): number {
    return this.#slab.slotOf(node);
  }

  /** Distances from the vector in `slot` (copied into the slab's query cells until the next call). */
  from(slot: number): DistanceTo {
    const slab = this.#slab;
    const q = slab.prepareSlot(slot);
    return {
      one: (node) => {
        const other = slab.slotOf(node);
        return other < 0 ? Infinity : slab.toQuery(q, other);
      },
      many: (nodes, count, out) => slab.distances(q, nodes, count, out),
    };
  }

  get level0Words(): Uint32Array {
    return this.#level0.words;
  }

  /** Where `node`'s level-0 row starts in `level0Words` (read it again after this call), −1 without one. */
  level0At(node: number): number {
    const at = this.#level0.at(node);
    return at === UNKNOWN ? this.#level0.put(node, this.#read(0, node)) : at;
  }

  links(level: number, node: number): Uint32Array | undefined {
    if (level === 0) {
      if (this.#level0.at(node) === UNKNOWN) this.#level0.put(node, this.#read(0, node));
      return this.#level0.links(node);
    }
    const known = this.#known[level];
    const kept = known === undefined ? undefined : known[node];
    if (kept !== undefined) return kept ?? undefined;
    const links = this.#read(level, node);
    if (links !== null && this.#knownCount < KNOWN_BOUND) this.#know(level, node, links);
    return links ?? undefined;
  }

  setLinks(level: number, node: number, links: Uint32Array | null): void {
    if (level === 0) this.#level0.put(node, links);
    else this.#know(level, node, links);
    const dirty = (this.#dirty[level] ??= new Set());
    if (!dirty.has(node)) {
      dirty.add(node);
      if (++this.#dirtyCount >= DIRTY_BOUND) this.flush();
    }
  }

  removeLinks(level: number, node: number): void {
    this.setLinks(level, node, null);
  }

  #read(level: number, node: number): Uint32Array | null {
    const bytes = this.#tables.links.get([this.#embedder, this.#store, level, node]);
    return bytes === undefined ? null : linksOf(bytes);
  }

  #know(level: number, node: number, links: Uint32Array | null): void {
    const known = (this.#known[level] ??= []);
    if (known[node] === undefined) this.#knownCount++;
    known[node] = links;
  }

  *nodesAt(level: number): Iterable<[number, Uint32Array]> {
    this.flush();
    const e = this.#embedder;
    const s = this.#store;
    for (const [key, bytes] of this.#tables.links.entries({ start: [e, s, level, 0], end: [e, s, level + 1, 0] })) {
      yield [key[3], linksOf(bytes)];
    }
  }

  between(a: number, b: number): number {
    const sa = this.#slab.slotOf(a);
    const sb = this.#slab.slotOf(b);
    return sa < 0 || sb < 0 ? Infinity : this.#slab.between(sa, sb);
  }

  /** Writes the changed link lists (kept as known ones, unless too many are known). */
  flush(): void {
    this.#dirty.forEach((nodes, level) => {
      for (const node of nodes) {
        const key: [number, number, number, number] = [this.#embedder, this.#store, level, node];
        const links = level === 0 ? (this.#level0.links(node) ?? null) : this.#known[level]![node]!;
        if (links === null) this.#tables.links.remove(key);
        else this.#tables.links.put(key, linksBytes(links));
      }
      nodes.clear();
    });
    this.#dirtyCount = 0;
    if (this.#knownCount + this.#level0.size >= KNOWN_BOUND) {
      this.#level0 = new Level0Table();
      this.#known = [];
      this.#knownCount = 0;
    }
  }

}
