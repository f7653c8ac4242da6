// The pending changes of the search tables, one `Postings` per table, keyed by batch word ids
// (`WordDict`) instead of strings:
//
//   words / exactWords   (word, 0)
//   wordFid              (word, field id)
//   wordPosition         (word, bucket index 0–28)
//   pairs                (first word, second word << 2 | proximity)
//   counts               (field id, word count)
//
// A document's record (search-data.ts) is applied with its ids as they are (the delta's own); a
// chunk of the extractor thread's is kept grouped as it came, its job ids mapped to batch ids.
import { Postings, type GroupedPostings } from './postings.ts';
import type { DocumentRecord, Interner, RecordSource } from './search-data.ts';

/** Largest word id a record or a pair key can carry (second word << 2 fits a u32). */
const MAX_WORD_ID = 2 ** 30 - 1;

/**
 * Batch word ids: dense, reset once no pending delta refers to them. An empty dictionary can
 * share an extraction job's word table (`share`): the job's ids are then the batch's ids and its
 * records need no mapping. The first word interned from elsewhere ends the sharing (the table is
 * copied; the job's ids met so far stay valid).
 */
export class WordDict implements Interner {
  /** word of each id */
  words: string[] = [];
  /** bumped by `reset`: cached mappings to these ids are stale */
  generation = 0;
  /** word → id, built on demand while a job table is shared */
  #ids: Map<string, number> | null = new Map();
  #shared: string[] | null = null;
  /** a table shared before, and how many of its ids are still the dictionary's */
  #unshared: { table: string[]; length: number } | null = null;

  /** Takes `table` (a job's words, growing) as this dictionary's ids if it is empty; true if shared. */
  share(table: string[]): boolean {
    if (this.#shared === table) return true;
    if (this.words.length > 0 || this.#shared !== null) return false;
    this.words = table;
    this.#shared = table;
    this.#ids = null;
    return true;
  }

  /** How many of `table`'s ids (from 0) are this dictionary's ids unchanged. */
  sharedPrefix(table: string[]): number {
    if (this.#shared === table) return Infinity;
    return this.#unshared?.table === table ? this.#unshared.length : 0;
  }

  id(word: string): number {
    if (this.#shared !== null) {
      this.#unshared = { table: this.#shared, length: this.#shared.length };
      this.words = this.#shared.slice();
      this.#shared = null;
    }
    let ids = this.#ids;
    if (ids === null) {
      ids = this.#ids = new Map();
      for (let i = 0; i < this.words.length; i++) ids.set(this.words[i]!, i);
    }
    let id = ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      if (id > MAX_WORD_ID) throw new Error('search indexing: too many distinct words in one batch delta');
      this.words.push(word);
      ids.set(word, id);
    }
    return id;
  }

  get size(): number {
    return this.words.length;
  }

  reset(): void {
    this.words = [];
    this.#ids = new Map();
    this.#shared = null;
    this.#unshared = null;
    this.generation++;
  }
}

export type TableName = 'words' | 'exactWords' | 'wordFid' | 'wordPosition' | 'pairs' | 'counts';
export const TABLE_NAMES: readonly TableName[] = ['words', 'exactWords', 'wordFid', 'wordPosition', 'pairs', 'counts'];

/** Where the ids of an extractor job point to in the batch: word ids and field ids. */
export interface RecordMaps {
  word(ref: number): number;
  field(ref: number): number;
}

/**
 * The additions of a chunk of documents made on the extractor thread: per table (in TABLE_NAMES
 * order), keys in the job's ids with the chunk positions of the documents that hold them.
 */
export interface SearchChunk {
  source: RecordSource;
  tables: GroupedPostings[];
  /** internal id of each document of the chunk, −1 while unknown or when its record is not used */
  ids: Int32Array;
}

/** A chunk's additions once its keys name batch ids: kept as they came until the delta is written. */
export interface ChunkPostings {
  /** per table, in TABLE_NAMES order */
  tables: GroupedPostings[];
  /** internal id of each document of the chunk (−1: not added) */
  ids: Int32Array;
}

export class SearchDelta {
  readonly tables: Record<TableName, Postings> = {
    words: new Postings(),
    exactWords: new Postings(64, 64),
    wordFid: new Postings(),
    wordPosition: new Postings(),
    pairs: new Postings(),
    counts: new Postings(64),
  };
  /** chunks of the extractor thread, grouped there and kept so (grouped with the rest when written) */
  chunks: ChunkPostings[] = [];
  #chunkBytes = 0;

  get bytes(): number {
    let n = this.#chunkBytes;
    for (const name of TABLE_NAMES) n += this.tables[name].bytes;
    return n;
  }

  /** Forgets every posting, keeping the arrays. */
  clear(): void {
    for (const name of TABLE_NAMES) this.tables[name].clear();
    this.chunks = [];
    this.#chunkBytes = 0;
  }

  get empty(): boolean {
    for (const name of TABLE_NAMES) if (this.tables[name].length > 0) return false;
    return this.chunks.length === 0;
  }

  /** Appends the postings of a document's record (added, or removed when `remove`). */
  apply(record: DocumentRecord, id: number, remove: boolean): void {
    const sid = remove ? ~id : id;
    const t = this.tables;
    const entries = record.entries.data;
    const nEntries = record.entries.length;
    for (let p = 0; p < nEntries; p += 2) {
      const key = entries[p]!;
      let mask = entries[p + 1]!;
      const word = key >>> 1;
      (key & 1 ? t.exactWords : t.words).append(word, 0, sid);
      while (mask !== 0) {
        const bit = 31 - Math.clz32(mask);
        t.wordPosition.append(word, bit, sid);
        mask = (mask ^ (1 << bit)) >>> 0;
      }
    }
    const links = record.links.data;
    for (let p = 0; p < record.links.length; p += 2) t.wordFid.append(entries[links[p]! * 2]! >>> 1, links[p + 1]!, sid);
    const pairs = record.pairs.data;
    for (let p = 0; p < record.pairs.length; p += 2) t.pairs.append(pairs[p]!, pairs[p + 1]!, sid);
    const counts = record.counts.data;
    for (let p = 0; p < record.counts.length; p += 2) t.counts.append(counts[p]!, counts[p + 1]!, sid);
  }

  /**
   * Takes the additions of a chunk (`ids`: internal id of each of its documents, −1 to skip one):
   * its keys are mapped to batch ids in place, its groups kept as they are.
   */
  applyChunk(chunk: SearchChunk, maps: RecordMaps): void {
    const [words, exactWords, wordFid, wordPosition, pairs, counts] = chunk.tables as [GroupedPostings, GroupedPostings, GroupedPostings, GroupedPostings, GroupedPostings, GroupedPostings];
    for (const g of [words, exactWords, wordPosition, wordFid, pairs]) {
      const keyA = g.keyA;
      for (let k = 0; k < keyA.length; k++) keyA[k] = maps.word(keyA[k]!);
    }
    for (let k = 0; k < wordFid.keyB.length; k++) wordFid.keyB[k] = maps.field(wordFid.keyB[k]!);
    for (let k = 0; k < pairs.keyB.length; k++) {
      const b = pairs.keyB[k]!;
      pairs.keyB[k] = maps.word(b >>> 2) * 4 + (b & 3);
    }
    for (let k = 0; k < counts.keyA.length; k++) counts.keyA[k] = maps.field(counts.keyA[k]!);
    this.#addChunk({ tables: chunk.tables, ids: chunk.ids });
  }

  #addChunk(chunk: ChunkPostings): void {
    this.chunks.push(chunk);
    this.#chunkBytes += chunkBytes(chunk);
  }

  /**
   * Appends every posting of `other`. With `take`, tables this delta has nothing in are taken
   * over instead of copied (`other` must not be used afterwards).
   */
  merge(other: SearchDelta, take: boolean): void {
    for (const name of TABLE_NAMES) {
      const mine = this.tables[name];
      const theirs = other.tables[name];
      if (theirs.length === 0) continue;
      if (take && mine.length === 0) this.tables[name] = theirs;
      else mine.merge(theirs);
    }
    // chunks are never changed once taken: both deltas may hold them
    for (const chunk of other.chunks) this.#addChunk(chunk);
  }
}

function chunkBytes(chunk: ChunkPostings): number {
  let n = chunk.ids.byteLength;
  for (const g of chunk.tables) n += g.keyA.byteLength * 2 + g.start.byteLength + g.ids.byteLength;
  return n;
}
