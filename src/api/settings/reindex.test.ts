import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch } from './apply.ts';
import { parseSettingsPatch } from './parse.ts';
import { reindexNeeds, type ReindexNeeds } from './reindex.ts';
import { defaultSettings, type Settings } from './types.ts';

const NOTHING: ReindexNeeds = {
  searchable: false, searchableAdditions: [], searchableWeights: false, facets: false, geo: false, geojson: false,
  synonyms: false, embedders: {}, none: true,
};

const features = { chatCompletions: true };
const from = (body: unknown, base: Settings = defaultSettings()): Settings => applyPatch(base, parseSettingsPatch(body, { features }));
const needs = (before: unknown, change: unknown): ReindexNeeds => {
  const b = from(before);
  return reindexNeeds(b, from(change, b));
};
const expect = (over: Partial<ReindexNeeds>): ReindexNeeds => ({ ...NOTHING, ...over, none: false });

test('settings.md §8: metadata-only changes need nothing', () => {
  const changes: unknown[] = [
    { rankingRules: ['sort', 'words', 'typo'] },
    { displayedAttributes: ['a'] },
    { typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 2 }, disableOnWords: ['x'] } },
    { faceting: { maxValuesPerFacet: 5, sortFacetValuesBy: { a: 'count' } } },
    { pagination: { maxTotalHits: 5 } },
    { searchCutoffMs: 10 },
    { chat: { description: 'x' } },
    {},
  ];
  for (const change of changes) assert.deepEqual(needs({}, change), NOTHING, JSON.stringify(change));
});

test('settings.md §8: tokenizer-level changes rebuild all searchable data', () => {
  for (const change of [{ stopWords: ['a'] }, { separatorTokens: ['|'] }, { nonSeparatorTokens: ['#'] }, { dictionary: ['C#'] }]) {
    assert.deepEqual(needs({}, change), expect({ searchable: true, synonyms: true }), JSON.stringify(change));
  }
  for (const change of [{ proximityPrecision: 'byAttribute' }, { prefixSearch: 'disabled' }, { typoTolerance: { disableOnNumbers: true } }, { typoTolerance: { disableOnAttributes: ['a'] } }]) {
    assert.deepEqual(needs({}, change), expect({ searchable: true }), JSON.stringify(change));
  }
  assert.deepEqual(needs({}, { localizedAttributes: [{ attributePatterns: ['*'], locales: ['fr'] }] }), expect({ searchable: true, facets: true }));
  assert.deepEqual(needs({}, { synonyms: { a: ['b'] } }), expect({ synonyms: true }));
});

test('searchableAttributes: order only, additions only, removals, wildcard', () => {
  assert.deepEqual(needs({ searchableAttributes: ['a', 'b'] }, { searchableAttributes: ['b', 'a'] }), expect({ searchableWeights: true }));
  assert.deepEqual(needs({ searchableAttributes: ['a'] }, { searchableAttributes: ['c', 'a'] }), expect({ searchableAdditions: ['c'], searchableWeights: true }));
  assert.deepEqual(needs({ searchableAttributes: ['a', 'b'] }, { searchableAttributes: ['a'] }), expect({ searchable: true, searchableWeights: true }));
  assert.deepEqual(needs({}, { searchableAttributes: ['a'] }), expect({ searchable: true, searchableWeights: true }));
  assert.deepEqual(needs({ searchableAttributes: ['a'] }, { searchableAttributes: ['*'] }), expect({ searchable: true, searchableWeights: true }));
  assert.deepEqual(needs({}, { searchableAttributes: ['*', 'a'] }), NOTHING);
  // document templates see which fields are searchable
  const withEmbedder = { embedders: { e: { source: 'rest', url: 'http://x', request: '{{text}}', response: '{{embedding}}' }, m: { source: 'userProvided', dimensions: 2 } } };
  assert.deepEqual(needs(withEmbedder, { searchableAttributes: ['a'] }).embedders, { e: { reindex: 'prompts', remove: false, quantize: false } });
});

test('facets: filterable, sortable, distinct, asc/desc rules, facetSearch; geo and geojson', () => {
  assert.deepEqual(needs({}, { filterableAttributes: ['genre'] }), expect({ facets: true }));
  assert.deepEqual(needs({ filterableAttributes: ['genre'] }, { filterableAttributes: [{ attributePatterns: ['genre'], features: { facetSearch: true } }] }), expect({ facets: true }));
  assert.deepEqual(needs({}, { sortableAttributes: ['price'] }), expect({ facets: true }));
  assert.deepEqual(needs({}, { distinctAttribute: 'sku' }), expect({ facets: true }));
  assert.deepEqual(needs({}, { facetSearch: false }), expect({ facets: true }));
  assert.deepEqual(needs({}, { rankingRules: ['words', 'price:asc'] }), expect({ facets: true }));
  assert.deepEqual(needs({ rankingRules: ['price:asc', 'words'] }, { rankingRules: ['words', 'price:desc'] }), NOTHING);
  assert.deepEqual(needs({}, { filterableAttributes: ['_geo'] }), expect({ facets: true, geo: true }));
  assert.deepEqual(needs({ filterableAttributes: ['_geo'] }, { sortableAttributes: ['_geo'] }), expect({ facets: true, geo: true }));
  assert.deepEqual(needs({}, { filterableAttributes: ['_geojson'] }), expect({ facets: true, geojson: true }));
});

test('embedders: per-embedder actions', () => {
  const rest = { source: 'rest', url: 'http://x', request: '{{text}}', response: '{{embedding}}' };
  assert.deepEqual(needs({}, { embedders: { e: rest } }).embedders, { e: { reindex: 'full', remove: false, quantize: false } });
  assert.deepEqual(needs({ embedders: { e: rest } }, { embedders: { e: null } }).embedders, { e: { reindex: null, remove: true, quantize: false } });
  assert.deepEqual(needs({ embedders: { e: rest } }, { embedders: { e: { apiKey: 'k' } } }), NOTHING);
  assert.deepEqual(needs({ embedders: { e: rest } }, { embedders: { e: { documentTemplate: '{{doc.t}}' } } }).embedders,
    { e: { reindex: 'prompts', remove: false, quantize: false } });
});
