// The vectors part of the documents writer:
// 1. an index written before the vector store (vectors left in the documents' `_vectors`) gets
//    them moved into it by `indexVectorsIfMissing`, once; the documents keep their other entries
// 2. a replaced document without vectors keeps them; `null` stores an empty entry
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Index, parseDocument } from '../index/index.ts';
import { VectorReader, embedderSpecs, type EmbedderConfig } from '../vector/index.ts';
import { DocumentsWriter } from './documents.ts';

const manual: EmbedderConfig = { name: 'manual', dimensions: 2, metric: 'cosine', quantized: false, userProvided: true };
const add = { method: 'replace' as const, primaryKey: 'id', skipCreation: false };

function openIndex(): Index {
  return Index.open(fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-docvec-')), { primaryKey: 'id', now: 1 });
}

function batch(index: Index, vectors: EmbedderConfig[], fn: (w: DocumentsWriter) => void): void {
  index.env.write(() => {
    const w = new DocumentsWriter(index, undefined, { vectors });
    fn(w);
    w.endTask();
    w.save(2);
  });
}

test('vectors left in the documents by an older version move into the vector store once', () => {
  const index = openIndex();
  // before the vector store: no embedder is given to the writer, `_vectors` stays in the document
  batch(index, [], (w) => {
    w.addDocument({ id: 1, _vectors: { manual: [1, 0], other: [3] } }, 'id', add);
    w.addDocument({ id: 2, title: 'no vectors' }, 'id', add);
  });
  assert.equal(index.getMain('embedderIds'), undefined);
  batch(index, [manual], (w) => w.indexVectorsIfMissing());
  const spec = embedderSpecs(index, [manual], false)[0]!;
  const reader = new VectorReader(index);
  assert.deepEqual(reader.nearest(spec, { vector: [1, 0], limit: 5, candidates: null }).ids, [0]);
  assert.deepEqual(parseDocument(index.documents.get(0)!), { id: 1, _vectors: { other: [3] } });
  assert.deepEqual(parseDocument(index.documents.get(1)!), { id: 2, title: 'no vectors' });
});

test('a replaced document keeps its vectors; null stores an empty entry', () => {
  const index = openIndex();
  batch(index, [manual], (w) => {
    w.addDocument({ id: 1, _vectors: { manual: [1, 0] } }, 'id', add);
    w.addDocument({ id: 2, _vectors: { manual: null } }, 'id', add);
  });
  batch(index, [manual], (w) => w.addDocument({ id: 1, title: 'replaced' }, 'id', add));
  const spec = embedderSpecs(index, [manual], false)[0]!;
  const reader = new VectorReader(index);
  assert.deepEqual(reader.embeddings(spec.id, 0)!.vectors(), [[1, 0]]);
  assert.equal(reader.embeddings(spec.id, 1)!.count, 0);
  assert.deepEqual(reader.docids(spec.id).toArray(), [0]);
});

test('at start-up, a stored entry the embedder refuses stays in its document; the others move', () => {
  const index = openIndex();
  batch(index, [], (w) => {
    w.addDocument({ id: 1, _vectors: { manual: [1, 0, 5] } }, 'id', add);
    w.addDocument({ id: 2, _vectors: { manual: [0, 1] } }, 'id', add);
  });
  batch(index, [manual], (w) => w.indexVectorsIfMissing());
  const spec = embedderSpecs(index, [manual], false)[0]!;
  assert.deepEqual(new VectorReader(index).docids(spec.id).toArray(), [1]);
  assert.deepEqual(parseDocument(index.documents.get(0)!), { id: 1, _vectors: { manual: [1, 0, 5] } });
  assert.deepEqual(parseDocument(index.documents.get(1)!), { id: 2 });
});
