// Buckets of a graph-based ranking rule (relevancy.md §4): the rule gives every edge of the
// query graph conditions (a cost and the documents satisfying it); a document's cost is the
// cheapest START → END path whose every condition it satisfies; buckets are documents by
// increasing cost.
//
// Instead of enumerating paths (their number grows exponentially with the terms), costs are
// computed by dynamic programming over the DAG with bitmaps:
//
//   reach[v][k] = documents that can reach node v along a path of total cost ≤ k
//               = ∪ over edges u → v, conditions (c, D): reach[u][k − c] ∩ D
//   bucket(k)   = reach[END][k] − reach[END][k − 1]
//
// The graph handed to the next rule keeps only the edges (and, per node, the typo groups) that
// lie on some path of cost k satisfied by a document of the bucket: `back[v][k]` (documents
// reaching END from v within cost k) tells whether an edge condition can be completed.
import { Bitmap } from '../../bitmap/index.ts';
import { END, START, refined, type RankEdge, type RankGraph } from './graph.ts';
import type { TermSubset } from './resolve.ts';

export interface Condition {
  readonly cost: number;
  readonly docids: Bitmap;
  /** the edge target's subset under this condition (undefined: unchanged) */
  readonly subset?: TermSubset;
}

export interface CostBucket {
  cost: number;
  docids: Bitmap;
  /** the graph of the paths this bucket's documents satisfy (computed on demand) */
  graph(): RankGraph;
}

/** The most expensive START → END path (structural: every condition counts, even without documents). */
export function maxPathCost(graph: RankGraph, conditions: readonly (readonly Condition[])[]): number {
  const best = new Array<number>(graph.nodes.length).fill(-Infinity);
  best[START] = 0;
  for (const v of graph.order) {
    if (v === START) continue;
    for (const e of graph.into[v]!) {
      const from = best[graph.edges[e]!.from]!;
      if (from === -Infinity) continue;
      let max = -Infinity;
      for (const c of conditions[e]!) max = Math.max(max, c.cost);
      if (max !== -Infinity) best[v] = Math.max(best[v]!, from + max);
    }
  }
  return best[END] === -Infinity ? 0 : best[END]!;
}

/**
 * Layers `[v][k]` computed one cost at a time, on demand: layer k of a node needs layers ≤ k of
 * its neighbours on the origin side, and nodes are visited in dependency order.
 */
class Layers {
  readonly #layers: Bitmap[][];
  #done = -1;

  constructor(
    private readonly graph: RankGraph,
    private readonly conds: readonly (readonly Condition[])[],
    private readonly universe: Bitmap,
    /** true: documents reaching END from v (edges walked backwards) */
    private readonly backward: boolean,
  ) {
    this.#layers = graph.nodes.map(() => []);
  }

  /** Layer k of node v (computing every layer ≤ k first). */
  at(v: number, k: number): Bitmap {
    while (this.#done < k) this.#compute(++this.#done);
    return this.#layers[v]![k]!;
  }

  #compute(k: number): void {
    const { graph, conds, universe, backward } = this;
    const origin = backward ? END : START;
    const order = backward ? [...graph.order].reverse() : graph.order;
    for (const v of order) {
      if (v === origin) {
        this.#layers[v]![k] = universe;
        continue;
      }
      let layer: Bitmap | null = null;
      for (const e of backward ? graph.out[v]! : graph.into[v]!) {
        const edge = graph.edges[e]!;
        const other = this.#layers[backward ? edge.to : edge.from]!;
        for (const c of conds[e]!) {
          if (c.cost > k || c.docids.isEmpty) continue;
          const src = other[k - c.cost]!;
          if (src.isEmpty) continue;
          // the first part becomes the layer; later ones go through the scratch (no bitmap each)
          if (layer === null) layer = Bitmap.and(src, c.docids);
          else layer.orInPlace(intersect(src, c.docids));
        }
      }
      this.#layers[v]![k] = layer ?? new Bitmap();
    }
  }
}

/** Holds an intersection until the next `intersect` call (most are folded at once and dropped). */
const scratch = new Bitmap();

/** a ∩ b in the shared scratch bitmap: valid until the next call. */
function intersect(a: Bitmap, b: Bitmap): Bitmap {
  scratch.copyFrom(a);
  scratch.andInPlace(b);
  return scratch;
}

/** The buckets of `universe` by path cost, cheapest first; documents on no path come last at `maxCost`. */
export function* costBuckets(graph: RankGraph, conditions: readonly (readonly Condition[])[], universe: Bitmap, maxCost: number): Generator<CostBucket> {
  const K = maxCost;
  // conditions restricted to the universe once
  const conds = conditions.map((list) => list.map((c) => ({ ...c, docids: c.cost <= K ? Bitmap.and(c.docids, universe) : new Bitmap() })));
  const reach = new Layers(graph, conds, universe, false);
  let back: Layers | null = null;
  let seen = new Bitmap();
  for (let k = 0; k <= K; k++) {
    if (seen.size >= universe.size) return;
    const within = reach.at(END, k);
    const docids = Bitmap.andNot(within, seen);
    if (k === K) docids.orInPlace(Bitmap.andNot(universe, within));
    seen = within;
    if (docids.isEmpty) continue;
    const cost = k;
    let next: RankGraph | null = null;
    yield {
      cost,
      docids,
      graph: () => (next ??= narrowed(graph, conditions, conds, reach, (back ??= new Layers(graph, conds, universe, true)), docids, cost)),
    };
  }
}

/** The graph restricted to the edge conditions on some cost-`cost` path of a bucket document. */
function narrowed(
  graph: RankGraph,
  original: readonly (readonly Condition[])[],
  conds: readonly (readonly Condition[])[],
  reach: Layers,
  back: Layers,
  bucket: Bitmap,
  cost: number,
): RankGraph {
  const masks = new Map<number, number>();
  const edges: RankEdge[] = [];
  graph.edges.forEach((edge, e) => {
    let used = false;
    conds[e]!.forEach((c, ci) => {
      if (c.cost > cost || c.docids.isEmpty) return;
      for (let k = 0; k + c.cost <= cost; k++) {
        // both layers first: computing a layer goes through the scratch bitmap `start` lives in
        const from = reach.at(edge.from, k);
        const to = back.at(edge.to, cost - c.cost - k);
        const start = intersect(from, bucket);
        if (start.isEmpty) continue;
        start.andInPlace(c.docids);
        if (start.isEmpty || !start.intersects(to)) continue;
        used = true;
        const s = original[e]![ci]!.subset;
        if (s !== undefined) masks.set(edge.to, (masks.get(edge.to) ?? 0) | s.mask);
        return;
      }
    });
    if (used) edges.push(edge);
  });
  if (edges.length === 0) return graph;
  const subsets = graph.nodes.map((n, i) => {
    const mask = masks.get(i);
    return mask === undefined || n.subset === null ? null : ({ term: n.subset.term, mask } as TermSubset);
  });
  return refined(graph, subsets, edges);
}
