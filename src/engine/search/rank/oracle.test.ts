// Meilisearch's ranking oracle (milli `tests/search/mod.rs`: query "hello world america" on
// meili-fixtures/milli-ranking-test_set.ndjson, searchable title then description, synonyms
// hello → "good morning", world → "earth", america → "the united states") at the engine level.
// Properties checked: for each keyword rule alone and for the default chain, documents come in
// the order of the rank fields the fixture gives per rule (stable, ties by insertion order);
// matchingStrategy `all` keeps only documents whose word_rank is 0, `last` keeps all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fixturePath } from '../../../../test/fixtures/paths.ts';
import { testIndex } from './test-index.ts';

const FIXTURE = fixturePath('meili/milli-ranking-test_set.ndjson');

/** The fixture is a stream of pretty-printed JSON objects. */
function readObjects(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
  }
  return out;
}

const RANK_FIELD: Record<string, string> = { words: 'word_rank', typo: 'typo_rank', proximity: 'proximity_rank', attribute: 'attribute_rank', exactness: 'exact_rank' };
const SYNONYMS = new Map([
  ['hello', [['good', 'morning']]],
  ['world', [['earth']]],
  ['america', [['the', 'united', 'states']]],
]);

test('milli ranking oracle, keyword rules', async () => {
  const docs = readObjects(fs.readFileSync(FIXTURE, 'utf8'));
  assert.equal(docs.length, 17);
  const t = testIndex(docs, { searchable: ['title', 'description'] });
  const expected = (rules: string[], strategy: 'last' | 'all') =>
    docs
      .map((d, position) => ({ d, position }))
      .sort((a, b) => {
        for (const rule of rules) {
          const diff = (a.d[RANK_FIELD[rule]!] as number) - (b.d[RANK_FIELD[rule]!] as number);
          if (diff !== 0) return diff;
        }
        return a.position - b.position;
      })
      .filter(({ d }) => strategy === 'last' || d.word_rank === 0)
      .map(({ d }) => d.id);
  const cases: [string[], 'last' | 'all'][] = [
    [[], 'all'],
    [['words'], 'last'],
    [['typo'], 'all'],
    [['proximity'], 'all'],
    [['attribute'], 'all'],
    [['exactness'], 'all'],
    [['words', 'typo', 'proximity', 'attribute', 'exactness'], 'last'],
  ];
  try {
    for (const [rules, strategy] of cases) {
      const query = { typos: { enabled: true, oneTypo: 5, twoTypos: 9, disableOnWords: new Set<string>() }, prefixSearch: true, synonyms: SYNONYMS, stopWords: new Set<string>() };
      const got = t.search('hello world america', { strategy, limit: 20, setup: { rankingRules: rules, query } }).docs;
      assert.deepEqual(got, expected(rules, strategy), `rules ${rules.join(',') || '(none)'} ${strategy}`);
    }
  } finally {
    await t.close();
  }
});
