import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPaths } from '../../engine/index/fields.ts';
import { Tokenizer } from '../../engine/tokenizer/index.ts';
import { buildHits, haversine, numberText, type EngineHit, type HitContext } from './hits.ts';
import { MatchingWords } from './matching-words.ts';
import { parseSearchBody } from './query.ts';

const tokenizer = new Tokenizer();
// NESTED_DOCUMENTS[0] of Meilisearch's tests
const DOC = {
  id: 852, father: 'jean', mother: 'michelle',
  doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }],
  cattos: 'pésti',
};
const FIELDS = fieldPaths(DOC);

function ctx(displayed: string[] | null = null, fields: readonly string[] = FIELDS): HitContext {
  return { fields, displayedAttributes: displayed, tokenizer };
}

function hit(body: Record<string, unknown>, words: MatchingWords, c: HitContext = ctx(), doc: Record<string, unknown> = DOC, extra: Partial<EngineHit> = {}) {
  const [h] = buildHits(parseSearchBody(body), { hits: [{ document: doc, ...extra }], matchingWords: words }, c);
  return h;
}

const PESTI = MatchingWords.fromWords([], ['pesti']);
const BOBBY = MatchingWords.fromWords([], ['bobby']);

test('formatted.rs formatted_contain_wildcard (displayed: id, cattos)', () => {
  const c = ctx(['id', 'cattos']);
  const cases: [Record<string, unknown>, unknown][] = [
    [{ q: 'pésti', attributesToRetrieve: ['father', 'mother'], attributesToHighlight: ['father', 'mother', '*'], attributesToCrop: ['doggos'], showMatchesPosition: true },
      { _formatted: { id: '852', cattos: '<em>pésti</em>' }, _matchesPosition: { cattos: [{ start: 0, length: 6 }] } }],
    [{ q: 'pésti', attributesToRetrieve: ['*'] }, { id: 852, cattos: 'pésti' }],
    [{ q: 'pésti', attributesToRetrieve: ['*'], attributesToHighlight: ['id'], showMatchesPosition: true },
      { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' }, _matchesPosition: { cattos: [{ start: 0, length: 6 }] } }],
    [{ q: 'pésti', attributesToRetrieve: ['*'], attributesToCrop: ['*'] }, { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } }],
    [{ q: 'pésti', attributesToCrop: ['*'] }, { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } }],
  ];
  for (const [body, want] of cases) assert.deepEqual(hit(body, PESTI, c), want, JSON.stringify(body));
});

test('formatted.rs format_nested', () => {
  const both = [{ name: 'bobby' }, { name: 'buddy' }];
  const cases: [Record<string, unknown>, MatchingWords, unknown][] = [
    [{ q: 'pésti', attributesToRetrieve: ['doggos'] }, PESTI, { doggos: DOC.doggos }],
    [{ q: 'pésti', attributesToRetrieve: ['doggos.name'] }, PESTI, { doggos: both }],
    [{ q: 'bobby', attributesToRetrieve: ['doggos.name'], showMatchesPosition: true }, BOBBY,
      { doggos: both, _matchesPosition: { 'doggos.name': [{ start: 0, length: 5, indices: [0] }] } }],
    [{ q: 'pésti', attributesToRetrieve: [], attributesToHighlight: ['doggos.name'] }, PESTI, { _formatted: { doggos: both } }],
    [{ q: 'pésti', attributesToRetrieve: [], attributesToCrop: ['doggos.name'] }, PESTI, { _formatted: { doggos: both } }],
    [{ q: 'pésti', attributesToRetrieve: ['doggos.name'], attributesToHighlight: ['doggos.age'] }, PESTI,
      { doggos: both, _formatted: { doggos: [{ name: 'bobby', age: '2' }, { name: 'buddy', age: '4' }] } }],
    [{ q: 'pésti', attributesToRetrieve: [], attributesToHighlight: ['doggos.age'], attributesToCrop: ['doggos.name'] }, PESTI,
      { _formatted: { doggos: [{ name: 'bobby', age: '2' }, { name: 'buddy', age: '4' }] } }],
    [{ q: 'bobby', attributesToRetrieve: [], attributesToHighlight: ['doggos'] }, BOBBY,
      { _formatted: { doggos: [{ name: '<em>bobby</em>', age: '2' }, { name: 'buddy', age: '4' }] } }],
  ];
  for (const [body, words, want] of cases) assert.deepEqual(hit(body, words), want, JSON.stringify(body));
});

test('formatted.rs displayedattr_2_smol (displayed: id)', () => {
  const c = ctx(['id']);
  const formattedId = { _formatted: { id: '852' } };
  const cases: [Record<string, unknown>, unknown][] = [
    [{ attributesToRetrieve: ['father', 'id'], attributesToHighlight: ['mother'], attributesToCrop: ['cattos'] }, { id: 852 }],
    [{ attributesToRetrieve: ['id'] }, { id: 852 }],
    [{ attributesToHighlight: ['id'] }, { id: 852, ...formattedId }],
    [{ attributesToCrop: ['id'] }, { id: 852, ...formattedId }],
    [{ attributesToHighlight: ['id'], attributesToCrop: ['id'] }, { id: 852, ...formattedId }],
    [{ attributesToHighlight: ['cattos'] }, { id: 852 }],
    [{ attributesToCrop: ['cattos'] }, { id: 852 }],
    [{ attributesToRetrieve: ['cattos'] }, {}],
    [{ attributesToRetrieve: ['cattos'], attributesToHighlight: ['cattos'], attributesToCrop: ['cattos'] }, {}],
    [{ attributesToRetrieve: ['cattos'], attributesToHighlight: ['id'] }, formattedId],
    [{ attributesToRetrieve: ['cattos'], attributesToCrop: ['id'] }, formattedId],
  ];
  for (const [body, want] of cases) assert.deepEqual(hit(body, MatchingWords.none(), c), want, JSON.stringify(body));
});

test('search.md §12: highlight, retrieve and score', () => {
  const doc = { id: '166428', title: 'How to Train Your Dragon: The Hidden World', overview: 'x' };
  const body = { q: 'train dragon', showRankingScore: true, attributesToHighlight: ['title'], attributesToRetrieve: ['id', 'title'], limit: 2 };
  const h = hit(body, MatchingWords.fromWords(['train'], ['dragon']), ctx(null, fieldPaths(doc)), doc, { score: 0.9490740740740741 });
  assert.deepEqual(h, {
    id: '166428',
    title: 'How to Train Your Dragon: The Hidden World',
    _formatted: { id: '166428', title: 'How to <em>Train</em> Your <em>Dragon</em>: The Hidden World' },
    _rankingScore: 0.9490740740740741,
  });
});

test('search.md §7.3: crop length per attribute and cropMarker', () => {
  const doc = { title: 'Le Petit Prince', overview: 'Un aviateur rencontre un petit prince venu d une autre planète' };
  const c = ctx(null, fieldPaths(doc));
  const prince = MatchingWords.fromWords([], ['prince']);
  const body = { q: 'prince', attributesToCrop: ['title'], cropLength: 2, attributesToHighlight: ['title'], attributesToRetrieve: ['title'] };
  assert.deepEqual(hit(body, prince, c, doc), { title: 'Le Petit Prince', _formatted: { title: '…Petit <em>Prince</em>' } });
  const perAttr = { attributesToCrop: ['overview:3', 'title:x'], cropLength: 1, cropMarker: '[…]', attributesToRetrieve: [] };
  // `title:x` is not a length: the query's `cropLength` (1) applies
  assert.deepEqual(hit(perAttr, prince, c, doc), { _formatted: { title: '[…]Prince', overview: '[…]petit prince venu[…]' } });
  assert.deepEqual(hit(perAttr, MatchingWords.none(), c, doc), { _formatted: { title: 'Le[…]', overview: 'Un aviateur rencontre[…]' } });
});

test('hit keys: index field order, then decorations in order', () => {
  const doc = { title: 'Hobbit', _geo: { lat: '34.0522', lng: -118.2437 }, id: 1 };
  const fields = ['id', 'title', '_geo', '_geo.lat', '_geo.lng'];
  const body = {
    q: 'hob', sort: ['_geoPoint(45.4777599, 9.1967508):asc'], attributesToHighlight: ['title'],
    showMatchesPosition: true, showRankingScore: true, showRankingScoreDetails: true,
  };
  const details = { words: { order: 0, matchingWords: 1, maxMatchingWords: 1, score: 1.0 } };
  const h = hit(body, MatchingWords.fromWords([], ['hob']), ctx(null, fields), doc, { score: 0.5, scoreDetails: details })!;
  assert.deepEqual(Object.keys(h), ['id', 'title', '_geo', '_geoDistance', '_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails']);
  assert.equal(h._geoDistance, 9714063);
  assert.deepEqual(h._formatted, { id: '1', title: '<em>Hob</em>bit', _geo: { lat: '34.0522', lng: '-118.2437' } });
  assert.deepEqual(h._matchesPosition, { title: [{ start: 0, length: 3 }] });
  assert.deepEqual(h._rankingScoreDetails, details);
  // no `_geo` retrieved: no distance
  assert.equal(hit({ ...body, attributesToRetrieve: ['id'] }, MatchingWords.none(), ctx(null, fields), doc)!._geoDistance, undefined);
});

test('_matchesPosition: every displayed field, keys sorted, numbers as text, one entry per path', () => {
  const doc = { title: 'cat and dog', tags: ['blue cat', 'red cat', 'dog'], id: 852, secret: 'cat' };
  const c = ctx(['title', 'tags', 'id'], fieldPaths(doc));
  const h = hit({ q: 'cat 852', showMatchesPosition: true, attributesToRetrieve: ['id'] }, MatchingWords.fromWords(['cat', '852']), c, doc);
  assert.deepEqual(h, {
    id: 852,
    _matchesPosition: {
      id: [{ start: 0, length: 3 }],
      // Meilisearch keeps the last array element with matches for a path
      tags: [{ start: 4, length: 3, indices: [1] }],
      title: [{ start: 0, length: 3 }],
    },
  });
  assert.deepEqual(hit({ showMatchesPosition: true }, MatchingWords.none(), c, doc)!._matchesPosition, {});
});

test('_vectors only with retrieveVectors, moved last and merged with the embeddings', () => {
  const doc = { id: 1, _vectors: { manual: [0.5] }, title: 't', genre: 'g' };
  const c = ctx(null, fieldPaths(doc));
  const vectors = { default: { embeddings: [[1, 2]], regenerate: false } };
  assert.deepEqual(Object.keys(hit({}, MatchingWords.none(), c, doc, { vectors })!), ['id', 'title', 'genre']);
  const h = hit({ retrieveVectors: true, attributesToHighlight: ['*'] }, MatchingWords.none(), c, doc, { vectors })!;
  // serde_json's swap_remove: the last field takes `_vectors`' place
  assert.deepEqual(Object.keys(h), ['id', 'genre', 'title', '_vectors', '_formatted']);
  assert.deepEqual(h._vectors, { manual: [0.5], ...vectors });
  // the document's own `_vectors` (embedders not configured) is formatted as any field (Meilisearch 1.50)
  assert.deepEqual(h._formatted, { id: '1', _vectors: { manual: ['0.5'] }, title: 't', genre: 'g' });
  assert.deepEqual(Object.keys(h._formatted as object), ['id', '_vectors', 'title', 'genre']);
  // displayedAttributes without `_vectors` does not hide it (Meilisearch 1.50 answers so)
  const shown = hit({ retrieveVectors: true }, MatchingWords.none(), ctx(['id'], fieldPaths(doc)), doc, { vectors });
  assert.deepEqual(shown, { id: 1, _vectors: { manual: [0.5], ...vectors } });
  assert.deepEqual(hit({ retrieveVectors: true }, MatchingWords.none(), ctx(['id', '_vectors'], ['id']), { id: 2 }), { id: 2, _vectors: {} });
});

test('localizedAttributes choose the tokenizer of each field unless the query has locales', () => {
  const doc = { title: 'små', title_sv: 'små' };
  const c: HitContext = { ...ctx(null, fieldPaths(doc)), localizedAttributes: [{ attributePatterns: ['*_sv'], locales: ['swe'] }] };
  const body = { attributesToHighlight: ['*'], attributesToRetrieve: [] };
  const swedish = MatchingWords.fromWords(['små']);
  const plain = MatchingWords.fromWords(['sma']);
  assert.deepEqual(hit(body, swedish, c, doc), { _formatted: { title: 'små', title_sv: '<em>små</em>' } });
  assert.deepEqual(hit(body, plain, c, doc), { _formatted: { title: '<em>små</em>', title_sv: 'små' } });
  assert.deepEqual(hit({ ...body, locales: ['fra'] }, plain, c, doc), { _formatted: { title: '<em>små</em>', title_sv: '<em>små</em>' } });
});

test('ranking score defaults and helpers', () => {
  assert.deepEqual(hit({ showRankingScore: true, showRankingScoreDetails: true, attributesToRetrieve: [] }, MatchingWords.none()), {
    _rankingScore: 1, _rankingScoreDetails: {},
  });
  assert.equal(numberText(1e21), '1e21');
  assert.equal(numberText(-2.5), '-2.5');
  assert.equal(Math.round(haversine(45.4777599, 9.1967508, 34.0522, -118.2437)), 9714063);
});
