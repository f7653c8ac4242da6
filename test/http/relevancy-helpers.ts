// Shared fixtures for the relevancy tests (relevancy*.test.ts): dataset location, index setup
// that fails loudly when a setup task fails (so that a red test always means "ranking", never
// "setup"), hit id extraction and the ranking-score arithmetic of relevancy.md §8.1.
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import type { Settings } from 'meilisearch';
import { uniqueIndex, type TestServer } from './helpers.ts';

/**
 * Reads a file holding JSON values one after another (pretty-printed "ndjson", as in
 * meili-fixtures/milli-ranking-test_set.ndjson), in file order.
 */
export function readJsonValues<T = Record<string, unknown>>(file: string): T[] {
  const text = fs.readFileSync(file, 'utf8');
  const values: T[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (c === '}') {
      depth -= 1;
      if (depth === 0) values.push(JSON.parse(text.slice(start, i + 1)) as T);
    }
  }
  assert.equal(depth, 0, `unbalanced JSON in ${file}`);
  return values;
}

/**
 * Creates a fresh index with these settings (applied first, as Meilisearch's own tests do) and
 * documents, waiting for both tasks and asserting they succeeded. Returns the index uid.
 */
export async function makeIndex(
  t: TestServer,
  prefix: string,
  opts: { settings?: Settings; documents: Record<string, unknown>[]; primaryKey?: string },
): Promise<string> {
  const uid = uniqueIndex(prefix);
  const index = t.client.index(uid);
  if (opts.settings) {
    const task = await index.updateSettings(opts.settings).waitTask();
    assert.equal(task.status, 'succeeded', `settings of ${uid}: ${JSON.stringify(task.error)}`);
  }
  const task = await index.addDocuments(opts.documents, { primaryKey: opts.primaryKey ?? 'id' }).waitTask();
  assert.equal(task.status, 'succeeded', `documents of ${uid}: ${JSON.stringify(task.error)}`);
  assert.equal((task.details as { indexedDocuments?: number } | undefined)?.indexedDocuments, opts.documents.length, `documents of ${uid}`);
  return uid;
}

/** Applies a settings update to an existing index and asserts it succeeded. */
export async function updateSettings(t: TestServer, uid: string, settings: Settings): Promise<void> {
  const task = await t.client.index(uid).updateSettings(settings).waitTask();
  assert.equal(task.status, 'succeeded', `settings of ${uid}: ${JSON.stringify(task.error)}`);
}

/** The `id` of every hit, in order. */
export function ids(res: { hits: Array<Record<string, unknown>> }): unknown[] {
  return res.hits.map((h) => h.id);
}

/** The hit whose id is `id` (fails when absent). */
export function hitById<T extends Record<string, unknown>>(res: { hits: T[] }, id: unknown): T {
  const hit = res.hits.find((h) => h.id === id);
  assert.ok(hit, `hit ${String(id)} missing from ${JSON.stringify(res.hits.map((h) => h.id))}`);
  return hit;
}

/**
 * Global ranking score of relevancy.md §8.1: the (rank, max) pairs of the non-sort rules, first
 * rule most significant, combined like the digits of a mixed-radix number, then one division.
 * `rankScore([[2,2],[3,3],[3,4],[1,1],[17,21],[1,3],[3,3]])` = 4305/4536 = 0.9490740740740741.
 */
export function rankScore(ranks: Array<[number, number]>): number {
  let rank = 1;
  let max = 1;
  for (const [r, m] of ranks) {
    assert.ok(r >= 0 && r <= m && m >= 1, `bad rank ${r}/${m}`);
    rank = Math.max(rank - 1, 0) * m + r; // saturating, like milli's Rank::merge
    max *= m;
  }
  return rank / max;
}
