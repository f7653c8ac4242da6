// Keeps the search tables of an index in step with its documents (docs/decisions/0002).
//
//   add / remove document ─► extractSearchData ─► per-task deltas (key → ids to add / remove)
//   end of task ─► flush: one read-modify-write per touched key ─► words that appear or vanish
//   end of batch ─► the word sets (WordSet automata) rebuilt with those words
//
// Deltas are in memory per task, so a failed task is dropped by forgetting them; the flush
// runs inside the task's child transaction.
import { bitmapBytes, bitmapFrom } from '../bitmap/index.ts';
import type { Index } from '../index/index.ts';
import type { Table } from '../store/index.ts';
import type { Tokenizer } from '../tokenizer/index.ts';
import { compareUtf8, WordSet } from '../words/index.ts';
import { extractSearchData, type DocumentSearchData, type SearchableFields } from './search-data.ts';

export interface SearchConfig {
  fields: SearchableFields;
  tokenizer: Tokenizer;
}

const SEP = '\u0000';

/** Pending changes of one table: encoded key → [ids added, ids removed]. */
class Delta {
  readonly changes = new Map<string, [number[], number[]]>();

  add(key: string, id: number): void {
    this.#entry(key)[0].push(id);
  }

  remove(key: string, id: number): void {
    this.#entry(key)[1].push(id);
  }

  #entry(key: string): [number[], number[]] {
    let e = this.changes.get(key);
    if (!e) {
      e = [[], []];
      this.changes.set(key, e);
    }
    return e;
  }
}

/** Applies a delta to a table; reports keys that became empty or appeared. */
function flushDelta<K>(table: Table<K, Uint8Array>, delta: Delta, decode: (key: string) => K, onKey?: (key: string, existed: boolean, exists: boolean) => void): void {
  for (const [key, [added, removed]] of delta.changes) {
    const k = decode(key);
    const before = table.get(k);
    const ids = bitmapFrom(before);
    if (removed.length > 0) ids.removeMany(removed);
    if (added.length > 0) ids.addMany(added);
    if (ids.size === 0) {
      if (before !== undefined) table.remove(k);
    } else {
      table.put(k, bitmapBytes(ids));
    }
    onKey?.(key, before !== undefined, ids.size > 0);
  }
  delta.changes.clear();
}

export class SearchIndexWriter {
  readonly #index: Index;
  #config: SearchConfig;
  readonly #fid: (path: string) => number;
  #words = new Delta();
  #exactWords = new Delta();
  #wordFid = new Delta();
  #wordPosition = new Delta();
  #pairs = new Delta();
  #counts = new Delta();
  /** words that appeared / vanished in this batch, per word set */
  readonly #appeared = { words: new Set<string>(), exactWords: new Set<string>() };
  readonly #vanished = { words: new Set<string>(), exactWords: new Set<string>() };

  /** `fid` maps a field path to its field id (the writer's field order). */
  constructor(index: Index, config: SearchConfig, fid: (path: string) => number) {
    this.#index = index;
    this.#config = config;
    this.#fid = fid;
  }

  /** Records the search data of a document being added. */
  addDocument(id: number, doc: Record<string, unknown>): void {
    this.#apply(id, extractSearchData(doc, this.#config.fields, this.#config.tokenizer), true);
  }

  /** Records the removal of a stored document (its old version). */
  removeDocument(id: number, doc: Record<string, unknown>): void {
    this.#apply(id, extractSearchData(doc, this.#config.fields, this.#config.tokenizer), false);
  }

  #apply(id: number, data: DocumentSearchData, add: boolean): void {
    const op = add ? 'add' : 'remove';
    for (const [map, delta] of [
      [data.words, this.#words],
      [data.exactWords, this.#exactWords],
    ] as const) {
      for (const [word, occ] of map) {
        delta[op](word, id);
        for (const path of occ.fields) this.#wordFid[op](`${word}${SEP}${this.#fid(path)}`, id);
        for (const p of occ.positions) this.#wordPosition[op](`${word}${SEP}${p}`, id);
      }
    }
    for (const pair of data.pairs) this.#pairs[op](pair, id);
    for (const [path, count] of data.wordCounts) this.#counts[op](`${this.#fid(path)}${SEP}${count}`, id);
  }

  /** Drops what the current task recorded (the task failed). */
  discard(): void {
    for (const d of [this.#words, this.#exactWords, this.#wordFid, this.#wordPosition, this.#pairs, this.#counts]) d.changes.clear();
  }

  /** Writes the current task's deltas (inside its transaction). */
  flush(): void {
    const t = this.#index.search;
    const track = (set: 'words' | 'exactWords') => (key: string, existed: boolean, exists: boolean) => {
      if (!existed && exists) {
        this.#appeared[set].add(key);
        this.#vanished[set].delete(key);
      } else if (existed && !exists) {
        this.#vanished[set].add(key);
        this.#appeared[set].delete(key);
      }
    };
    flushDelta(t.words, this.#words, (k) => k, track('words'));
    flushDelta(t.exactWords, this.#exactWords, (k) => k, track('exactWords'));
    flushDelta(t.wordFid, this.#wordFid, (k) => splitLast(k, Number) as [string, number]);
    flushDelta(t.wordPosition, this.#wordPosition, (k) => splitLast(k, Number) as [string, number]);
    flushDelta(t.wordPairProximity, this.#pairs, (k) => {
      const [p, a, b] = k.split(SEP) as [string, string, string];
      return [Number(p), a, b];
    });
    flushDelta(t.fidWordCount, this.#counts, (k) => k.split(SEP).map(Number) as [number, number]);
  }

  /** Empties every search table (clear of all documents). */
  clearAll(): void {
    this.discard();
    const t = this.#index.search;
    for (const table of [t.words, t.exactWords, t.wordFid, t.wordPosition, t.wordPairProximity, t.fidWordCount] as Table<unknown, Uint8Array>[]) table.clear();
    const empty = WordSet.build([]).toBytes();
    this.#index.setMain('words', empty);
    this.#index.setMain('exactWords', empty);
    for (const s of [this.#appeared, this.#vanished]) {
      s.words.clear();
      s.exactWords.clear();
    }
  }

  /** Rebuilds every search table with a new configuration (settings changed what is indexed). */
  rebuild(config: SearchConfig, documents: Iterable<[number, Record<string, unknown>]>): void {
    this.clearAll();
    this.#config = config;
    for (const [id, doc] of documents) this.addDocument(id, doc);
    this.flush();
  }

  /** Saves the word sets with the words that appeared or vanished (once per batch). */
  saveWordSets(): void {
    const { words, exactWords } = this.#index.wordSets();
    const sets = { words, exactWords };
    for (const name of ['words', 'exactWords'] as const) {
      if (this.#appeared[name].size === 0 && this.#vanished[name].size === 0) continue;
      const next = sets[name].with([...this.#appeared[name]].sort(compareUtf8), this.#vanished[name]);
      this.#index.setMain(name, next.toBytes());
      this.#appeared[name].clear();
      this.#vanished[name].clear();
    }
  }
}

function splitLast(key: string, num: (s: string) => number): [string, number] {
  const i = key.lastIndexOf(SEP);
  return [key.slice(0, i), num(key.slice(i + 1))];
}

