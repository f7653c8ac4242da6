// The vectors of the documents a batch writes (vectors-embedders.md §4): entries of configured
// embedders are taken out of `_vectors` before the document is stored, checked, and given to the
// vector store; a document that keeps its vectors (an update or replacement without them — unless
// they are `regenerate: true` for a `userProvided` embedder and the document changed — or
// `{ regenerate: false }` without embeddings) keeps what is stored. A new document without vectors
// for a `userProvided` embedder fails its task at the end of the task, with Meilisearch's count and
// hints.
import { EngineError } from '../errors.ts';
import type { Index } from '../index/index.ts';
import type { Bitmap } from '../bitmap/index.ts';
import { parseVectorsEntry, vectorsObject, type VectorsEntry } from '../vector/parse.ts';
import { embedderSpecs, type EmbedderConfig, type EmbedderSpec } from '../vector/store.ts';
import { VectorIndexWriter, type VectorCheckpoint } from '../vector/writer.ts';
import type { IndexPart } from './part.ts';

const VECTORS = '_vectors';

/** The configured embedders' entries of one document, taken out of it. */
export type VectorEntries = Map<string, VectorsEntry>;

interface Missing {
  first: string;
  count: number;
  /** documents with a top-level `_vector` */
  singular: number;
  /** misspelled `_vectors` key → documents */
  misspelled: Map<string, number>;
}

interface Checkpoint {
  store: VectorCheckpoint;
}

export class DocumentVectors implements IndexPart<Checkpoint> {
  readonly specs: EmbedderSpec[];
  readonly #store: VectorIndexWriter;
  readonly #index: Index;
  /** embedder name → documents of the current task that lack its vectors */
  #missing = new Map<string, Missing>();

  /** Inside a write: embedders without an id get one. */
  constructor(index: Index, configs: readonly EmbedderConfig[]) {
    this.#index = index;
    this.specs = embedderSpecs(index, configs, true);
    this.#store = new VectorIndexWriter(index, this.specs);
  }

  /**
   * Takes the configured embedders' entries out of `doc._vectors` (checked; `_vectors` goes when
   * nothing else is left in it). Returns them, or null when the document has none to give.
   */
  take(doc: Record<string, unknown>, docId: string): VectorEntries | null {
    const raw = vectorsObject(doc[VECTORS], docId);
    if (raw === null || this.specs.length === 0) return null;
    const entries: VectorEntries = new Map();
    for (const spec of this.specs) {
      if (!Object.prototype.hasOwnProperty.call(raw, spec.name)) continue;
      entries.set(spec.name, parseVectorsEntry(raw[spec.name], spec.name, docId, spec.dimensions));
    }
    if (entries.size === 0) return null;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) if (!entries.has(k)) Object.defineProperty(rest, k, { value: v, enumerable: true, writable: true, configurable: true });
    if (Object.keys(rest).length === 0) delete doc[VECTORS];
    else doc[VECTORS] = rest;
    return entries;
  }

  /**
   * Stores the vectors of document `id` (`doc`: the stored document, for the hints of a missing
   * entry). Embedders the entries leave out keep what the document has, if anything, except a
   * `userProvided` one whose stored vectors ask to be regenerated (`regenerate: true`) when the
   * document `changed`: nothing can regenerate them, and the task fails as in Meilisearch.
   */
  apply(id: number, docId: string, entries: VectorEntries | null, doc: Record<string, unknown>, changed = true): void {
    for (const spec of this.specs) {
      const entry = entries?.get(spec.name);
      if (entry?.vectors !== undefined) {
        this.#store.set(id, spec, entry.vectors, entry.regenerate);
        continue;
      }
      const stored = this.#store.embeddings(id, spec);
      if (entry !== undefined && !entry.regenerate) {
        // `{ regenerate: false }` without embeddings: what is stored stays as it is (Meilisearch
        // 1.50 keeps even its `regenerate: true`); without anything stored, no vector by choice
        if (stored === undefined) this.#store.set(id, spec, [], false, true);
        continue;
      }
      if (stored === undefined || (spec.userProvided && changed && (entry?.regenerate ?? stored.regenerate))) {
        if (spec.userProvided) this.#noteMissing(spec.name, docId, doc);
      }
    }
  }

  /**
   * Takes the entries of newly configured embedders (`names`) out of a stored document and stores
   * them; true when the document changed (it must be stored again).
   */
  adopt(id: number, doc: Record<string, unknown>, docId: string, names: ReadonlySet<string>): boolean {
    // a stored `_vectors` that is not an object (kept by a version that did not check it) holds no entry
    const value = doc[VECTORS];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const raw = value as Record<string, unknown>;
    // every entry checked before any is stored: a refused one leaves the document as it was
    const taken: Array<[EmbedderSpec, VectorsEntry]> = [];
    for (const spec of this.specs) {
      if (!names.has(spec.name) || !Object.prototype.hasOwnProperty.call(raw, spec.name)) continue;
      taken.push([spec, parseVectorsEntry(raw[spec.name], spec.name, docId, spec.dimensions)]);
    }
    for (const [spec, entry] of taken) {
      this.#store.set(id, spec, entry.vectors ?? [], entry.regenerate, entry.vectors === undefined && !entry.regenerate);
      delete raw[spec.name];
    }
    if (taken.length > 0 && Object.keys(raw).length === 0) delete doc[VECTORS];
    return taken.length > 0;
  }

  /**
   * Stores vectors an embedder computed for a stored document (`regenerate: true`), unless the
   * document holds vectors its user gave for it (`regenerate: false`). True when stored.
   */
  generated(id: number, name: string, vectors: ArrayLike<number>[]): boolean {
    const spec = this.specs.find((s) => s.name === name);
    if (spec === undefined) return false;
    const stored = this.#store.embeddings(id, spec);
    if (stored !== undefined && !stored.regenerate) return false;
    this.#store.set(id, spec, vectors, true);
    return true;
  }

  /** Binary-quantizes the stored vectors of these embedders (their graphs are rebuilt at `save`). */
  requantize(names: ReadonlySet<string>): void {
    for (const spec of this.specs) if (names.has(spec.name)) this.#store.requantize(spec);
  }

  /** Removes the vectors of a deleted document. */
  remove(id: number): void {
    this.#store.remove(id);
  }

  #noteMissing(name: string, docId: string, doc: Record<string, unknown>): void {
    let m = this.#missing.get(name);
    if (m === undefined) {
      m = { first: docId, count: 0, singular: 0, misspelled: new Map() };
      this.#missing.set(name, m);
    }
    m.count++;
    if (Object.prototype.hasOwnProperty.call(doc, '_vector')) m.singular++;
    const raw = doc[VECTORS];
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const key of Object.keys(raw)) {
        if (key !== name && editDistance(key, name) <= 2) m.misspelled.set(key, (m.misspelled.get(key) ?? 0) + 1);
      }
    }
  }

  beginTask(): Checkpoint {
    this.#missing.clear();
    return { store: this.#store.beginTask() };
  }

  rollback(cp: Checkpoint): void {
    this.#missing.clear();
    this.#store.rollback(cp.store);
  }

  /**
   * Fails the task when stored documents hold no entry (vectors or `null`) of a newly configured
   * `userProvided` embedder (`names`), as Meilisearch's settings task does. `documents`: every
   * stored document in internal id order, with whether it has a top-level `_vector` (the hint).
   */
  requireProvided(names: ReadonlySet<string>, documents: Iterable<[id: number, docId: string, singular: boolean]>): void {
    const specs = this.specs.filter((s) => s.userProvided && names.has(s.name));
    if (specs.length === 0) return;
    this.#missing.clear();
    for (const [id, docId, singular] of documents) {
      for (const spec of specs) {
        if (this.#store.stored(id, spec)) continue;
        let m = this.#missing.get(spec.name);
        if (m === undefined) this.#missing.set(spec.name, (m = { first: docId, count: 0, singular: 0, misspelled: new Map() }));
        m.count++;
        if (singular) m.singular++;
      }
    }
    this.endTask();
  }

  /** Fails the task when documents lacked vectors of a `userProvided` embedder. */
  endTask(): void {
    for (const [name, m] of this.#missing) {
      const others = m.count > 1 ? ` and at least ${m.count - 1} other document(s)` : '';
      const hints: string[] = [];
      if (m.singular > 0) hints.push(`- Hint: try replacing \`_vector\` by \`_vectors\` in ${m.singular} document(s).`);
      for (const [key, n] of m.misspelled) hints.push(`- Hint: try replacing \`_vectors.${key}\` by \`_vectors.${name}\` in ${n} document(s).`);
      if (hints.length === 0) hints.push(`- Hint: opt-out for a document with \`_vectors.${name}: null\``);
      throw new EngineError(
        'vector_embedding_error',
        `While embedding documents for embedder \`${name}\`: no vectors provided for document \`${m.first}\`${others}\n` +
          `- Note: \`${name}\` has \`source: userProvided\`, so documents must provide embeddings as an array in \`_vectors.${name}\`.\n` +
          hints.join('\n'),
      );
    }
  }

  flushDue(): boolean {
    return false;
  }

  clearAll(): void {
    this.#store.clearAll();
  }

  save(_used: Bitmap): void {
    // the documents writer bumps the generation right after its parts are saved
    this.#store.save(this.#index.generation() + 1);
  }
}

/** Damerau–Levenshtein distance (adjacent swaps count one), for the misspelling hint. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
