// Writes documents into an index inside one write transaction: additions (replace or
// partial update), deletions by id, clear. Internal ids are dense u32, the smallest free
// one first (documents.md §2.8). Callers run each task in a child transaction and use
// `checkpoint`/`rollback` so that a failing task leaves no trace.
import { Bitmap, bitmapBytes } from '../bitmap/index.ts';
import { EngineError } from '../errors.ts';
import { parseDocument, type Index } from '../index/index.ts';
import type { SearchConfig } from './search-config.ts';
import type { SearchChunk } from './search-delta.ts';
import type { FlushProgress } from './search-flush.ts';
import { SearchIndexWriter, type SearchWriterOptions } from './search-writer.ts';
import { countsInDistribution, documentFields, type DocumentFields } from '../index/fields.ts';
import { documentId, inferPrimaryKey } from '../index/primary-key.ts';
import { FacetIndexWriter, type FacetConfig, type FacetWriterOptions, type SourcedFacetChunk } from '../facet/index.ts';
import { setKey } from '../json.ts';
import { StoredEmbeddings, VectorIndexWriter, vectorsObject, type EmbedderConfig } from '../vector/index.ts';
import { DocumentVectors, type VectorEntries } from './document-vectors.ts';
import type { IndexPart } from './part.ts';

const MAX_FIELDS = 65_535;

interface WriterState {
  used: Bitmap;
  free: Bitmap;
  nextId: number;
  distribution: Map<string, number>;
  fieldsOrder: string[];
  documentBytes: number;
  primaryKey: string | null;
  /** the parts when the task started (a settings task may replace the vectors part) and their checkpoints */
  parts: { list: IndexPart[]; vectors: DocumentVectors | null; checkpoints: unknown[] };
}

export interface DocumentsWriterOptions extends SearchWriterOptions {
  /** what facet indexing runs with; without it no facet tables are written */
  facets?: FacetConfig;
  /** options of the facet writer (tests lower its bound of pending changes) */
  facetWriter?: FacetWriterOptions;
  /** the index's embedders; without any no vector is stored */
  vectors?: readonly EmbedderConfig[];
}

/** A document's place in a chunk of search data made by the extractor thread. */
export interface ExtractedSearch {
  chunk: SearchChunk;
  index: number;
}

/** A document's place in a chunk of facet data made by the extractor thread. */
export interface ExtractedFacets {
  chunk: SourcedFacetChunk;
  index: number;
}

/** A document parsed by the extractor thread (engine/indexing/extract). */
export interface ExtractedInput {
  id: string;
  /** its compact JSON text (stored as is) */
  json: Uint8Array;
  fields: DocumentFields;
  /** its chunk's search data when the extractor ran with the writer's `searchConfig` */
  search?: ExtractedSearch | null;
  /** its chunk's facet data when the extractor ran with the writer's `facetConfig` */
  facets?: ExtractedFacets | null;
}

export interface AddOptions {
  method: 'replace' | 'update';
  /** primary key given with the task, if any */
  primaryKey: string | null;
  skipCreation: boolean;
}

/** Mutable view of an index during one batch. */
export class DocumentsWriter {
  readonly index: Index;
  #s: WriterState;
  #fieldSet: Set<string>;
  /** When the index starts the batch empty, ids written by this batch are all the ids there are. */
  readonly #emptyAtStart: boolean;
  readonly #knownIds = new Map<string, number>();
  /** field path → field id (its rank in the field order) */
  #fids: Map<string, number>;
  readonly #search: SearchIndexWriter | null;
  readonly #facets: FacetIndexWriter | null;
  #vectors: DocumentVectors | null;
  /** embedders are configured but no vector was ever stored (indexVectorsIfMissing) */
  readonly #vectorsMissing: boolean;
  /** every part's lifecycle is walked in this order: search, facets, vectors */
  readonly #parts: IndexPart[];
  /** ids added to #knownIds since the last checkpoint (removed again on rollback) */
  #addedIds: string[] = [];

  /** Without `search` (and `options.facets`), no search (facet) tables are written. */
  constructor(index: Index, search?: SearchConfig, options: DocumentsWriterOptions = {}) {
    this.index = index;
    const used = index.usedIds();
    const max = used.size === 0 ? -1 : used.maximum();
    const free = new Bitmap();
    if (max >= 0) {
      free.addRange(0, max + 1);
      free.andNotInPlace(used);
    }
    this.#s = {
      used,
      free,
      nextId: max + 1,
      distribution: startingDistribution(index, used),
      fieldsOrder: [...index.fieldsOrder()],
      documentBytes: index.getMain('documentBytes') ?? 0,
      primaryKey: index.meta().primaryKey,
      parts: { list: [], vectors: null, checkpoints: [] },
    };
    this.#fieldSet = new Set(this.#s.fieldsOrder);
    this.#fids = new Map(this.#s.fieldsOrder.map((f, i) => [f, i]));
    this.#search = search ? new SearchIndexWriter(index, search, (path) => this.#fids.get(path) ?? -1, options) : null;
    this.#facets = options.facets ? new FacetIndexWriter(index, options.facets, (path) => this.#fieldId(path), options.facetWriter) : null;
    // an index written before the vector store keeps its vectors in the documents' `_vectors`
    this.#vectorsMissing = options.vectors !== undefined && options.vectors.length > 0 && index.getMain('embedderIds') === undefined;
    this.#vectors = options.vectors && options.vectors.length > 0 ? new DocumentVectors(index, options.vectors) : null;
    this.#parts = [];
    for (const part of [this.#search, this.#facets, this.#vectors]) if (part !== null) this.#parts.push(part);
    this.#emptyAtStart = used.size === 0;
  }

  /** The id of a field of a stored document (every path is registered before it is indexed). */
  #fieldId(path: string): number {
    const fid = this.#fids.get(path);
    if (fid === undefined) throw new Error(`documents writer: no field id for \`${path}\``);
    return fid;
  }

  get primaryKey(): string | null {
    return this.#s.primaryKey;
  }

  /** What search indexing runs with now, for the extractor thread (null without search). */
  get searchConfig(): SearchConfig | null {
    return this.#search?.config ?? null;
  }

  /** What facet indexing runs with now, for the extractor thread (null when nothing is faceted). */
  get facetConfig(): FacetConfig | null {
    const facets = this.#facets;
    return facets !== null && facets.active ? facets.config : null;
  }

  /**
   * Starts a task: a copy of the in-memory state, to restore if the task fails. Call `endTask`
   * inside the task's transaction once its writes are done.
   */
  checkpoint(): WriterState {
    this.#addedIds = [];
    const s = this.#s;
    const parts = { list: [...this.#parts], vectors: this.#vectors, checkpoints: this.#parts.map((p) => p.beginTask()) };
    return { ...s, used: s.used.clone(), free: s.free.clone(), distribution: new Map(s.distribution), fieldsOrder: [...s.fieldsOrder], parts };
  }

  rollback(state: WriterState): void {
    for (const extId of this.#addedIds) this.#knownIds.delete(extId);
    this.#addedIds = [];
    this.#s = state;
    this.#fieldSet = new Set(state.fieldsOrder);
    this.#fids = new Map(state.fieldsOrder.map((f, i) => [f, i]));
    this.#parts.splice(0, this.#parts.length, ...state.parts.list);
    this.#vectors = state.parts.vectors;
    state.parts.checkpoints.forEach((cp, i) => this.#parts[i]!.rollback(cp));
  }

  /**
   * Resolves the primary key for a document addition task (documents.md §2.5); `first` is the
   * first document of the payload, undefined when the payload is empty.
   */
  resolvePrimaryKey(taskPrimaryKey: string | null, first: Record<string, unknown> | undefined): string | null {
    const current = this.#s.primaryKey;
    if (current !== null) {
      if (taskPrimaryKey !== null && taskPrimaryKey !== current) {
        // without the index prefix, unlike most of a document task's errors (Meilisearch 1.50)
        throw new EngineError('index_primary_key_already_exists', `Index already has a primary key: \`${current}\`.`, { prefixed: false });
      }
      return current;
    }
    if (taskPrimaryKey !== null) {
      this.#s.primaryKey = taskPrimaryKey;
      return taskPrimaryKey;
    }
    if (first === undefined) return null;
    const inferred = inferPrimaryKey(first);
    this.#s.primaryKey = inferred;
    return inferred;
  }

  /**
   * Adds or updates one document; returns false when skipped (skipCreation of an unknown id).
   * `json` is the document's compact JSON text when the caller has it (stored as is).
   */
  addDocument(doc: Record<string, unknown>, primaryKey: string, opts: AddOptions, json?: Uint8Array): boolean {
    return this.#put(documentId(doc, primaryKey), opts, json, documentFields(doc), doc);
  }

  /** Adds or updates a document already parsed by an extractor (with its chunk's search and facet data, if any). */
  addExtracted(doc: ExtractedInput, opts: AddOptions): boolean {
    return this.#put(doc.id, opts, doc.json, doc.fields, undefined, doc.search ?? null, doc.facets ?? null);
  }

  #put(
    extId: string,
    opts: AddOptions,
    json: Uint8Array | undefined,
    fields: DocumentFields,
    parsed: Record<string, unknown> | undefined,
    record: ExtractedSearch | null = null,
    facetRecord: ExtractedFacets | null = null,
  ): boolean {
    const existing = this.#emptyAtStart ? this.#knownIds.get(extId) : this.index.externalIds.get(extId);
    if (existing === undefined && opts.skipCreation) return false;
    // the configured embedders' vectors leave the document before it is stored (its extracted
    // search and facet data stay right: neither indexes `_vectors`)
    let vectors: VectorEntries | null = null;
    let vectorsDoc: Record<string, unknown> = NO_VECTORS;
    if ((existing === undefined || opts.method !== 'update') && mayHaveVectors(fields)) {
      vectorsDoc = parsed ?? parseJson(json!);
      // a `_vectors` that is not an object fails the task, embedders or not (as in Meilisearch)
      if (this.#vectors === null) vectorsObject(vectorsDoc._vectors, extId);
      else vectors = this.#vectors.take(vectorsDoc, extId);
      if (vectors !== null) {
        parsed = vectorsDoc;
        json = Buffer.from(JSON.stringify(vectorsDoc));
        fields = documentFields(vectorsDoc);
      }
    }
    if (existing === undefined) {
      const id = this.#allocate();
      this.index.externalIds.put(extId, id);
      if (this.#emptyAtStart) {
        this.#knownIds.set(extId, id);
        this.#addedIds.push(extId);
      }
      this.#storeRaw(id, json ?? Buffer.from(JSON.stringify(parsed)), fields);
      this.#indexAdded(id, extId, parsed, json, record, facetRecord);
      this.#vectors?.apply(id, extId, vectors, vectorsDoc);
      return true;
    }
    const stored = this.index.documents.get(existing);
    if (opts.method === 'update' && stored !== undefined) {
      const old = parseDocument(stored);
      const merged = { ...old, ...(parsed ?? parseJson(json!)) };
      if (mayHaveVectors({ keys: Object.keys(merged) })) {
        if (this.#vectors === null) vectorsObject(merged._vectors, extId);
        else vectors = this.#vectors.take(merged, extId);
      }
      const bytes = Buffer.from(JSON.stringify(merged));
      const same = Buffer.compare(bytes, stored) === 0;
      this.#vectors?.apply(existing, extId, vectors, merged, !same);
      // an update that changes nothing writes nothing (re-sent data is common)
      if (same) return true;
      this.#forget(existing, stored, old);
      this.#storeRaw(existing, bytes, documentFields(merged));
      this.#search?.addDocument(existing, merged);
      this.#facets?.addDocument(existing, merged, extId);
    } else {
      const bytes = json ?? Buffer.from(JSON.stringify(parsed));
      const same = stored !== undefined && Buffer.compare(bytes, stored) === 0;
      this.#vectors?.apply(existing, extId, vectors, vectorsDoc, !same);
      if (stored !== undefined) {
        if (same) return true;
        this.#forget(existing, stored, parseDocument(stored));
      }
      this.#storeRaw(existing, bytes, fields);
      this.#indexAdded(existing, extId, parsed, json, record, facetRecord);
    }
    return true;
  }

  #indexAdded(
    id: number,
    extId: string,
    parsed: Record<string, unknown> | undefined,
    json: Uint8Array | undefined,
    extracted: ExtractedSearch | null,
    extractedFacets: ExtractedFacets | null,
  ): void {
    const search = this.#search;
    if (search !== null) {
      if (extracted !== null) search.addFromChunk(id, extracted.chunk, extracted.index);
      else search.addDocument(id, (parsed ??= parseJson(json!)));
    }
    // an invalid `_geo` fails the task (extracted here, or found by the extractor thread)
    const facets = this.#facets;
    if (facets === null || !facets.active) return;
    if (extractedFacets !== null && extractedFacets.chunk.source.config === facets.config) facets.addExtracted(id, extractedFacets.chunk, extractedFacets.index);
    else facets.addDocument(id, parsed ?? parseJson(json!), extId);
  }

  /** Deletes documents by external id; returns how many existed. */
  /** The internal ids in use now (this batch's writes included); not to be mutated. */
  usedIds(): Bitmap {
    return this.#s.used;
  }

  /** Deletes the documents of internal ids (deletion by filter); returns how many existed. */
  deleteByInternalIds(ids: Iterable<number>): number {
    const pk = this.#s.primaryKey;
    const external: string[] = [];
    for (const id of ids) {
      const bytes = this.index.documents.get(id);
      const value = bytes === undefined || pk === null ? undefined : parseDocument(bytes)[pk];
      if (value !== undefined) external.push(String(value));
    }
    return this.deleteByIds(external);
  }

  deleteByIds(ids: Iterable<string>): number {
    let deleted = 0;
    const { externalIds, documents } = this.index;
    for (const extId of ids) {
      const id = externalIds.get(extId);
      if (id === undefined) continue;
      const bytes = documents.get(id);
      if (bytes !== undefined) this.#forget(id, bytes, parseDocument(bytes));
      this.#vectors?.remove(id);
      documents.remove(id);
      externalIds.remove(extId);
      this.#knownIds.delete(extId);
      this.#s.used.remove(id);
      this.#s.free.add(id);
      deleted++;
    }
    return deleted;
  }

  /** Deletes every document; returns how many there were. */
  clear(): number {
    const count = this.#s.used.size;
    this.index.documents.clear();
    this.index.externalIds.clear();
    this.#knownIds.clear();
    for (const p of this.#parts) p.clearAll();
    this.#s.used = new Bitmap();
    this.#s.free = new Bitmap();
    this.#s.nextId = 0;
    this.#s.distribution.clear();
    this.#s.documentBytes = 0;
    return count;
  }

  /** Sets the primary key directly (index update with no documents). */
  setPrimaryKey(pk: string | null): void {
    this.#s.primaryKey = pk;
  }

  /**
   * Told how far each write of pending search postings has gone: at the end of a step (`save`)
   * and when pending changes outgrow their budget mid-step. A big write takes seconds.
   */
  reportFlushProgress(fn: FlushProgress | null): void {
    if (this.#search !== null) this.#search.onFlushProgress = fn;
  }

  /** Writes the counters and state back to the main table and bumps the generation. */
  save(now: number): void {
    const { index } = this;
    const s = this.#s;
    const meta = index.meta();
    index.setMain('meta', { ...meta, primaryKey: s.primaryKey, updatedAt: now });
    index.setMain('usedIds', bitmapBytes(s.used));
    const distribution: Record<string, number> = {};
    for (const [k, v] of s.distribution) if (v > 0) setKey(distribution, k, v);
    index.setMain('topFieldDistribution', distribution);
    index.removeMain('fieldDistribution');
    index.setMain('fieldsOrder', s.fieldsOrder);
    index.setMain('documentBytes', s.documentBytes);
    for (const p of this.#parts) p.save(s.used);
    index.setMain('generation', index.generation() + 1);
  }

  #allocate(): number {
    const s = this.#s;
    let id: number;
    if (s.free.size > 0) {
      id = s.free.minimum();
      s.free.remove(id);
    } else {
      id = s.nextId++;
    }
    s.used.add(id);
    return id;
  }

  #storeRaw(id: number, bytes: Uint8Array, fields: DocumentFields): void {
    const s = this.#s;
    for (const key of fields.keys) if (countsInDistribution(key)) s.distribution.set(key, (s.distribution.get(key) ?? 0) + 1);
    for (const path of fields.paths) {
      if (!this.#fieldSet.has(path)) {
        if (this.#fieldSet.size >= MAX_FIELDS) {
          throw new EngineError('max_fields_limit_exceeded', 'A document cannot contain more than 65,535 fields.');
        }
        this.#fieldSet.add(path);
        this.#fids.set(path, s.fieldsOrder.length);
        s.fieldsOrder.push(path);
      }
    }
    s.documentBytes += bytes.length;
    this.index.documents.put(id, bytes);
  }

  /** Removes a stored document (its bytes and parsed form) from the counters and the search data. */
  #forget(id: number, bytes: Uint8Array, doc: Record<string, unknown>): void {
    const s = this.#s;
    for (const key of Object.keys(doc)) if (countsInDistribution(key)) s.distribution.set(key, (s.distribution.get(key) ?? 1) - 1);
    s.documentBytes = Math.max(0, s.documentBytes - bytes.length);
    this.#search?.removeDocument(id, doc);
    this.#facets?.removeDocument(id, doc);
  }

  /** True when the pending search or facet changes outgrew their bound (a good time to commit). */
  flushDue(): boolean {
    return this.#parts.some((p) => p.flushDue());
  }

  /** Ends a task's writes, inside its transaction (search changes join the batch's when it succeeds). */
  endTask(): void {
    for (const p of this.#parts) p.endTask();
  }

  /** Re-indexes every document for search with a new configuration (a settings change). */
  reindexSearch(config: SearchConfig): void {
    this.#search?.rebuild(config, this.#storedDocuments());
  }

  /** Indexes the stored documents for search if the index never was (created before search indexing). */
  indexSearchIfMissing(): void {
    const search = this.#search;
    if (search === null || !search.neverIndexed()) return;
    // no documents: nothing to index, but no key of an older layout may stay either
    if (this.#s.used.size === 0) search.clearAll();
    else search.rebuild(search.config, this.#storedDocuments());
  }

  /**
   * Moves the `_vectors` entries of the configured embedders out of the stored documents into the
   * vector store if it was never written (an index from before it).
   */
  indexVectorsIfMissing(): void {
    const vectors = this.#vectors;
    if (!this.#vectorsMissing || vectors === null || this.#s.used.size === 0) return;
    // no task to blame at start-up: an entry the embedder refuses stays in its document
    this.#adopt(vectors, new Set(vectors.specs.map((s) => s.name)), true);
  }

  /**
   * Moves the `_vectors` entries of `names` out of the stored documents into the vector store.
   * `lenient`: a document whose entry is refused keeps it (otherwise the refusal fails the task).
   */
  #adopt(vectors: DocumentVectors, names: ReadonlySet<string>, lenient: boolean): void {
    const index = this.index;
    const external: string[] = [];
    for (const [extId, id] of index.externalIds.entries()) external[id] = extId;
    const marker = Buffer.from('"_vectors"');
    for (const [id, bytes] of [...index.documents.entries()]) {
      if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(marker) < 0) continue;
      const doc = parseDocument(bytes);
      let adopted: boolean;
      try {
        adopted = vectors.adopt(id, doc, external[id] ?? String(id), names);
      } catch (err) {
        if (lenient && err instanceof EngineError) continue;
        throw err;
      }
      if (adopted) this.#rewrite(id, bytes, doc);
    }
  }

  /** Every stored document (internal id order): its external id, and whether it has a top-level `_vector`. */
  *#singularVectors(): Generator<[number, string, boolean]> {
    const index = this.index;
    const external: string[] = [];
    for (const [extId, id] of index.externalIds.entries()) external[id] = extId;
    const marker = Buffer.from('"_vector"');
    for (const [id, bytes] of index.documents.entries()) {
      const extId = external[id] ?? String(id);
      const mentions = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(marker) >= 0;
      yield [id, extId, mentions && Object.prototype.hasOwnProperty.call(parseDocument(bytes), '_vector')];
    }
  }

  /**
   * Applies a change of the embedders (a settings task): the vectors of removed embedders are
   * written back into `_vectors.<name>` of their documents as `{ regenerate, embeddings }`;
   * new embedders take the `_vectors.<name>` entries the stored documents hold; `quantize`d ones
   * are binary-quantized. Documents written afterwards in the batch use the new embedders.
   */
  reconfigureVectors(configs: readonly EmbedderConfig[], quantize: ReadonlySet<string>): void {
    const index = this.index;
    const before = this.#vectors;
    before?.save(this.#s.used);
    const ids = index.getMain('embedderIds') ?? {};
    const kept = new Set(configs.map((c) => c.name));
    const remaining: Record<string, number> = {};
    for (const [name, id] of Object.entries(ids)) {
      if (kept.has(name)) setKey(remaining, name, id);
      else this.#writeBackVectors(name, id);
    }
    index.setMain('embedderIds', remaining);
    const added = new Set(configs.map((c) => c.name).filter((n) => !Object.prototype.hasOwnProperty.call(remaining, n)));
    const vectors = configs.length > 0 ? new DocumentVectors(index, configs) : null;
    this.#parts.splice(0, this.#parts.length, ...[this.#search, this.#facets, vectors].filter((p) => p !== null));
    this.#vectors = vectors;
    if (vectors === null) return;
    if (added.size > 0) {
      this.#adopt(vectors, added, false);
      vectors.requireProvided(added, this.#singularVectors());
    }
    vectors.requantize(quantize);
  }

  /**
   * Stores the vectors an embedder computed for stored documents (by external id), leaving the
   * ones users gave alone; returns how many were stored.
   */
  setGeneratedVectors(embedder: string, vectors: Iterable<[externalId: string, vectors: number[][]]>): number {
    if (this.#vectors === null) return 0;
    let n = 0;
    for (const [external, v] of vectors) {
      const id = this.index.internalId(external);
      if (id !== undefined && this.#vectors.generated(id, embedder, v)) n++;
    }
    return n;
  }

  /** Writes the vectors of a removed embedder back into its documents, then drops them. */
  #writeBackVectors(name: string, embedder: number): void {
    const { index } = this;
    for (const [key, bytes] of [...index.vectors.embeddings.entries({ start: [embedder, 0], end: [embedder + 1, 0] })]) {
      const id = key[1];
      const stored = index.documents.get(id);
      if (stored === undefined) continue;
      const doc = parseDocument(stored);
      const e = new StoredEmbeddings(bytes);
      const own = doc._vectors !== null && typeof doc._vectors === 'object' && !Array.isArray(doc._vectors) ? (doc._vectors as Record<string, unknown>) : {};
      setKey(own, name, { regenerate: e.regenerate, embeddings: e.vectors() });
      doc._vectors = own;
      this.#rewrite(id, stored, doc);
    }
    VectorIndexWriter.dropEmbedder(index.vectors, embedder);
  }

  /** Stores a document again after a change outside its indexed fields (`_vectors`). */
  #rewrite(id: number, old: Uint8Array, doc: Record<string, unknown>): void {
    const bytes = Buffer.from(JSON.stringify(doc));
    this.#s.documentBytes += bytes.length - old.length;
    this.index.documents.put(id, bytes);
  }

  /**
   * Re-indexes every document's facet data with a new configuration (a settings change); a
   * stored document with an invalid `_geo` fails the task once `_geo` is indexed.
   */
  reindexFacets(config: FacetConfig): void {
    this.#facets?.rebuild(config, this.#storedWithIds());
  }

  /**
   * Rebuilds the facet tables if they were built with another configuration or never (an index
   * stored before facet indexing). Invalid `_geo` values are skipped here: no task is to blame.
   */
  indexFacetsIfStale(): void {
    const facets = this.#facets;
    if (facets === null || !facets.stale()) return;
    if (this.#s.used.size === 0) facets.clearAll();
    else facets.rebuild(facets.config, this.#storedWithIds(), { lenient: true });
  }

  /** Stored documents with their external ids (from the id table: no primary key parsing). */
  *#storedWithIds(): Generator<[number, Record<string, unknown>, string]> {
    const external: string[] = [];
    for (const [extId, id] of this.index.externalIds.entries()) external[id] = extId;
    for (const [id, doc] of this.#storedDocuments()) yield [id, doc, external[id] ?? String(id)];
  }

  *#storedDocuments(): Generator<[number, Record<string, unknown>]> {
    for (const [id, bytes] of this.index.documents.entries()) yield [id, parseDocument(bytes)];
  }
}

/** What a document without vectors shows the missing-vectors hints. */
const NO_VECTORS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** A document may hold vectors (or the misspelled `_vector` the hints point at). */
function mayHaveVectors(fields: Pick<DocumentFields, 'keys'>): boolean {
  return fields.keys.includes('_vectors') || fields.keys.includes('_vector');
}

function parseJson(json: Uint8Array): Record<string, unknown> {
  return JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')) as Record<string, unknown>;
}

/**
 * The top-level field counts a batch starts from. Indexes written before they were stored
 * (`fieldDistribution` then counted nested paths too) are recounted from their documents once.
 */
function startingDistribution(index: Index, used: Bitmap): Map<string, number> {
  const stored = index.getMain('topFieldDistribution');
  if (stored !== undefined) return new Map(Object.entries(stored));
  const counts = new Map<string, number>();
  if (used.size === 0) return counts;
  for (const [, bytes] of index.documents.entries()) {
    for (const key of Object.keys(parseDocument(bytes))) if (countsInDistribution(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
