import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsTaskDetails } from './details.ts';
import { parseSettingsPatch, parseSubRoute } from './parse.ts';
import { resetAllPatch, resetPatch, SETTING_NAMES } from './types.ts';

const features = { chatCompletions: true, foreignKeys: true };

test('details echo the patch as sent, in declaration order', () => {
  const details = settingsTaskDetails(parseSettingsPatch({
    stopWords: ['the', 'a', 'the'],
    displayedAttributes: ['title', '*'],
    rankingRules: ['price:asc', 'words'],
    typoTolerance: { disableOnWords: ['Éclair'], minWordSizeForTypos: { oneTypo: null } },
    localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['ja'] }],
    faceting: { sortFacetValuesBy: { genres: 'count' } },
    filterableAttributes: [{ attributePatterns: ['id'] }],
  }));
  assert.deepEqual(details, {
    displayedAttributes: ['title', '*'],
    filterableAttributes: [{ attributePatterns: ['id'], features: { facetSearch: false, filter: { equality: true, comparison: false } } }],
    rankingRules: ['price:asc', 'words'],
    stopWords: ['a', 'the'],
    typoTolerance: { minWordSizeForTypos: { oneTypo: null }, disableOnWords: ['Éclair'] },
    faceting: { sortFacetValuesBy: { genres: 'count' } },
    localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['ja'] }],
  });
  assert.deepEqual(Object.keys(details), ['displayedAttributes', 'filterableAttributes', 'rankingRules', 'stopWords', 'typoTolerance', 'faceting', 'localizedAttributes']);
  assert.deepEqual(settingsTaskDetails({}), {});
});

test('details: resets are null, except the wildcard settings which show ["*"]', () => {
  assert.deepEqual(settingsTaskDetails(parseSettingsPatch({ stopWords: null, displayedAttributes: null, searchableAttributes: null, distinctAttribute: null })),
    { displayedAttributes: ['*'], searchableAttributes: ['*'], stopWords: null, distinctAttribute: null });
  assert.deepEqual(settingsTaskDetails(resetPatch('typoTolerance')), { typoTolerance: null });
  assert.deepEqual(settingsTaskDetails(parseSubRoute('searchableAttributes', null)), { searchableAttributes: ['*'] });
  const all = settingsTaskDetails(resetAllPatch());
  assert.deepEqual(Object.keys(all), [...SETTING_NAMES]);
  for (const name of SETTING_NAMES) {
    assert.deepEqual(all[name], name === 'displayedAttributes' || name === 'searchableAttributes' ? ['*'] : null, name);
  }
});

test('details: embedder fields in declaration order, apiKey masked, deleted embedders null', () => {
  const patch = parseSettingsPatch({
    embedders: {
      default: { response: '{{embedding}}', request: '{{text}}', dimensions: 4, apiKey: 'My super secret value you will never guess', url: 'https://localhost:7777', source: 'rest' },
      old: null,
      short: { apiKey: 'abc' },
    },
  }, { features });
  const details = settingsTaskDetails(patch);
  assert.deepEqual(details, {
    embedders: {
      default: { source: 'rest', apiKey: 'My suXXXXXX...', dimensions: 4, url: 'https://localhost:7777', request: '{{text}}', response: '{{embedding}}' },
      old: null,
      short: { apiKey: 'XXX...' },
    },
  });
  assert.deepEqual(Object.keys((details.embedders as Record<string, object | null>).default!), ['source', 'apiKey', 'dimensions', 'url', 'request', 'response']);
  // the patch itself keeps the secret for the task to apply
  assert.equal(patch.embedders!.default!.apiKey, 'My super secret value you will never guess');
});

test('details: experimental settings echoed as sent', () => {
  const details = settingsTaskDetails(parseSettingsPatch({ chat: { searchParameters: { limit: 1 } }, foreignKeys: [{ foreignIndexUid: 'p', fieldName: 'f' }] }, { features }));
  assert.deepEqual(details, { foreignKeys: [{ foreignIndexUid: 'p', fieldName: 'f' }], chat: { searchParameters: { limit: 1 } } });
});
