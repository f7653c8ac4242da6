// Settings-derived search configuration (search-config.ts). Properties checked:
// 1. searchable rules cover a field and its nested fields (`doggo` covers `doggo.name`, not
//    `doggos`); null or `*` make every field searchable, except `_geo`, `_geojson` and
//    `_vectors`, which are never searched
// 2. exact rules follow the same matching; the tokenizer gets the stop words and separators
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSearchConfig, defaultSearchConfig } from './search-config.ts';

test('searchable and exact rules cover nested fields', () => {
  const c = compileSearchConfig(defaultSearchConfig({ searchable: ['title', 'doggo'], exact: ['sku'] }));
  for (const [path, expected] of [['title', true], ['doggo', true], ['doggo.name', true], ['doggos', false], ['titles', false], ['body', false]] as const) {
    assert.equal(c.fields.isSearchable(path), expected, path);
    assert.equal(c.fields.isSearchable(path), expected, `${path} (memoised)`);
  }
  assert.equal(c.fields.isExact('sku'), true);
  assert.equal(c.fields.isExact('sku.code'), true);
  assert.equal(c.fields.isExact('skus'), false);
  for (const searchable of [null, ['*'], ['title', '*']]) {
    assert.equal(compileSearchConfig(defaultSearchConfig({ searchable })).fields.isSearchable('any.thing'), true);
  }
  for (const searchable of [null, ['_geo', '_vectors', '_geojson']]) {
    const fields = compileSearchConfig(defaultSearchConfig({ searchable })).fields;
    for (const path of ['_geo', '_geo.lat', '_geojson', '_geojson.geometry.type', '_vectors', '_vectors.default']) assert.equal(fields.isSearchable(path), false, path);
    assert.equal(fields.isSearchable('_geography'), searchable === null);
  }
});

test('the tokenizer follows the stop words and separators', () => {
  const c = compileSearchConfig(defaultSearchConfig({ stopWords: ['the'], separatorTokens: ['|'] }));
  const tokens = c.tokenizer.tokenize('the red|fox');
  assert.deepEqual(tokens.map((t) => [t.word, t.isStopWord]), [['the', true], ['red', false], ['fox', false]]);
});
