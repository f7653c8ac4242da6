// Ranking oracle: Meilisearch's own ranking integration test (milli `crates/milli/tests/search/
// mod.rs` + `query_criteria.rs`) replayed through HTTP against Muninn.
//
// Facts taken from the upstream test (the code below is written from scratch):
// * dataset meili-fixtures/milli-ranking-test_set.ndjson (17 pretty-printed objects A..Q, indexed
//   in file order, so internal ids follow A..Q), query "hello world america";
// * settings: searchableAttributes ["title", "description"], sortableAttributes ["tag",
//   "asc_desc_rank"], synonyms hello → ["good morning"], world → ["earth"],
//   america → ["the united states"]; the ranking rules under test; limit ≥ 17;
// * expected order: start from the dataset order, then for each rule stably sort every group by
//   that rule's field (words → word_rank, typo → typo_rank, proximity → proximity_rank,
//   attribute → attribute_rank, exactness → exact_rank, asc_desc_rank:asc/desc → asc_desc_rank
//   ascending/descending, sort with `tag:asc`/`tag:desc` → sort_by_rank; any other rule, an
//   unknown field or `sort` without a sort parameter leaves the group untouched) and split it
//   into groups of equal value. Ties keep dataset order (= internal id order, relevancy.md §4);
// * "optional words": ALLOW_OPTIONAL_WORDS = matchingStrategy `last` keeps every document;
//   DISALLOW_OPTIONAL_WORDS = `all` keeps only documents with word_rank 0. `words` and
//   `default_criteria_order` and the criteria mix-up run with `last`, every other case with `all`;
// * `criteria_mixup`: `words` first, then every order of attribute, asc_desc_rank:desc,
//   exactness, proximity, typo (upstream lists 120 rows, one of them duplicated, so 119 distinct
//   orders; here all 5! = 120 are generated).
//
// Properties checked (one test each, exact id order):
// 1. no ranking rule, then each rule alone: words, typo, proximity, attribute, exactness,
//    custom asc/desc rules (existing and unknown field), sort rule without and with `sort`
// 2. the 1.50 split of `attribute`: attributeRank followed by wordPosition orders exactly like
//    `attribute`; attributeRank alone (no upstream case: expectation derived by hand below)
// 3. the legacy default rules and the 1.50 default rules (sort between attributeRank and
//    wordPosition, no sort parameter) both give upstream's `default_criteria_order`
// 4. every permutation of the criteria mix-up
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixturePath } from '../fixtures/paths.ts';
import { startTestServer, type TestServer } from './helpers.ts';
import { ids, makeIndex, readJsonValues, updateSettings } from './relevancy-helpers.ts';

interface TestDocument {
  id: string;
  word_rank: number;
  typo_rank: number;
  proximity_rank: number;
  attribute_rank: number;
  exact_rank: number;
  asc_desc_rank: number;
  sort_by_rank: number;
  [field: string]: unknown;
}

const DOCUMENTS = readJsonValues<TestDocument>(fixturePath('meili/milli-ranking-test_set.ndjson'));
const QUERY = 'hello world america';

type Strategy = 'last' | 'all';
type TagSort = 'tag:asc' | 'tag:desc' | undefined;

/** The field an upstream criterion sorts by (null: the criterion does not split groups). */
function criterionKey(rule: string, sort: TagSort): ((d: TestDocument) => number) | null {
  switch (rule) {
    case 'words':
      return (d) => d.word_rank;
    case 'typo':
      return (d) => d.typo_rank;
    case 'proximity':
      return (d) => d.proximity_rank;
    case 'attribute':
      return (d) => d.attribute_rank;
    case 'exactness':
      return (d) => d.exact_rank;
    case 'asc_desc_rank:asc':
      return (d) => d.asc_desc_rank;
    case 'asc_desc_rank:desc':
      return (d) => -d.asc_desc_rank;
    case 'sort':
      if (sort === 'tag:asc') return (d) => d.sort_by_rank;
      if (sort === 'tag:desc') return (d) => -d.sort_by_rank;
      return null;
    default:
      return null;
  }
}

/** Upstream's `expected_order`: nested stable grouping == stable lexicographic sort. */
function expectedOrder(criteria: string[], strategy: Strategy, sort?: TagSort): string[] {
  const keys = criteria.map((c) => criterionKey(c, sort)).filter((k): k is (d: TestDocument) => number => k !== null);
  const sorted = DOCUMENTS.map((d, position) => ({ d, position })).sort((a, b) => {
    for (const key of keys) {
      const diff = key(a.d) - key(b.d);
      if (diff !== 0) return diff;
    }
    return a.position - b.position;
  });
  return sorted.filter(({ d }) => strategy === 'last' || d.word_rank === 0).map(({ d }) => d.id);
}

let t: TestServer;
let uid: string;

before(async () => {
  t = await startTestServer();
  assert.equal(DOCUMENTS.length, 17);
  assert.deepEqual(DOCUMENTS.map((d) => d.id).join(''), 'ABCDEFGHIJKLMNOPQ');
  uid = await makeIndex(t, 'oracle', {
    settings: {
      searchableAttributes: ['title', 'description'],
      filterableAttributes: ['tag', 'asc_desc_rank'],
      sortableAttributes: ['tag', 'asc_desc_rank'],
      synonyms: { hello: ['good morning'], world: ['earth'], america: ['the united states'] },
    },
    documents: DOCUMENTS,
  });
});
after(async () => {
  await t?.close();
});

async function run(rankingRules: string[], strategy: Strategy, sort?: TagSort): Promise<string[]> {
  await updateSettings(t, uid, { rankingRules });
  const res = await t.client.index(uid).search(QUERY, {
    limit: 20,
    matchingStrategy: strategy,
    attributesToRetrieve: ['id'],
    ...(sort ? { sort: [sort] } : {}),
  });
  return ids(res) as string[];
}

interface OracleCase {
  name: string;
  /** the `rankingRules` setting */
  rules: string[];
  /** the upstream criteria whose fields give the expected order */
  criteria: string[];
  strategy: Strategy;
  sort?: TagSort;
  /** the expected order spelled out (double-checks the oracle function) */
  literal: string;
}

// Literal orders = expectedOrder(...) of each case, written out so a failure is readable.
const CASES: OracleCase[] = [
  { name: 'none (no ranking rule): matching documents in internal id order', rules: [], criteria: [], strategy: 'all', literal: 'ACDIKLMNOP' },
  { name: 'words (matchingStrategy last)', rules: ['words'], criteria: ['words'], strategy: 'last', literal: 'ACDIKLMNOPGHJQBEF' },
  { name: 'typo', rules: ['typo'], criteria: ['typo'], strategy: 'all', literal: 'ILMNOPCDAK' },
  { name: 'proximity', rules: ['proximity'], criteria: ['proximity'], strategy: 'all', literal: 'MNOPLICKAD' },
  { name: 'attribute (legacy combined rule)', rules: ['attribute'], criteria: ['attribute'], strategy: 'all', literal: 'MNOPLCIKDA' },
  {
    name: 'attributeRank then wordPosition == attribute',
    rules: ['attributeRank', 'wordPosition'],
    criteria: ['attribute'],
    strategy: 'all',
    literal: 'MNOPLCIKDA',
  },
  { name: 'exactness', rules: ['exactness'], criteria: ['exactness'], strategy: 'all', literal: 'MONPIDLACK' },
  { name: 'asc_desc_rank:asc', rules: ['asc_desc_rank:asc'], criteria: ['asc_desc_rank:asc'], strategy: 'all', literal: 'ALMKCDIPNO' },
  { name: 'asc_desc_rank:desc', rules: ['asc_desc_rank:desc'], criteria: ['asc_desc_rank:desc'], strategy: 'all', literal: 'ONDIPCKALM' },
  { name: 'unexisting_field:asc', rules: ['unexisting_field:asc'], criteria: ['unexisting_field:asc'], strategy: 'all', literal: 'ACDIKLMNOP' },
  { name: 'unexisting_field:desc', rules: ['unexisting_field:desc'], criteria: ['unexisting_field:desc'], strategy: 'all', literal: 'ACDIKLMNOP' },
  { name: 'sort rule without a sort parameter', rules: ['sort'], criteria: ['sort'], strategy: 'all', literal: 'ACDIKLMNOP' },
  { name: 'sort rule with sort tag:asc', rules: ['sort'], criteria: ['sort'], strategy: 'all', sort: 'tag:asc', literal: 'ACILONDKMP' },
  { name: 'sort rule with sort tag:desc', rules: ['sort'], criteria: ['sort'], strategy: 'all', sort: 'tag:desc', literal: 'DKMPNACILO' },
  {
    name: 'default_criteria_order (words, typo, proximity, attribute, exactness; last)',
    rules: ['words', 'typo', 'proximity', 'attribute', 'exactness'],
    criteria: ['words', 'typo', 'proximity', 'attribute', 'exactness'],
    strategy: 'last',
    literal: 'MONPLICDKAQGJHBEF',
  },
  {
    name: '1.50 default rules (attributeRank, sort, wordPosition) == default_criteria_order',
    rules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'],
    criteria: ['words', 'typo', 'proximity', 'attribute', 'exactness'],
    strategy: 'last',
    literal: 'MONPLICDKAQGJHBEF',
  },
];

describe('milli ranking oracle (query "hello world america")', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const expected = expectedOrder(c.criteria, c.strategy, c.sort);
      assert.equal(expected.join(''), c.literal, 'oracle self-check');
      assert.deepEqual(await run(c.rules, c.strategy, c.sort), expected);
    });
  }

  test('attributeRank alone (hand-derived, no upstream case)', async () => {
    // Weights: title 0, description 1 (explicit list). matchingStrategy all, so the words rule
    // is not inserted and every candidate matches the three terms. Per document, the smallest
    // weight of an attribute holding some derivation of each term (relevancy.md §5.4):
    //   M "hello world america" title: 0+0+0 = 0; N, O, P: all three words in the title: 0
    //   C title "hell on earth": hello→hell 0, world→earth (synonym) 0, america→american (desc) 1 = 1
    //   I title "hello world song": 0, 0, american (desc) 1 = 1
    //   L title "good morning world": hello→"good morning" 0, world 0, american (desc) 1 = 1
    //   A title "hell o": hello 0, world→word (desc) 1, american (desc) 1 = 2
    //   D title "hell on wheels tv series": 0, world (desc) 1, "the united states" (desc) 1 = 2
    //   K title "hallo creation system": hallo 0, word (desc) 1, american (desc) 1 = 2
    // Buckets 0 | 1 | 2, internal id order inside.
    assert.deepEqual(await run(['attributeRank'], 'all'), ['M', 'N', 'O', 'P', 'C', 'I', 'L', 'A', 'D', 'K']);
  });
});

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  const out: T[][] = [];
  items.forEach((item, i) => {
    for (const rest of permutations([...items.slice(0, i), ...items.slice(i + 1)])) out.push([item, ...rest]);
  });
  return out;
}

describe('milli ranking oracle: criteria mix-up (words first, matchingStrategy last)', () => {
  const orders = permutations(['attribute', 'asc_desc_rank:desc', 'exactness', 'proximity', 'typo']);
  assert.equal(orders.length, 120);
  for (const order of orders) {
    const rules = ['words', ...order];
    test(rules.join(', '), async () => {
      assert.deepEqual(await run(rules, 'last'), expectedOrder(rules, 'last'));
    });
  }
});
