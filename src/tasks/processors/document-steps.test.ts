// A document batch is applied in steps of bounded size (document-steps.ts). Properties checked,
// with a step budget of a few hundred estimated pages instead of 65,536:
// 1. a batch many times larger than the budget is committed in several steps; every task
//    succeeds and every document is stored once and found by its words
// 2. a single task larger than the budget is applied whole; a failing task, first of its step or
//    nested, leaves no trace and the tasks after it succeed
// 3. a cancelation after a committed step ends the batch with the tasks applied so far; running
//    the whole batch again (as after a crash) replays them and applies the others once
// 4. when LMDB refuses a nested task, the step commits without it and the task starts the next
//    step, where it succeeds
// 5. writing a step's search postings reports its progress: never backwards, never past its total
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Index } from '../../engine/index/index.ts';
import { indexingBudget } from '../../engine/indexing/budget.ts';
import { WriteRefused } from '../../engine/store/index.ts';
import { batchHarness } from './batch-harness.test-support.ts';

const h = batchHarness('muninn-document-steps-');
const ids = (index: Index, word: string) => index.search.words.docids([word]).toArray();
const BUDGET = { stepPages: 300, searchDeltaBytes: 1 << 20, facetDeltaBytes: 1 << 20 };

function docs(from: number, count: number, word: string): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ id: from + i, title: `${word} common`, body: `item number${(from + i) % 13}` }));
}

test('a batch far larger than the step budget is committed in steps and every task succeeds', async () => {
  const name = 'big';
  h.ctx().indexing = BUDGET;
  const tasks = Array.from({ length: 12 }, (_, t) => h.addition(name, docs(t * 100, 100, `word${t}`)));
  const done = await h.run(name, tasks);
  assert.deepEqual(done.map((t) => t.status), tasks.map(() => 'succeeded'));
  const index = h.indexOf(name);
  assert.ok(index.generation() >= 4, `committed in steps (generation ${index.generation()})`);
  assert.equal(index.usedIds().size, 1200);
  assert.equal(ids(index, 'common').length, 1200);
  for (let t = 0; t < 12; t++) assert.equal(ids(index, `word${t}`).length, 100, `word${t}`);
  assert.ok(index.wordSets().words.has('word11') && index.wordSets().words.has('number12'));
});

test('a task larger than the budget is applied whole; failing tasks leave no trace', async () => {
  const name = 'mixed';
  h.ctx().indexing = BUDGET;
  const tasks = [
    h.addition(name, docs(0, 1500, 'huge')),
    h.addition(name, [...docs(5000, 50, 'ghost'), { id: 'not valid!', title: 'bad' }]),
    h.addition(name, docs(2000, 100, 'after')),
    h.addition(name, docs(3000, 400, 'filler')),
    h.addition(name, [...docs(6000, 50, 'phantom'), { id: 'also bad!', title: 'bad' }]),
    h.addition(name, docs(4000, 100, 'last')),
  ];
  const done = await h.run(name, tasks);
  assert.deepEqual(done.map((t) => t.status), ['succeeded', 'failed', 'succeeded', 'succeeded', 'failed', 'succeeded']);
  assert.equal(done[1]!.error?.code, 'invalid_document_id');
  const index = h.indexOf(name);
  assert.equal(ids(index, 'huge').length, 1500);
  assert.deepEqual(ids(index, 'ghost'), []);
  assert.deepEqual(ids(index, 'phantom'), []);
  assert.equal(ids(index, 'last').length, 100);
  assert.equal(index.usedIds().size, 1500 + 100 + 400 + 100);
  assert.equal(ids(index, 'common').length, 2100);
});

test('a cancelation after a committed step keeps the applied tasks; a rerun replays them', async () => {
  const name = 'cancel';
  const ctx = h.ctx();
  ctx.indexing = BUDGET;
  const tasks = Array.from({ length: 6 }, (_, t) => h.addition(name, docs(t * 300, 300, `part${t}`)));
  await h.run(name, [h.addition(name, docs(10_000, 1, 'seed'))]);
  const index = h.indexOf(name);
  const g0 = index.generation();
  ctx.shouldAbort = () => index.generation() > g0;
  try {
    const first = await h.run(name, tasks);
    assert.ok(first.length > 0 && first.length < tasks.length, `a prefix of the tasks ends the batch (${first.length})`);
    assert.deepEqual(first.map((t) => t.uid), tasks.slice(0, first.length).map((t) => t.uid));
    assert.ok(first.every((t) => t.status === 'succeeded'));
    assert.equal(index.usedIds().size, 1 + 300 * first.length);
  } finally {
    ctx.shouldAbort = () => false;
  }
  const rerun = await h.run(name, tasks);
  assert.deepEqual(rerun.map((t) => t.status), tasks.map(() => 'succeeded'));
  assert.equal(index.usedIds().size, 1 + 1800);
  for (let t = 0; t < 6; t++) assert.equal(ids(index, `part${t}`).length, 300);
  assert.equal(ids(index, 'common').length, 1801);
});

test('a task LMDB refuses to nest starts the next step and succeeds there', async () => {
  const name = 'refused';
  h.ctx().indexing = indexingBudget();
  await h.run(name, [h.addition(name, docs(0, 10, 'warm'))]);
  const index = h.indexOf(name);
  const g0 = index.generation();
  // the third task's first document write is refused once, as LMDB does when a nested transaction is full
  const documents = index.documents as unknown as { put(key: number, value: Uint8Array): void };
  const put = documents.put.bind(documents);
  let refuse = true;
  documents.put = (key, value) => {
    if (refuse && key === 20) {
      refuse = false;
      throw new WriteRefused('documents');
    }
    put(key, value);
  };
  try {
    const tasks = [h.addition(name, docs(100, 5, 'one')), h.addition(name, docs(200, 5, 'two')), h.addition(name, docs(300, 5, 'three'))];
    const done = await h.run(name, tasks);
    assert.deepEqual(done.map((t) => t.status), ['succeeded', 'succeeded', 'succeeded']);
  } finally {
    delete (documents as { put?: unknown }).put;
  }
  assert.equal(index.generation(), g0 + 2, 'two steps');
  assert.equal(ids(index, 'three').length, 5);
  assert.equal(ids(index, 'common').length, 25);
});

test('writing the search postings of a step reports how far it has gone', async () => {
  const name = 'progress';
  const ctx = h.ctx();
  ctx.indexing = indexingBudget();
  const seen: Array<[number, number]> = [];
  ctx.progress = (step, finished, total) => {
    if (step === 'writing the search tables') seen.push([finished, total]);
  };
  try {
    // 70k distinct words: more than one slice of keys (32,768) in the word tables
    const big = Array.from({ length: 7_000 }, (_, i) => ({ id: i, body: Array.from({ length: 10 }, (_, j) => `w${i * 10 + j}`).join(' ') }));
    const done = await h.run(name, [h.addition(name, big)]);
    assert.equal(done[0]!.status, 'succeeded');
  } finally {
    ctx.progress = () => {};
  }
  assert.ok(seen.length >= 2, `progress reported ${seen.length} times`);
  const total = seen[0]![1];
  assert.ok(total >= 70_000, `total ${total}`);
  for (let i = 0; i < seen.length; i++) {
    assert.equal(seen[i]![1], total);
    assert.ok(seen[i]![0] <= total);
    if (i > 0) assert.ok(seen[i]![0] >= seen[i - 1]![0], 'never backwards');
  }
  assert.ok(seen[seen.length - 1]![0] > 0, 'advanced');
});
