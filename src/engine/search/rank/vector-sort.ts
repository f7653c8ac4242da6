// The `vectorSort` rule of a semantic search (vectors-embedders.md §5): in the index's ranking
// rules the first text rule becomes `vectorSort` and the other text rules go; sort rules keep their
// place. Its buckets are the documents of its universe nearest to the query vector, one a bucket
// but for equal similarities (best first, each with its similarity), then one bucket of the rest
// (no similarity, score 0).
import { Bitmap } from '../../bitmap/index.ts';
import type { BoundRule } from './bucket-sort.ts';
import type { Bucket } from './rules.ts';
import type { SortCriterion } from './sort.ts';

/** The nearest documents of a universe: ids best first, with their similarities. */
export type NearestFn = (universe: Bitmap, limit: number) => { ids: number[]; similarities: number[] };

const TEXT_RULES = new Set(['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'exactness']);

/** The chain of a semantic search: sort entries as in a keyword search, `vectorSort` for the first text rule (or last). */
export function semanticChain(rankingRules: readonly string[], sort: readonly SortCriterion[]): Array<SortCriterion | 'vectorSort'> {
  const chain: Array<SortCriterion | 'vectorSort'> = [];
  const sorted = new Set<string>();
  let geo = false;
  let vector = false;
  const addSort = (c: SortCriterion) => {
    if (c.kind === 'geo' ? geo : sorted.has(c.field)) return;
    if (c.kind === 'geo') geo = true;
    else sorted.add(c.field);
    chain.push(c);
  };
  for (const rule of rankingRules) {
    if (TEXT_RULES.has(rule)) {
      if (!vector) chain.push('vectorSort');
      vector = true;
    } else if (rule === 'sort') sort.forEach(addSort);
    else {
      const colon = rule.lastIndexOf(':');
      const dir = rule.slice(colon + 1);
      if (colon > 0 && (dir === 'asc' || dir === 'desc')) addSort({ kind: 'field', field: rule.slice(0, colon), asc: dir === 'asc' });
    }
  }
  if (!vector) chain.push('vectorSort');
  return chain;
}

/** The bound `vectorSort` rule; `want`: how many documents the search may place at most. */
export function vectorSortRule(nearest: NearestFn, want: number): BoundRule {
  return function* (universe, graph): Iterable<Bucket> {
    const found = nearest(universe, want);
    const rest = universe.clone();
    // documents of equal similarity share a bucket: the rules after it (sort) order them
    for (let i = 0; i < found.ids.length; ) {
      const similarity = found.similarities[i]!;
      const docids = new Bitmap();
      for (; i < found.ids.length && found.similarities[i] === similarity; i++) {
        const id = found.ids[i]!;
        if (rest.has(id)) docids.add(id);
      }
      if (docids.isEmpty) continue;
      rest.andNotInPlace(docids);
      yield { docids, score: { rule: 'vectorSort', rank: 1, max: 1, similarity }, graph: () => graph };
    }
    if (!rest.isEmpty) yield { docids: rest, score: { rule: 'vectorSort', rank: 1, max: 1, similarity: null }, graph: () => graph };
  };
}
