// Ranking-rules canonicalization and compatibility (multi-search.md §3.4), and the weighted
// score comparison of the merge (§3.3). Properties checked:
// 1. keyword queries get `words` first, duplicates removed, `sort` dropped without a query sort;
//    the notes name the configured rules and positions
// 2. placeholder queries keep only sort rules; `matchingStrategy: all` drops `words`
// 3. kinds differing at a shared position are incompatible, with the reason; the reference
//    kept is the query with more constraints
// 4. merge keys: higher weighted score first, equal within epsilon, a shorter sequence loses
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { compareScores, kMerge, mergeKey } from './multi-merge.ts';
import { canonicalRules, checkCompatible } from './multi-rules.ts';

const keyword = { keyword: true, sort: null, strategy: 'last' } as const;

test('keyword canonicalization and its notes', () => {
  const r = canonicalRules(['typo', 'words', 'typo', 'price:asc', 'sort', 'exactness', 'price:desc'], keyword);
  // Meilisearch notes the later `words` as removed but keeps it
  assert.deepEqual(r.criteria, ['words', 'typo', 'words', 'price:asc', 'exactness']);
  assert.deepEqual(r.notes, [
    '    1. Prepended rule `words` before first relevancy rule `typo` at position #0 in ranking rules\n',
    '    2. Removed rule `words` at position #1 in ranking rules because it was previously prepended\n',
    '    3. Removed duplicate rule `typo` at position #2 in ranking rules as it already appears at position #0 in ranking rules\n',
    '   4. Removed rule `sort` at position #4 in ranking rules because `query.sort` is empty\n',
    '    5. Removed duplicate rule `price:asc` at position #6 in ranking rules as it already appears at position #3 in ranking rules\n',
  ]);
  assert.deepEqual(r.rules.map((x) => x.kind), ['relevancy', 'ascSort', 'relevancy']);
});

test('placeholder and matchingStrategy all', () => {
  const p = canonicalRules(['words', 'typo', 'price:desc'], { keyword: false, sort: null, strategy: 'last' });
  assert.deepEqual(p.criteria, ['price:desc']);
  assert.equal(p.notes[0], '    1. Removed relevancy rule `words` at position #0 in ranking rules because the query is a placeholder search (`q`: "")\n');
  const all = canonicalRules(['words', 'typo'], { ...keyword, strategy: 'all' });
  assert.deepEqual(all.criteria, ['typo']);
  assert.equal(all.notes[0], '    1. Removed rule `words` at position #0 in ranking rules because `query.matchingWords` is set to `all`\n');
});

test('compatibility', () => {
  const ref = (rankingRules: string[], queryIndex: number, q = keyword as { keyword: boolean; sort: string[] | null; strategy: 'last' }) => ({
    rules: canonicalRules(rankingRules, q),
    queryIndex,
    indexUid: 'movies',
  });
  const relevancy = ref(['words', 'typo'], 0);
  const sortFirst = ref(['year:desc', 'words'], 1, { keyword: false, sort: null, strategy: 'last' });
  // placeholder `[desc]` vs keyword `[relevancy]`
  assert.throws(
    () => checkCompatible(relevancy, sortFirst),
    (err: ApiError) =>
      err.code === 'invalid_multi_search_query_ranking_rules' &&
      err.message.startsWith(
        'The results of queries #0 and #1 are incompatible: \n' +
          '  1. `queries[0]`, `movies.rankingRules[0..=1]`: relevancy rule(s) words, typo\n' +
          '  2. `queries[1]`, `movies.rankingRules[0]`: descending sort rule(s) year:desc\n' +
          '  - cannot compare a relevancy rule with a sort rule\n',
      ),
  );
  const asc = ref(['year:asc'], 2, { keyword: false, sort: null, strategy: 'last' });
  assert.throws(() => checkCompatible(sortFirst, asc), /cannot compare two sort rules in opposite directions/);
  // an empty sequence is compatible with anything; the longer one becomes the reference
  const empty = ref(['words'], 3, { keyword: false, sort: null, strategy: 'last' });
  assert.equal(checkCompatible(empty, relevancy), relevancy);
  assert.equal(checkCompatible(relevancy, empty), relevancy);
});

test('weighted score comparison and merge', () => {
  const words = (rank: number, max: number) => [{ rule: 'words' as const, rank, max }];
  const a = mergeKey(words(1, 2), 2, 0); // 0.5 × 2
  const b = mergeKey(words(2, 2), 1, 1); // 1 × 1
  const placeholder = mergeKey([], 3, 2);
  assert.equal(a.weighted, 1);
  assert.equal(compareScores(a, b), 0);
  assert.equal(compareScores(placeholder, a), -1, 'no relevancy score ranks after any');
  assert.equal(placeholder.weighted, 3);
  const lists = [[{ key: b }], [{ key: a }, { key: mergeKey(words(1, 4), 1, 1) }], [{ key: placeholder }]];
  assert.deepEqual([...kMerge(lists)].map((x) => [x.key.queryIndex, x.key.weighted]), [[0, 1], [1, 1], [1, 0.25], [2, 3]]);
});
