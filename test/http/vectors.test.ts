// Vectors through the official client (vectors-embedders.md §4–§7, similar.md), answers checked
// against Meilisearch 1.50's:
// 1. every `_vectors` form is stored apart from the document and comes back with `retrieveVectors`
//    as `{ embeddings, regenerate }` (f32 values), on the documents routes and in hits; stats count
//    embeddings and embedded documents; `_vectors` is never in `fieldDistribution`
// 2. bad `_vectors` values fail the task with Meilisearch's codes and messages; a new document
//    without vectors for a `userProvided` embedder fails it with the count and hints; a replaced or
//    updated document without vectors keeps its own
// 3. semantic search: similarity (1 + cos) / 2 and its details, documents without a vector last,
//    filters, `semanticHitCount`, `queryVector`, the distribution shift, threshold; ratio 0 and a
//    blank query are keyword searches; the reference's errors
// 4. hybrid search merges the keyword and semantic lists; a text it cannot embed falls back to
//    keyword results
// 5. similar documents: scores, exclusion of the document itself, threshold, errors
// 6. deletions and updates change what is found; removing an embedder writes its vectors back
//    into the documents, adding it again takes them; binary quantization; a restart keeps the graph
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, startTestServer, uniqueIndex, type TestServer } from './helpers.ts';

let t: TestServer;

before(async () => {
  t = await startTestServer();
});

after(async () => {
  await t?.close();
});

async function vectorIndex(embedders: Record<string, unknown> = { manual: { source: 'userProvided', dimensions: 2 } }) {
  const uid = uniqueIndex('vec');
  const index = t.client.index(uid);
  const task = await index.updateSettings({ embedders: embedders as never, filterableAttributes: ['kind'] }).waitTask();
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
  return { uid, index };
}

async function addOk(index: ReturnType<typeof t.client.index>, docs: Record<string, unknown>[]) {
  const task = await index.addDocuments(docs).waitTask();
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
}

const round = (x: number) => Math.round(x * 1e5) / 1e5;

/** `semanticHitCount` of a search response (the client's types do not declare it). */
const semanticHits = (res: unknown) => (res as { semanticHitCount?: number }).semanticHitCount;

/** A document with `retrieveVectors` (the client's `getDocument` types do not declare it). */
async function docWithVectors(uid: string, id: number, fields?: string): Promise<Record<string, any>> {
  const res = await t.fetch('GET', `/indexes/${uid}/documents/${id}?retrieveVectors=true${fields ? `&fields=${fields}` : ''}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

test('every _vectors form is stored apart and retrieved as { embeddings, regenerate }', async () => {
  const { uid, index } = await vectorIndex();
  await addOk(index, [
    { id: 1, t: 'a', _vectors: { manual: [0.1, 3] } },
    { id: 2, t: 'b', _vectors: { manual: [[1, 2], [2, 1]], other: [5] } },
    { id: 3, _vectors: { manual: null } },
    { id: 4, _vectors: { manual: { embeddings: [1, 1], regenerate: true } } },
    { id: 5, _vectors: { manual: { regenerate: false } } },
  ]);
  const plain = await index.getDocuments();
  assert.deepEqual(plain.results, [{ id: 1, t: 'a' }, { id: 2, t: 'b' }, { id: 3 }, { id: 4 }, { id: 5 }]);
  const withVectors = await index.getDocuments({ retrieveVectors: true });
  assert.deepEqual(withVectors.results, [
    { id: 1, t: 'a', _vectors: { manual: { embeddings: [[0.10000000149011612, 3]], regenerate: false } } },
    { id: 2, t: 'b', _vectors: { other: [5], manual: { embeddings: [[1, 2], [2, 1]], regenerate: false } } },
    { id: 3, _vectors: { manual: { embeddings: [], regenerate: false } } },
    { id: 4, _vectors: { manual: { embeddings: [[1, 1]], regenerate: true } } },
    { id: 5, _vectors: { manual: { embeddings: [], regenerate: false } } },
  ]);
  const one = await docWithVectors(uid, 2, 't');
  assert.deepEqual(one, { t: 'b', _vectors: { other: [5], manual: { embeddings: [[1, 2], [2, 1]], regenerate: false } } });
  const fetched = await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { ids: ['1'], retrieveVectors: true } });
  assert.deepEqual(fetched.body.results, [withVectors.results[0]]);
  const stats = await index.getStats();
  assert.equal(stats.numberOfEmbeddings, 4);
  assert.equal(stats.numberOfEmbeddedDocuments, 3);
  assert.deepEqual(stats.fieldDistribution, { id: 5, t: 2 });
});

test('bad _vectors fail the task with Meilisearch messages; missing vectors only for new documents', async () => {
  const { uid, index } = await vectorIndex();
  const fails = async (docs: Record<string, unknown>[], code: string, message: string) => {
    const task = await index.addDocuments(docs).waitTask();
    assert.equal(task.status, 'failed');
    assert.equal(task.error?.code, code);
    assert.equal(task.error?.message, `Index \`${uid}\`: ${message}`);
  };
  await fails([{ id: 0, _vectors: { manual: [1, 2, 3] } }], 'invalid_vector_dimensions',
    'Invalid vector dimensions in document with id `0` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 3\n  - note: embedder `manual` requires 2');
  await fails([{ id: 0, _vectors: { manual: { embeddings: [1, 2] } } }], 'invalid_vectors_type',
    'Bad embedder configuration in the document with id: `0`. Missing field `._vectors.manual.regenerate`\n  - note: `._vectors.manual` must be an array of floats, an array of arrays of floats, or an object with field `regenerate`');
  await fails([{ id: 0, _vectors: { manual: { embeddings: true, regenerate: false } } }], 'invalid_vectors_type',
    'Bad embedder configuration in the document with id: `0`. Invalid value type at `._vectors.manual.embeddings`: expected null or an array, but found a boolean: `true`');
  // the 1.50 binary answers serde's message as `internal` (not the reference's "is not an object")
  await fails([{ id: 0, _vectors: [1, 2] }], 'internal', 'invalid type: sequence, expected a map at line 1 column 0');
  await fails([{ id: 0, _vectors: null }], 'internal', 'invalid type: null, expected a map at line 1 column 4');
  await fails([{ id: 0, _vectors: { manual: 'x' } }], 'invalid_vectors_type',
    'Bad embedder configuration in the document with id: `0`. Expected `._vectors.manual` to be an array of floats, an array of arrays of floats, or an object with at least the field `regenerate`, but got the string `x`');
  await fails([{ id: 0, _vectors: { manual: { embeddings: [1, 2], regenerate: 'yes please' } } }], 'invalid_vectors_type',
    'Bad embedder configuration in the document with id: `0`. Could not parse `._vectors.manual.regenerate`: invalid type: string "yes please", expected a boolean at line 1 column 45');
  await fails([{ id: 0, _vectors: { manual: { embeddings: [1, 2], regenerate: false, extra: 1 } } }], 'invalid_vectors_type',
    'Bad embedder configuration in the document with id: `0`. Could not parse `._vectors.manual`: trailing characters at line 1 column 47');
  await fails([{ id: 0, _vectors: { manual: [[1, 2], 3] } }], 'invalid_vectors_type',
    'Bad embedder configuration in the document with id: `0`. Invalid value type at `._vectors.manual[1]`: expected an array, but found a positive integer: `3`');
  await fails([{ id: 0, _vectors: { manual: Array.from({ length: 257 }, () => [1, 2]) } }], 'too_many_vectors',
    'Too many vectors for document with id 0: found 257, but limited to 256.');
  await fails([{ id: 4, t: 'd' }, { id: 5, _vector: { manual: [1, 1] } }, { id: 6, _vectors: { manaul: [1, 1] } }], 'vector_embedding_error',
    'While embedding documents for embedder `manual`: no vectors provided for document `4` and at least 2 other document(s)\n' +
      '- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.\n' +
      '- Hint: try replacing `_vector` by `_vectors` in 1 document(s).\n' +
      '- Hint: try replacing `_vectors.manaul` by `_vectors.manual` in 1 document(s).');
  await fails([{ id: 7, _vectors: { manual: { regenerate: true } } }], 'vector_embedding_error',
    'While embedding documents for embedder `manual`: no vectors provided for document `7`\n' +
      '- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.\n' +
      '- Hint: opt-out for a document with `_vectors.manual: null`');
  assert.equal((await index.getStats()).numberOfDocuments, 0, 'failed tasks left nothing');
  // an existing document replaced or updated without vectors keeps them
  await addOk(index, [{ id: 1, t: 'a', _vectors: { manual: [1, 3] } }]);
  await addOk(index, [{ id: 1, t: 'a2' }]);
  const updated = await index.updateDocuments([{ id: 1, u: true }]).waitTask();
  assert.equal(updated.status, 'succeeded');
  const doc = await docWithVectors(uid, 1);
  assert.deepEqual(doc, { id: 1, t: 'a2', u: true, _vectors: { manual: { embeddings: [[1, 3]], regenerate: false } } });
});

test('semantic search: similarity, details, documents without vectors last, filters, errors', async () => {
  const { uid, index } = await vectorIndex();
  await addOk(index, [
    { id: 1, kind: 'x', _vectors: { manual: [1, 3] } },
    { id: 2, kind: 'y', _vectors: { manual: [1, 2] } },
    { id: 3, kind: 'x', _vectors: { manual: [2, 3] } },
    { id: 4, kind: 'x', _vectors: { manual: null } },
  ]);
  const res = await index.search('', { vector: [1, 1], hybrid: { embedder: 'manual' }, showRankingScore: true, showRankingScoreDetails: true });
  assert.deepEqual(res.hits.map((h) => h.id), [3, 2, 1, 4]);
  assert.deepEqual(res.hits.map((h) => round(h._rankingScore!)), [0.99029, 0.97434, 0.94721, 0]);
  assert.deepEqual(res.hits[0]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: res.hits[0]!._rankingScore } });
  assert.deepEqual(res.hits[3]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: null } });
  assert.equal(semanticHits(res), 4);
  assert.equal(res.estimatedTotalHits, 4);
  assert.equal(res.queryVector, undefined);

  const filtered = await index.search('', { vector: [1, 1], hybrid: { embedder: 'manual' }, filter: 'kind = x', limit: 2, retrieveVectors: true });
  assert.deepEqual(filtered.hits.map((h) => h.id), [3, 1]);
  assert.deepEqual(filtered.queryVector, [1, 1]);
  assert.deepEqual(filtered.hits[0]!._vectors, { manual: { embeddings: [[2, 3]], regenerate: false } });

  const threshold = await index.search('', { vector: [1, 1], hybrid: { embedder: 'manual' }, rankingScoreThreshold: 0.96 });
  assert.deepEqual(threshold.hits.map((h) => h.id), [3, 2]);

  // distribution shift: 0.4 / sigma × s + (0.5 − 0.4 / sigma × mean), clamped to ε
  await index.updateEmbedders({ manual: { source: 'userProvided', dimensions: 2, distribution: { mean: 0.998, sigma: 0.01 } } }).waitTask();
  const shifted = await index.search('', { vector: [1, 1], hybrid: { embedder: 'manual', semanticRatio: 1 }, showRankingScore: true, limit: 2 });
  assert.deepEqual(shifted.hits.map((h) => round(h._rankingScore!)), [0.19161, 0]);
  assert.equal(shifted.hits[1]!._rankingScore, 1.1920929e-7);

  // keyword searches: ratio 0, or no q and no vector
  const keyword = await index.search('', { hybrid: { embedder: 'nope', semanticRatio: 0 }, vector: [1, 1, 1] });
  assert.equal(semanticHits(keyword), undefined);
  assert.equal(keyword.hits.length, 4);
  assert.equal(semanticHits(await index.search('  ', { hybrid: { embedder: 'nope' } })), undefined);

  await assertApiError(index.search('', { vector: [1, 1], hybrid: { embedder: 'nope' } }), 'invalid_search_embedder', 400, 'Cannot find embedder with name `nope`.');
  await assertApiError(index.search('', { vector: [1, 2, 3], hybrid: { embedder: 'manual' } }), 'invalid_vector_dimensions', 400, 'Invalid vector dimensions: expected: `2`, found: `3`.');
  await assertApiError(index.search('Captain', { hybrid: { embedder: 'manual', semanticRatio: 1 } }), 'vector_embedding_error', 400,
    'Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - `Captain`');
  const get = await t.fetch('GET', `/indexes/${uid}/search?vector=1,1&hybridEmbedder=manual&limit=1`);
  assert.deepEqual(get.body.hits.map((h: { id: number }) => h.id), [3]);

  // vectors stored before `dimensions` changed keep their length: the query must match them (1.50 binary)
  await index.updateEmbedders({ manual: { source: 'userProvided', dimensions: 3 } }).waitTask();
  await assertApiError(index.search('', { vector: [1, 2, 3], hybrid: { embedder: 'manual' } }), 'invalid_vector_dimensions', 400,
    `Index \`${uid}\`: Invalid vector dimensions: expected: \`2\`, found: \`3\`.`);
});

test('hybrid search merges keyword and semantic lists, and falls back to keyword results', async () => {
  const { index } = await vectorIndex();
  await addOk(index, [
    { id: 1, title: 'captain blue', _vectors: { manual: [0.5, 0.9] } },
    { id: 2, title: 'captain red', _vectors: { manual: [0.9, 0.1] } },
    { id: 3, title: 'green sea', _vectors: { manual: [1, 0.1] } },
  ]);
  const merged = await index.search('captain', { vector: [1, 0.1], hybrid: { embedder: 'manual', semanticRatio: 0.7 }, showRankingScore: true });
  assert.deepEqual(merged.hits.map((h) => h.id), [3, 2, 1]);
  assert.equal(semanticHits(merged), 3);
  assert.equal(merged.estimatedTotalHits, 3);
  // q cannot be embedded by a userProvided embedder: keyword results, semanticHitCount 0
  const fallback = await index.search('captain', { hybrid: { embedder: 'manual', semanticRatio: 0.7 } });
  assert.deepEqual(fallback.hits.map((h) => h.id), [1, 2]);
  assert.equal(semanticHits(fallback), 0);
  // multi-search carries hybrid queries too
  const multi = await t.client.multiSearch({ queries: [{ indexUid: index.uid, q: '', vector: [1, 0.1], hybrid: { embedder: 'manual' }, limit: 1 }] });
  assert.deepEqual(multi.results[0]!.hits.map((h) => h.id), [3]);
  // federated: a document found by both queries keeps its best score (the keyword one here)
  const federated = await t.fetch('POST', '/multi-search', {
    body: {
      federation: {},
      queries: [
        { indexUid: index.uid, q: 'captain', vector: [1, 0.1], hybrid: { embedder: 'manual', semanticRatio: 0.7 } },
        { indexUid: index.uid, q: 'captain' },
      ],
    },
  });
  assert.equal(federated.status, 200, JSON.stringify(federated.body));
  const fed = federated.body.hits.map((h: { id: number; _federation: { queriesPosition: number } }) => [h.id, h._federation.queriesPosition]);
  assert.deepEqual(fed, [[3, 0], [2, 0], [1, 1]]);
  assert.equal(federated.body.semanticHitCount, 2);
});

test('similar documents: nearest to the document, itself left out, threshold and errors', async () => {
  const { uid, index } = await vectorIndex({ manual: { source: 'userProvided', dimensions: 3 } });
  await addOk(index, [
    { id: 143, _vectors: { manual: [-0.5, 0.3, 0.85] } },
    { id: 522681, title: 'Escape Room', _vectors: { manual: [0.1, 0.6, 0.8] } },
    { id: 299537, _vectors: { manual: [0.6, 0.8, -0.2] } },
    { id: 7, _vectors: { manual: null } },
  ]);
  const res = await index.searchSimilarDocuments({ id: 143, embedder: 'manual', showRankingScore: true, showRankingScoreDetails: true });
  assert.deepEqual(res.hits.map((h) => h.id), [522681, 299537]);
  assert.equal(res.hits[0]!._rankingScore, 0.890957772731781);
  assert.deepEqual(res.hits[0]!._rankingScoreDetails, { vectorSort: { order: 0, similarity: 0.890957772731781 } });
  assert.equal((res as unknown as { id: string }).id, '143');
  assert.equal(res.estimatedTotalHits, 3);
  const cut = await index.searchSimilarDocuments({ id: 143, embedder: 'manual', rankingScoreThreshold: 0.5 });
  assert.deepEqual(cut.hits.map((h) => h.id), [522681]);
  assert.equal(cut.estimatedTotalHits, 1);
  await assertApiError(index.searchSimilarDocuments({ id: 'nope', embedder: 'manual' }), 'not_found_similar_id', 400, 'Document `nope` not found.');
  await assertApiError(index.searchSimilarDocuments({ id: 143, embedder: 'auto' }), 'invalid_similar_embedder', 400, 'Cannot find embedder with name `auto`.');
  const missing = await t.fetch('POST', `/indexes/${uid}/similar`, { body: { id: 143 } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.message, 'Missing field `embedder`');
  const get = await t.fetch('GET', `/indexes/${uid}/similar?id=143&embedder=manual&limit=1`);
  assert.deepEqual(get.body.hits, [{ id: 522681, title: 'Escape Room' }]);
});

test('several vectors a document, hybrid distinct, and an unconfigured entry in _formatted (answers of Meilisearch 1.50)', async () => {
  const { uid, index } = await vectorIndex({ e: { source: 'userProvided', dimensions: 3 } });
  await addOk(index, [
    { id: 1, t: 'red apple', kind: 'a', _vectors: { e: [1, 0, 0] } },
    { id: 2, t: 'green apple', kind: 'b', _vectors: { e: [[0, 1, 0], [0.5, 0.5, 0]] } },
    { id: 3, t: 'blue sky', kind: 'a', _vectors: { e: { embeddings: [0, 0, 1], regenerate: false } } },
    { id: 4, t: 'red sky', kind: 'b', _vectors: { e: { embeddings: [[0.6, 0, 0.8]], regenerate: true } } },
    { id: 5, t: 'no vector', kind: 'a', _vectors: { e: null, other: [1, 2] } },
  ]);
  const scores = (hits: Array<Record<string, any>>) => hits.map((h) => [h.id, h._rankingScore]);
  // a search compares every vector of a document: 2 takes its best, (1 + cos 45°) / 2
  const semantic = await index.search('', { vector: [1, 0, 0], hybrid: { embedder: 'e', semanticRatio: 1 }, showRankingScore: true, limit: 2 });
  assert.deepEqual(scores(semantic.hits), [[1, 1], [2, 0.8535534143447876]]);
  // similar compares each of the document's vectors with the k-th vectors of the others only:
  // 1 has one vector, so 2's second vector is not seen; 2's second has no other to meet
  const ofOne = await index.searchSimilarDocuments({ id: 1, embedder: 'e', showRankingScore: true });
  assert.deepEqual(scores(ofOne.hits), [[4, 0.800000011920929], [2, 0.5], [3, 0.5]]);
  const ofTwo = await index.searchSimilarDocuments({ id: 2, embedder: 'e', showRankingScore: true });
  assert.deepEqual(scores(ofTwo.hits), [[1, 0.5], [3, 0.5], [4, 0.5]]);
  // hybrid with distinct: distinct again over the merged list, and out of the count
  const distinct = await index.search('sky', { vector: [1, 0, 0], hybrid: { embedder: 'e', semanticRatio: 0.5 }, distinct: 'kind' });
  assert.deepEqual(distinct.hits.map((h) => h.id), [1, 4]);
  assert.equal(distinct.estimatedTotalHits, 2);
  assert.equal(semanticHits(distinct), 1);
  // the entry of an embedder that is not configured stays in the document: never in the hit
  // without retrieveVectors, but formatted (and matched) as any field
  const formatted = await t.fetch('POST', `/indexes/${uid}/search`, {
    body: { q: 'vector 1', attributesToHighlight: ['*'], showMatchesPosition: true, matchingStrategy: 'last' },
  });
  assert.deepEqual(formatted.body.hits, [{
    id: 5, t: 'no vector', kind: 'a',
    _formatted: { id: '5', t: 'no <em>vector</em>', kind: 'a', _vectors: { other: ['<em>1</em>', '2'] } },
    _matchesPosition: { '_vectors.other': [{ start: 0, length: 1, indices: [0] }], t: [{ start: 3, length: 6 }] },
  }]);
  const inner = await t.fetch('POST', `/indexes/${uid}/search`, { body: { q: 'vector', attributesToHighlight: ['_vectors.other'] } });
  assert.deepEqual(inner.body.hits, [{ id: 5, t: 'no vector', kind: 'a' }]);
  // a hybrid facet search counts every document of its filter, whatever the text (Meilisearch 1.50)
  const facets = await index.searchForFacetValues({ facetName: 'kind', q: 'zzzz', hybrid: { embedder: 'e', semanticRatio: 0.5 } } as never);
  assert.deepEqual(facets.facetHits, [{ value: 'a', count: 3 }, { value: 'b', count: 2 }]);
  const keyword = await index.searchForFacetValues({ facetName: 'kind', q: 'sky', hybrid: { embedder: 'e', semanticRatio: 0 } } as never);
  assert.deepEqual(keyword.facetHits, [{ value: 'a', count: 1 }, { value: 'b', count: 1 }]);
  // displayedAttributes without `_vectors` does not hide it from retrieveVectors (Meilisearch 1.50)
  await index.updateDisplayedAttributes(['id', 't']).waitTask();
  const shown = await index.search('', { filter: 'kind = b', retrieveVectors: true, limit: 1 });
  assert.deepEqual(shown.hits, [{ id: 2, t: 'green apple', _vectors: { e: { embeddings: [[0, 1, 0], [0.5, 0.5, 0]], regenerate: false } } }]);
});

test('a userProvided embedder added to stored documents fails its task while any lacks an entry (Meilisearch 1.50)', async () => {
  const uid = uniqueIndex('vec');
  const index = t.client.index(uid);
  await addOk(index, [{ id: 1 }, { id: 2, _vectors: { m: [1, 2] } }, { id: 3, _vectors: { m: null } }, { id: 4, _vectors: { mm: [1, 2] } }, { id: 5, _vector: { m: [1, 2] } }]);
  const add = (embedders: Record<string, unknown>) => index.updateSettings({ embedders: embedders as never }).waitTask();
  const m = { source: 'userProvided', dimensions: 2 };
  let task = await add({ m });
  assert.equal(task.status, 'failed');
  assert.equal(task.error?.code, 'vector_embedding_error');
  assert.equal(
    task.error?.message,
    `Index \`${uid}\`: While embedding documents for embedder \`m\`: no vectors provided for document \`1\` and at least 2 other document(s)\n` +
      '- Note: `m` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.m`.\n' +
      '- Hint: try replacing `_vector` by `_vectors` in 1 document(s).',
  );
  // nothing of the failed task stays: no embedder, and document 2 keeps its entry
  assert.deepEqual(await index.getEmbedders(), {});
  assert.deepEqual(await docWithVectors(uid, 2), { id: 2, _vectors: { m: [1, 2] } });
  await index.deleteDocuments([1, 4, 5]).waitTask();
  task = await add({ m });
  assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
  task = await add({ m, n: m });
  assert.equal(task.status, 'failed');
  assert.match(task.error!.message, /embedder `n`: no vectors provided for document `2` and at least 1 other document\(s\)\n.*\n- Hint: opt-out for a document with `_vectors.n: null`$/);
});

test('documents routes take _vectors out as Meilisearch does: the last field moves into its place', async () => {
  const uid = uniqueIndex('vec');
  await addOk(t.client.index(uid), [{ id: 1, _vectors: { manual: [0.5] }, title: 't', genre: 'g' }]);
  const keys = async (path: string) => Object.keys((await t.fetch('GET', path)).body);
  assert.deepEqual(await keys(`/indexes/${uid}/documents/1`), ['id', 'genre', 'title']);
  assert.deepEqual(await keys(`/indexes/${uid}/documents/1?retrieveVectors=true`), ['id', 'genre', 'title', '_vectors']);
  const listed = await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: {} });
  assert.deepEqual(Object.keys(listed.body.results[0]), ['id', 'genre', 'title']);
});

test('binary-quantized similarity counts the bits of whole 64-bit words (Meilisearch 1.50)', async () => {
  // one component of the query negated: one bit apart, whatever the length
  const scores: number[] = [];
  for (const dimensions of [3, 65, 130]) {
    const { index } = await vectorIndex({ q: { source: 'userProvided', dimensions, binaryQuantized: true } });
    const ones = Array.from({ length: dimensions }, () => 1);
    await addOk(index, [{ id: 1, _vectors: { q: ones } }]);
    const res = await index.search('', { vector: [-1, ...ones.slice(1)], hybrid: { embedder: 'q', semanticRatio: 1 }, showRankingScore: true });
    scores.push(res.hits[0]!._rankingScore!);
  }
  assert.deepEqual(scores, [0.984375, 0.9921875, 0.9947916865348816]);
});

test('userProvided vectors marked regenerate: true must come again when their document changes (Meilisearch 1.50)', async () => {
  const { index } = await vectorIndex({ e: { source: 'userProvided', dimensions: 3 } });
  await addOk(index, [
    { id: 1, t: 'a', _vectors: { e: [1, 0, 0] } },
    { id: 2, t: 'b', _vectors: { e: { embeddings: [1, 0, 0], regenerate: true } } },
    { id: 4, t: 'd', _vectors: { e: { regenerate: false } } },
  ]);
  const outcome = async (task: Promise<{ status: string; error?: { message: string } | null }>) => {
    const done = await task;
    return done.status === 'succeeded' ? 'ok' : /no vectors provided for document `(\d+)`/.exec(done.error?.message ?? '')?.[1];
  };
  const replace = (doc: Record<string, unknown>) => outcome(index.addDocuments([doc]).waitTask());
  const update = (doc: Record<string, unknown>) => outcome(index.updateDocuments([doc]).waitTask());
  // regenerate: false (the array form) stays through a replacement without vectors
  assert.equal(await replace({ id: 1, t: 'a2' }), 'ok');
  // regenerate: true cannot be regenerated by a userProvided embedder: replaced or updated
  // with other content, the document fails its task; unchanged, it passes
  assert.equal(await replace({ id: 2, t: 'b2' }), '2');
  assert.equal(await update({ id: 2, t: 'b3' }), '2');
  assert.equal(await replace({ id: 2, t: 'b' }), 'ok');
  assert.equal(await update({ id: 2 }), 'ok');
  // `{ regenerate: false }` without embeddings keeps what is stored, even its regenerate: true
  assert.equal(await update({ id: 2, t: 'bb', _vectors: { e: { regenerate: false } } }), 'ok');
  assert.deepEqual((await docWithVectors(index.uid, 2))._vectors, { e: { embeddings: [[1, 0, 0]], regenerate: true } });
  // `{ regenerate: true }` without embeddings asks for vectors nothing can give
  assert.equal(await replace({ id: 4, t: 'd2', _vectors: { e: { regenerate: true } } }), '4');
  assert.equal(await update({ id: 4, t: 'd3' }), 'ok');
});

test('hybrid merge compares score values: a sort rule splits the keyword score, and it wins (Meilisearch 1.50)', async () => {
  const { index } = await vectorIndex({ m: { source: 'userProvided', dimensions: 2 } });
  await index.updateSortableAttributes(['year']).waitTask();
  await addOk(index, [
    { id: 1, title: 'apple pie', year: 2001, _vectors: { m: [0.2, 1] } },
    { id: 2, title: 'banana bread', year: 1999, _vectors: { m: [1, 0.05] } },
    { id: 3, title: 'cherry tart', year: 2010, _vectors: { m: [1, 0.1] } },
    { id: 4, title: 'apple crumble and more words here', year: 2005, _vectors: { m: [0.9, 0.3] } },
  ]);
  const ids = async (extra: Record<string, unknown>) => {
    const res = await index.search('apple', { vector: [1, 0.08], hybrid: { embedder: 'm', semanticRatio: 0.5 }, ...extra });
    return [res.hits.map((h) => h.id), semanticHits(res)];
  };
  // without sort the global scores decide: the semantic hits (0.9999, 0.9998) pass the keyword ones (0.985)
  assert.deepEqual(await ids({}), [[3, 2, 4, 1], 3]);
  // `year:desc` sits between the relevancy rules: the keyword hits' first value is their words
  // score (1 × 0.5), above any similarity × 0.5; they come first, in their own (sorted) order
  assert.deepEqual(await ids({ sort: ['year:desc'] }), [[4, 1, 3, 2], 2]);
});

test('deletes, updates, embedder removal and re-adding, quantization, restart', async () => {
  const dims = 8;
  const vector = (i: number) => Array.from({ length: dims }, (_, d) => Math.sin(i * 0.7 + d * 1.3));
  const { uid, index } = await vectorIndex({ manual: { source: 'userProvided', dimensions: dims } });
  await addOk(index, Array.from({ length: 300 }, (_, i) => ({ id: i, _vectors: { manual: vector(i) } })));
  const nearest = async (q: number[], limit = 1) => (await index.search('', { vector: q, hybrid: { embedder: 'manual' }, limit })).hits.map((h) => h.id);
  assert.deepEqual(await nearest(vector(42)), [42]);
  await index.deleteDocument(42).waitTask();
  assert.ok(!(await nearest(vector(42), 10)).includes(42));
  await addOk(index, [{ id: 7, _vectors: { manual: vector(1000) } }]);
  assert.deepEqual(await nearest(vector(1000)), [7]);

  // removing the embedder writes the vectors back; adding it again takes them
  await index.updateEmbedders({ manual: null }).waitTask();
  const back = await docWithVectors(uid, 7);
  assert.equal((back._vectors as { manual: { regenerate: boolean } }).manual.regenerate, false);
  assert.equal((await index.getStats()).numberOfEmbeddings, 0);
  await index.updateEmbedders({ manual: { source: 'userProvided', dimensions: dims } }).waitTask();
  assert.equal((await index.getStats()).numberOfEmbeddedDocuments, 299);
  assert.deepEqual(await nearest(vector(1000)), [7]);
  assert.deepEqual((await docWithVectors(uid, 7))._vectors, { manual: { embeddings: [vector(1000).map(Math.fround)], regenerate: false } });

  // binary quantization: 0/1 components, Hamming similarity
  await index.updateEmbedders({ manual: { source: 'userProvided', dimensions: dims, binaryQuantized: true } }).waitTask();
  const quantized = await docWithVectors(uid, 7);
  const embeddings = (quantized._vectors as { manual: { embeddings: number[][] } }).manual.embeddings[0]!;
  assert.deepEqual(embeddings, vector(1000).map((x) => (x > 0 ? 1 : 0)));
  const top = await index.search('', { vector: vector(1000), hybrid: { embedder: 'manual' }, limit: 1, showRankingScore: true });
  assert.equal(top.hits[0]!._rankingScore, 1);

  // a restart keeps the graphs
  const dbPath = t.dbPath;
  const before = await nearest(vector(123), 5);
  await t.server.close();
  const again = await startTestServer({ dbPath });
  try {
    const res = await again.client.index(uid).search('', { vector: vector(123), hybrid: { embedder: 'manual' }, limit: 5 });
    assert.deepEqual(res.hits.map((h) => h.id), before);
  } finally {
    await again.server.close();
    t = await startTestServer({ dbPath });
  }
});

test('_vectors filters (multimodal): embedded, user-provided and regenerate documents; unknown embedder', async () => {
  const { uid, index } = await vectorIndex();
  await addOk(index, [
    { id: 1, _vectors: { manual: [1, 3] } },
    { id: 2, _vectors: { manual: { embeddings: [1, 2], regenerate: true } } },
    { id: 3, _vectors: { manual: null } },
    { id: 4, _vectors: { manual: { regenerate: false } } },
  ]);
  const ids = async (filter: string) => (await index.search('', { filter })).hits.map((h) => h.id);
  await assertApiError(index.search('', { filter: '_vectors EXISTS' }), 'feature_not_enabled', 400);
  await t.client.updateExperimentalFeatures({ multimodal: true });
  try {
    assert.deepEqual(await ids('_vectors EXISTS'), [1, 2]);
    assert.deepEqual(await ids('_vectors.manual EXISTS'), [1, 2]);
    assert.deepEqual(await ids('_vectors.manual NOT EXISTS'), [3, 4]);
    // a userProvided embedder's vectors are all the user's, `regenerate: true` too, and `null`;
    // `{ regenerate: false }` alone gives none (Meilisearch 1.50)
    assert.deepEqual(await ids('_vectors.manual.userProvided EXISTS'), [1, 2, 3]);
    assert.deepEqual(await ids('_vectors.manual.regenerate EXISTS'), [2]);
    assert.deepEqual(await ids('_vectors.manual.documentTemplate EXISTS'), []);
    await assertApiError(index.search('', { filter: '_vectors.nope EXISTS' }), 'invalid_search_filter', 400,
      `Index \`${uid}\`: The embedder \`nope\` does not exist. Available embedders are: \`manual\`.\n11:15 _vectors."nope" EXISTS`);
    const fetched = await t.fetch('POST', `/indexes/${uid}/documents/fetch`, { body: { filter: '_vectors EXISTS' } });
    assert.deepEqual(fetched.body.results.map((d: { id: number }) => d.id), [1, 2]);
  } finally {
    await t.client.updateExperimentalFeatures({ multimodal: false });
  }
});

test('deleting every document empties the vector store and its counts', async () => {
  const { index } = await vectorIndex();
  await addOk(index, [{ id: 1, _vectors: { manual: [1, 0] } }, { id: 2, _vectors: { manual: [0, 1] } }]);
  await index.deleteAllDocuments().waitTask();
  const stats = await index.getStats();
  assert.equal(stats.numberOfEmbeddings, 0);
  assert.equal(stats.numberOfEmbeddedDocuments, 0);
  await addOk(index, [{ id: 3, _vectors: { manual: [1, 1] } }]);
  assert.equal((await index.getStats()).numberOfEmbeddings, 1);
  const res = await index.search('', { vector: [1, 0], hybrid: { embedder: 'manual' } });
  assert.deepEqual(res.hits.map((h) => h.id), [3]);
});
