// The search tables always say what the stored documents say. Properties checked:
// 1. after any run of batches (additions that replace or update, documents sent again unchanged,
//    deletions, clears, failed tasks, configuration changes), every search table equals the tables computed from scratch from
//    the stored documents (extractSearchData per document), and the word sets hold exactly the
//    keys of the word tables
// 2. the same when pending changes are written early (tiny bound: at every task boundary and
//    inside tasks, so failed tasks roll back writes of the deltas)
// 3. search data made on the extractor thread indexes like documents extracted by the writer,
//    also when a job's word table is shared and then no longer (replacements within the job),
//    with a second job in the same batch, with the writes prepared on the extractor thread, and
//    when skipped documents (skipCreation) bring fields no stored document has yet
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index, parseDocument } from '../index/index.ts';
import { isPrefixKey, prefixKey } from '../index/prefix-keys.ts';
import type { PostingsTable } from '../index/postings-table.ts';
import { DocumentsWriter, type AddOptions } from './documents.ts';
import { Extractor } from './extract/extractor.ts';
import { compileSearchConfig, defaultSearchConfig, type SearchConfig } from './search-config.ts';
import { extractSearchData } from './search-data.ts';
import type { FlushRequest } from './flush-prepare.ts';
import { runBatch, type TaskFn } from './batch.test-support.ts';
import type { SearchWriterOptions } from './search-writer.ts';
import { rng } from '../random.fixtures.ts';

type Dump = Record<string, [string, number[]][]>;
const REPLACE = { method: 'replace' as const, primaryKey: 'id', skipCreation: false };
const UPDATE = { method: 'update' as const, primaryKey: 'id', skipCreation: false };

/** The tables as stored: key (JSON) → ids. */
function actual(index: Index): Dump {
  const t = index.search;
  const out: Dump = {};
  for (const [name, table] of Object.entries({ words: t.words, exactWords: t.exactWords, wordFid: t.wordFid, wordPosition: t.wordPosition, pairs: t.wordPairProximity, counts: t.fidWordCount })) {
    out[name] = [...(table as PostingsTable<unknown[]>).entries()].map(([k, v]) => [JSON.stringify(k.length === 1 ? k[0] : k), v.toArray()]);
    out[name].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }
  return out;
}

/** The tables computed from scratch from the stored documents. */
function expected(index: Index, config: SearchConfig): Dump {
  const { fields, tokenizer } = compileSearchConfig(config);
  const fids = new Map(index.fieldsOrder().map((f, i) => [f, i]));
  const prefixLength = index.prefixPostings();
  const tables: Record<string, Map<string, number[]>> = { words: new Map(), exactWords: new Map(), wordFid: new Map(), wordPosition: new Map(), pairs: new Map(), counts: new Map() };
  const add = (name: string, key: unknown, id: number) => {
    const k = JSON.stringify(key);
    const ids = tables[name]!.get(k);
    if (ids) ids.push(id);
    else tables[name]!.set(k, [id]);
  };
  for (const [id, bytes] of index.documents.entries()) {
    const d = extractSearchData(parseDocument(bytes), fields, tokenizer);
    for (const [name, map] of [['words', d.words], ['exactWords', d.exactWords]] as const) {
      for (const [word, occ] of map) {
        add(name, word, id);
        for (const f of occ.fields) add('wordFid', [word, fids.get(f)], id);
        for (const p of occ.positions) add('wordPosition', [word, p], id);
        // its prefixes, as pseudo-words of the normal table (exact words' too)
        const chars = [...word];
        for (let k = 1; k <= Math.min(prefixLength, chars.length); k++) {
          const key = prefixKey(chars.slice(0, k).join(''));
          add('words', key, id);
          for (const f of occ.fields) add('wordFid', [key, fids.get(f)], id);
          for (const p of occ.positions) add('wordPosition', [key, p], id);
        }
      }
    }
    for (const pair of d.pairs) {
      const [p, a, b] = pair.split('\0');
      add('pairs', [Number(p), a, b], id);
    }
    for (const [f, count] of d.wordCounts) add('counts', [fids.get(f), count], id);
  }
  const out: Dump = {};
  for (const [name, map] of Object.entries(tables)) {
    out[name] = [...map].map(([k, ids]) => [k, [...new Set(ids)].sort((a, b) => a - b)] as [string, number[]]);
    out[name].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }
  return out;
}

function assertConsistent(index: Index, config: SearchConfig, label: string): void {
  const got = actual(index);
  assert.deepEqual(got, expected(index, config), label);
  const sets = index.wordSets();
  const keys = (name: string) => got[name]!.map(([k]) => JSON.parse(k) as string).filter((w) => !isPrefixKey(w)).sort();
  assert.deepEqual([...sets.words.prefixed('')].sort(), keys('words'), `${label}: word set`);
  assert.deepEqual([...sets.exactWords.prefixed('')].sort(), keys('exactWords'), `${label}: exact word set`);
}


const VOCAB = ['red', 'fox', 'the', 'quick', 'brown', 'dog', 'lazy', '12', '3.5', 'a-b', 'café', 'Über', 'jumps', 'over', 'sky', 'blue', '42', 'x', 'y', 'z'];

function randomDoc(rand: () => number, id: number): Record<string, unknown> {
  const pick = () => VOCAB[Math.floor(rand() * VOCAB.length)]!;
  const words = (n: number) => Array.from({ length: n }, pick);
  const sep = () => (rand() < 0.2 ? '. ' : ' ');
  const doc: Record<string, unknown> = { id };
  if (rand() < 0.9) doc.title = words(1 + Math.floor(rand() * 6)).join(sep());
  if (rand() < 0.5) doc.tags = words(Math.floor(rand() * 4));
  if (rand() < 0.5) doc.meta = { color: pick(), size: Math.floor(rand() * 50), deep: [{ name: pick() }, { name: pick() }] };
  if (rand() < 0.2) doc.body = words(20 + Math.floor(rand() * 30)).join(' ');
  return doc;
}

function randomConfig(rand: () => number): SearchConfig {
  const searchable = [null, ['title'], ['title', 'meta'], ['body', 'tags', 'meta.deep']][Math.floor(rand() * 4)]!;
  return defaultSearchConfig({
    searchable,
    exact: rand() < 0.3 ? ['tags'] : [],
    numbersExact: rand() < 0.3,
    proximity: rand() < 0.2 ? 'byAttribute' : 'byWord',
    stopWords: rand() < 0.3 ? ['the', 'x'] : [],
  });
}

async function withIndex(fn: (index: Index, dir: string) => Promise<void> | void): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-search-tables-'));
  // postings in chunks of 8 ids: keys spread over many chunks (decision 0006)
  const index = Index.open(path.join(dir, 'index'), { primaryKey: 'id', now: 1, postingsChunkBits: 3 });
  try {
    await fn(index, dir);
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function randomRun(seed: number, opts: SearchWriterOptions): Promise<void> {
  return withIndex((index) => {
    const rand = rng(seed);
    let config = defaultSearchConfig();
    for (let b = 0; b < 12; b++) {
      const tasks: TaskFn[] = [];
      const nTasks = 1 + Math.floor(rand() * 4);
      for (let t = 0; t < nTasks; t++) {
        const r = rand();
        const ids = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Math.floor(rand() * 30));
        const docs = ids.map((id) => randomDoc(rand, id));
        const method = rand() < 0.3 ? UPDATE : REPLACE;
        if (r < 0.42) {
          tasks.push((w) => docs.forEach((d) => w.addDocument(d, 'id', method)));
        } else if (r < 0.5) {
          // documents sent again as they are stored: nothing to change
          tasks.push((w) => {
            for (const id of ids) {
              const stored = w.index.document(String(id));
              if (stored) w.addDocument(rand() < 0.5 ? stored : { id, ...(stored.title === undefined ? {} : { title: stored.title }) }, 'id', method);
            }
          });
        } else if (r < 0.65) {
          tasks.push((w) => w.deleteByIds(ids.map(String)));
        } else if (r < 0.75) {
          tasks.push((w) => {
            docs.forEach((d) => w.addDocument(d, 'id', method));
            w.deleteByIds([String(ids[0])]);
            throw new Error('task fails after writing');
          });
        } else if (r < 0.87) {
          const next = randomConfig(rand);
          const fails = rand() < 0.3;
          tasks.push((w) => {
            w.reindexSearch(next);
            if (fails) throw new Error('settings task fails after reindexing');
          });
        } else if (r < 0.92) {
          tasks.push((w) => {
            w.clear();
            if (rand() < 0.5) docs.forEach((d) => w.addDocument(d, 'id', REPLACE));
          });
        } else {
          tasks.push((w) => {
            w.clear();
            throw new Error('clear fails');
          });
        }
      }
      config = runBatch(index, config, tasks, opts);
      assertConsistent(index, config, `seed ${seed}, batch ${b}`);
    }
  });
}

test('tables match the stored documents after random batches', async () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) await randomRun(seed, {});
});

test('tables match when pending changes are written early (task boundaries and inside tasks)', async () => {
  for (const seed of [7, 8, 9, 10]) await randomRun(seed, { maxDeltaBytes: 1, checkEvery: 1 });
});

test('records from the extractor thread index like the writer does', async () => {
  const extractor = Extractor.start();
  try {
    await withIndex(async (index, dir) => {
      const rand = rng(42);
      const file = (name: string, docs: Record<string, unknown>[]) => {
        const p = path.join(dir, name);
        fs.writeFileSync(p, docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
        return p;
      };
      // ids repeat inside the first payload, within a chunk and across chunks: the writer
      // extracts the old versions (a document can be in a chunk twice)
      const first = file('a.ndjson', Array.from({ length: 3000 }, (_, i) => randomDoc(rand, i % 1200)));
      const second = file('b.ndjson', Array.from({ length: 500 }, (_, i) => randomDoc(rand, 1000 + i)));
      const add = (p: string, opts: AddOptions = REPLACE) => (w: DocumentsWriter) => {
        for (const d of extractor.documents(p, 'id', () => false, w.searchConfig)) w.addExtracted(d, opts);
      };
      const prepare = (request: FlushRequest) => extractor.prepare(request);
      let config = defaultSearchConfig({ stopWords: ['the'] });
      config = runBatch(index, config, [add(first), add(second, UPDATE)], { prepare });
      assertConsistent(index, config, 'two jobs in one batch, writes prepared on the extractor thread');
      config = runBatch(index, config, [add(second), (w) => w.deleteByIds(['1', '2', '1100'])], { maxDeltaBytes: 1, checkEvery: 100, prepare });
      assertConsistent(index, config, 'written early');
      config = runBatch(index, config, [add(first, UPDATE)]);
      assertConsistent(index, config, 'updates, prepared here');
      config = runBatch(index, config, [(w) => w.deleteByIds(['3', '4']), add(second), (w) => w.deleteByIds(['1100']), add(first)], { prepare });
      assertConsistent(index, config, 'deletions between jobs of one batch');
      // skipped documents (unknown ids with skipCreation) bring a field no stored document has yet
      const skipping = file('c.ndjson', [
        // a chunk of stored documents without the field and skipped ones with it, a chunk
        // without it, then stored documents with it
        ...Array.from({ length: 2048 }, (_, i) => (i % 2 ? { id: i % 1000, title: 'stored first' } : { id: `new-${i}`, fresh: 'ghost words', title: 'never stored' })),
        ...Array.from({ length: 2048 }, (_, i) => ({ id: i % 1000, title: `stored again ${i % 7}` })),
        ...Array.from({ length: 200 }, (_, i) => ({ id: 10 + i, fresh: `kept ${i}`, title: 'stored' })),
      ]);
      config = runBatch(index, config, [add(skipping, { method: 'replace', primaryKey: 'id', skipCreation: true })], { prepare });
      assertConsistent(index, config, 'fields first met in skipped documents');
      assert.equal(index.search.words.has(['ghost']), false);
    });
  } finally {
    await extractor.close();
  }
});
