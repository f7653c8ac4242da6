import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, settingsView, subSettingView } from './apply.ts';
import { parseSettingsPatch, parseSubRoute } from './parse.ts';
import { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_SETTINGS, defaultSettings, resetAllPatch, SETTING_NAMES, type Settings, type SettingsPatch } from './types.ts';

const DEFAULT_VIEW = {
  displayedAttributes: ['*'],
  searchableAttributes: ['*'],
  filterableAttributes: [],
  sortableAttributes: [],
  rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'],
  stopWords: [],
  nonSeparatorTokens: [],
  separatorTokens: [],
  dictionary: [],
  synonyms: {},
  distinctAttribute: null,
  proximityPrecision: 'byWord',
  typoTolerance: {
    enabled: true,
    minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
    disableOnWords: [],
    disableOnAttributes: [],
    disableOnNumbers: false,
  },
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
  pagination: { maxTotalHits: 1000 },
  embedders: {},
  searchCutoffMs: null,
  localizedAttributes: null,
  facetSearch: true,
  prefixSearch: 'indexingTime',
};

const CHAT_DEFAULT = { description: '', documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: 400, searchParameters: {} };

const apply = (body: unknown, from: Settings = defaultSettings()): Settings =>
  applyPatch(from, parseSettingsPatch(body, { features: { chatCompletions: true, foreignKeys: true } }));

test('GET /settings of a fresh index: 20 keys in order, every default', () => {
  const view = settingsView(defaultSettings());
  assert.deepEqual(Object.keys(view), Object.keys(DEFAULT_VIEW));
  assert.equal(Object.keys(view).length, 20);
  assert.deepEqual(view, DEFAULT_VIEW);
  assert.deepEqual(settingsView(DEFAULT_SETTINGS as Settings), DEFAULT_VIEW);
});

test('GET /settings with the experimental features: foreignKeys after sortableAttributes, chat last', () => {
  const keys = Object.keys(settingsView(defaultSettings(), { features: { foreignKeys: true, chatCompletions: true } }));
  assert.deepEqual(keys, [...SETTING_NAMES]);
  assert.equal(keys.length, 22);
});

test('sub-route GET: bare values, defaults, chat and foreign keys not gated', () => {
  const s = defaultSettings();
  for (const [name, value] of Object.entries(DEFAULT_VIEW)) assert.deepEqual(subSettingView(name as keyof Settings, s), value);
  assert.deepEqual(subSettingView('chat', s), CHAT_DEFAULT);
  assert.deepEqual(subSettingView('foreignKeys', s), []);
});

test('GET normalisations of settings.md §2', () => {
  const s = apply({
    displayedAttributes: ['title', 'id'],
    searchableAttributes: ['title', '*', 'overview'],
    sortableAttributes: ['price', 'date', 'price'],
    stopWords: ['the', 'The', 'ﬁ', 'é'],
    separatorTokens: ['&sep', '<br/>'],
    nonSeparatorTokens: ['&', '#'],
    dictionary: ['J. R. R.', 'J.R.R.'],
    synonyms: { wolverine: ['xmen', 'logan', 'xmen'], logan: ['wolverine'] },
    filterableAttributes: ['genres', { attributePatterns: ['x'], features: { facetSearch: true, filter: {} } }],
    typoTolerance: { disableOnWords: ['Éclair', 'ABC', 'abc'], disableOnAttributes: ['b', 'a'] },
    faceting: { sortFacetValuesBy: { genres: 'count' } },
    localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['ja'] }, { attributePatterns: ['*_zh', 'title'], locales: ['zh', 'cmn'] }],
  });
  const v = settingsView(s);
  assert.deepEqual(v.displayedAttributes, ['title', 'id']);
  assert.deepEqual(v.searchableAttributes, ['*']);
  assert.deepEqual(v.sortableAttributes, ['date', 'price']);
  assert.deepEqual(v.stopWords, ['The', 'e\u0301', 'fi', 'the']);
  assert.deepEqual(v.separatorTokens, ['&sep', '<br/>']);
  assert.deepEqual(v.nonSeparatorTokens, ['#', '&']);
  assert.deepEqual(v.dictionary, ['J. R. R.', 'J.R.R.']);
  assert.deepEqual(v.synonyms, { logan: ['wolverine'], wolverine: ['xmen', 'logan', 'xmen'] });
  assert.deepEqual(Object.keys(v.synonyms as object), ['logan', 'wolverine']);
  assert.deepEqual(v.filterableAttributes, [
    'genres',
    { attributePatterns: ['x'], features: { facetSearch: true, filter: { equality: true, comparison: false } } },
  ]);
  assert.deepEqual((v.typoTolerance as Settings['typoTolerance']).disableOnWords, ['abc', 'eclair']);
  assert.deepEqual((v.typoTolerance as Settings['typoTolerance']).disableOnAttributes, ['a', 'b']);
  assert.deepEqual(v.faceting, { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha', genres: 'count' } });
  assert.deepEqual(v.localizedAttributes, [
    { attributePatterns: ['*_ja'], locales: ['jpn'] },
    { attributePatterns: ['*_zh', 'title'], locales: ['zho', 'cmn'] },
  ]);
});

test('tri-state: absent keeps, null resets, value sets (top level)', () => {
  const s1 = apply({ displayedAttributes: ['a'], distinctAttribute: 'sku', searchCutoffMs: 0, facetSearch: false, prefixSearch: 'disabled', proximityPrecision: 'byAttribute', rankingRules: ['sort', 'words'] });
  assert.deepEqual(s1.displayedAttributes, ['a']);
  const s2 = apply({ searchableAttributes: ['b'] }, s1);
  assert.deepEqual([s2.displayedAttributes, s2.searchableAttributes, s2.distinctAttribute, s2.searchCutoffMs], [['a'], ['b'], 'sku', 0]);
  const s3 = apply({ displayedAttributes: null, distinctAttribute: null, searchCutoffMs: null, facetSearch: null, prefixSearch: null, proximityPrecision: null, rankingRules: null }, s2);
  assert.deepEqual(settingsView(s3), { ...DEFAULT_VIEW, searchableAttributes: ['b'] });
  assert.deepEqual(applyPatch(s2, {}), s2);
  assert.deepEqual(settingsView(applyPatch(s2, resetAllPatch())), DEFAULT_VIEW);
  // the input is never modified
  assert.deepEqual(s1.searchableAttributes, null);
});

test('tri-state: typoTolerance merges field by field', () => {
  const s1 = apply({ typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 3, twoTypos: 7 }, disableOnNumbers: true } });
  const s2 = apply({ typoTolerance: { minWordSizeForTypos: { twoTypos: 8 } } }, s1);
  assert.deepEqual(s2.typoTolerance, { enabled: false, minWordSizeForTypos: { oneTypo: 3, twoTypos: 8 }, disableOnWords: [], disableOnAttributes: [], disableOnNumbers: true });
  const s3 = apply({ typoTolerance: { minWordSizeForTypos: { oneTypo: null } } }, s2);
  assert.deepEqual(s3.typoTolerance.minWordSizeForTypos, { oneTypo: 5, twoTypos: 8 });
  const s4 = apply({ typoTolerance: { minWordSizeForTypos: null, enabled: null } }, s2);
  assert.deepEqual([s4.typoTolerance.minWordSizeForTypos, s4.typoTolerance.enabled, s4.typoTolerance.disableOnNumbers], [{ oneTypo: 5, twoTypos: 9 }, true, true]);
  assert.deepEqual(apply({ typoTolerance: null }, s2).typoTolerance, DEFAULT_VIEW.typoTolerance);
  assert.deepEqual(applyPatch(s2, parseSubRoute('typoTolerance', { disableOnNumbers: false })).typoTolerance.enabled, false);
});

test('tri-state: faceting and pagination', () => {
  const s1 = apply({ faceting: { maxValuesPerFacet: 0, sortFacetValuesBy: { '*': 'count', a: 'alpha' } }, pagination: { maxTotalHits: 50 } });
  assert.deepEqual(s1.faceting, { maxValuesPerFacet: 0, sortFacetValuesBy: { '*': 'count', a: 'alpha' } });
  // a given map replaces the stored one (no per-key merge), `*` back to alpha
  const s2 = apply({ faceting: { sortFacetValuesBy: { b: 'count' } } }, s1);
  assert.deepEqual(s2.faceting, { maxValuesPerFacet: 0, sortFacetValuesBy: { '*': 'alpha', b: 'count' } });
  const s3 = apply({ faceting: { maxValuesPerFacet: null }, pagination: {} }, s2);
  assert.deepEqual([s3.faceting.maxValuesPerFacet, s3.pagination.maxTotalHits], [100, 50]);
  assert.deepEqual(apply({ faceting: { sortFacetValuesBy: null } }, s1).faceting.sortFacetValuesBy, { '*': 'alpha' });
  assert.deepEqual(apply({ pagination: { maxTotalHits: null } }, s1).pagination, { maxTotalHits: 1000 });
  assert.deepEqual(apply({ pagination: null, faceting: null }, s1).faceting, DEFAULT_VIEW.faceting);
});

test('tri-state: embedders merge per embedder; view fills defaults and masks', () => {
  const s1 = apply({ embedders: { a: { source: 'userProvided', dimensions: 3 }, b: { source: 'openAi', apiKey: 'sk-0123456789abcdef' } } });
  const s2 = apply({ embedders: { a: { binaryQuantized: true }, b: null } }, s1);
  assert.deepEqual(s2.embedders, { a: { source: 'userProvided', dimensions: 3, binaryQuantized: true } });
  assert.deepEqual(apply({ embedders: null }, s1).embedders, {});
  assert.deepEqual(subSettingView('embedders', s1), {
    a: { source: 'userProvided', dimensions: 3 },
    b: { source: 'openAi', model: 'text-embedding-3-small', apiKey: 'skXXXX...', documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: 400 },
  });
  assert.equal((settingsView(s1, { revealSecrets: true }).embedders as Record<string, Record<string, unknown>>).b!.apiKey, 'sk-0123456789abcdef');
});

test('tri-state: chat and chat.searchParameters merge field by field', () => {
  const s1 = apply({ chat: { description: 'movies', searchParameters: { limit: 5, sort: ['a:asc'], hybrid: { embedder: 'e', semanticRatio: 0.2 } } } });
  assert.deepEqual(s1.chat, { ...CHAT_DEFAULT, description: 'movies', searchParameters: { hybrid: { embedder: 'e', semanticRatio: 0.2 }, limit: 5, sort: ['a:asc'] } });
  const s2 = apply({ chat: { documentTemplateMaxBytes: 100, searchParameters: { limit: null, distinct: 'd' } } }, s1);
  assert.deepEqual(s2.chat, { ...CHAT_DEFAULT, description: 'movies', documentTemplateMaxBytes: 100, searchParameters: { hybrid: { embedder: 'e', semanticRatio: 0.2 }, sort: ['a:asc'], distinct: 'd' } });
  assert.deepEqual(apply({ chat: { searchParameters: null, description: null } }, s2).chat, { ...CHAT_DEFAULT, documentTemplateMaxBytes: 100 });
  assert.deepEqual(apply({ chat: null }, s2).chat, CHAT_DEFAULT);
});

test('lists and sets are replaced as a whole; foreignKeys and localizedAttributes reset', () => {
  const s1 = apply({ stopWords: ['a', 'b'], synonyms: { a: ['b'] }, foreignKeys: [{ foreignIndexUid: 'p', fieldName: 'f' }], localizedAttributes: [{ attributePatterns: ['*'], locales: ['fr'] }] });
  const s2 = apply({ stopWords: ['c'], synonyms: { c: ['d'] } }, s1);
  assert.deepEqual([s2.stopWords, s2.synonyms], [['c'], { c: ['d'] }]);
  const s3 = apply({ foreignKeys: null, localizedAttributes: null, stopWords: null, synonyms: null }, s2);
  assert.deepEqual([s3.foreignKeys, s3.localizedAttributes, s3.stopWords, s3.synonyms], [[], null, [], {}]);
  const patch: SettingsPatch = { sortableAttributes: ['b', 'a', 'b'] };
  assert.deepEqual(applyPatch(defaultSettings(), patch).sortableAttributes, ['a', 'b']);
});
