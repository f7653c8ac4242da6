// `fieldDistribution` (indexes.md §3.7): top-level fields only, as Meilisearch 1.50 counts them.
// Properties checked:
// 1. a document counts its own keys (nested objects, arrays of objects, null, {} and [] alike),
//    never their nested paths, and never `_vectors`; literal dotted keys count as they are
// 2. replacements, partial updates, deletions and clear keep the counts; a rolled-back task
//    leaves them as they were
// 3. an index written before top-level counts were stored (its `fieldDistribution` holds every
//    path) is read without its nested paths, and the next batch recounts it from its documents
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index } from '../index/index.ts';
import { DocumentsWriter, type AddOptions } from './documents.ts';

const REPLACE: AddOptions = { method: 'replace', primaryKey: 'id', skipCreation: false };
const UPDATE: AddOptions = { method: 'update', primaryKey: 'id', skipCreation: false };

async function withIndex(fn: (index: Index) => void): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-fields-'));
  const index = Index.open(dir, { primaryKey: 'id', now: 1 });
  try {
    fn(index);
  } finally {
    await index.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One batch; each function is a task in a child transaction (a throwing one is rolled back). */
function batch(index: Index, tasks: ((w: DocumentsWriter) => void)[]): void {
  index.env.write(() => {
    const w = new DocumentsWriter(index);
    for (const task of tasks) {
      const checkpoint = w.checkpoint();
      try {
        index.env.write(() => task(w));
      } catch {
        w.rollback(checkpoint);
      }
    }
    w.save(2);
  });
}

const MIXED = [
  { id: 1, 'a.b': 1, n: null, e: {}, arr: [{ x: 1 }, { y: 2 }], _vectors: { foo: [1, 2] } },
  { id: 2, a: { c: 1 }, _geo: { lat: 1, lng: 2 } },
  { id: 3, arr: [], s: 'x' },
];

test('top-level keys only, `_vectors` aside, through every kind of write', () =>
  withIndex((index) => {
    batch(index, [(w) => MIXED.forEach((d) => w.addDocument(d, 'id', REPLACE))]);
    // Meilisearch 1.50 on the same documents (with a `_geojson` point in document 2 besides)
    assert.deepEqual(index.stats().fieldDistribution, { _geo: 1, a: 1, 'a.b': 1, arr: 2, e: 1, id: 3, n: 1, s: 1 });
    batch(index, [(w) => w.addDocument({ id: 3, a: { z: 1 } }, 'id', UPDATE)]);
    assert.deepEqual(index.stats().fieldDistribution, { _geo: 1, a: 2, 'a.b': 1, arr: 2, e: 1, id: 3, n: 1, s: 1 });
    batch(index, [
      (w) => w.deleteByIds(['1']),
      (w) => {
        w.addDocument({ id: 9, lost: true }, 'id', REPLACE);
        throw new Error('rolled back');
      },
    ]);
    assert.deepEqual(index.stats().fieldDistribution, { _geo: 1, a: 2, arr: 1, id: 2, s: 1 });
    batch(index, [(w) => w.addDocument({ id: 2, only: true }, 'id', REPLACE)]);
    assert.deepEqual(index.stats().fieldDistribution, { a: 1, arr: 1, id: 2, only: 1, s: 1 });
    batch(index, [(w) => w.clear()]);
    assert.deepEqual(index.stats().fieldDistribution, {});
  }));

test('an index with the former every-path distribution is read top-level, then recounted', () =>
  withIndex((index) => {
    batch(index, [(w) => MIXED.forEach((d) => w.addDocument(d, 'id', REPLACE))]);
    // what earlier versions stored: every path, parents included, `_vectors` too
    index.env.write(() => {
      index.removeMain('topFieldDistribution');
      index.setMain('fieldDistribution', {
        _geo: 1, '_geo.lat': 1, '_geo.lng': 1, _vectors: 1, '_vectors.foo': 1, a: 1, 'a.b': 1, 'a.c': 1,
        arr: 2, 'arr.x': 1, 'arr.y': 1, e: 1, id: 3, n: 1, s: 1,
      });
    });
    // nested paths dropped; the literal key `a.b` is taken for a nested path while `a` is counted
    assert.deepEqual(index.stats().fieldDistribution, { _geo: 1, a: 1, arr: 2, e: 1, id: 3, n: 1, s: 1 });
    batch(index, [(w) => w.addDocument({ id: 4, n: 1 }, 'id', REPLACE)]);
    assert.deepEqual(index.stats().fieldDistribution, { _geo: 1, a: 1, 'a.b': 1, arr: 2, e: 1, id: 4, n: 2, s: 1 });
    assert.equal(index.getMain('fieldDistribution'), undefined);
  }));
