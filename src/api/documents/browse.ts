// GET /documents and POST /documents/fetch (documents.md §4.2): the candidate set (ids ∩
// filter), its order (internal ids, or the `sort` criteria over the facet index) and the page.
import { Bitmap } from '../../engine/bitmap/index.ts';
import { facetReader } from '../../engine/facet/index.ts';
import { selectFields } from '../../engine/index/fields.ts';
import type { Index } from '../../engine/index/index.ts';
import { swapRemove } from '../../engine/json.ts';
import { placeholderSearch } from '../../engine/search/rank/index.ts';
import { ApiError } from '../errors/index.ts';
import { compileFilter, type FilterFeatures } from '../filter/index.ts';
import { firstNotSortable, notSortable, parseSort, type SortCriterion } from '../search/sort.ts';
import { settingsOf, type Settings } from '../settings/index.ts';
import type { FetchDocuments } from './fetch.ts';
import { vectorFilterSource, vectorsOf } from '../vectors/retrieve.ts';

export interface DocumentsPageView {
  results: Record<string, unknown>[];
  offset: number;
  limit: number;
  total: number;
}

/** One page of an index's documents as the browse and fetch routes answer it. */
export function browseDocuments(index: Index, indexUid: string, p: FetchDocuments, features: FilterFeatures): DocumentsPageView {
  const filter = compileFilter(p.filter, 'documents', features);
  const settings = settingsOf(index);
  const sort = documentSort(p.sort, settings);
  let ids: Bitmap | undefined;
  if (p.ids !== null) {
    ids = new Bitmap();
    for (const ext of p.ids) {
      const id = index.internalId(ext);
      if (id !== undefined) ids.add(id);
    }
  }
  if (filter !== null) {
    const target = { filterableAttributes: settings.filterableAttributes, reader: facetReader(index), documents: index.usedIds(), vectors: vectorFilterSource(index, settings) };
    const matched = filter.evaluate(target, indexUid);
    ids = ids === undefined ? matched : Bitmap.and(ids, matched);
  }
  const order = index.fieldsOrder();
  const vectors = p.retrieveVectors ? vectorsOf(index, settings) : null;
  const view = (docs: Record<string, unknown>[], docIds: number[], total: number): DocumentsPageView => ({
    results: docs.map((d, i) => present(d, p.fields, p.retrieveVectors, order, vectors?.(docIds[i]!))),
    offset: p.offset,
    limit: p.limit,
    total,
  });
  if (sort.length === 0) {
    const page = index.documentsPage({ offset: p.offset, limit: p.limit, ...(ids ? { ids } : {}) });
    return view(page.results, page.ids, page.total);
  }
  const universe = ids ?? index.usedIds();
  const ranked = placeholderSearch(
    universe,
    { facets: facetReader(index) },
    { offset: p.offset, limit: p.limit, scores: false, threshold: null, deadline: Infinity, sort },
    { rankingRules: ['sort'] },
  );
  const docs: Record<string, unknown>[] = [];
  const docIds: number[] = [];
  for (const id of ranked.ids) {
    const doc = index.documentById(id);
    if (doc) (docs.push(doc), docIds.push(id));
  }
  return view(docs, docIds, universe.size);
}

/**
 * The `sort` of the documents routes: search's syntax and messages under
 * `invalid_document_sort`, every field sortable; no `sort` ranking rule is needed.
 */
function documentSort(sort: string[] | null, settings: Settings): SortCriterion[] {
  const criteria = parseSort(sort, 'invalid_document_sort');
  const field = firstNotSortable(criteria, settings);
  if (field !== null) throw new ApiError('invalid_document_sort', notSortable(field, settings));
  return criteria;
}

/**
 * A stored document as the documents routes return it: `_vectors` only on request, then always,
 * the document's own entries followed by the embedders' (`vectors`).
 */
export function present(
  doc: Record<string, unknown>,
  fields: string[] | null,
  retrieveVectors: boolean,
  order: readonly string[],
  vectors: Record<string, unknown> = {},
): Record<string, unknown> {
  let out = fields === null ? doc : selectFields(doc, fields, order);
  const own = Object.prototype.hasOwnProperty.call(out, '_vectors');
  if (!retrieveVectors && !own) return out;
  // Meilisearch takes `_vectors` out with serde_json's swap_remove: the last field moves into its place
  out = { ...out };
  if (own) swapRemove(out, '_vectors');
  if (!retrieveVectors) return out;
  const entries = doc._vectors !== null && typeof doc._vectors === 'object' && !Array.isArray(doc._vectors) ? doc._vectors : {};
  out._vectors = { ...entries, ...vectors };
  return out;
}

/**
 * A stored document as dumps and exports write it: unchanged without embeddings, else with every
 * embedder's entry in `_vectors` (`{ embeddings, regenerate }`) after its own ones.
 */
export function transferDocument(doc: Record<string, unknown>, vectors: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(vectors).length === 0) return doc;
  const own = doc._vectors !== null && typeof doc._vectors === 'object' && !Array.isArray(doc._vectors) ? doc._vectors : {};
  const out = { ...doc };
  delete out._vectors;
  out._vectors = { ...own, ...vectors };
  return out;
}
