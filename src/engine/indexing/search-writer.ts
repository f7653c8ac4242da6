// Keeps the search tables of an index in step with its documents (docs/decisions/0002).
//
//   new documents ── keys → documents of a chunk (extractor thread), kept as they came ─┐
//   old version, merged update ── extracted here, hashed into postings ──────────────────┴─► task delta
//   task delta ─(task succeeds)─► batch delta
//   batch delta ─(end of batch, or past MAX_DELTA_BYTES at a task boundary)─► prepared on the
//   extractor thread (flush-prepare.ts) ─► tables, key by key (search-flush.ts)
//   end of batch ─► word sets rebuilt from the words whose presence changed
//
// A task's changes stay apart until it succeeds, so a failed task is dropped by forgetting them.
// A task that alone outgrows the bound writes the pending deltas inside its own transaction:
// if it then fails, LMDB undoes that write and the batch delta, kept until the task ends, is
// still pending.
import type { Index } from '../index/index.ts';
import type { Bitmap } from '../bitmap/index.ts';
import { CHUNK_BITS, POSTINGS_LAYOUT } from '../index/postings-table.ts';
import { compareUtf8, WordSet } from '../words/index.ts';
import { compileSearchConfig, type CompiledSearchConfig, type SearchConfig } from './search-config.ts';
import { isPrefixKey, PREFIX_LENGTH } from '../index/prefix-keys.ts';
import { SearchDataExtractor, type RecordSource } from './search-data.ts';
import { SearchDelta, WordDict, type RecordMaps, type SearchChunk } from './search-delta.ts';
import { flushRequest, prepareSlices, requestPostings, type FlushRequest, type FlushSlice } from './flush-prepare.ts';
import { PRESENT, writeSlices, type FlushProgress, type WrittenWords } from './search-flush.ts';

export type { SearchConfig } from './search-config.ts';

/** Pending search changes past this size are written at the next task boundary (or within a task). */
export const MAX_DELTA_BYTES = 256 * 1024 * 1024;
/** Rough bytes per batch word id (map entry, list slot, string). */
const WORD_BYTES = 64;
/** Documents between two checks of the bound. */
const CHECK_EVERY = 256;

export interface SearchCheckpoint {
  config: SearchConfig;
}

export interface SearchWriterOptions {
  /** bound of the pending deltas (tests lower it to exercise early writes) */
  maxDeltaBytes?: number;
  /** documents between two checks of the bound */
  checkEvery?: number;
  /**
   * Prepares a delta's writing on another thread (the extractor's `prepare`), used between
   * tasks and at the end of the batch; the request's arrays are handed over.
   */
  prepare?: (request: FlushRequest) => Iterable<FlushSlice>;
}

export class SearchIndexWriter {
  readonly #index: Index;
  readonly #fid: (path: string) => number;
  readonly #maxBytes: number;
  readonly #checkEvery: number;
  readonly #prepare: ((request: FlushRequest) => Iterable<FlushSlice>) | null;
  #config: SearchConfig;
  #compiled: CompiledSearchConfig;
  readonly #dict = new WordDict();
  #extractor: SearchDataExtractor;
  /** postings of the succeeded tasks, not written yet */
  #batch = new SearchDelta();
  /** postings of the task in progress (or ended and not yet committed), null between tasks */
  #task: SearchDelta | null = null;
  /** the batch delta needs no writing by this task: written inside it, or dead after a clear */
  #batchSettled = false;
  #taskCleared = false;
  #batchStates = emptyStates();
  #taskStates = emptyStates();
  #sinceCheck = 0;
  /** log2 of the ids per chunk of the postings (the index's, or the default for a table to rebuild) */
  readonly #chunkBits: number;
  #maps: SourceMaps | null = null;
  /** the chunk whose documents are being stored: its additions are applied once it is complete */
  #chunk: SearchChunk | null = null;

  /** `fid` maps a field path to its field id (the writer's field order), −1 for a path no stored document has. */
  constructor(index: Index, config: SearchConfig, fid: (path: string) => number, opts: SearchWriterOptions = {}) {
    this.#index = index;
    this.#fid = fid;
    this.#maxBytes = opts.maxDeltaBytes ?? MAX_DELTA_BYTES;
    this.#checkEvery = opts.checkEvery ?? CHECK_EVERY;
    this.#prepare = opts.prepare ?? null;
    this.#chunkBits = index.postingsChunkBits() ?? CHUNK_BITS;
    this.#config = this.#withPrefixes(config);
    this.#compiled = compileSearchConfig(this.#config);
    this.#extractor = this.#newExtractor();
  }

  /** `config` with the prefix length the index's tables hold (main `prefixPostings`). */
  #withPrefixes(config: SearchConfig): SearchConfig {
    const length = this.#index.getMain('prefixPostings') ?? 0;
    return (config.prefixLength ?? 0) === length ? config : { ...config, prefixLength: length };
  }

  /** What the writer indexes with (also what the extractor thread must extract with). */
  get config(): SearchConfig {
    return this.#config;
  }

  /** Starts a task: commits the previous one, writes the batch delta if it grew too big. */
  beginTask(): SearchCheckpoint {
    this.#commitTask();
    if (this.#pendingBytes() > this.#maxBytes) this.#writeBatch();
    this.#task = new SearchDelta();
    return { config: this.#config };
  }

  /** True when the pending changes outgrew their bound (the next task would start by writing them). */
  flushDue(): boolean {
    return this.#pendingBytes() > this.#maxBytes;
  }

  /** Ends the task's writes (inside its transaction): writes everything pending if it is too big. */
  endTask(): void {
    this.#applyChunk();
    if (this.#pendingBytes() > this.#maxBytes) this.#writeInTask();
  }

  /** Forgets the task in progress (it failed; its transaction was rolled back). */
  rollback(cp: SearchCheckpoint): void {
    this.#chunk = null;
    this.#task = null;
    this.#batchSettled = false;
    this.#taskCleared = false;
    this.#taskStates = emptyStates();
    if (cp.config !== this.#config) this.#setConfig(cp.config);
  }

  /**
   * Records a document added with the search data the extractor thread made for its chunk. The
   * chunk's additions are applied when the next chunk starts or the task ends (a chunk of the
   * extractor holds documents of one task only).
   */
  addFromChunk(id: number, chunk: SearchChunk, index: number): void {
    if (chunk !== this.#chunk) {
      this.#applyChunk();
      this.#chunk = chunk;
    }
    chunk.ids[index] = id;
  }

  #applyChunk(): void {
    const chunk = this.#chunk;
    if (chunk === null) return;
    this.#chunk = null;
    this.#taskDelta().applyChunk(chunk, this.#mapsFor(chunk.source));
    // a write may only fall between chunks: a chunk's additions and the removals of versions it
    // replaced must reach the tables together
    if (this.#pendingBytes() > this.#maxBytes) this.#writeInTask();
  }

  /** Records the search data of a document being added (extracted here). */
  addDocument(id: number, doc: Record<string, unknown>): void {
    this.#extractHere(id, doc, false);
  }

  /** Records the removal of a stored document (its old version). */
  removeDocument(id: number, doc: Record<string, unknown>): void {
    this.#extractHere(id, doc, true);
  }

  /** Empties every search table and word set (clear of all documents). */
  clearAll(): void {
    this.#chunk = null;
    this.#taskDelta();
    const t = this.#index.search;
    for (const table of [t.words, t.exactWords, t.wordFid, t.wordPosition, t.wordPairProximity, t.fidWordCount]) table.clear();
    const empty = WordSet.build([]).toBytes();
    this.#index.setMain('words', empty);
    this.#index.setMain('exactWords', empty);
    this.#task = new SearchDelta();
    this.#taskStates = emptyStates();
    this.#batchSettled = true;
    this.#taskCleared = true;
  }

  /** Re-indexes every document with a new configuration (settings changed what is indexed). */
  rebuild(config: SearchConfig, documents: Iterable<[number, Record<string, unknown>]>): void {
    this.clearAll();
    // every document is indexed again: an index from before prefix postings gets them now
    if (this.#index.getMain('prefixPostings') !== PREFIX_LENGTH) this.#index.setMain('prefixPostings', PREFIX_LENGTH);
    const next = this.#withPrefixes(config);
    if (next !== this.#config) this.#setConfig(next);
    for (const [id, doc] of documents) this.addDocument(id, doc);
  }

  /**
   * True when the index holds no word sets yet (its documents were never indexed for search), or
   * its tables are in an older layout (before chunks of ids, decision 0006, or with the chunk
   * last, decision 0007).
   */
  neverIndexed(): boolean {
    return this.#index.getMain('words') === undefined || !this.#index.searchLayoutCurrent();
  }

  /** End of batch: writes what is pending, saves the word sets and the chunks `used` ids span. */
  save(used: Bitmap): void {
    const index = this.#index;
    if (!index.searchLayoutCurrent()) {
      index.setMain('postingsChunkBits', this.#chunkBits);
      index.setMain('postingsLayout', POSTINGS_LAYOUT);
    }
    const chunks = used.size === 0 ? 1 : (used.maximum() >>> this.#chunkBits) + 1;
    if (index.getMain('postingsChunks') !== chunks) index.setMain('postingsChunks', chunks);
    this.#commitTask();
    // the last write's word presence is read by word id, before the dictionary is reset
    const last = this.#batch.empty ? null : this.#write(this.#batch, true);
    const sets = this.#index.wordSets();
    for (const name of ['words', 'exactWords'] as const) {
      const base = sets[name];
      const appeared: string[] = [];
      const vanished: string[] = [];
      const decide = (word: string, exists: boolean) => {
        if (isPrefixKey(word)) return; // prefix postings are no words
        if (base.size === 0 ? exists : exists !== base.has(word)) (exists ? appeared : vanished).push(word);
      };
      const earlier = this.#batchStates[name];
      if (last !== null) {
        const presence = last[name];
        const words = this.#dict.words;
        for (let id = 0; id < presence.length; id++) {
          if (presence[id] === 0) continue;
          const word = words[id]!;
          earlier.delete(word);
          decide(word, presence[id] === PRESENT);
        }
      }
      for (const [word, exists] of earlier) decide(word, exists);
      if (appeared.length > 0 || vanished.length > 0) this.#index.setMain(name, updatedWordSet(base, appeared, vanished).toBytes());
      else if (this.#index.getMain(name) === undefined) this.#index.setMain(name, base.toBytes());
    }
    this.#batchStates = emptyStates();
    this.#batch = new SearchDelta();
    this.#dict.reset();
  }

  #taskDelta(): SearchDelta {
    return this.#task ?? (this.#task = new SearchDelta());
  }

  #extractHere(id: number, doc: Record<string, unknown>, remove: boolean): void {
    this.#taskDelta().apply(this.#extractor.extract(doc), id, remove);
    if (this.#chunk === null && ++this.#sinceCheck >= this.#checkEvery) {
      this.#sinceCheck = 0;
      if (this.#pendingBytes() > this.#maxBytes) this.#writeInTask();
    }
  }

  #pendingBytes(): number {
    let n = this.#dict.size * WORD_BYTES;
    if (!this.#batchSettled) n += this.#batch.bytes;
    if (this.#task) n += this.#task.bytes;
    return n;
  }

  /** The ended task's postings join the batch delta. */
  #commitTask(): void {
    const task = this.#task;
    if (task === null) return;
    if (this.#batchSettled) this.#batch = task;
    else this.#batch.merge(task, true);
    if (this.#taskCleared) this.#batchStates = this.#taskStates;
    else for (const name of ['words', 'exactWords'] as const) for (const [w, e] of this.#taskStates[name]) this.#batchStates[name].set(w, e);
    this.#task = null;
    this.#taskStates = emptyStates();
    this.#batchSettled = false;
    this.#taskCleared = false;
  }

  /** Writes the batch delta (between tasks, in the batch's transaction). */
  #writeBatch(): void {
    this.#keep(this.#write(this.#batch, true), this.#batchStates);
    this.#batch = new SearchDelta();
    this.#dict.reset();
  }

  /** Writes the batch delta (unless settled) and the task's, inside the task's transaction. */
  #writeInTask(): void {
    const delta = this.#taskDelta();
    if (!this.#batchSettled) delta.merge(this.#batch, false);
    // here, not on the extractor thread: it may be in the middle of a job
    this.#keep(this.#write(delta, false), this.#taskStates);
    this.#task = new SearchDelta();
    this.#batchSettled = true;
    if (this.#batch.empty) this.#dict.reset();
  }

  /** Told how far each write of pending postings has gone (null: not told). */
  onFlushProgress: FlushProgress | null = null;

  /** Writes `delta`; `handOver`: its arrays may go to the extractor thread (the delta is dropped after). */
  #write(delta: SearchDelta, handOver: boolean): WrittenWords {
    const request = flushRequest(delta, this.#dict.words, this.#chunkBits);
    // counted before the arrays are handed over
    const progress = this.onFlushProgress === null ? null : { total: requestPostings(request), report: this.onFlushProgress };
    const slices = handOver && this.#prepare !== null ? this.#prepare(request) : prepareSlices(request);
    return writeSlices(this.#index.search, slices, this.#dict.words, progress);
  }

  /** Word presence after a write, by word (word ids do not outlive the dictionary). */
  #keep(written: WrittenWords, into: WordStates): void {
    const words = this.#dict.words;
    for (const name of ['words', 'exactWords'] as const) {
      const presence = written[name];
      for (let id = 0; id < presence.length; id++) if (presence[id] !== 0) into[name].set(words[id]!, presence[id] === PRESENT);
    }
  }

  #setConfig(config: SearchConfig): void {
    this.#config = config;
    this.#compiled = compileSearchConfig(config);
    this.#extractor = this.#newExtractor();
  }

  #newExtractor(): SearchDataExtractor {
    return new SearchDataExtractor(this.#compiled, this.#dict, { id: (path) => this.#fid(path) });
  }

  #mapsFor(source: RecordSource): RecordMaps {
    let maps = this.#maps;
    if (maps === null || maps.source !== source) maps = this.#maps = new SourceMaps(source, this.#dict, this.#fid);
    maps.sync();
    return maps;
  }
}

/** Job ids of a record source → batch word ids and field ids, filled as they are met. */
class SourceMaps implements RecordMaps {
  readonly source: RecordSource;
  readonly #dict: WordDict;
  readonly #fid: (path: string) => number;
  #words: Int32Array<ArrayBuffer> = new Int32Array(0);
  #fields: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** job word ids below this are batch ids already (the dictionary shares the job's table) */
  #same = 0;
  #generation = -1;

  constructor(source: RecordSource, dict: WordDict, fid: (path: string) => number) {
    this.source = source;
    this.#dict = dict;
    this.#fid = fid;
  }

  /** Makes room for the source's new entries; forgets word ids the dictionary has reset. */
  sync(): void {
    const dict = this.#dict;
    if (this.#generation !== dict.generation) {
      this.#words.fill(-1);
      this.#generation = dict.generation;
      dict.share(this.source.words);
    }
    this.#same = dict.sharedPrefix(this.source.words);
    if (this.#same !== Infinity && this.#words.length < this.source.words.length) this.#words = grown(this.#words, this.source.words.length);
    if (this.#fields.length < this.source.fields.length) this.#fields = grown(this.#fields, this.source.fields.length);
  }

  word(ref: number): number {
    if (ref < this.#same) return ref;
    const id = this.#words[ref]!;
    return id >= 0 ? id : (this.#words[ref] = this.#dict.id(this.source.words[ref]!));
  }

  field(ref: number): number {
    const id = this.#fields[ref]!;
    if (id >= 0) return id;
    // a path only skipped documents have gets its id once a stored document has it
    const fid = this.#fid(this.source.fields[ref]!);
    if (fid >= 0) this.#fields[ref] = fid;
    return fid;
  }
}

function grown(a: Int32Array, atLeast: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(atLeast, a.length * 2)).fill(-1);
  next.set(a);
  return next;
}

/** `base` with words added and removed; built straight from sorted words when it was empty. */
function updatedWordSet(base: WordSet, appeared: string[], vanished: string[]): WordSet {
  if (base.size > 0 || vanished.length > 0) return base.with(appeared, vanished);
  // UTF-16 order (the native sort) differs from UTF-8 order only around surrogates
  appeared.sort();
  for (let i = 1; i < appeared.length; i++) {
    if (compareUtf8(appeared[i - 1]!, appeared[i]!) >= 0) {
      appeared.sort(compareUtf8);
      break;
    }
  }
  return WordSet.build(appeared);
}

/** Final presence of the words written, per word table (feeds the word sets). */
interface WordStates {
  words: Map<string, boolean>;
  exactWords: Map<string, boolean>;
}

function emptyStates(): WordStates {
  return { words: new Map(), exactWords: new Map() };
}
