// The ranking rules of a keyword search (relevancy.md §4–5) as bucket generators: given a
// universe and the query graph it was reached with, each yields disjoint buckets, best first,
// with the graph their documents matched and the rule's rank for them.
import { Bitmap } from '../../bitmap/index.ts';
import { bucketPosition } from '../../indexing/search-data.ts';
import type { QueryTerm } from '../query/index.ts';
import { edgeConditions, type ConditionContext, type GraphRuleName } from './conditions.ts';
import { costBuckets, maxPathCost } from './cost-layers.ts';
import { END, START, presentTerms, withoutNodes, type RankGraph } from './graph.ts';
import type { Resolver } from './resolve.ts';

export type RuleName = 'words' | GraphRuleName | 'exactAttribute';

/**
 * A rule's verdict on a bucket: rank out of max (1 ≤ rank ≤ max), or `skipped` (cutoff). Sort
 * rules rank 1/1 (they never change the score) and carry the bucket's value instead.
 */
export interface RuleScore {
  readonly rule: RuleName | 'skipped' | 'sort' | 'geoSort' | 'vectorSort';
  readonly rank: number;
  readonly max: number;
  readonly sort?: SortDetail;
  /** `vectorSort`: the similarity of the document to the query vector (null: it has no vector) */
  readonly similarity?: number | null;
}

/** What a sort bucket shows in `_rankingScoreDetails`. */
export type SortDetail =
  | { kind: 'field'; field: string; asc: boolean; value: number | string | null }
  | { kind: 'geo'; lat: number; lng: number; asc: boolean; point: [number, number] | null; distance: number | null };

export interface Bucket {
  docids: Bitmap;
  score: RuleScore;
  graph(): RankGraph;
}

export type MatchingStrategy = 'last' | 'all' | 'frequency';

export interface RuleContext extends ConditionContext {
  strategy: MatchingStrategy;
  /** the original query terms, by term id */
  terms: readonly QueryTerm[];
}

export type Rule = (universe: Bitmap, graph: RankGraph, ctx: RuleContext) => Iterable<Bucket>;

export const RULES: Record<RuleName, Rule> = {
  words: wordsBuckets,
  typo: graphRule('typo'),
  proximity: graphRule('proximity'),
  attributeRank: graphRule('attributeRank'),
  wordPosition: graphRule('wordPosition'),
  exactAttribute: exactAttributeBuckets,
  exactWords: graphRule('exactWords'),
};

function graphRule(name: GraphRuleName): Rule {
  return function* (universe, graph, ctx) {
    if (name === 'attributeRank' && ctx.flatWeights) {
      yield { docids: universe, score: { rule: name, rank: 1, max: 1 }, graph: () => graph };
      return;
    }
    const conditions = edgeConditions(name, graph, ctx);
    const maxCost = maxPathCost(graph, conditions);
    for (const b of costBuckets(graph, conditions, universe, maxCost)) {
      yield { docids: b.docids, score: { rule: name, rank: maxCost + 1 - b.cost, max: maxCost + 1 }, graph: b.graph };
    }
  };
}

/** Documents satisfying some START → END path of the graph, every term matched by any derivation. */
export function graphDocids(graph: RankGraph, universe: Bitmap, resolver: Resolver): Bitmap {
  const reach: (Bitmap | undefined)[] = new Array(graph.nodes.length);
  reach[START] = universe;
  for (const v of graph.order) {
    if (v === START) continue;
    let ids: Bitmap | undefined;
    for (const e of graph.into[v]!) {
      const from = reach[graph.edges[e]!.from];
      if (from === undefined || from.isEmpty) continue;
      if (ids === undefined) ids = from.clone();
      else ids.orInPlace(from);
    }
    const subset = graph.nodes[v]!.subset;
    if (ids !== undefined && subset !== null) ids.andInPlace(resolver.subset(subset));
    reach[v] = ids;
  }
  return reach[END] ?? new Bitmap();
}

/** The graph without the nodes and edges no document of `docids` goes through (milli keeps only paths with documents). */
function matchedPaths(graph: RankGraph, docids: Bitmap, ctx: RuleContext): RankGraph {
  const conditions = graph.edges.map((e) => (e.to === END ? [{ cost: 0, docids }] : [{ cost: 0, docids: ctx.resolver.subset(graph.nodes[e.to]!.subset!) }]));
  for (const b of costBuckets(graph, conditions, docids, 0)) return b.graph();
  return graph;
}

/** Words of a term for the words rule: phrases count each of their words. */
function termWords(t: QueryTerm): number {
  return t.isPhrase ? t.words.filter((w) => w !== null).length : 1;
}

/**
 * Groups of nodes the strategy removes, in order (relevancy.md §3; milli
 * `removal_order_for_terms_matching_strategy`): each term gets a cost (`last`: later terms
 * first; `frequency`: more frequent terms first, equal frequencies together), a node the highest
 * cost of its terms; nodes are removed by increasing cost. Phrases are never removed; without
 * any phrase the costliest group (the one holding the first / rarest term) stays.
 */
export function removalOrder(graph: RankGraph, strategy: MatchingStrategy, resolver: Resolver): number[][] {
  if (strategy === 'all') return [];
  const termNodes = graph.order.filter((v) => graph.nodes[v]!.subset !== null);
  let costOf: (term: number) => number;
  if (strategy === 'last') {
    let first = Infinity;
    let last = -1;
    for (const v of termNodes) {
      first = Math.min(first, graph.nodes[v]!.first);
      last = Math.max(last, graph.nodes[v]!.last);
    }
    if (first >= last) return [];
    costOf = (t) => 1 + last - t;
  } else {
    const docs = new Map<number, Bitmap>();
    for (const v of termNodes) {
      const n = graph.nodes[v]!;
      const ids = resolver.subset(n.subset!);
      for (let t = n.first; t <= n.last; t++) docs.set(t, Bitmap.or(docs.get(t) ?? new Bitmap(), ids));
    }
    const freq = [...docs].map(([t, ids]) => [t, ids.size === 0 ? Infinity : ids.size] as const).sort((a, b) => b[1] - a[1]);
    const weight = new Map<number, number>();
    let w = 1;
    freq.forEach(([t, f], i) => {
      weight.set(t, w);
      if (i + 1 < freq.length && freq[i + 1]![1] !== f) w++;
    });
    costOf = (t) => weight.get(t)!;
  }
  const groups = new Map<number, number[]>();
  let mandatory = false;
  for (const v of termNodes) {
    const n = graph.nodes[v]!;
    if (n.subset!.term.isPhrase) {
      mandatory = true;
      continue;
    }
    let cost = 0;
    for (let t = n.first; t <= n.last; t++) cost = Math.max(cost, costOf(t));
    groups.set(cost, [...(groups.get(cost) ?? []), v]);
  }
  const ordered = [...groups].sort((a, b) => a[0] - b[0]).map(([, nodes]) => nodes);
  if (!mandatory) ordered.pop();
  return ordered;
}

/** The graph once every removable group is gone (the matching strategy's candidates). */
export function maximallyReduced(graph: RankGraph, ctx: RuleContext): RankGraph {
  return withoutNodes(graph, new Set(removalOrder(graph, ctx.strategy, ctx.resolver).flat()));
}

/** Words a removed node takes away: a single-term node's words (n-grams overlap them). */
function removedWords(graph: RankGraph, nodes: readonly number[]): number {
  let n = 0;
  for (const v of nodes) {
    const node = graph.nodes[v]!;
    if (node.first === node.last) n += termWords(node.subset!.term);
  }
  return n;
}

function* wordsBuckets(universe: Bitmap, graph: RankGraph, ctx: RuleContext): Iterable<Bucket> {
  const groups = removalOrder(graph, ctx.strategy, ctx.resolver);
  const phraseWords = ctx.terms.filter((t) => t.isPhrase).reduce((n, t) => n + termWords(t), 0);
  const max = 1 + Math.max(0, phraseWords - 1) + removedWords(graph, groups.flat());
  const removed = new Set<number>();
  let removedCount = 0;
  let seen = new Bitmap();
  for (let step = 0; step <= groups.length; step++) {
    if (step > 0) {
      for (const v of groups[step - 1]!) removed.add(v);
      removedCount += removedWords(graph, groups[step - 1]!);
    }
    const reduced = withoutNodes(graph, new Set(removed));
    const ids = graphDocids(reduced, universe, ctx.resolver);
    const fresh = Bitmap.andNot(ids, seen);
    seen = Bitmap.or(seen, ids);
    if (!fresh.isEmpty) yield { docids: fresh, score: { rule: 'words', rank: max - removedCount, max }, graph: () => matchedPaths(reduced, fresh, ctx) };
    if (seen.size >= universe.size) return;
  }
  const rest = Bitmap.andNot(universe, seen);
  if (!rest.isEmpty) yield { docids: rest, score: { rule: 'words', rank: 1, max }, graph: () => graph };
}

/**
 * Exact attribute (first half of exactness): an attribute equal to the query (every remaining
 * query word at its query position and nothing else), then one starting with it, then the rest.
 * A graph that lost its first term or a middle one puts everything in the last bucket.
 */
function* exactAttributeBuckets(universe: Bitmap, graph: RankGraph, ctx: RuleContext): Iterable<Bucket> {
  const same = () => graph;
  const present = [...presentTerms(graph)].sort((a, b) => a - b);
  const contiguous = present.length > 0 && present[0] === 0 && present[present.length - 1] === present.length - 1;
  if (!contiguous) {
    yield { docids: universe, score: { rule: 'exactAttribute', rank: 1, max: 3 }, graph: same };
    return;
  }
  const words: [string, number][] = [];
  for (const i of present) {
    const t = ctx.terms[i]!;
    t.words.forEach((w, k) => {
      if (w !== null) words.push([w, t.positions[0] + k]);
    });
  }
  const count = words.length === 0 ? 0 : words[words.length - 1]![1] + 1;
  const start = new Bitmap();
  const exact = new Bitmap();
  let fids: number[] | null = null;
  for (const [w] of words) {
    const f = [...ctx.resolver.fids(w).keys()];
    fids = fids === null ? f : fids.filter((x) => f.includes(x));
  }
  for (const fid of fids ?? []) {
    let ids: Bitmap | null = null;
    for (const [w, p] of words) {
      const inField = ctx.resolver.fids(w).get(fid);
      const atPosition = ctx.resolver.positions(w).get(bucketPosition(p));
      if (inField === undefined || atPosition === undefined) {
        ids = null;
        break;
      }
      const both = Bitmap.and(inField, atPosition);
      if (ids === null) ids = Bitmap.and(both, universe);
      else ids.andInPlace(both);
      if (ids.isEmpty) break;
    }
    if (ids === null || ids.isEmpty) continue;
    start.orInPlace(ids);
    if (count <= 30) exact.orInPlace(Bitmap.and(ids, ctx.resolver.wordCount(fid, count)));
  }
  const startOnly = Bitmap.andNot(start, exact);
  const rest = Bitmap.andNot(universe, start);
  if (!exact.isEmpty) yield { docids: exact, score: { rule: 'exactAttribute', rank: 3, max: 3 }, graph: same };
  if (!startOnly.isEmpty) yield { docids: startOnly, score: { rule: 'exactAttribute', rank: 2, max: 3 }, graph: same };
  if (!rest.isEmpty) yield { docids: rest, score: { rule: 'exactAttribute', rank: 1, max: 3 }, graph: same };
}
