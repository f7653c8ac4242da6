// The query graph (relevancy.md §2.3, milli `QueryGraph::from_query` + `build_initial_edges`).
//
// Nodes: 0 = START, 1 = END, then for each term i (in order) the node of term i, the 2-gram
// ending at i, the 3-gram ending at i (when they exist). A node covering terms [a, b] links to
// every node starting at b + 1 (END after the last term), so every START → END path covers each
// query term exactly once. Query `summer house by` (all three n-grams possible):
//
//                             ┌─────────┐
//                           ┌─│ houseby │──────────┐
//                           │ └─────────┘          │
//   ┌───────┐   ┌────────┐  │ ┌───────┐   ┌────┐   │   ┌─────┐
//   │ START │─┬─│ summer │──┴─│ house │─┬─│ by │───┼───│ END │
//   └───────┘ │ └────────┘    └───────┘ │ └────┘   │   └─────┘
//             │ ┌─────────────┐         │          │
//             ├─│ summerhouse │─────────┘          │
//             │ └─────────────┘                    │
//             │ ┌───────────────┐                  │
//             └─│ summerhouseby │──────────────────┘
//               └───────────────┘
//
//   nodes: 0 START, 1 END, 2 summer [0,0], 3 house [1,1], 4 summerhouse [0,1],
//          5 by [2,2], 6 houseby [1,2], 7 summerhouseby [0,2]

import type { QueryGraph, QueryGraphNode, QueryTerm, QueryTerms } from './types.ts';

/** Builds the DAG START → terms / n-grams → END from derived terms. */
export function buildQueryGraph(terms: Pick<QueryTerms, 'terms' | 'ngrams'>): QueryGraph {
  // creation order: per term i, the term, then the n-grams ending at i by increasing length
  const byEnd = new Map<number, QueryTerm[]>();
  for (const g of terms.ngrams) {
    const list = byEnd.get(g.span[1]) ?? [];
    list.push(g);
    byEnd.set(g.span[1], list);
  }
  const ordered: QueryTerm[] = [];
  terms.terms.forEach((t, i) => {
    ordered.push(t);
    const grams = byEnd.get(i) ?? [];
    grams.sort((a, b) => b.span[0] - a.span[0]);
    ordered.push(...grams);
  });

  // [first, last] term ids of each node; START ends at −1, END starts after everything
  const first = [Infinity, Infinity, ...ordered.map((t) => t.span[0])];
  const last = [-1, Infinity, ...ordered.map((t) => t.span[1])];
  const count = ordered.length + 2;
  const successors: number[][] = Array.from({ length: count }, () => []);
  const predecessors: number[][] = Array.from({ length: count }, () => []);
  for (let a = 0; a < count; a++) {
    if (a === 1) continue;
    // successors: the nodes (END included) with the smallest first term id after a's last
    let min = Infinity;
    let next: number[] = [];
    for (let b = 1; b < count; b++) {
      const start = b === 1 ? Number.MAX_SAFE_INTEGER : first[b]!;
      if (start <= last[a]!) continue;
      if (start < min) {
        min = start;
        next = [b];
      } else if (start === min) next.push(b);
    }
    successors[a] = next;
    for (const b of next) predecessors[b]!.push(a);
  }

  const nodes: QueryGraphNode[] = [];
  for (let k = 0; k < count; k++) {
    const kind = k === 0 ? 'start' : k === 1 ? 'end' : 'term';
    nodes.push({ kind, term: k < 2 ? null : ordered[k - 2]!, successors: successors[k]!, predecessors: predecessors[k]! });
  }
  return { nodes, start: 0, end: 1 };
}
