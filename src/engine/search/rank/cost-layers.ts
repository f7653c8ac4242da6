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

/** The buckets of `universe` by path cost, cheapest first; documents on no path come last at `maxCost`. */
export function* costBuckets(graph: RankGraph, conditions: readonly (readonly Condition[])[], universe: Bitmap, maxCost: number): Generator<CostBucket> {
  const n = graph.nodes.length;
  const K = maxCost;
  // conditions restricted to the universe once
  const conds = conditions.map((list) => list.map((c) => ({ ...c, docids: c.cost <= K ? Bitmap.and(c.docids, universe) : new Bitmap() })));
  const reach: (Bitmap[] | undefined)[] = new Array(n);
  reach[START] = Array.from({ length: K + 1 }, () => universe);
  for (const v of graph.order) {
    if (v === START) continue;
    let layers: Bitmap[] | undefined;
    for (const e of graph.into[v]!) {
      const from = reach[graph.edges[e]!.from];
      if (from === undefined) continue;
      for (const c of conds[e]!) {
        if (c.docids.isEmpty) continue;
        layers ??= Array.from({ length: K + 1 }, () => new Bitmap());
        for (let k = c.cost; k <= K; k++) {
          const src = from[k - c.cost]!;
          if (src.isEmpty) continue;
          layers[k]!.orInPlace(Bitmap.and(src, c.docids));
        }
      }
    }
    reach[v] = layers;
  }
  const atEnd = reach[END];
  let back: (Bitmap[] | undefined)[] | null = null;
  const backLayers = () => (back ??= backward(graph, conds, universe, K));

  let seen = new Bitmap();
  for (let k = 0; k <= K; k++) {
    const within = atEnd?.[k];
    let docids = within === undefined ? new Bitmap() : Bitmap.andNot(within, seen);
    if (k === K) docids.orInPlace(Bitmap.andNot(universe, within ?? seen));
    if (docids.isEmpty) continue;
    if (within !== undefined) seen = within;
    const bucket = docids;
    const cost = k;
    let next: RankGraph | null = null;
    yield {
      cost,
      docids: bucket,
      graph: () => (next ??= narrowed(graph, conditions, conds, reach, backLayers(), bucket, cost)),
    };
  }
}

function backward(graph: RankGraph, conds: readonly (readonly Condition[])[], universe: Bitmap, K: number): (Bitmap[] | undefined)[] {
  const back: (Bitmap[] | undefined)[] = new Array(graph.nodes.length);
  back[END] = Array.from({ length: K + 1 }, () => universe);
  for (let i = graph.order.length - 1; i >= 0; i--) {
    const u = graph.order[i]!;
    if (u === END) continue;
    let layers: Bitmap[] | undefined;
    for (const e of graph.out[u]!) {
      const to = back[graph.edges[e]!.to];
      if (to === undefined) continue;
      for (const c of conds[e]!) {
        if (c.docids.isEmpty) continue;
        layers ??= Array.from({ length: K + 1 }, () => new Bitmap());
        for (let k = c.cost; k <= K; k++) {
          const src = to[k - c.cost]!;
          if (!src.isEmpty) layers[k]!.orInPlace(Bitmap.and(src, c.docids));
        }
      }
    }
    back[u] = layers;
  }
  return back;
}

/** The graph restricted to the edge conditions on some cost-`cost` path of a bucket document. */
function narrowed(
  graph: RankGraph,
  original: readonly (readonly Condition[])[],
  conds: readonly (readonly Condition[])[],
  reach: readonly (Bitmap[] | undefined)[],
  back: readonly (Bitmap[] | undefined)[],
  bucket: Bitmap,
  cost: number,
): RankGraph {
  const masks = new Map<number, number>();
  const edges: RankEdge[] = [];
  graph.edges.forEach((edge, e) => {
    const from = reach[edge.from];
    const to = back[edge.to];
    if (from === undefined || to === undefined) return;
    let used = false;
    conds[e]!.forEach((c, ci) => {
      if (c.cost > cost || c.docids.isEmpty) return;
      for (let k = 0; k + c.cost <= cost; k++) {
        const start = Bitmap.and(from[k]!, bucket);
        if (start.isEmpty) continue;
        start.andInPlace(c.docids);
        if (start.isEmpty || !start.intersects(to[cost - c.cost - k]!)) continue;
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
