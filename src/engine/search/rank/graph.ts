// The query graph as the ranking rules walk it: START → term subsets → END, where each node
// keeps the typo groups still allowed (rules refine them bucket by bucket).
//
// Node 0 is START, node 1 is END; term nodes follow in the query graph's order. `order` is a
// topological order (by first term, then last term), START first, END last.
import type { QueryGraph } from '../query/index.ts';
import { ALL_TYPOS, type TermSubset } from './resolve.ts';

export interface RankNode {
  /** null for START and END */
  readonly subset: TermSubset | null;
  /** first and last query term ids covered (START: −1; END: the term count) */
  readonly first: number;
  readonly last: number;
}

export interface RankEdge {
  readonly from: number;
  readonly to: number;
}

export interface RankGraph {
  readonly nodes: readonly RankNode[];
  readonly edges: readonly RankEdge[];
  /** incoming edge indexes per node */
  readonly into: readonly (readonly number[])[];
  /** outgoing edge indexes per node */
  readonly out: readonly (readonly number[])[];
  /** node indexes, START first, END last */
  readonly order: readonly number[];
  /** number of query terms (removed ones included) */
  readonly termCount: number;
}

export const START = 0;
export const END = 1;

/** The full graph of a query: every term and n-gram with all its derivations. */
export function rankGraphOf(query: QueryGraph, termCount: number): RankGraph {
  const nodes: RankNode[] = query.nodes.map((n, i) => {
    if (i === START) return { subset: null, first: -1, last: -1 };
    if (i === END) return { subset: null, first: termCount, last: termCount };
    return { subset: { term: n.term!, mask: ALL_TYPOS }, first: n.term!.span[0], last: n.term!.span[1] };
  });
  const edges: RankEdge[] = [];
  query.nodes.forEach((n, from) => {
    for (const to of n.successors) edges.push({ from, to });
  });
  return assemble(nodes, edges, termCount);
}

/**
 * The graph without the `removed` nodes: each remaining node links to the remaining nodes it
 * reached through removed ones only (milli `remove_nodes_keep_edges`).
 */
export function withoutNodes(full: RankGraph, removed: ReadonlySet<number>): RankGraph {
  if (removed.size === 0) return full;
  const edges: RankEdge[] = [];
  full.nodes.forEach((_, from) => {
    if (removed.has(from) || from === END) return;
    const seen = new Set<number>();
    const walk = (node: number) => {
      for (const e of full.out[node]!) {
        const to = full.edges[e]!.to;
        if (removed.has(to)) walk(to);
        else if (!seen.has(to)) {
          seen.add(to);
          edges.push({ from, to });
        }
      }
    };
    walk(from);
  });
  return assemble(full.nodes, edges, full.termCount);
}

/** A graph with the same node positions, refined subsets and a subset of the edges. */
export function refined(graph: RankGraph, subsets: readonly (TermSubset | null)[], edges: readonly RankEdge[]): RankGraph {
  const nodes = graph.nodes.map((n, i) => (subsets[i] === n.subset || subsets[i] === null ? n : { ...n, subset: subsets[i]! }));
  return assemble(nodes, edges, graph.termCount);
}

function assemble(nodes: readonly RankNode[], edges: readonly RankEdge[], termCount: number): RankGraph {
  const into: number[][] = nodes.map(() => []);
  const out: number[][] = nodes.map(() => []);
  edges.forEach((e, i) => {
    into[e.to]!.push(i);
    out[e.from]!.push(i);
  });
  const terms = nodes.map((_, i) => i).filter((i) => i !== START && i !== END);
  terms.sort((a, b) => nodes[a]!.first - nodes[b]!.first || nodes[a]!.last - nodes[b]!.last || a - b);
  return { nodes, edges, into, out, order: [START, ...terms, END], termCount };
}

/** Term ids still covered by some node reachable in the graph. */
export function presentTerms(graph: RankGraph): Set<number> {
  const out = new Set<number>();
  for (const e of graph.edges) {
    const n = graph.nodes[e.to]!;
    if (n.subset !== null) for (let t = n.first; t <= n.last; t++) out.add(t);
  }
  return out;
}

/** Number of words a node counts for (n-grams: their span; phrases: their words). */
export function nodeWords(n: RankNode): number {
  if (n.subset === null) return 0;
  const t = n.subset.term;
  if (t.isPhrase) return t.words.filter((w) => w !== null).length;
  return t.span[1] - t.span[0] + 1;
}
