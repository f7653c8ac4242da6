// Hierarchical navigable small-world graph (Malkov & Yashunin), over storage it does not own.
//
//   level 2   e ─────────────── x                 a node is on levels 0..its own (random) level;
//   level 1   e ──── a ──── x ──── b              its links on a level are at most M (M0 on level 0)
//   level 0   e ─ c ─ a ─ d ─ x ─ f ─ b ─ g        nodes, chosen by the neighbour heuristic
//
// A search enters at the entry point on the top level, moves greedily to the node nearest the
// query, goes down a level from there, and on level 0 keeps the `ef` nearest it has seen (best
// first), exploring their links until none can improve them. A filtered search explores through
// every node but keeps only accepted ones. Inserting a node searches its level and the ones below
// with `efConstruction`, links it to the neighbours the heuristic keeps and links them back
// (shrinking a full list with the same heuristic). Removing nodes re-links every node that pointed
// at one of them to its remaining neighbours and the removed node's, so no link to a removed node
// survives (no tombstones).
import { DistanceHeap } from './heap.ts';

export interface HnswParams {
  /** links per node on levels above 0 */
  m: number;
  /** links per node on level 0 */
  m0: number;
  efConstruction: number;
}

/** Meilisearch's store: M = 16, M0 = 32, ef_construction = 125 (vectors-embedders.md §8). */
export const DEFAULT_HNSW: HnswParams = { m: 16, m0: 32, efConstruction: 125 };

export interface GraphEntry {
  entry: number;
  top: number;
}

export interface GraphReader {
  /** The node's links on `level` (undefined when it is not on that level); the caller must not change them. */
  links(level: number, node: number): Uint32Array | undefined;
  /**
   * Level 0 as one table (a reader's cache may keep it so): where `node`'s row starts in
   * `level0Words` (its link count + 1, then the links), −1 to ask `links` instead.
   */
  level0At?(node: number): number;
  readonly level0Words?: Uint32Array;
}

export interface GraphWriter extends GraphReader {
  setLinks(level: number, node: number, links: Uint32Array): void;
  removeLinks(level: number, node: number): void;
  /** Every node on `level` with its links (for removals: the caller must not write while iterating). */
  nodesAt(level: number): Iterable<[number, Uint32Array]>;
  /** Distance between the vectors of two nodes of the graph. */
  between(a: number, b: number): number;
}

/** Distances from the query to nodes (Infinity for a node without a vector here). */
export interface DistanceTo {
  one(node: number): number;
  /** the distances of `nodes[0..count)` into `out` */
  many(nodes: Uint32Array, count: number, out: Float64Array): void;
}

// scratch of a level search (one thread, no nested searches): the unvisited links of one node and
// their distances, and the two heaps, kept from one search to the next
let pending = new Uint32Array(64);
let pendingDistances = new Float64Array(64);
const candidatesHeap = new DistanceHeap('min', 512);
const foundHeap = new DistanceHeap('max', 256);

/** Marks of visited nodes, reset in O(1) by a generation counter. */
export class Visited {
  #marks = new Uint32Array(1024);
  #generation = 0;

  begin(): void {
    if (++this.#generation === 0xffffffff) {
      this.#marks.fill(0);
      this.#generation = 1;
    }
  }

  /** The marks, sized for nodes below `n` (a search reads them inline: `marks[node] === generation`). */
  marksFor(n: number): Uint32Array {
    if (n > this.#marks.length) {
      let size = this.#marks.length;
      while (size < n) size *= 2;
      const marks = new Uint32Array(size);
      marks.set(this.#marks);
      this.#marks = marks;
    }
    return this.#marks;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Marks `node`; false when it already was. */
  visit(node: number): boolean {
    if (node >= this.#marks.length) {
      let size = this.#marks.length;
      while (size <= node) size *= 2;
      const marks = new Uint32Array(size);
      marks.set(this.#marks);
      this.#marks = marks;
    }
    if (this.#marks[node] === this.#generation) return false;
    this.#marks[node] = this.#generation;
    return true;
  }
}

/** The level of a new node: −ln(u) / ln(M) with u from a hash of the node, so rebuilds agree. */
export function nodeLevel(node: number, salt: number, m: number): number {
  let h = Math.imul(node ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  const u = ((h >>> 0) + 1) / 4294967297;
  return Math.min(16, Math.floor(-Math.log(u) / Math.log(m)));
}

export interface Neighbours {
  nodes: number[];
  distances: number[];
}

/**
 * The `ef` nearest nodes to the query found on `level` from the entry points (nearest first).
 * `accept`: only nodes it accepts are kept (all are explored).
 */
export function searchLevel(
  g: GraphReader,
  dist: DistanceTo,
  entries: Neighbours,
  ef: number,
  level: number,
  visited: Visited,
  accept?: (node: number) => boolean,
): Neighbours {
  visited.begin();
  const candidates = candidatesHeap;
  const found = foundHeap;
  candidates.clear();
  found.clear();
  for (let i = 0; i < entries.nodes.length; i++) {
    const node = entries.nodes[i]!;
    const d = entries.distances[i]!;
    if (!visited.visit(node)) continue;
    candidates.push(d, node);
    if (accept === undefined || accept(node)) found.push(d, node);
  }
  while (found.size > ef) found.pop();
  while (candidates.size > 0) {
    const d = candidates.topDistance();
    const node = candidates.topNode();
    candidates.pop();
    if (found.size >= ef && d > found.topDistance()) break;
    // the node's links: `links[start..end)`, in the flat level-0 table when the reader has one
    let links: Uint32Array;
    let start = 0;
    let end: number;
    const at = level === 0 && g.level0At !== undefined ? g.level0At(node) : -1;
    if (at >= 0) {
      links = g.level0Words!;
      start = at + 1;
      end = at + links[at]!;
    } else {
      const own = g.links(level, node);
      if (own === undefined) continue;
      links = own;
      end = own.length;
    }
    if (pending.length < end - start) {
      pending = new Uint32Array((end - start) * 2);
      pendingDistances = new Float64Array((end - start) * 2);
    }
    let count = 0;
    let marks = visited.marksFor(0);
    const generation = visited.generation;
    for (let li = start; li < end; li++) {
      const n = links[li]!;
      if (n >= marks.length) marks = visited.marksFor(n + 1);
      if (marks[n] === generation) continue;
      marks[n] = generation;
      pending[count++] = n;
    }
    if (count === 0) continue;
    // local views: a nested search (none today) could replace the scratch arrays
    const nodes = pending;
    const distances = pendingDistances;
    dist.many(nodes, count, distances);
    for (let pi = 0; pi < count; pi++) {
      const n = nodes[pi]!;
      const dn = distances[pi]!;
      if (!(dn < Infinity)) continue;
      if (found.size < ef || dn < found.topDistance()) {
        candidates.push(dn, n);
        if (accept === undefined || accept(n)) {
          found.push(dn, n);
          if (found.size > ef) found.pop();
        }
      }
    }
  }
  return found.drainSorted();
}

/** Greedy descent from the entry point to `level` + 1, then the search on the levels down to 0. */
export function searchGraph(
  g: GraphReader,
  start: GraphEntry,
  dist: DistanceTo,
  ef: number,
  visited: Visited,
  accept?: (node: number) => boolean,
): Neighbours {
  let current: Neighbours = { nodes: [start.entry], distances: [dist.one(start.entry)] };
  for (let level = start.top; level > 0; level--) current = greedy(g, dist, current, level);
  return searchLevel(g, dist, current, ef, 0, visited, accept);
}

function greedy(g: GraphReader, dist: DistanceTo, from: Neighbours, level: number): Neighbours {
  let node = from.nodes[0]!;
  let d = from.distances[0]!;
  for (let moved = true; moved; ) {
    moved = false;
    const links = g.links(level, node);
    if (links === undefined) break;
    for (let li = 0; li < links.length; li++) {
      const n = links[li]!;
      const dn = dist.one(n);
      if (dn < d) {
        d = dn;
        node = n;
        moved = true;
      }
    }
  }
  return { nodes: [node], distances: [d] };
}

/** The heuristic of the paper (its algorithm 4): a candidate is kept when no kept one is nearer to it than the base. */
export function selectNeighbours(g: GraphWriter, candidates: Neighbours, max: number): number[] {
  const kept: number[] = [];
  for (let i = 0; i < candidates.nodes.length && kept.length < max; i++) {
    const c = candidates.nodes[i]!;
    const dc = candidates.distances[i]!;
    let good = true;
    for (const r of kept) {
      if (g.between(c, r) < dc) {
        good = false;
        break;
      }
    }
    if (good) kept.push(c);
  }
  return kept;
}

/** Inserts `node` (its level given) and returns the graph's new entry. */
export function insertNode(
  g: GraphWriter,
  start: GraphEntry | null,
  node: number,
  level: number,
  dist: DistanceTo,
  params: HnswParams,
  visited: Visited,
): GraphEntry {
  if (start === null) {
    for (let l = level; l >= 0; l--) g.setLinks(l, node, new Uint32Array(0));
    return { entry: node, top: level };
  }
  let current: Neighbours = { nodes: [start.entry], distances: [dist.one(start.entry)] };
  for (let l = start.top; l > level; l--) current = greedy(g, dist, current, l);
  for (let l = Math.min(level, start.top); l >= 0; l--) {
    const found = searchLevel(g, dist, current, params.efConstruction, l, visited);
    const max = l === 0 ? params.m0 : params.m;
    const chosen = selectNeighbours(g, found, max);
    g.setLinks(l, node, Uint32Array.from(chosen));
    for (const n of chosen) linkBack(g, l, n, node, max);
    if (found.nodes.length > 0) current = found;
  }
  for (let l = start.top + 1; l <= level; l++) g.setLinks(l, node, new Uint32Array(0));
  return level > start.top ? { entry: node, top: level } : start;
}

function linkBack(g: GraphWriter, level: number, from: number, to: number, max: number): void {
  const links = g.links(level, from);
  const length = links === undefined ? 0 : links.length;
  for (let i = 0; i < length; i++) if (links![i] === to) return;
  const grown = new Uint32Array(length + 1);
  if (links !== undefined) grown.set(links);
  grown[length] = to;
  g.setLinks(level, from, length < max ? grown : Uint32Array.from(shrink(g, from, grown, max)));
}

/** The `max` links the heuristic keeps of `candidates` for `base`. */
function shrink(g: GraphWriter, base: number, candidates: ArrayLike<number>, max: number): number[] {
  // nearest first, ties in the given order (an insertion sort: at most M0 + 1 candidates)
  const nodes: number[] = [];
  const distances: number[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    const d = g.between(base, c);
    let j = i;
    for (; j > 0 && distances[j - 1]! > d; j--) {
      nodes[j] = nodes[j - 1]!;
      distances[j] = distances[j - 1]!;
    }
    nodes[j] = c;
    distances[j] = d;
  }
  return selectNeighbours(g, { nodes, distances }, max);
}

/**
 * Removes `removed` from every level up to `top`: each remaining node that linked to one of them
 * is re-linked to its other links and the removed node's links; the removed nodes' lists go.
 * Returns the new entry (null when the graph is empty).
 */
export function removeNodes(g: GraphWriter, start: GraphEntry | null, removed: Set<number>, params: HnswParams): GraphEntry | null {
  if (start === null || removed.size === 0) return start;
  for (let level = 0; level <= start.top; level++) {
    const max = level === 0 ? params.m0 : params.m;
    const relink: Array<[number, number[]]> = [];
    const gone: number[] = [];
    const goneLinks = new Map<number, number[]>();
    for (const [node, links] of g.nodesAt(level)) {
      if (removed.has(node)) {
        gone.push(node);
        goneLinks.set(node, Array.from(links));
        continue;
      }
      let touched = false;
      for (const n of links) {
        if (removed.has(n)) {
          touched = true;
          break;
        }
      }
      if (touched) relink.push([node, Array.from(links)]);
    }
    for (const [node, links] of relink) {
      const candidates = new Set<number>();
      for (const n of links) {
        if (!removed.has(n)) candidates.add(n);
        else for (const x of goneLinks.get(n) ?? []) if (x !== node && !removed.has(x)) candidates.add(x);
      }
      g.setLinks(level, node, Uint32Array.from(shrink(g, node, [...candidates], max)));
    }
    for (const node of gone) g.removeLinks(level, node);
  }
  if (!removed.has(start.entry)) return start;
  for (let level = start.top; level >= 0; level--) {
    for (const [node] of g.nodesAt(level)) return { entry: node, top: level };
  }
  return null;
}
