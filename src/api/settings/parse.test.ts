import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { parseSettingsPatch, parseSubRoute, SUB_ROUTES } from './parse.ts';
import { SETTING_NAMES, subRouteOf, type SettingName } from './types.ts';

const ALL_KEYS = SETTING_NAMES.map((n) => `\`${n}\``).join(', ');
const TYPO_KEYS = '`enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`';
const MIN_WORD = (one: number, two: number) =>
  `\`minWordSizeForTypos\` setting is invalid. \`oneTypo\` and \`twoTypos\` fields should be between \`0\` and \`255\`, and \`twoTypos\` should be greater or equals to \`oneTypo\` but found \`oneTypo: ${one}\` and twoTypos: ${two}\`.`;
const INVALID_RULE = (r: string) =>
  `Invalid value at \`.rankingRules[0]\`: \`${r}\` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.`;
const RESERVED = (r: string) => `Invalid value at \`.rankingRules[0]\`: \`${r}\` is a reserved keyword and thus can't be used as a ranking rule`;
const FOR_SORT = `${RESERVED('_geoPoint')}. \`_geoPoint\` can only be used for sorting at search time`;
const FOR_FILTER = (n: string) => `${RESERVED(n)}. \`${n}\` can only be used for filtering at search time`;

function fails(fn: () => unknown, code: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.message, message);
    assert.equal(err.code, code);
    return true;
  });
}

test('PATCH /settings: every synchronous error of settings.md §3, §6 and §9', () => {
  const cases: [unknown, string, string][] = [
    ['hello', 'bad_request', 'Invalid value type: expected an object, but found a string: `"hello"`'],
    [null, 'bad_request', 'Invalid value type: expected an object, but found null'],
    [{ foo: 12 }, 'bad_request', `Unknown field \`foo\`: expected one of ${ALL_KEYS}`],
    [{ stopword: [] }, 'bad_request', `Unknown field \`stopword\`: did you mean \`stopWords\`? expected one of ${ALL_KEYS}`],
    [{ displayedAttributes: 'doggo' }, 'invalid_settings_displayed_attributes', 'Invalid value type at `.displayedAttributes`: expected an array, but found a string: `"doggo"`'],
    [{ searchableAttributes: 'doggo' }, 'invalid_settings_searchable_attributes', 'Invalid value type at `.searchableAttributes`: expected an array, but found a string: `"doggo"`'],
    [{ searchableAttributes: ['a', 1] }, 'invalid_settings_searchable_attributes', 'Invalid value type at `.searchableAttributes[1]`: expected a string, but found a positive integer: `1`'],
    [{ filterableAttributes: 'doggo' }, 'invalid_settings_filterable_attributes', 'Invalid value type at `.filterableAttributes`: expected an array, but found a string: `"doggo"`'],
    [{ filterableAttributes: [1] }, 'invalid_settings_filterable_attributes', 'Invalid value type at `.filterableAttributes[0]`: expected a string, but found a positive integer: `1`'],
    [{ filterableAttributes: [{ features: {} }] }, 'invalid_settings_filterable_attributes', 'Missing field `attributePatterns` inside `.filterableAttributes[0]`'],
    [{ filterableAttributes: [{ attributePatterns: ['a'], other: 1 }] }, 'invalid_settings_filterable_attributes', 'Unknown field `other` inside `.filterableAttributes[0]`: expected one of `attributePatterns`, `features`'],
    [{ filterableAttributes: [{ attributePatterns: ['a'], features: { filter: { equality: 'yes' } } }] }, 'invalid_settings_filterable_attributes',
      'Invalid value type at `.filterableAttributes[0].features.filter.equality`: expected a boolean, but found a string: `"yes"`'],
    [{ filterableAttributes: [{ attributePatterns: ['a'], features: { facetsearch: true } }] }, 'invalid_settings_filterable_attributes',
      'Unknown field `facetsearch` inside `.filterableAttributes[0].features`: did you mean `facetSearch`? expected one of `facetSearch`, `filter`'],
    [{ sortableAttributes: 'doggo' }, 'invalid_settings_sortable_attributes', 'Invalid value type at `.sortableAttributes`: expected an array, but found a string: `"doggo"`'],
    [{ rankingRules: 'doggo' }, 'invalid_settings_ranking_rules', 'Invalid value type at `.rankingRules`: expected an array, but found a string: `"doggo"`'],
    [{ rankingRules: [1] }, 'invalid_settings_ranking_rules', 'Invalid value type at `.rankingRules[0]`: expected a string, but found a positive integer: `1`'],
    [{ stopWords: 'doggo' }, 'invalid_settings_stop_words', 'Invalid value type at `.stopWords`: expected an array, but found a string: `"doggo"`'],
    [{ nonSeparatorTokens: 'x' }, 'invalid_settings_non_separator_tokens', 'Invalid value type at `.nonSeparatorTokens`: expected an array, but found a string: `"x"`'],
    [{ separatorTokens: {} }, 'invalid_settings_separator_tokens', 'Invalid value type at `.separatorTokens`: expected an array, but found an object: `{}`'],
    [{ dictionary: [null] }, 'invalid_settings_dictionary', 'Invalid value type at `.dictionary[0]`: expected a string, but found null'],
    [{ synonyms: 'doggo' }, 'invalid_settings_synonyms', 'Invalid value type at `.synonyms`: expected an object, but found a string: `"doggo"`'],
    [{ synonyms: { a: 'b' } }, 'invalid_settings_synonyms', 'Invalid value type at `.synonyms.a`: expected an array, but found a string: `"b"`'],
    [{ distinctAttribute: ['doggo'] }, 'invalid_settings_distinct_attribute', 'Invalid value type at `.distinctAttribute`: expected a string, but found an array: `["doggo"]`'],
    [{ proximityPrecision: 'x' }, 'invalid_settings_proximity_precision', 'Unknown value `x` at `.proximityPrecision`: expected one of `byWord`, `byAttribute`'],
    [{ proximityPrecision: 1 }, 'invalid_settings_proximity_precision', 'Invalid value type at `.proximityPrecision`: expected a string, but found a positive integer: `1`'],
    [{ typoTolerance: 'doggo' }, 'invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance`: expected an object, but found a string: `"doggo"`'],
    [{ typoTolerance: { minWordSizeForTypos: 'doggo' } }, 'invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance.minWordSizeForTypos`: expected an object, but found a string: `"doggo"`'],
    [{ typoTolerance: { typoTolerance: {} } }, 'invalid_settings_typo_tolerance', `Unknown field \`typoTolerance\` inside \`.typoTolerance\`: expected one of ${TYPO_KEYS}`],
    [{ typoTolerance: { minWordSizeForTypos: { oneTypo: 10, twoTypos: 9 } } }, 'invalid_settings_typo_tolerance', `Invalid value at \`.typoTolerance.minWordSizeForTypos\`: ${MIN_WORD(10, 9)}`],
    [{ typoTolerance: { minWordSizeForTypos: { oneTypo: 256 } } }, 'invalid_settings_typo_tolerance', 'Invalid value at `.typoTolerance.minWordSizeForTypos.oneTypo`: value: `256` is too large to be deserialized, maximum value authorized is `255`'],
    [{ typoTolerance: { minWordSizeForTypos: { twoTypos: -1 } } }, 'invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance.minWordSizeForTypos.twoTypos`: expected a positive integer, but found a negative integer: `-1`'],
    [{ typoTolerance: { minWordSizeForTypos: { oneTypo: 1.5 } } }, 'invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance.minWordSizeForTypos.oneTypo`: expected a positive integer, but found a number: `1.5`'],
    [{ typoTolerance: { minWordSizeForTypos: { three: 1 } } }, 'invalid_settings_typo_tolerance', 'Unknown field `three` inside `.typoTolerance.minWordSizeForTypos`: expected one of `oneTypo`, `twoTypos`'],
    [{ typoTolerance: { enabled: 'yes' } }, 'invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance.enabled`: expected a boolean, but found a string: `"yes"`'],
    [{ typoTolerance: { disableOnWords: 'x' } }, 'invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance.disableOnWords`: expected an array, but found a string: `"x"`'],
    [{ faceting: 'doggo' }, 'invalid_settings_faceting', 'Invalid value type at `.faceting`: expected an object, but found a string: `"doggo"`'],
    [{ faceting: { maxValuesPerFacet: -1 } }, 'invalid_settings_faceting', 'Invalid value type at `.faceting.maxValuesPerFacet`: expected a positive integer, but found a negative integer: `-1`'],
    [{ faceting: { sortFacetValuesBy: { genres: 'size' } } }, 'invalid_settings_faceting', 'Unknown value `size` at `.faceting.sortFacetValuesBy.genres`: expected one of `alpha`, `count`'],
    [{ faceting: { max: 1 } }, 'invalid_settings_faceting', 'Unknown field `max` inside `.faceting`: expected one of `maxValuesPerFacet`, `sortFacetValuesBy`'],
    [{ pagination: 'doggo' }, 'invalid_settings_pagination', 'Invalid value type at `.pagination`: expected an object, but found a string: `"doggo"`'],
    [{ pagination: { maxTotalHits: 0 } }, 'invalid_settings_pagination', 'Invalid value at `.pagination.maxTotalHits`: a non-zero integer value lower than `18446744073709551615` was expected, but found a zero'],
    [{ embedders: 'x' }, 'invalid_settings_embedders', 'Invalid value type at `.embedders`: expected an object, but found a string: `"x"`'],
    [{ searchCutoffMs: 'doggo' }, 'invalid_settings_search_cutoff_ms', 'Invalid value type at `.searchCutoffMs`: expected a positive integer, but found a string: `"doggo"`'],
    [{ localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['japan'] }] }, 'invalid_settings_localized_attributes',
      'Unknown value `japan` at `.localizedAttributes[0].locales[0]`: expected one of `af`, `ak`, `am`, `ar`, `az`, `be`, `bn`, `bg`, `ca`, `cs`, `da`, `de`, `el`, `en`, `eo`, `et`, `fi`, `fr`, `gu`, `he`, `hi`, `hr`, `hu`, `hy`, `id`, `it`, `jv`, `ja`, `kn`, `ka`, `km`, `ko`, `la`, `lv`, `lt`, `ml`, `mr`, `mk`, `my`, `ne`, `nl`, `nb`, `or`, `pa`, `fa`, `pl`, `pt`, `ro`, `ru`, `si`, `sk`, `sl`, `sn`, `es`, `sr`, `sv`, `ta`, `te`, `tl`, `th`, `tk`, `tr`, `uk`, `ur`, `uz`, `vi`, `yi`, `zh`, `zu`, `afr`, `aka`, `amh`, `ara`, `aze`, `bel`, `ben`, `bul`, `cat`, `ces`, `dan`, `deu`, `ell`, `eng`, `epo`, `est`, `fin`, `fra`, `guj`, `heb`, `hin`, `hrv`, `hun`, `hye`, `ind`, `ita`, `jav`, `jpn`, `kan`, `kat`, `khm`, `kor`, `lat`, `lav`, `lit`, `mal`, `mar`, `mkd`, `mya`, `nep`, `nld`, `nob`, `ori`, `pan`, `pes`, `pol`, `por`, `ron`, `rus`, `sin`, `slk`, `slv`, `sna`, `spa`, `srp`, `swe`, `tam`, `tel`, `tgl`, `tha`, `tuk`, `tur`, `ukr`, `urd`, `uzb`, `vie`, `yid`, `zho`, `zul`, `cmn`'],
    [{ localizedAttributes: [{ locales: ['ja'] }] }, 'invalid_settings_localized_attributes', 'Missing field `attributePatterns` inside `.localizedAttributes[0]`'],
    [{ localizedAttributes: [{ attributePatterns: ['a'] }] }, 'invalid_settings_localized_attributes', 'Missing field `locales` inside `.localizedAttributes[0]`'],
    [{ localizedAttributes: [{ x: 1 }] }, 'invalid_settings_localized_attributes', 'Unknown field `x` inside `.localizedAttributes[0]`: expected one of `attributePatterns`, `locales`'],
    [{ localizedAttributes: [{ attributePatterns: 'a', locales: [] }] }, 'invalid_settings_localized_attributes', 'Invalid value type at `.localizedAttributes[0].attributePatterns`: expected an array, but found a string: `"a"`'],
    [{ facetSearch: 'true' }, 'invalid_settings_facet_search', 'Invalid value type at `.facetSearch`: expected a boolean, but found a string: `"true"`'],
    [{ prefixSearch: 'always' }, 'invalid_settings_prefix_search', 'Unknown value `always` at `.prefixSearch`: expected one of `indexingTime`, `disabled`'],
    [{ chat: {} }, 'feature_not_enabled', 'setting `chat` in the index settings requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835'],
    [{ foreignKeys: [] }, 'feature_not_enabled', 'setting `foreignKeys` in the index settings requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873'],
    // deserr stops at the first error, in key order
    [{ stopWords: 1, foo: 1 }, 'invalid_settings_stop_words', 'Invalid value type at `.stopWords`: expected an array, but found a positive integer: `1`'],
    [{ foo: 1, stopWords: 1 }, 'bad_request', `Unknown field \`foo\`: expected one of ${ALL_KEYS}`],
  ];
  for (const [body, code, message] of cases) fails(() => parseSettingsPatch(body), code, message);
});

test('ranking rules: syntax, reserved names, attribute mix', () => {
  const bad: [string, string][] = [
    ['manyTheFish', INVALID_RULE('manyTheFish')],
    ['price', INVALID_RULE('price')],
    ['asc:price', INVALID_RULE('asc:price')],
    ['price:deesc', INVALID_RULE('price:deesc')],
    ['words suffix', INVALID_RULE('words suffix')],
    ['Words', INVALID_RULE('Words')],
    ['_geo:asc', RESERVED('_geo')],
    ['_geoDistance:asc', RESERVED('_geoDistance')],
    ['_geojson:desc', RESERVED('_geojson')],
    ['_geoPolygon:asc', RESERVED('_geoPolygon')],
    ['_geoPoint:asc', FOR_SORT],
    ['_geoPoint(42, 75):asc', FOR_SORT],
    ['_geoPoint(abc):desc', FOR_SORT],
    ['_geoRadius:asc', FOR_FILTER('_geoRadius')],
    ['_geoRadius(1, 2, 3):asc', FOR_FILTER('_geoRadius')],
    ['_geoBoundingBox([1, 2], [3, 4]):desc', FOR_FILTER('_geoBoundingBox')],
  ];
  for (const [rule, message] of bad) fails(() => parseSettingsPatch({ rankingRules: [rule] }), 'invalid_settings_ranking_rules', message);

  const good = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'price:asc', 'price:asc:desc', "it's spacy over there:asc", '_geoPointer:asc'];
  assert.deepEqual(parseSettingsPatch({ rankingRules: good }), { rankingRules: good });
  assert.deepEqual(parseSettingsPatch({ rankingRules: ['words', 'words'] }), { rankingRules: ['words', 'words'] });

  const mixed = 'Mixed usage of the attribute, attributeRank, and wordPosition ranking rules. You must either use the attribute ranking rule alone or the attributeRank and wordPosition ranking rules.';
  for (const rules of [['attribute', 'attributeRank'], ['wordPosition', 'attribute'], ['attribute', 'attributeRank', 'wordPosition']]) {
    fails(() => parseSettingsPatch({ rankingRules: rules }), 'invalid_settings_ranking_rules', mixed);
    fails(() => parseSubRoute('rankingRules', rules), 'invalid_settings_ranking_rules', mixed);
  }
  assert.doesNotThrow(() => parseSettingsPatch({ rankingRules: ['attributeRank', 'wordPosition'] }));
});

test('sub-routes: bare values, no key prefix in paths, null resets', () => {
  const cases: [SettingName, unknown, string, string][] = [
    ['displayedAttributes', 'doggo', 'invalid_settings_displayed_attributes', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['searchableAttributes', 'doggo', 'invalid_settings_searchable_attributes', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['filterableAttributes', 'doggo', 'invalid_settings_filterable_attributes', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['sortableAttributes', 'doggo', 'invalid_settings_sortable_attributes', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['rankingRules', 'doggo', 'invalid_settings_ranking_rules', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['rankingRules', ['x'], 'invalid_settings_ranking_rules', 'Invalid value at `[0]`: `x` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.'],
    ['stopWords', 'doggo', 'invalid_settings_stop_words', 'Invalid value type: expected an array, but found a string: `"doggo"`'],
    ['synonyms', 'doggo', 'invalid_settings_synonyms', 'Invalid value type: expected an object, but found a string: `"doggo"`'],
    ['distinctAttribute', ['doggo'], 'invalid_settings_distinct_attribute', 'Invalid value type: expected a string, but found an array: `["doggo"]`'],
    ['typoTolerance', 'doggo', 'invalid_settings_typo_tolerance', 'Invalid value type: expected an object, but found a string: `"doggo"`'],
    ['typoTolerance', { typoTolerance: { minWordSizeForTypos: 'doggo' } }, 'invalid_settings_typo_tolerance', `Unknown field \`typoTolerance\`: expected one of ${TYPO_KEYS}`],
    ['typoTolerance', { minWordSizeForTypos: { oneTypo: 6, twoTypos: 5 } }, 'invalid_settings_typo_tolerance', `Invalid value at \`.minWordSizeForTypos\`: ${MIN_WORD(6, 5)}`],
    ['faceting', 'doggo', 'invalid_settings_faceting', 'Invalid value type: expected an object, but found a string: `"doggo"`'],
    ['pagination', 'doggo', 'invalid_settings_pagination', 'Invalid value type: expected an object, but found a string: `"doggo"`'],
    ['pagination', { maxTotalHits: 0 }, 'invalid_settings_pagination', 'Invalid value at `.maxTotalHits`: a non-zero integer value lower than `18446744073709551615` was expected, but found a zero'],
    ['searchCutoffMs', 'doggo', 'invalid_settings_search_cutoff_ms', 'Invalid value type: expected a positive integer, but found a string: `"doggo"`'],
    ['proximityPrecision', 'x', 'invalid_settings_proximity_precision', 'Unknown value `x`: expected one of `byWord`, `byAttribute`'],
    ['localizedAttributes', [{ attributePatterns: ['a'], locales: [1] }], 'invalid_settings_localized_attributes', 'Invalid value type at `[0].locales[0]`: expected a string, but found a positive integer: `1`'],
    ['embedders', { e: { dimensions: 'x' } }, 'invalid_settings_embedders', 'Invalid value type at `.e.dimensions`: expected a positive integer, but found a string: `"x"`'],
    ['chat', { description: 1 }, 'invalid_settings_index_chat', 'Invalid value type at `.description`: expected a string, but found a positive integer: `1`'],
  ];
  for (const [name, body, code, message] of cases) {
    fails(() => parseSubRoute(name, body, { features: { chatCompletions: true } }), code, message);
  }
  for (const name of SETTING_NAMES) assert.deepEqual(parseSubRoute(name, null), { [name]: null });
  assert.deepEqual(parseSubRoute('distinctAttribute', 'sku'), { distinctAttribute: 'sku' });
  assert.deepEqual(parseSubRoute('pagination', { maxTotalHits: 20 }), { pagination: { maxTotalHits: 20 } });
  fails(() => parseSubRoute('chat', {}), 'feature_not_enabled',
    'setting `chat` in the index settings requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835');
});

test('SUB_ROUTES: kebab-case paths and update verbs of settings.md §1', () => {
  const expected: [string, SettingName, 'PUT' | 'PATCH'][] = [
    ['displayed-attributes', 'displayedAttributes', 'PUT'], ['searchable-attributes', 'searchableAttributes', 'PUT'],
    ['filterable-attributes', 'filterableAttributes', 'PUT'], ['sortable-attributes', 'sortableAttributes', 'PUT'],
    ['foreign-keys', 'foreignKeys', 'PUT'], ['ranking-rules', 'rankingRules', 'PUT'], ['stop-words', 'stopWords', 'PUT'],
    ['non-separator-tokens', 'nonSeparatorTokens', 'PUT'], ['separator-tokens', 'separatorTokens', 'PUT'],
    ['dictionary', 'dictionary', 'PUT'], ['synonyms', 'synonyms', 'PUT'], ['distinct-attribute', 'distinctAttribute', 'PUT'],
    ['proximity-precision', 'proximityPrecision', 'PUT'], ['typo-tolerance', 'typoTolerance', 'PATCH'],
    ['faceting', 'faceting', 'PATCH'], ['pagination', 'pagination', 'PATCH'], ['embedders', 'embedders', 'PATCH'],
    ['search-cutoff-ms', 'searchCutoffMs', 'PUT'], ['localized-attributes', 'localizedAttributes', 'PUT'],
    ['facet-search', 'facetSearch', 'PUT'], ['prefix-search', 'prefixSearch', 'PUT'], ['chat', 'chat', 'PATCH'],
  ];
  assert.deepEqual(SUB_ROUTES.map((r) => [r.route, r.setting, r.verb]), expected);
  assert.equal(subRouteOf('ranking-rules')?.setting, 'rankingRules');
  assert.equal(subRouteOf('rankingRules'), undefined);
});

test('parsed patches: sets sorted, features expanded, values kept as sent, key order', () => {
  const patch = parseSettingsPatch({
    prefixSearch: null,
    stopWords: ['the', 'a', 'the', 'The'],
    displayedAttributes: ['title', '*'],
    sortableAttributes: ['b', 'a'],
    synonyms: { wolverine: ['xmen', 'logan'], logan: ['wolverine'] },
    filterableAttributes: ['genres', { attributePatterns: ['release_*'], features: { filter: { comparison: true } } }, { attributePatterns: ['x'] }],
    localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['ja', 'jpn'] }],
    typoTolerance: { disableOnWords: ['B', 'A'], minWordSizeForTypos: { twoTypos: 3, oneTypo: null } },
    faceting: { sortFacetValuesBy: { z: 'count', a: 'alpha' } },
  });
  assert.deepEqual(Object.keys(patch), [
    'displayedAttributes', 'filterableAttributes', 'sortableAttributes', 'stopWords', 'synonyms', 'typoTolerance',
    'faceting', 'localizedAttributes', 'prefixSearch',
  ]);
  assert.deepEqual(patch.displayedAttributes, ['title', '*']);
  assert.deepEqual(patch.stopWords, ['The', 'a', 'the']);
  assert.deepEqual(patch.sortableAttributes, ['a', 'b']);
  assert.deepEqual(Object.keys(patch.synonyms!), ['logan', 'wolverine']);
  assert.deepEqual(patch.synonyms!.wolverine, ['xmen', 'logan']);
  assert.deepEqual(patch.filterableAttributes, [
    'genres',
    { attributePatterns: ['release_*'], features: { facetSearch: false, filter: { equality: true, comparison: true } } },
    { attributePatterns: ['x'], features: { facetSearch: false, filter: { equality: true, comparison: false } } },
  ]);
  assert.deepEqual(patch.localizedAttributes, [{ attributePatterns: ['*_ja'], locales: ['ja', 'jpn'] }]);
  assert.deepEqual(patch.typoTolerance, { minWordSizeForTypos: { oneTypo: null, twoTypos: 3 }, disableOnWords: ['A', 'B'] });
  assert.deepEqual(Object.keys(patch.faceting!.sortFacetValuesBy!), ['a', 'z']);
  assert.equal(patch.prefixSearch, null);
  assert.deepEqual(parseSettingsPatch({}), {});
});

test('experimental settings pass when their feature is on', () => {
  const features = { chatCompletions: true, foreignKeys: true };
  const patch = parseSettingsPatch({
    foreignKeys: [{ foreignIndexUid: 'products', fieldName: 'productId' }],
    chat: { description: 'd', searchParameters: { hybrid: { embedder: 'e' }, limit: 5, matchingStrategy: 'all', distinct: null } },
  }, { features });
  assert.deepEqual(patch.chat, { description: 'd', searchParameters: { hybrid: { embedder: 'e', semanticRatio: 0.5 }, limit: 5, distinct: null, matchingStrategy: 'all' } });
  const errors: [unknown, string, string][] = [
    [{ foreignKeys: [{ foreignIndexUid: 'p' }] }, 'invalid_settings_foreign_keys', 'Missing field `fieldName` inside `.foreignKeys[0]`'],
    [{ foreignKeys: [{ foreignIndexUid: 'p', fieldName: 'f', x: 1 }] }, 'invalid_settings_foreign_keys', 'Unknown field `x` inside `.foreignKeys[0]`: expected one of `foreignIndexUid`, `fieldName`'],
    [{ chat: { searchParameters: { hybrid: { semanticRatio: 2, embedder: 'e' } } } }, 'invalid_settings_index_chat',
      'Invalid value at `.chat.searchParameters.hybrid.semanticRatio`: the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.'],
    [{ chat: { searchParameters: { hybrid: {} } } }, 'invalid_settings_index_chat', 'Missing field `embedder` inside `.chat.searchParameters.hybrid`'],
    [{ chat: { searchParameters: { matchingStrategy: 'most' } } }, 'invalid_settings_index_chat',
      'Unknown value `most` at `.chat.searchParameters.matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    [{ chat: { prompt: '' } }, 'invalid_settings_index_chat',
      'Unknown field `prompt` inside `.chat`: expected one of `description`, `documentTemplate`, `documentTemplateMaxBytes`, `searchParameters`'],
  ];
  for (const [body, code, message] of errors) fails(() => parseSettingsPatch(body, { features }), code, message);
  // resets are not gated
  assert.deepEqual(parseSettingsPatch({ chat: null, foreignKeys: null }), { foreignKeys: null, chat: null });
});
