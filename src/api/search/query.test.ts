import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { LOCALES } from '../settings/index.ts';
import {
  defaultSearchQuery, isPageMode, isPlaceholder, parseSearchBody, parseSearchParams, SEARCH_BODY_FIELDS, SEARCH_PARAMS,
  type SearchQuery,
} from './query.ts';
import { fixSortParameter } from './query-get.ts';

function fails(fn: () => unknown, code: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.message, message);
    assert.equal(err.code, code);
    return true;
  });
}

const BODY_LIST = SEARCH_BODY_FIELDS.map((f) => `\`${f}\``).join(', ');
const PARAM_LIST = SEARCH_PARAMS.map((f) => `\`${f}\``).join(', ');
const THRESHOLD = 'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.';
const RATIO = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.';

test('POST body errors: code and deserr message (search/errors.rs)', () => {
  const cases: [unknown, string, string][] = [
    ['hello', 'bad_request', 'Invalid value type: expected an object, but found a string: `"hello"`'],
    [null, 'bad_request', 'Invalid value type: expected an object, but found null'],
    [{ marin: 'hello' }, 'bad_request', `Unknown field \`marin\`: expected one of ${BODY_LIST}`],
    [{ limt: 1 }, 'bad_request', `Unknown field \`limt\`: did you mean \`limit\`? expected one of ${BODY_LIST}`],
    [{ q: ['doggo'] }, 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found an array: `["doggo"]`'],
    [{ offset: 'doggo' }, 'invalid_search_offset', 'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`'],
    [{ offset: null }, 'invalid_search_offset', 'Invalid value type at `.offset`: expected a positive integer, but found null'],
    [{ limit: 'doggo' }, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`'],
    [{ limit: -1 }, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a negative integer: `-1`'],
    [{ limit: 1.5 }, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a number: `1.5`'],
    [{ page: 'doggo' }, 'invalid_search_page', 'Invalid value type at `.page`: expected a positive integer, but found a string: `"doggo"`'],
    [{ hitsPerPage: 'doggo' }, 'invalid_search_hits_per_page', 'Invalid value type at `.hitsPerPage`: expected a positive integer, but found a string: `"doggo"`'],
    [{ attributesToRetrieve: 'doggo' }, 'invalid_search_attributes_to_retrieve', 'Invalid value type at `.attributesToRetrieve`: expected an array, but found a string: `"doggo"`'],
    [{ attributesToRetrieve: ['a', 1] }, 'invalid_search_attributes_to_retrieve', 'Invalid value type at `.attributesToRetrieve[1]`: expected a string, but found a positive integer: `1`'],
    [{ attributesToCrop: 'doggo' }, 'invalid_search_attributes_to_crop', 'Invalid value type at `.attributesToCrop`: expected an array, but found a string: `"doggo"`'],
    [{ cropLength: 'doggo' }, 'invalid_search_crop_length', 'Invalid value type at `.cropLength`: expected a positive integer, but found a string: `"doggo"`'],
    [{ cropMarker: ['doggo'] }, 'invalid_search_crop_marker', 'Invalid value type at `.cropMarker`: expected a string, but found an array: `["doggo"]`'],
    [{ cropMarker: null }, 'invalid_search_crop_marker', 'Invalid value type at `.cropMarker`: expected a string, but found null'],
    [{ attributesToHighlight: 'doggo' }, 'invalid_search_attributes_to_highlight', 'Invalid value type at `.attributesToHighlight`: expected an array, but found a string: `"doggo"`'],
    [{ highlightPreTag: ['doggo'] }, 'invalid_search_highlight_pre_tag', 'Invalid value type at `.highlightPreTag`: expected a string, but found an array: `["doggo"]`'],
    [{ highlightPostTag: ['doggo'] }, 'invalid_search_highlight_post_tag', 'Invalid value type at `.highlightPostTag`: expected a string, but found an array: `["doggo"]`'],
    [{ showMatchesPosition: 'doggo' }, 'invalid_search_show_matches_position', 'Invalid value type at `.showMatchesPosition`: expected a boolean, but found a string: `"doggo"`'],
    [{ sort: 'doggo' }, 'invalid_search_sort', 'Invalid value type at `.sort`: expected an array, but found a string: `"doggo"`'],
    [{ distinct: true }, 'invalid_search_distinct', 'Invalid value type at `.distinct`: expected a string, but found a boolean: `true`'],
    [{ facets: 'doggo' }, 'invalid_search_facets', 'Invalid value type at `.facets`: expected an array, but found a string: `"doggo"`'],
    [{ matchingStrategy: 'doggo' }, 'invalid_search_matching_strategy', 'Unknown value `doggo` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    [{ matchingStrategy: { doggo: 'doggo' } }, 'invalid_search_matching_strategy', 'Invalid value type at `.matchingStrategy`: expected a string, but found an object: `{"doggo":"doggo"}`'],
    [{ attributesToSearchOn: 'x' }, 'invalid_search_attributes_to_search_on', 'Invalid value type at `.attributesToSearchOn`: expected an array, but found a string: `"x"`'],
    [{ rankingScoreThreshold: 'doggo' }, 'invalid_search_ranking_score_threshold', 'Invalid value type at `.rankingScoreThreshold`: expected a number, but found a string: `"doggo"`'],
    [{ rankingScoreThreshold: 42 }, 'invalid_search_ranking_score_threshold', `Invalid value at \`.rankingScoreThreshold\`: ${THRESHOLD}`],
    [{ rankingScoreThreshold: -0.1 }, 'invalid_search_ranking_score_threshold', `Invalid value at \`.rankingScoreThreshold\`: ${THRESHOLD}`],
    [{ locales: 'fr' }, 'invalid_search_locales', 'Invalid value type at `.locales`: expected an array, but found a string: `"fr"`'],
    [{ locales: ['invalid'] }, 'invalid_search_locales', `Unknown value \`invalid\` at \`.locales[0]\`: expected one of ${LOCALES.map((l) => `\`${l}\``).join(', ')}`],
    [{ hybrid: 'x' }, 'invalid_search_hybrid_query', 'Invalid value type at `.hybrid`: expected an object, but found a string: `"x"`'],
    [{ hybrid: {} }, 'invalid_search_hybrid_query', 'Missing field `embedder` inside `.hybrid`'],
    [{ hybrid: { embedder: 'e', ratio: 1 } }, 'invalid_search_hybrid_query', 'Unknown field `ratio` inside `.hybrid`: expected one of `semanticRatio`, `embedder`'],
    [{ hybrid: { embedder: 1 } }, 'invalid_search_embedder', 'Invalid value type at `.hybrid.embedder`: expected a string, but found a positive integer: `1`'],
    [{ hybrid: { embedder: 'e', semanticRatio: 1.2 } }, 'invalid_search_semantic_ratio', `Invalid value at \`.hybrid.semanticRatio\`: ${RATIO}`],
    [{ hybrid: { embedder: 'e', semanticRatio: -0.8 } }, 'invalid_search_semantic_ratio', `Invalid value at \`.hybrid.semanticRatio\`: ${RATIO}`],
    [{ hybrid: { semanticRatio: '1' } }, 'invalid_search_semantic_ratio', 'Invalid value type at `.hybrid.semanticRatio`: expected a number, but found a string: `"1"`'],
    [{ vector: 'x' }, 'invalid_search_vector', 'Invalid value type at `.vector`: expected an array, but found a string: `"x"`'],
    [{ vector: [1, 'x'] }, 'invalid_search_vector', 'Invalid value type at `.vector[1]`: expected a number, but found a string: `"x"`'],
    [{ retrieveVectors: 'doggo' }, 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"doggo"`'],
    [{ retrieveVectors: [true] }, 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`'],
    [{ personalize: 'x' }, 'invalid_search_personalize', 'Invalid value type at `.personalize`: expected an object, but found a string: `"x"`'],
    [{ personalize: {} }, 'invalid_search_personalize', 'Missing field `userContext` inside `.personalize`'],
    [{ personalize: { userContext: 1 } }, 'invalid_search_personalize_user_context', 'Invalid value type at `.personalize.userContext`: expected a string, but found a positive integer: `1`'],
    [{ useNetwork: 'x' }, 'invalid_search_use_network', 'Invalid value type at `.useNetwork`: expected a boolean, but found a string: `"x"`'],
    [{ showRankingScore: 1 }, 'invalid_search_show_ranking_score', 'Invalid value type at `.showRankingScore`: expected a boolean, but found a positive integer: `1`'],
    [{ showRankingScoreDetails: 1 }, 'invalid_search_show_ranking_score_details', 'Invalid value type at `.showRankingScoreDetails`: expected a boolean, but found a positive integer: `1`'],
    [{ showPerformanceDetails: 1 }, 'invalid_search_show_performance_details', 'Invalid value type at `.showPerformanceDetails`: expected a boolean, but found a positive integer: `1`'],
    // the first problem in the body's order wins
    [{ limit: 'x', marin: 1 }, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"x"`'],
    [{ marin: 1, limit: 'x' }, 'bad_request', `Unknown field \`marin\`: expected one of ${BODY_LIST}`],
  ];
  for (const [body, code, message] of cases) fails(() => parseSearchBody(body), code, message);
});

test('POST body: defaults, nulls and accepted values', () => {
  assert.deepEqual(parseSearchBody({}), defaultSearchQuery());
  const nulls = parseSearchBody({
    q: null, page: null, hitsPerPage: null, attributesToRetrieve: null, attributesToCrop: null, attributesToHighlight: null,
    filter: null, sort: null, distinct: null, facets: null, attributesToSearchOn: null, rankingScoreThreshold: null,
    locales: null, hybrid: null, vector: null, media: null, personalize: null, useNetwork: null,
  });
  assert.deepEqual(nulls, defaultSearchQuery());
  const q = parseSearchBody({
    q: 'carol', offset: 3, limit: 7, page: 2, hitsPerPage: 5, attributesToCrop: ['title:5', '*'], cropLength: 0, cropMarker: '',
    matchingStrategy: 'frequency', rankingScoreThreshold: 0, locales: ['fr', 'jpn', 'cmn'], filter: [['a = 1', 'b = 2'], 'c = 3'],
    hybrid: { embedder: 'default' }, vector: [0.5, 1], media: { image: 'x' }, personalize: { userContext: 'u' }, useNetwork: false,
  });
  assert.equal(q.q, 'carol');
  assert.equal(q.cropLength, 0);
  assert.equal(q.cropMarker, '');
  assert.deepEqual(q.locales, ['fr', 'jpn', 'cmn']);
  assert.deepEqual(q.hybrid, { embedder: 'default', semanticRatio: 0.5 });
  assert.deepEqual(q.filter, [['a = 1', 'b = 2'], 'c = 3']);
  assert.deepEqual(q.personalize, { userContext: 'u' });
  assert.equal(q.useNetwork, false);
  assert.ok(isPageMode(q));
  // f32 rounding: 1.00000001 is 1.0 for Meilisearch
  assert.equal(parseSearchBody({ hybrid: { embedder: 'e', semanticRatio: 1.00000001 } }).hybrid?.embedder, 'e');
});

test('placeholder and page mode flags', () => {
  const cases: [Record<string, unknown>, boolean, boolean][] = [
    [{}, true, false],
    [{ q: '' }, true, false],
    [{ q: '  \t' }, true, false],
    [{ q: 'a' }, false, false],
    [{ page: 1 }, true, true],
    [{ hitsPerPage: 0 }, true, true],
    [{ page: null, hitsPerPage: null }, true, false],
  ];
  for (const [body, placeholder, page] of cases) {
    const q = parseSearchBody(body);
    assert.equal(isPlaceholder(q), placeholder, JSON.stringify(body));
    assert.equal(isPageMode(q), page, JSON.stringify(body));
  }
});

test('GET parameter errors (search/errors.rs, hybrid.rs)', () => {
  const locales = [...LOCALES].sort((a, b) => a.length - b.length || a.localeCompare(b)).join(', ');
  const cases: [Record<string, string>, string, string][] = [
    [{ marin: 'x' }, 'bad_request', `Unknown parameter \`marin\`: expected one of ${PARAM_LIST}`],
    [{ limt: '1' }, 'bad_request', `Unknown parameter \`limt\`: did you mean \`limit\`? expected one of ${PARAM_LIST}`],
    [{ offset: 'doggo' }, 'invalid_search_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer'],
    [{ limit: 'doggo' }, 'invalid_search_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
    [{ page: 'doggo' }, 'invalid_search_page', 'Invalid value in parameter `page`: could not parse `doggo` as a positive integer'],
    [{ hitsPerPage: 'doggo' }, 'invalid_search_hits_per_page', 'Invalid value in parameter `hitsPerPage`: could not parse `doggo` as a positive integer'],
    [{ cropLength: 'doggo' }, 'invalid_search_crop_length', 'Invalid value in parameter `cropLength`: could not parse `doggo` as a positive integer'],
    [{ retrieveVectors: '' }, 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`'],
    [{ retrieveVectors: 'doggo' }, 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    [{ showMatchesPosition: 'doggo' }, 'invalid_search_show_matches_position', 'Invalid value in parameter `showMatchesPosition`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    [{ showRankingScore: '1' }, 'invalid_search_show_ranking_score', 'Invalid value in parameter `showRankingScore`: could not parse `1` as a boolean, expected either `true` or `false`'],
    [{ showRankingScoreDetails: 'no' }, 'invalid_search_show_ranking_score_details', 'Invalid value in parameter `showRankingScoreDetails`: could not parse `no` as a boolean, expected either `true` or `false`'],
    [{ showPerformanceDetails: 'no' }, 'invalid_search_show_performance_details', 'Invalid value in parameter `showPerformanceDetails`: could not parse `no` as a boolean, expected either `true` or `false`'],
    [{ useNetwork: 'no' }, 'invalid_search_use_network', 'Invalid value in parameter `useNetwork`: could not parse `no` as a boolean, expected either `true` or `false`'],
    [{ matchingStrategy: 'doggo' }, 'invalid_search_matching_strategy', 'Unknown value `doggo` for parameter `matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    [{ rankingScoreThreshold: 'doggo' }, 'invalid_search_ranking_score_threshold', `Invalid value in parameter \`rankingScoreThreshold\`: ${THRESHOLD}`],
    [{ rankingScoreThreshold: '1.5' }, 'invalid_search_ranking_score_threshold', `Invalid value in parameter \`rankingScoreThreshold\`: ${THRESHOLD}`],
    [{ hybridEmbedder: 'e', hybridSemanticRatio: '1.2' }, 'invalid_search_semantic_ratio', `Invalid value in parameter \`hybridSemanticRatio\`: ${RATIO}`],
    [{ hybridEmbedder: 'e', hybridSemanticRatio: '-0.2' }, 'invalid_search_semantic_ratio', `Invalid value in parameter \`hybridSemanticRatio\`: ${RATIO}`],
    [{ hybridSemanticRatio: '0.2' }, 'invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present'],
    [{ vector: '1,2' }, 'missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present'],
    [{ vector: '1,x', hybridEmbedder: 'e' }, 'invalid_search_vector', 'Invalid value in parameter `vector`: invalid float literal'],
    [{ locales: 'fr,invalid' }, 'invalid_search_locales', `Invalid value in parameter \`locales\`: Unsupported locale \`invalid\`, expected one of ${locales}`],
  ];
  for (const [params, code, message] of cases) fails(() => parseSearchParams(params), code, message);
  assert.ok(locales.startsWith('af, ak, am, ar, az, be, bg, bn'));
});

test('GET and POST give the same query', () => {
  const cases: [Record<string, string>, Record<string, unknown>][] = [
    [{}, {}],
    [{ q: 'carol', offset: '3', limit: '7' }, { q: 'carol', offset: 3, limit: 7 }],
    [{ page: '2', hitsPerPage: '0' }, { page: 2, hitsPerPage: 0 }],
    [{ attributesToRetrieve: 'title,id', attributesToCrop: 'overview:5,title', attributesToHighlight: '*' },
      { attributesToRetrieve: ['title', 'id'], attributesToCrop: ['overview:5', 'title'], attributesToHighlight: ['*'] }],
    [{ attributesToRetrieve: '' }, { attributesToRetrieve: [] }],
    [{ attributesToRetrieve: 'a,,b' }, { attributesToRetrieve: ['a', 'b'] }],
    [{ attributesToRetrieve: 'a, b' }, { attributesToRetrieve: ['a', ' b'] }],
    [{ cropLength: '5', cropMarker: '[…]', highlightPreTag: '<b>', highlightPostTag: '</b>' },
      { cropLength: 5, cropMarker: '[…]', highlightPreTag: '<b>', highlightPostTag: '</b>' }],
    [{ showMatchesPosition: 'true', showRankingScore: 'true', showRankingScoreDetails: 'false', showPerformanceDetails: 'true', retrieveVectors: 'true' },
      { showMatchesPosition: true, showRankingScore: true, showRankingScoreDetails: false, showPerformanceDetails: true, retrieveVectors: true }],
    [{ filter: 'genre = horror' }, { filter: 'genre = horror' }],
    [{ filter: '[["a = 1","a = 2"],"b = 3"]' }, { filter: [['a = 1', 'a = 2'], 'b = 3'] }],
    [{ sort: 'price:asc,title:desc' }, { sort: ['price:asc', 'title:desc'] }],
    [{ sort: '_geoPoint(45.4, 9.1):asc,price:desc' }, { sort: ['_geoPoint(45.4,9.1):asc', 'price:desc'] }],
    [{ distinct: 'sku', facets: 'genre,*_ja', attributesToSearchOn: 'title' }, { distinct: 'sku', facets: ['genre', '*_ja'], attributesToSearchOn: ['title'] }],
    [{ matchingStrategy: 'all', rankingScoreThreshold: '0.25', locales: 'fr,jpn' }, { matchingStrategy: 'all', rankingScoreThreshold: 0.25, locales: ['fr', 'jpn'] }],
    [{ hybridEmbedder: 'e' }, { hybrid: { embedder: 'e' } }],
    [{ hybridEmbedder: 'e', hybridSemanticRatio: '0.75', vector: '1,0.5' }, { hybrid: { embedder: 'e', semanticRatio: 0.75 }, vector: [1, 0.5] }],
    [{ personalizeUserContext: 'u', useNetwork: 'false' }, { personalize: { userContext: 'u' }, useNetwork: false }],
  ];
  for (const [params, body] of cases) {
    const get: SearchQuery = parseSearchParams(params);
    assert.deepEqual(get, parseSearchBody(body), JSON.stringify(params));
  }
});

test('GET sort keeps _geoPoint commas and strips outer quotes', () => {
  assert.deepEqual(fixSortParameter('"price:asc"'), ['price:asc']);
  assert.deepEqual(fixSortParameter('_geoPoint(45.47, 9.19):asc'), ['_geoPoint(45.47,9.19):asc']);
  assert.deepEqual(fixSortParameter('a:asc, _geoPoint( 1 , 2 ):desc, b:asc'), ['a:asc', '_geoPoint( 1,2 ):desc', 'b:asc']);
});
