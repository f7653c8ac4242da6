// Search tables kept in step with documents. Properties checked:
// 1. added documents fill word, word+field, word+position, pair and word-count postings, and the word set
// 2. replacing a document removes its old words (a word no document has leaves the word set)
// 3. deletions and clear remove postings; a failed task (rolled back) leaves no trace
// 4. a new configuration re-indexes every document (e.g. fewer searchable fields)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index } from '../index/index.ts';
import type { Bitmap } from '../bitmap/index.ts';
import { defaultSearchConfig, type SearchConfig } from './search-config.ts';
import { runBatch, type TaskFn } from './batch.test-support.ts';

const config = (searchable: string[] | null = null): SearchConfig => defaultSearchConfig({ searchable });
const REPLACE = { method: 'replace' as const, primaryKey: 'id', skipCreation: false };

function withIndex(fn: (index: Index) => void): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-search-'));
  const index = Index.open(dir, { primaryKey: 'id', now: 1 });
  try {
    fn(index);
  } finally {
    return index.close().then(() => fs.rmSync(dir, { recursive: true, force: true }));
  }
}

/** One batch: each function is a task in its own child transaction, like the scheduler does. */
function batch(index: Index, cfg: SearchConfig, tasks: TaskFn[]): void {
  runBatch(index, cfg, tasks);
}

const ids = (bitmap: Bitmap) => bitmap.toArray();

test('postings and word set follow additions, replacements and deletions', () =>
  withIndex((index) => {
    batch(index, config(), [
      (w) => {
        w.addDocument({ id: 1, title: 'red fox', tags: ['quick'] }, 'id', REPLACE);
        w.addDocument({ id: 2, title: 'blue fox' }, 'id', REPLACE);
      },
    ]);
    const t = index.search;
    assert.deepEqual(ids(t.words.docids(['fox'])), [0, 1]);
    assert.deepEqual(ids(t.words.docids(['quick'])), [0]);
    const titleFid = index.fieldsOrder().indexOf('title');
    assert.deepEqual(ids(t.wordFid.docids(['red', titleFid])), [0]);
    assert.deepEqual(ids(t.wordPosition.docids(['fox', 1])), [0, 1]);
    assert.deepEqual(ids(t.wordPairProximity.docids([1, 'red', 'fox'])), [0]);
    assert.deepEqual(ids(t.fidWordCount.docids([titleFid, 2])), [0, 1]);
    assert.ok(index.wordSets().words.has('quick'));
    assert.ok(index.wordSets().words.has('1'), 'the id value is searchable too');

    batch(index, config(), [(w) => w.addDocument({ id: 1, title: 'green owl' }, 'id', REPLACE)]);
    assert.deepEqual(ids(t.words.docids(['fox'])), [1]);
    assert.equal(t.words.has(['red']), false);
    assert.equal(index.wordSets().words.has('red'), false);
    assert.equal(index.wordSets().words.has('owl'), true);

    batch(index, config(), [(w) => w.deleteByIds(['2'])]);
    assert.equal(t.words.has(['fox']), false);
    assert.equal(t.wordPairProximity.has([1, 'blue', 'fox']), false);
    assert.equal(index.wordSets().words.has('blue'), false);
  }));

test('a failed task leaves no search trace; clear empties everything', () =>
  withIndex((index) => {
    batch(index, config(), [
      (w) => w.addDocument({ id: 1, title: 'kept' }, 'id', REPLACE),
      (w) => {
        w.addDocument({ id: 2, title: 'ghost' }, 'id', REPLACE);
        w.addDocument({ id: 'bad id!' }, 'id', REPLACE);
      },
    ]);
    assert.deepEqual(ids(index.search.words.docids(['kept'])), [0]);
    assert.equal(index.search.words.has(['ghost']), false);
    assert.equal(index.wordSets().words.has('ghost'), false);
    batch(index, config(), [(w) => w.clear()]);
    assert.equal(index.search.words.isEmpty(), true);
    assert.equal(index.search.wordPosition.isEmpty(), true);
    assert.equal(index.wordSets().words.size, 0);
  }));

test('a new configuration re-indexes every document', () =>
  withIndex((index) => {
    batch(index, config(), [(w) => w.addDocument({ id: 1, title: 'alpha', body: 'beta' }, 'id', REPLACE)]);
    assert.ok(index.search.words.has(['beta']));
    batch(index, config(), [(w) => w.reindexSearch(config(['title']))]);
    assert.equal(index.search.words.has(['beta']), false);
    assert.deepEqual(ids(index.search.words.docids(['alpha'])), [0]);
    assert.deepEqual([...index.wordSets().words.prefixed('')], ['alpha']);
  }));
