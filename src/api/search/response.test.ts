import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSearchBody } from './query.ts';
import { searchResponse, searchWindow, uuidV7, wantsMetadata, type SearchOutcome } from './response.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('searchWindow: offset/limit and page mode, clamped by maxTotalHits (search.md §5)', () => {
  const cases: [Record<string, unknown>, number, [number, number, boolean]][] = [
    [{}, 1000, [0, 20, false]],
    [{ offset: 5, limit: 10 }, 1000, [5, 10, false]],
    [{ limit: 1500 }, 1000, [0, 1000, false]],
    [{ offset: 800, limit: 400 }, 1000, [800, 200, false]],
    [{ offset: 1200, limit: 10 }, 1000, [1000, 0, false]],
    [{ hitsPerPage: 1 }, 1000, [0, 1, true]],
    [{ page: 0 }, 1000, [0, 0, true]],
    [{ page: 3 }, 1000, [40, 20, true]],
    [{ page: 2, hitsPerPage: 0 }, 1000, [0, 0, true]],
    [{ page: 51, hitsPerPage: 20 }, 1000, [1000, 0, true]],
    [{ page: 3, hitsPerPage: 4 }, 10, [8, 2, true]],
    // page mode wins over offset/limit
    [{ page: 1, offset: 7, limit: 3 }, 1000, [0, 20, true]],
  ];
  for (const [body, max, [offset, limit, exhaustive]] of cases) {
    assert.deepEqual(searchWindow(parseSearchBody(body), max), { offset, limit, exhaustive }, JSON.stringify(body));
  }
});

function outcome(totalHits: number, extra: Partial<SearchOutcome> = {}): SearchOutcome {
  return { hits: [], totalHits, processingTimeMs: 2.7, ...extra };
}

test('offset/limit response: key order, requested values echoed, total never capped by maxTotalHits', () => {
  const res = searchResponse(parseSearchBody({ q: 'carol', offset: 1200, limit: 30 }), outcome(1200), { requestUid: 'r' });
  assert.deepEqual(Object.keys(res), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
  assert.deepEqual(res, { hits: [], query: 'carol', processingTimeMs: 2, limit: 30, offset: 1200, estimatedTotalHits: 1200, requestUid: 'r' });
});

test('page mode response: totals and pages (search.md §5 examples)', () => {
  const cases: [Record<string, unknown>, number, Record<string, number>][] = [
    [{ hitsPerPage: 1 }, 5, { hitsPerPage: 1, page: 1, totalPages: 5, totalHits: 5 }],
    [{ page: 0 }, 5, { hitsPerPage: 20, page: 0, totalPages: 1, totalHits: 5 }],
    [{ hitsPerPage: 0 }, 5, { hitsPerPage: 0, page: 1, totalPages: 0, totalHits: 5 }],
    [{ page: 2, hitsPerPage: 2 }, 5, { hitsPerPage: 2, page: 2, totalPages: 3, totalHits: 5 }],
    // not capped by maxTotalHits (Meilisearch 1.50: 30,000 documents, maxTotalHits 10 → totalHits 30000)
    [{ page: 1 }, 1200, { hitsPerPage: 20, page: 1, totalPages: 60, totalHits: 1200 }],
    [{ page: 1 }, 0, { hitsPerPage: 20, page: 1, totalPages: 0, totalHits: 0 }],
  ];
  for (const [body, total, want] of cases) {
    const res = searchResponse(parseSearchBody(body), outcome(total), { requestUid: 'r' });
    assert.deepEqual(Object.keys(res), ['hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid']);
    assert.deepEqual({ hitsPerPage: res.hitsPerPage, page: res.page, totalPages: res.totalPages, totalHits: res.totalHits }, want, JSON.stringify(body));
    assert.equal(res.query, '');
  }
});

test('optional keys in the order of search.md §4.3', () => {
  const q = parseSearchBody({ q: 'a', facets: ['genre'], retrieveVectors: true, showPerformanceDetails: true });
  const res = searchResponse(q, outcome(3, {
    queryVector: [0.5], facetDistribution: { genre: { horror: 3 } }, facetStats: { year: { min: 1, max: 2 } },
    semanticHitCount: 1, performanceDetails: { search: '1.2ms' },
  }), { metadata: { indexUid: 'movies', primaryKey: 'id' } });
  assert.deepEqual(Object.keys(res), [
    'hits', 'query', 'queryVector', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'facetDistribution',
    'facetStats', 'requestUid', 'metadata', 'performanceDetails', 'semanticHitCount',
  ]);
  assert.match(res.requestUid as string, UUID_V7);
  const meta = res.metadata as Record<string, string>;
  assert.deepEqual(Object.keys(meta), ['queryUid', 'indexUid', 'primaryKey']);
  assert.match(meta.queryUid!, UUID_V7);
  assert.notEqual(meta.queryUid, res.requestUid);
});

test('optional keys are absent unless asked for', () => {
  const extra = { queryVector: [1], facetDistribution: {}, facetStats: {} };
  const plain = searchResponse(parseSearchBody({ facets: [] }), outcome(0, extra));
  assert.deepEqual(Object.keys(plain), ['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
  const noPk = searchResponse(parseSearchBody({ showPerformanceDetails: true }), outcome(0), { metadata: { indexUid: 'x', primaryKey: null } });
  assert.deepEqual(Object.keys(noPk.metadata as object), ['queryUid', 'indexUid']);
  assert.deepEqual(noPk.performanceDetails, {});
});

test('uuidV7 and the metadata header', () => {
  const id = uuidV7(0x0191_9a3b_6d2e);
  assert.match(id, UUID_V7);
  assert.ok(id.startsWith('01919a3b-6d2e-7'));
  assert.notEqual(uuidV7(), uuidV7());
  const cases: [string | undefined, boolean][] = [[undefined, false], ['true', true], ['1', true], ['TRUE', true], ['false', false], ['yes', false]];
  for (const [header, want] of cases) assert.equal(wantsMetadata(header), want, String(header));
});
