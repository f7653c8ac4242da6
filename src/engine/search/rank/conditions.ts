// Edge conditions of the graph-based ranking rules (relevancy.md §5): for each edge u → v of the
// query graph, the costs the rule gives and the documents satisfying each.
//
//   typo          v's derivations with g typos, cost g (+ n for an n-gram of n words); a word
//                 allowed no typo still has a cost-1 edge (its split words)
//   proximity     u's last word and v's first word: 0 adjacent, 1 one word between or swapped,
//                 2 two between or swapped with one between, 3 anything else; free between
//                 terms not adjacent in the query, from START and into END (+ n − 1 for an
//                 n-gram v)
//   attributeRank v found in field f: weight(f) × words(v), plus an empty max-weight edge
//   wordPosition  v found at bucketed position p: Σᵢ f(|p − q| + i), plus an empty 10 × words edge
//   exactWords    v as typed: 0; otherwise words(v)
import { Bitmap } from '../../bitmap/index.ts';
import type { Condition } from './cost-layers.ts';
import { END, START, nodeWords, type RankEdge, type RankGraph, type RankNode } from './graph.ts';
import type { PhraseWords } from '../query/index.ts';
import { subsetKey, subsetPhrases, subsetWordsAndCompletions, type Resolver, type TermSubset } from './resolve.ts';

export type GraphRuleName = 'typo' | 'proximity' | 'attributeRank' | 'wordPosition' | 'exactWords';

export interface ConditionContext {
  resolver: Resolver;
  /** field id → weight (searchableAttributes order); absent fields are not searchable */
  weights: ReadonlyMap<number, number>;
  /** every field weighs 0 (`["*"]`): attributeRank has one bucket */
  flatWeights: boolean;
  maxWeight: number;
  proximity: 'byWord' | 'byAttribute';
}

const EMPTY = new Bitmap();

/** Conditions of every edge of `graph` for a rule. */
export function edgeConditions(rule: GraphRuleName, graph: RankGraph, ctx: ConditionContext): Condition[][] {
  const perNode = new Map<number, Condition[]>();
  return graph.edges.map((edge) => {
    if (rule === 'proximity') return proximityConditions(edge, graph, ctx);
    if (edge.to === END) return [{ cost: 0, docids: ALL }];
    let list = perNode.get(edge.to);
    if (list === undefined) {
      list = nodeConditions(rule, graph.nodes[edge.to]!, ctx);
      perNode.set(edge.to, list);
    }
    return list;
  });
}

/** Stands for "every document" (intersected with the universe by the caller). */
export const ALL = new Bitmap();
ALL.addRange(0, 2 ** 32);

function nodeConditions(rule: GraphRuleName, node: RankNode, ctx: ConditionContext): Condition[] {
  const s = node.subset!;
  switch (rule) {
    case 'typo':
      return typoConditions(s, ctx);
    case 'attributeRank':
      return ctx.resolver.shared(`F\u0000${subsetKey(s)}`, () => fidConditions(node, ctx));
    case 'wordPosition':
      return ctx.resolver.shared(`O${s.term.positions[0]}\u0000${subsetKey(s)}`, () => positionConditions(node, ctx));
    case 'exactWords':
      return [
        { cost: 0, docids: Bitmap.and(ctx.resolver.exact(s.term), ctx.resolver.subset(s)) },
        { cost: nodeWords(node), docids: ctx.resolver.subset(s) },
      ];
    default:
      throw new Error(`not a node rule: ${rule}`);
  }
}

/** The highest typo cost of a subset (milli `max_typo_cost`). */
export function maxTypoCost(s: TermSubset): number {
  const t = s.term;
  if (t.maxTypos === 0) return t.isPhrase ? 0 : 1;
  if (t.maxTypos === 2 && (s.mask & 0b100) !== 0) return 2;
  return (s.mask & 0b010) !== 0 ? 1 : 0;
}

function typoConditions(s: TermSubset, ctx: ConditionContext): Condition[] {
  const t = s.term;
  const base = t.kind === 'ngram' ? t.span[1] - t.span[0] + 1 : 0;
  const out: Condition[] = [];
  for (let g = 0; g <= maxTypoCost(s); g++) {
    const subset: TermSubset = { term: t, mask: s.mask & (1 << g) };
    out.push({ cost: g + base, docids: subset.mask === 0 ? EMPTY : ctx.resolver.subset(subset), subset });
  }
  return out;
}

function fidConditions(node: RankNode, ctx: ConditionContext): Condition[] {
  const s = node.subset!;
  const all = ctx.resolver.subset(s);
  const words = nodeWords(node);
  if (ctx.flatWeights) return [{ cost: 0, docids: all }];
  const byFid = new Map<number, Bitmap>();
  const addFids = (word: string, restrict: Bitmap | null) => addFidMap(ctx.resolver.fids(word), restrict);
  const addFidMap = (fids: Map<number, Bitmap>, restrict: Bitmap | null) => {
    for (const [fid, ids] of fids) {
      if (!ctx.weights.has(fid)) continue;
      const add = restrict === null ? ids : Bitmap.and(ids, restrict);
      const cur = byFid.get(fid);
      if (cur === undefined) byFid.set(fid, add.clone());
      else cur.orInPlace(add);
    }
  };
  const { words: single, completions } = subsetWordsAndCompletions(s);
  for (const w of single) addFids(w, null);
  if (completions.length > 0) addFidMap(ctx.resolver.completionFids(completions, ctx.resolver.prefixOf(s.term)), null);
  for (const p of subsetPhrases(s)) {
    const phraseIds = ctx.resolver.phrase(p);
    for (const w of p) if (w !== null) addFids(w, phraseIds);
  }
  const byCost = new Map<number, Bitmap>();
  for (const [fid, ids] of byFid) {
    const cost = ctx.weights.get(fid)! * words;
    const cur = byCost.get(cost);
    if (cur === undefined) byCost.set(cost, ids);
    else cur.orInPlace(ids);
  }
  const maxCost = ctx.maxWeight * words;
  if (!byCost.has(maxCost)) byCost.set(maxCost, EMPTY);
  return [...byCost].map(([cost, docids]) => ({ cost, docids: Bitmap.and(docids, all) }));
}

const DISTANCE_COSTS: readonly [number, number][] = [
  [0, 0], [1, 1], [4, 2], [7, 3], [11, 4], [16, 5], [24, 6], [64, 7], [256, 8], [1024, 9],
];

/** milli `cost_from_distance`. */
export function distanceCost(d: number): number {
  for (const [max, cost] of DISTANCE_COSTS) if (d <= max) return cost;
  return 10;
}

function positionConditions(node: RankNode, ctx: ConditionContext): Condition[] {
  const s = node.subset!;
  const t = s.term;
  const q = t.positions[0];
  const costOf = (p: number) => {
    const d = Math.abs(p - q);
    let cost = 0;
    for (let i = 0; i < t.span[1] - t.span[0] + 1; i++) cost += distanceCost(d + i);
    return cost;
  };
  const byCost = new Map<number, Bitmap>();
  const addPositions = (word: string, restrict: Bitmap | null) => addPositionMap(ctx.resolver.positions(word), restrict);
  const addPositionMap = (positions: Map<number, Bitmap>, restrict: Bitmap | null) => {
    for (const [p, ids] of positions) {
      const cost = costOf(p);
      const add = restrict === null ? ids : Bitmap.and(ids, restrict);
      const cur = byCost.get(cost);
      if (cur === undefined) byCost.set(cost, add.clone());
      else cur.orInPlace(add);
    }
  };
  const { words: single, completions } = subsetWordsAndCompletions(s);
  for (const w of single) addPositions(w, null);
  if (completions.length > 0) addPositionMap(ctx.resolver.completionPositions(completions, ctx.resolver.prefixOf(s.term)), null);
  for (const p of subsetPhrases(s)) {
    const first = p.find((w) => w !== null);
    if (first !== undefined && first !== null) addPositions(first, ctx.resolver.phrase(p));
  }
  const maxCost = (t.span[1] - t.span[0] + 1) * 10;
  if (!byCost.has(maxCost)) byCost.set(maxCost, EMPTY);
  const all = ctx.resolver.subset(s);
  return [...byCost].map(([cost, docids]) => ({ cost, docids: Bitmap.and(docids, all) }));
}

/** A node's side of a pair: its words, its prefix completions, and its phrases by their edge word. */
interface PairSide {
  words: string[];
  completions: string[];
  /** [the phrase's last (left side) or first (right side) word, the phrase]; a stop word there: none */
  phrases: [string, PhraseWords][];
}

function pairSide(s: TermSubset, side: 'last' | 'first'): PairSide {
  const words = new Set<string>();
  const completions: string[] = [];
  for (let g = 0; g < 3; g++) {
    if ((s.mask & (1 << g)) === 0) continue;
    for (const d of s.term.derivations[g].words) {
      if (d.kind === 'prefix') completions.push(d.word);
      else words.add(d.word);
    }
  }
  const phrases: [string, PhraseWords][] = [];
  for (const p of subsetPhrases(s)) {
    const w = side === 'last' ? p[p.length - 1] : p[0];
    if (w !== null && w !== undefined) phrases.push([w, p]);
  }
  return { words: [...words], completions, phrases };
}

/** Prefix completions looked up one by one when the right word comes first (reversed pairs). */
const REVERSED_COMPLETIONS = 100;
/** Pairs are recorded up to this distance; farther is the last cost. */
const MAX_PAIR_DISTANCE = 3;

/**
 * Proximity edges (milli `proximity/build.rs` and `compute_docids.rs`): a right-hand n-gram of
 * n words adds n − 1 to every cost; terms not adjacent in the query (a stop word or a removed
 * term between them) cost nothing but that; pairs involving a phrase are never swapped.
 */
function proximityConditions(edge: RankEdge, graph: RankGraph, ctx: ConditionContext): Condition[] {
  if (edge.to === END) return [{ cost: 0, docids: ALL }];
  const to = graph.nodes[edge.to]!.subset!;
  const toDocs = ctx.resolver.subset(to);
  const extra = to.term.span[1] - to.term.span[0];
  if (edge.from === START) return [{ cost: extra, docids: toDocs }];
  const from = graph.nodes[edge.from]!.subset!;
  if (from.term.positions[1] + 1 !== to.term.positions[0]) return [{ cost: extra, docids: toDocs }];
  const both = Bitmap.and(ctx.resolver.subset(from), toDocs);
  const left = pairSide(from, 'last');
  const right = pairSide(to, 'first');
  const r = ctx.resolver;
  const prefix = right.completions.length > 0 ? to.term.original : null;
  // [left word, right word, phrases they stand for (their documents must hold them)]
  const lefts: [string, PhraseWords | null][] = [...[...left.words, ...left.completions].map((w) => [w, null] as [string, null]), ...left.phrases];
  const rights: [string, PhraseWords | null][] = [...right.words.map((w) => [w, null] as [string, null]), ...right.phrases];
  const reversedCompletions = right.completions.slice(0, REVERSED_COMPLETIONS).map((w) => [w, null] as [string, null]);
  const within = (ids: Bitmap, lp: PhraseWords | null, rp: PhraseWords | null): Bitmap => {
    if (lp === null && rp === null) return ids;
    const out = lp === null ? ids.clone() : Bitmap.and(ids, r.phrase(lp));
    if (rp !== null) out.andInPlace(r.phrase(rp));
    return out;
  };
  /** documents with the pair in order at `forward`, or swapped at `backward` (0: not looked up) */
  const pairs = (forward: number, backward: number) => {
    const out = new Bitmap();
    for (const [l, lp] of lefts) {
      for (const [rw, rp] of rights) {
        out.orInPlace(within(r.pair(forward, l, rw), lp, rp));
        if (backward >= 1 && lp === null && rp === null) out.orInPlace(r.pair(backward, rw, l));
      }
      if (prefix !== null) {
        // every completion at once: one range scan of (forward, l, prefix…)
        out.orInPlace(within(r.pairPrefix(forward, l, prefix), lp, null));
        if (backward >= 1 && lp === null) for (const [rw] of reversedCompletions) out.orInPlace(r.pair(backward, rw, l));
      }
    }
    out.andInPlace(both);
    return out;
  };
  const out: Condition[] = [];
  if (ctx.proximity === 'byAttribute') {
    out.push({ cost: extra, docids: pairs(1, 0) });
  } else {
    for (let d = 1; d <= MAX_PAIR_DISTANCE; d++) out.push({ cost: extra + d - 1, docids: pairs(d, d - 1) });
  }
  out.push({ cost: extra + MAX_PAIR_DISTANCE, docids: toDocs });
  return out;
}
