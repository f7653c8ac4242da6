// Keyword search on one index (relevancy.md): query → terms → graph → universe → bucket sort.
//
//   parse ─► derive (word sets, pair counts) ─► query graph ─► universe: documents − negative
//   words/phrases ∩ documents matching the strategy's maximally reduced query ─► rule chain
//   from `rankingRules` ─► bucket sort ─► page of internal ids with their rule ranks
import { Bitmap } from '../../bitmap/index.ts';
import type { Index } from '../../index/index.ts';
import type { Tokenizer } from '../../tokenizer/index.ts';
import type { WordSet } from '../../words/index.ts';
import { buildQueryGraph, deriveTerms, parseQuery, type LocatedTerm, type QueryConfig } from '../query/index.ts';
import { bucketSort, type BoundRule, type SortOptions, type SortOutput } from './bucket-sort.ts';
import { rankGraphOf, type RankGraph } from './graph.ts';
import { ReadCache } from './read-cache.ts';
import { Resolver } from './resolve.ts';
import { graphDocids, maximallyReduced, RULES, type MatchingStrategy, type RuleContext, type RuleName } from './rules.ts';
import { distinctSharers, type DistinctValues } from './distinct.ts';
import { sortRule, type SortCriterion, type SortValues } from './sort.ts';
import { semanticChain, vectorSortRule, type NearestFn } from './vector-sort.ts';

/** What an index's settings give the keyword search (built once per settings generation). */
export interface KeywordSetup {
  /** the index tokenizer with its stop words */
  tokenizer: Tokenizer;
  query: QueryConfig;
  /** `rankingRules` as stored */
  rankingRules: readonly string[];
  /** searchable field id → weight; `flatWeights` when every field weighs 0 */
  weights: ReadonlyMap<number, number>;
  flatWeights: boolean;
  proximity: 'byWord' | 'byAttribute';
}

export interface KeywordRequest {
  q: string;
  offset: number;
  limit: number;
  strategy: MatchingStrategy;
  /** field ids of `attributesToSearchOn`, or null for every searchable field */
  fids: readonly number[] | null;
  scores: boolean;
  threshold: number | null;
  /** absolute `performance.now()` deadline */
  deadline: number;
  /** page mode: `candidates` must be exact (threshold applied to every candidate) */
  exhaustive?: boolean;
  /** the index's `maxTotalHits` (how deep a threshold ranks in page mode) */
  maxTotalHits?: number;
  /** the `sort` parameter's criteria (already checked against the settings) */
  sort?: readonly SortCriterion[];
  /** the distinct field (query `distinct` or the `distinctAttribute` setting), checked */
  distinct?: string | null;
  /** languages the query is tokenized with (search `locales`); null: detected */
  locales?: readonly string[] | null;
  /** documents allowed (filters, later); null = every document */
  universe?: Bitmap | null;
}

export interface KeywordResult extends SortOutput {
  /** the query had no positive term: a placeholder search over the universe left by negations */
  placeholder: boolean;
  located: LocatedTerm[];
  /** `rankingRules` had the legacy `attribute` rule (its two halves are reported as one) */
  legacyAttribute: boolean;
}

/** A rule of the chain: a keyword rule, or a sort criterion (custom rule or `sort` parameter). */
export type ChainEntry = RuleName | SortCriterion;

/**
 * The rule chain of a search (relevancy.md §4, "Rule chain construction"): with a query, `words`
 * is inserted before the first rule needing it (skipped with `all`), `attribute` and
 * `exactness` split in two; `sort` expands to the query's criteria; a field is sorted once (the
 * first custom rule or criterion naming it wins), the geo point once. A placeholder search
 * keeps only the sort entries.
 */
export function ruleChain(rankingRules: readonly string[], strategy: MatchingStrategy, sort: readonly SortCriterion[], placeholder = false): ChainEntry[] {
  const chain: ChainEntry[] = [];
  let words = strategy === 'all';
  const sorted = new Set<string>();
  let geo = false;
  const add = (...names: RuleName[]) => {
    if (placeholder) return;
    for (const n of names) if (!chain.includes(n)) chain.push(n);
  };
  const addSort = (c: SortCriterion) => {
    if (c.kind === 'geo') {
      if (geo) return;
      geo = true;
    } else {
      if (sorted.has(c.field)) return;
      sorted.add(c.field);
    }
    chain.push(c);
  };
  for (const rule of rankingRules) {
    const needsWords = ['typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'exactness'].includes(rule);
    if (needsWords && !words) {
      add('words');
      words = true;
    }
    switch (rule) {
      case 'words':
        if (!words) add('words');
        words = true;
        break;
      case 'typo':
      case 'proximity':
      case 'attributeRank':
      case 'wordPosition':
        add(rule);
        break;
      case 'attribute':
        add('attributeRank', 'wordPosition');
        break;
      case 'exactness':
        add('exactAttribute', 'exactWords');
        break;
      case 'sort':
        for (const c of sort) addSort(c);
        break;
      default: {
        const colon = rule.lastIndexOf(':');
        const dir = rule.slice(colon + 1);
        if (colon > 0 && (dir === 'asc' || dir === 'desc')) addSort({ kind: 'field', field: rule.slice(0, colon), asc: dir === 'asc' });
      }
    }
  }
  return chain;
}

/** What the searches of one index generation share: its word sets and table reads. */
export interface SharedReads {
  words: WordSet;
  exactWords: WordSet;
  cache?: ReadCache;
  /** every document id (read once per generation) */
  documents?: Bitmap;
  /** facet values for sort rules and distinct; null: sort rules see no value (one bucket) */
  facets?: (SortValues & DistinctValues) | null;
}

export function keywordSearch(index: Index, sets: SharedReads, req: KeywordRequest, setup: KeywordSetup): KeywordResult {
  const resolver = new Resolver(index, req.fids, sets.cache);
  const tokenizer = req.locales ? setup.tokenizer.withLocales(req.locales) : setup.tokenizer;
  const parsed = parseQuery(req.q, tokenizer);
  let universe = req.universe ?? sets.documents ?? index.usedIds();
  if (parsed.negativeWords.length > 0 || parsed.negativePhrases.length > 0) {
    universe = universe.clone();
    for (const w of parsed.negativeWords) universe.andNotInPlace(resolver.anyWord(w));
    for (const p of parsed.negativePhrases) universe.andNotInPlace(resolver.phrase(p));
  }
  const legacyAttribute = setup.rankingRules.includes('attribute');
  if (parsed.terms.length === 0) return { ...placeholderSearch(universe, sets, req, setup), placeholder: true, located: [], legacyAttribute };

  // a pair is indexed only between indexed words: most splits of a word are not, and read nothing
  const indexed = (w: string) => sets.words.has(w) || sets.exactWords.has(w);
  const pairCount = (l: string, r: string) => (indexed(l) && indexed(r) ? resolver.pair(1, l, r).size : 0);
  const source = { words: sets.words, exactWords: sets.exactWords, pairCount };
  const terms = deriveTerms(parsed, setup.query, source);
  const graph = rankGraphOf(buildQueryGraph(terms), terms.terms.length);
  const ctx: RuleContext = {
    resolver,
    weights: setup.weights,
    flatWeights: setup.flatWeights,
    maxWeight: Math.max(0, ...setup.weights.values()),
    proximity: setup.proximity,
    strategy: req.strategy,
    terms: terms.terms,
  };
  const reduced = maximallyReduced(graph, ctx);
  const candidates = graphDocids(reduced, universe, resolver);
  const values = sets.facets ?? null;
  const chain = ruleChain(setup.rankingRules, req.strategy, req.sort ?? []).map((e) => bindRule(e, ctx, values));
  const out = bucketSort(chain, graph, candidates, sortOptions(req, values));
  return { ...out, placeholder: false, located: terms.locatedTerms(), legacyAttribute };
}

function bindRule(entry: ChainEntry, ctx: RuleContext, values: SortValues | null): BoundRule {
  if (typeof entry === 'string') {
    const rule = RULES[entry];
    return (u, g) => rule(u, g, ctx);
  }
  return sortRule(entry, values);
}

const NO_GRAPH: RankGraph = { nodes: [], edges: [], into: [], out: [], order: [], termCount: 0 };

/**
 * A search without query terms over `universe`: only the sort rules rank (custom rules and the
 * `sort` parameter); without any, documents come in internal id order with score 1.
 */
export function placeholderSearch(universe: Bitmap, sets: Pick<SharedReads, 'facets'>, req: Omit<KeywordRequest, 'q' | 'strategy' | 'fids'>, setup: Pick<KeywordSetup, 'rankingRules'>): SortOutput {
  const chain = ruleChain(setup.rankingRules, 'last', req.sort ?? [], true);
  const values = sets.facets ?? null;
  const options = sortOptions(req, values);
  if (chain.length === 0 && options.distinct === null) {
    const ids = [...universe.rangeUint32Array(req.offset, req.limit)];
    return { ids, scores: ids.map(() => []), candidates: universe.size, candidateIds: () => universe, degraded: false };
  }
  const rules = chain.map((e) => sortRule(e as SortCriterion, values));
  return bucketSort(rules, NO_GRAPH, universe, options);
}

/**
 * A semantic search over `universe` (filter applied): the sort entries of the ranking rules and
 * `vectorSort` in place of the text rules (vector-sort.ts).
 */
export function semanticSearch(
  universe: Bitmap,
  sets: Pick<SharedReads, 'facets'>,
  req: Omit<KeywordRequest, 'q' | 'strategy' | 'fids'>,
  setup: Pick<KeywordSetup, 'rankingRules'>,
  nearest: NearestFn,
): SortOutput {
  const values = sets.facets ?? null;
  const options = sortOptions(req, values);
  // distinct drops documents: look further than the page
  const want = (req.offset + req.limit) * (options.distinct === null ? 1 : 4);
  const rules = semanticChain(setup.rankingRules, req.sort ?? []).map((e) => (e === 'vectorSort' ? vectorSortRule(nearest, want) : sortRule(e, values)));
  return bucketSort(rules, NO_GRAPH, universe, { ...options, scores: true });
}

function sortOptions(req: Omit<KeywordRequest, 'q' | 'strategy' | 'fids'>, values: (SortValues & DistinctValues) | null): SortOptions {
  return {
    offset: req.offset,
    limit: req.limit,
    scores: req.scores,
    threshold: req.threshold,
    deadline: req.deadline,
    exhaustive: req.exhaustive,
    maxTotalHits: req.maxTotalHits,
    distinct: req.distinct && values ? distinctSharers(req.distinct, values) : null,
  };
}

export type { DistinctValues, MatchingStrategy, RuleName, SortCriterion, SortValues };
export type { NearestFn } from './vector-sort.ts';
export type { RuleScore } from './rules.ts';
export { globalScore } from './bucket-sort.ts';
