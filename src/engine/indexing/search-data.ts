// What one document contributes to the search tables (relevancy.md §1), computed from the
// document alone so the extractor thread can do it, and the writer can redo it for the old
// version of a replaced or deleted document.
//
//   document ─► searchable leaf values per field ─► tokens (positions with hard/soft gaps,
//   +8 between values of one field) ─► words (field, bucketed position), exact words,
//   word pairs at distance ≤ 3, word counts of fields with ≤ 30 words
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

export const MAX_POSITION = 65_536;
export const VALUE_GAP = 8;
const MAX_PROXIMITY = 3;
const MAX_COUNTED_WORDS = 30;
const NUMERIC = /^[\p{N}\p{P}\p{S}]+$/u;

/** Stored positions are bucketed: p < 16 → p; 16 ≤ p < 24 → 24; p ≥ 24 → next power of two. */
export function bucketPosition(p: number): number {
  if (p < 16) return p;
  if (p < 24) return 24;
  return 2 ** Math.ceil(Math.log2(p));
}

/** Search data of one document. */
export function extractSearchData(doc: Record<string, unknown>, fields: SearchableFields, tokenizer: Tokenizer): DocumentSearchData {
  const out: DocumentSearchData = { words: new Map(), exactWords: new Map(), pairs: new Set(), wordCounts: new Map() };
  const values = new Map<string, string[]>();
  collectValues(doc, '', fields, values);
  for (const [path, texts] of values) extractField(path, texts, fields, tokenizer, out);
  return out;
}

/** Leaf values by dotted path (each array element and nested leaf is its own value). */
function collectValues(value: unknown, path: string, fields: SearchableFields, out: Map<string, string[]>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) collectValues(item, path, fields, out);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) collectValues(v, path === '' ? key : `${path}.${key}`, fields, out);
    return;
  }
  if (path === '' || !fields.isSearchable(path)) return;
  const text = typeof value === 'string' ? value : String(value);
  const list = out.get(path);
  if (list) list.push(text);
  else out.set(path, [text]);
}

function extractField(path: string, texts: string[], fields: SearchableFields, tokenizer: Tokenizer, out: DocumentSearchData): void {
  const exactField = fields.isExact(path);
  let next = 0;
  let count = 0;
  // the indexed words of this field with their (unbucketed) positions, in order, for pairs
  const seq: { word: string; position: number }[] = [];
  for (const text of texts) {
    const tokens = tokenizer.tokenize(text, next);
    if (tokens.length === 0) continue;
    for (const t of tokens) {
      if (t.position >= MAX_POSITION) break;
      count++;
      if (t.isStopWord) continue;
      const exact = exactField || (fields.numbersExact && NUMERIC.test(t.word));
      add(exact ? out.exactWords : out.words, t.word, path, bucketPosition(t.position));
      seq.push({ word: t.word, position: t.position });
    }
    next = tokens[tokens.length - 1]!.position + VALUE_GAP;
  }
  if (count <= MAX_COUNTED_WORDS) out.wordCounts.set(path, count);
  addPairs(seq, fields.proximity, out.pairs);
}

function add(map: Map<string, WordOccurrences>, word: string, path: string, position: number): void {
  let occ = map.get(word);
  if (!occ) {
    occ = { fields: new Set(), positions: new Set() };
    map.set(word, occ);
  }
  occ.fields.add(path);
  occ.positions.add(position);
}

/** Ordered pairs of one field's words at distance 1–3 (byWord), or every pair sharing the field (byAttribute, proximity 1). */
function addPairs(seq: { word: string; position: number }[], precision: 'byWord' | 'byAttribute', pairs: Set<string>): void {
  if (precision === 'byAttribute') {
    const words = [...new Set(seq.map((s) => s.word))];
    for (const a of words) for (const b of words) if (a !== b) pairs.add(`1\0${a}\0${b}`);
    return;
  }
  for (let i = 0; i < seq.length; i++) {
    for (let j = i + 1; j < seq.length; j++) {
      const d = seq[j]!.position - seq[i]!.position;
      if (d > MAX_PROXIMITY) break;
      if (d > 0) pairs.add(`${d}\0${seq[i]!.word}\0${seq[j]!.word}`);
    }
  }
}
