// buildQueryGraph and locatedTerms:
// 1. `summer house by`: nodes in milli's creation order and the edges of the diagram in graph.ts.
// 2. Every START → END path covers each query term exactly once (random queries with phrases,
//    stop-word gaps and hard separators that prevent some n-grams).
// 3. Without n-grams the graph is a chain; an empty query links START to END.
// 4. Located terms: terms then n-grams, ids = query positions, prefix flag and typed length.
// 5. Located terms: synonyms (single-word ones too), the quoted phrase and the split are phrases;
//    the word, completions and typo words are words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tokenizer } from '../../tokenizer/index.ts';
import { WordSet, compareUtf8 } from '../../words/index.ts';
import { parseQuery } from './parse.ts';
import { deriveTerms } from './derive.ts';
import { buildQueryGraph } from './graph.ts';
import type { QueryConfig, QueryGraph, QueryTerms, WordSource } from './types.ts';

const set = (words: Iterable<string>): WordSet => WordSet.build([...new Set(words)].sort(compareUtf8));
function source(words: string[] = [], pairs: Record<string, number> = {}): WordSource {
  return { words: set(words), exactWords: set([]), pairCount: (l, r) => pairs[`${l} ${r}`] ?? 0 };
}
function config(synonyms = new Map<string, string[][]>()): QueryConfig {
  return {
    typos: { enabled: true, oneTypo: 5, twoTypos: 9, disableOnWords: new Set() },
    prefixSearch: true,
    synonyms,
    stopWords: new Set(['the']),
  };
}
const tokenizer = new Tokenizer({ stopWords: new Set(['the']) });
const derive = (q: string, src = source(), cfg = config()): QueryTerms => deriveTerms(parseQuery(q, tokenizer), cfg, src);

const label = (g: QueryGraph, k: number): string => {
  const n = g.nodes[k]!;
  return n.kind === 'term' ? n.term!.original : n.kind.toUpperCase();
};
/** `from → to, to` lines for each node with successors. */
function edges(g: QueryGraph): string[] {
  return g.nodes.flatMap((n, k) => (n.successors.length === 0 ? [] : [`${label(g, k)} → ${n.successors.map((s) => label(g, s)).join(', ')}`]));
}
function paths(g: QueryGraph): number[][][] {
  const out: number[][][] = [];
  const walk = (k: number, spans: number[][]): void => {
    if (k === g.end) return void out.push(spans);
    for (const s of g.nodes[k]!.successors) {
      const t = g.nodes[s]!.term;
      walk(s, t === null ? spans : [...spans, [t.span[0], t.span[1]]]);
    }
  };
  walk(g.start, []);
  return out;
}

test('1. summer house by', () => {
  const g = buildQueryGraph(derive('summer house by'));
  assert.deepEqual(g.nodes.map((_, k) => label(g, k)), ['START', 'END', 'summer', 'house', 'summerhouse', 'by', 'houseby', 'summerhouseby']);
  assert.deepEqual(edges(g), [
    'START → summer, summerhouse, summerhouseby',
    'summer → house, houseby',
    'house → by',
    'summerhouse → by',
    'by → END',
    'houseby → END',
    'summerhouseby → END',
  ]);
  assert.deepEqual(g.nodes[1]!.predecessors, [5, 6, 7]);
  assert.deepEqual(g.nodes[5]!.predecessors, [3, 4]);
  assert.equal(paths(g).length, 4);
});

test('2. every path covers each term once', () => {
  const pieces = ['a', 'bb', 'the', '"c d"', 'e.', 'ff', 'gg', '-h', 'ii'];
  let seed = 7;
  const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
  for (let round = 0; round < 200; round++) {
    const q = Array.from({ length: 1 + rand(9) }, () => pieces[rand(pieces.length)]).join(' ');
    const ts = derive(q);
    const g = buildQueryGraph(ts);
    const all = paths(g);
    assert.ok(all.length >= 1, q);
    for (const p of all) {
      const covered = p.flatMap(([a, b]) => Array.from({ length: b! - a! + 1 }, (_, i) => a! + i));
      assert.deepEqual(covered, ts.terms.map((_, i) => i), q);
    }
  }
});

test('3. chains and the empty query', () => {
  const chain = buildQueryGraph(derive('sun. flower'));
  assert.deepEqual(edges(chain), ['START → sun', 'sun → flower', 'flower → END']);
  const empty = buildQueryGraph(derive('the '));
  assert.deepEqual(edges(empty), ['START → END']);
  assert.deepEqual(empty.nodes[1]!.predecessors, [0]);
});

test('4. located terms: order, ids, prefix', () => {
  const ts = derive('sun. flower pot', source(['sun', 'flower', 'flowerpot', 'flowerpots', 'pot', 'pots']));
  assert.deepEqual(ts.locatedTerms(), [
    { ids: [0, 0], words: ['sun'], isPrefix: false, originalCharCount: 3 },
    { ids: [8, 8], words: ['flower'], isPrefix: false, originalCharCount: 6 },
    { ids: [9, 9], words: ['pot', 'pots'], isPrefix: true, originalCharCount: 3 },
    { ids: [8, 9], words: ['flowerpot', 'flowerpots'], isPrefix: true, originalCharCount: 9 },
  ]);
});

test('5. located terms: phrases', () => {
  const synonyms = new Map([['nyc', [['manhattan'], ['new', 'york']]]]);
  const ts = derive('"the big" nyc sunflowr', source(['manhattan', 'sunflower', 'sunflowers'], { 'sunfl owr': 2 }), config(synonyms));
  assert.deepEqual(ts.locatedTerms(), [
    { ids: [1, 1], words: [], phrases: [[null, 'big']], isPrefix: false, originalCharCount: 3 },
    { ids: [2, 2], words: [], phrases: [['manhattan'], ['new', 'york']], isPrefix: false, originalCharCount: 3 },
    { ids: [3, 3], words: ['sunflower', 'sunflowers'], phrases: [['sunfl', 'owr']], isPrefix: true, originalCharCount: 8 },
    { ids: [2, 3], words: [], isPrefix: true, originalCharCount: 11 },
  ]);
});
