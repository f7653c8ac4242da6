// What one document contributes to the search tables (relevancy.md §1), computed from the
// document alone so the extractor thread can do it for new documents, and the writer can redo
// it for the old version of a replaced or deleted document.
//
//   document ─► searchable leaf values per field ─► tokens (positions with hard/soft gaps,
//   +8 between values of one field) ─► words (field, bucketed position), exact words,
//   word pairs at distance ≤ 3, word counts of fields with ≤ 30 words
//
// The result is a compact record of u32 pairs, words and fields named by interned ids (the
// caller's `Interner`s: a per-job table on the extractor thread, the batch's word ids on the writer):
//
//   entries  [word << 1 | exact, position mask]      unique words; bit i of the mask = bucket index i
//   links    [entry index, field]                    the fields each word entry occurs in
//   pairs    [first word, second word << 2 | prox]   pairs of one field at distance 1–3 (may repeat)
//   counts   [field, word count]                     fields of at most 30 words
//
// A record may list a (word, field) or a pair twice; deltas drop repeats of one document.
import { prefixKey } from '../index/prefix-keys.ts';
import type { Tokenizer } from '../tokenizer/index.ts';

/** Which fields are searchable, and which only match exactly (typoTolerance.disableOnAttributes). */
export interface SearchableFields {
  /** Searchable? (patterns and weights are resolved by the caller) */
  isSearchable(path: string): boolean;
  /** Exact-only attribute: its words go to the exact word set. */
  isExact(path: string): boolean;
  /** `typoTolerance.disableOnNumbers`: numeric words are exact-only. */
  numbersExact: boolean;
  /** `proximityPrecision`: byAttribute records co-occurrence only. */
  proximity: 'byWord' | 'byAttribute';
}

export const MAX_POSITION = 65_536;
export const VALUE_GAP = 8;
const MAX_PROXIMITY = 3;
const MAX_COUNTED_WORDS = 30;
const NUMERIC = /^[\p{N}\p{P}\p{S}]+$/u;

/** Stored positions are bucketed: p < 16 → p; 16 ≤ p < 24 → 24; p ≥ 24 → next power of two. */
export function bucketPosition(p: number): number {
  return bucketOfIndex(bucketIndex(p));
}

/** Index of a position's bucket, 0–28 (positions below MAX_POSITION): the bit of a position mask. */
export function bucketIndex(p: number): number {
  if (p < 16) return p;
  if (p < 24) return 16;
  return 12 + (32 - Math.clz32(p - 1)); // 2^k ≥ p → 12 + k (32 → 17)
}

/** The bucketed position of a bucket index. */
export function bucketOfIndex(i: number): number {
  return i < 16 ? i : i === 16 ? 24 : 2 ** (i - 12);
}

/** Gives dense ids to strings (words, field paths). */
export interface Interner {
  id(s: string): number;
}

/** The search data of one document: the extractor's own buffers, valid until its next call. */
export interface DocumentRecord {
  entries: U32Buffer;
  links: U32Buffer;
  pairs: U32Buffer;
  counts: U32Buffer;
}

/** A growable run of u32s. */
export class U32Buffer {
  data = new Uint32Array(1024);
  length = 0;

  push2(a: number, b: number): void {
    if (this.length + 2 > this.data.length) this.#grow(2);
    const d = this.data;
    d[this.length] = a;
    d[this.length + 1] = b;
    this.length += 2;
  }

  clear(): void {
    this.length = 0;
  }

  #grow(atLeast: number): void {
    const next = new Uint32Array(Math.max(this.data.length * 2, this.length + atLeast));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

/** The word and field tables of a run of records (an extraction job), growing chunk by chunk. */
export interface RecordSource {
  readonly words: string[];
  readonly fields: string[];
}

/** Per field path: what the settings say of it, and its running state in the current document. */
interface FieldState {
  path: string;
  searchable: boolean;
  exact: boolean;
  children: Map<string, FieldState> | null;
  /** the document this state was last used for */
  serial: number;
  /** interned field id, position of the next value, words counted so far */
  ref: number;
  next: number;
  count: number;
  /** byAttribute: the field's words in this document */
  words: number[];
}

/** Field states kept across documents; past this many paths the cache starts over. */
const MAX_CACHED_PATHS = 100_000;

/** Turns documents into search records (see the top of this file). One per thread; not re-entrant. */
export class SearchDataExtractor {
  readonly #fields: SearchableFields;
  readonly #tokenizer: Tokenizer;
  readonly #words: Interner;
  readonly #fieldIds: Interner;
  readonly #byWord: boolean;
  /** longest prefix indexed as a pseudo-word (0: none) */
  readonly #prefixLength: number;
  #root = this.#state('', false);
  #cachedPaths = 0;
  #serial = 0;
  readonly #touched: FieldState[] = [];
  #nTouched = 0;
  // per-document word entries, found through stamps indexed by word << 1 | exact
  #stamp = new Int32Array(1024);
  #entryOf = new Int32Array(1024);
  readonly #entries = new U32Buffer(); // [key, mask]
  #entryLastField = new Int32Array(256);
  readonly #links = new U32Buffer();
  readonly #pairs = new U32Buffer();
  readonly #counts = new U32Buffer();
  readonly #record: DocumentRecord = { entries: this.#entries, links: this.#links, pairs: this.#pairs, counts: this.#counts };
  // one value's indexed words and positions (byWord pairs)
  #seqWords = new Int32Array(256);
  #seqPositions = new Int32Array(256);

  constructor(config: { fields: SearchableFields; tokenizer: Tokenizer; prefixLength?: number }, words: Interner, fields: Interner) {
    this.#fields = config.fields;
    this.#tokenizer = config.tokenizer;
    this.#words = words;
    this.#fieldIds = fields;
    this.#byWord = config.fields.proximity === 'byWord';
    this.#prefixLength = config.prefixLength ?? 0;
  }

  /** The record of `doc` (valid until the next call). */
  extract(doc: Record<string, unknown>): DocumentRecord {
    this.#serial = (this.#serial + 1) | 0;
    if (this.#serial === 0) {
      this.#stamp.fill(0);
      this.#serial = 1;
    }
    this.#entries.clear();
    this.#links.clear();
    this.#pairs.clear();
    this.#counts.clear();
    this.#nTouched = 0;
    if (this.#cachedPaths > MAX_CACHED_PATHS) {
      // documents with ever new keys: start over rather than grow without bound
      this.#root = this.#state('', false);
      this.#cachedPaths = 0;
    }
    this.#object(doc, this.#root);
    for (let i = 0; i < this.#nTouched; i++) {
      const field = this.#touched[i]!;
      if (field.count <= MAX_COUNTED_WORDS) this.#counts.push2(field.ref, field.count);
      if (!this.#byWord) this.#pairsByAttribute(field.words);
    }
    return this.#record;
  }

  #state(path: string, searchable: boolean): FieldState {
    return { path, searchable, exact: false, children: null, serial: 0, ref: 0, next: 0, count: 0, words: [] };
  }

  #child(parent: FieldState, key: string): FieldState {
    let children = parent.children;
    if (children === null) children = parent.children = new Map();
    let state = children.get(key);
    if (state === undefined) {
      state = this.#newState(parent.path === '' ? key : `${parent.path}.${key}`);
      children.set(key, state);
      this.#cachedPaths++;
    }
    return state;
  }

  #newState(path: string): FieldState {
    const state = this.#state(path, this.#fields.isSearchable(path));
    state.exact = this.#fields.isExact(path);
    return state;
  }

  /** Leaf values by dotted path: each array element and nested leaf is its own value. */
  #object(obj: Record<string, unknown>, state: FieldState): void {
    for (const key in obj) {
      if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
      const value = obj[key];
      if (value === null || value === undefined) continue;
      this.#value(value, this.#child(state, key));
    }
  }

  #value(value: unknown, state: FieldState): void {
    if (typeof value === 'object') {
      if (Array.isArray(value)) {
        for (const item of value) if (item !== null && item !== undefined) this.#value(item, state);
      } else {
        this.#object(value as Record<string, unknown>, state);
      }
      return;
    }
    if (state.searchable) this.#text(typeof value === 'string' ? value : String(value), state);
  }

  /** One value of a field: its words, positions from where the field's previous value ended. */
  #text(text: string, field: FieldState): void {
    if (field.serial !== this.#serial) {
      field.serial = this.#serial;
      field.ref = this.#fieldIds.id(field.path);
      field.next = 0;
      field.count = 0;
      field.words.length = 0;
      this.#touched[this.#nTouched++] = field;
    }
    const tokens = this.#tokenizer.tokenize(text, field.next);
    if (tokens.length === 0) return;
    const exactField = field.exact;
    const numbersExact = !exactField && this.#fields.numbersExact;
    const ref = field.ref;
    const interner = this.#words;
    const prefixLength = this.#prefixLength;
    let n = 0;
    if (tokens.length > this.#seqWords.length) {
      this.#seqWords = new Int32Array(tokens.length * 2);
      this.#seqPositions = new Int32Array(tokens.length * 2);
    }
    const seqWords = this.#seqWords;
    const seqPositions = this.#seqPositions;
    let count = field.count;
    for (const t of tokens) {
      const position = t.position;
      if (position >= MAX_POSITION) break;
      count++;
      if (t.isStopWord) continue;
      const exact = exactField || (numbersExact && NUMERIC.test(t.word));
      const word = interner.id(t.word);
      this.#occurrence(word, exact, ref, position);
      if (prefixLength > 0) this.#prefixes(t.word, ref, position, prefixLength);
      seqWords[n] = word;
      seqPositions[n] = position;
      n++;
    }
    field.count = count;
    field.next = tokens[tokens.length - 1]!.position + VALUE_GAP;
    if (this.#byWord) this.#pairsByWord(n);
    else for (let i = 0; i < n; i++) field.words.push(seqWords[i]!);
  }

  #occurrence(word: number, exact: boolean, field: number, position: number): void {
    const key = word * 2 + (exact ? 1 : 0);
    if (key >= this.#stamp.length) this.#growStamps(key);
    let entry: number;
    if (this.#stamp[key] === this.#serial) {
      entry = this.#entryOf[key]!;
    } else {
      entry = this.#entries.length >>> 1;
      this.#stamp[key] = this.#serial;
      this.#entryOf[key] = entry;
      this.#entries.push2(key, 0);
      if (entry >= this.#entryLastField.length) {
        const grown = new Int32Array(this.#entryLastField.length * 2);
        grown.set(this.#entryLastField);
        this.#entryLastField = grown;
      }
      this.#entryLastField[entry] = -1;
    }
    const d = this.#entries.data;
    d[entry * 2 + 1] = d[entry * 2 + 1]! | (1 << bucketIndex(position));
    if (this.#entryLastField[entry] !== field) {
      this.#entryLastField[entry] = field;
      this.#links.push2(entry, field);
    }
  }

  /** The word's prefixes of 1 to `max` characters, shorter than the word or equal, as pseudo-words of the normal set. */
  #prefixes(word: string, field: number, position: number, max: number): void {
    let end = 0;
    for (let k = 1; k <= max && end < word.length; k++) {
      end += word.codePointAt(end)! > 0xffff ? 2 : 1;
      this.#occurrence(this.#words.id(prefixKey(word.slice(0, end))), false, field, position);
    }
  }

  #growStamps(key: number): void {
    const size = Math.max(this.#stamp.length * 2, key + 1);
    const stamp = new Int32Array(size);
    stamp.set(this.#stamp);
    const entryOf = new Int32Array(size);
    entryOf.set(this.#entryOf);
    this.#stamp = stamp;
    this.#entryOf = entryOf;
  }

  /** Ordered pairs of one value's words at distance 1–3 (a value's positions only grow). */
  #pairsByWord(n: number): void {
    const words = this.#seqWords;
    const positions = this.#seqPositions;
    const pairs = this.#pairs;
    for (let i = 0; i < n; i++) {
      const p = positions[i]!;
      for (let j = i + 1; j < n; j++) {
        const d = positions[j]! - p;
        if (d > MAX_PROXIMITY) break;
        if (d > 0) pairs.push2(words[i]!, words[j]! * 4 + d);
      }
    }
  }

  /** Every ordered pair of distinct words of a field, at proximity 1. */
  #pairsByAttribute(fieldWords: number[]): void {
    const words = [...new Set(fieldWords)];
    for (const a of words) for (const b of words) if (a !== b) this.#pairs.push2(a, b * 4 + 1);
  }
}

// ---------------------------------------------------------------------------------------------
// A readable view of a record, for tests and tools.

export interface WordOccurrences {
  /** searchable field paths the word appears in */
  fields: Set<string>;
  /** bucketed positions of the word, over every field */
  positions: Set<number>;
}

export interface DocumentSearchData {
  words: Map<string, WordOccurrences>;
  /** words only matched exactly (exact attributes, numbers with disableOnNumbers) */
  exactWords: Map<string, WordOccurrences>;
  /** `${proximity}\0${first}\0${second}` for word pairs of one field at distance 1–3 */
  pairs: Set<string>;
  /** field path → number of words, for fields of at most 30 words */
  wordCounts: Map<string, number>;
}

/** Interns into a list (ids are list indexes). */
export class ListInterner implements Interner {
  readonly list: string[] = [];
  readonly #ids = new Map<string, number>();

  id(s: string): number {
    let id = this.#ids.get(s);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(s);
      this.#ids.set(s, id);
    }
    return id;
  }
}

/** Search data of one document, decoded from its record. */
export function extractSearchData(doc: Record<string, unknown>, fields: SearchableFields, tokenizer: Tokenizer): DocumentSearchData {
  const words = new ListInterner();
  const paths = new ListInterner();
  const record = new SearchDataExtractor({ fields, tokenizer }, words, paths).extract(doc);
  return decodeRecord(record, words.list, paths.list);
}

/** The readable form of a record. */
export function decodeRecord(record: DocumentRecord, words: readonly string[], paths: readonly string[]): DocumentSearchData {
  const out: DocumentSearchData = { words: new Map(), exactWords: new Map(), pairs: new Set(), wordCounts: new Map() };
  const entries: WordOccurrences[] = [];
  const e = record.entries.data;
  for (let p = 0; p < record.entries.length; p += 2) {
    const key = e[p]!;
    const mask = e[p + 1]!;
    const map = key & 1 ? out.exactWords : out.words;
    const word = words[key >>> 1]!;
    let occ = map.get(word);
    if (!occ) map.set(word, (occ = { fields: new Set(), positions: new Set() }));
    for (let i = 0; i < 32; i++) if (mask & (1 << i)) occ.positions.add(bucketOfIndex(i));
    entries.push(occ);
  }
  const l = record.links.data;
  for (let p = 0; p < record.links.length; p += 2) entries[l[p]!]!.fields.add(paths[l[p + 1]!]!);
  const q = record.pairs.data;
  for (let p = 0; p < record.pairs.length; p += 2) out.pairs.add(`${q[p + 1]! & 3}\0${words[q[p]!]}\0${words[q[p + 1]! >>> 2]}`);
  const c = record.counts.data;
  for (let p = 0; p < record.counts.length; p += 2) out.wordCounts.set(paths[c[p]!]!, c[p + 1]!);
  return out;
}
