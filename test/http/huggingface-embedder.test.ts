// `huggingFace` embedders through the server: a tiny ONNX model written by the test (no download)
// embeds documents at indexing and `q` at search; a model that is not on the machine fails the
// settings task with a vector_embedding_error that says where it was looked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from './helpers.ts';
import { tinyId, tinyMean, writeTinyModel } from '../fixtures/tiny-model.ts';

const ids = (...tokens: string[]) => [tinyId('[CLS]'), ...tokens.map(tinyId), tinyId('[SEP]')];

test('a huggingFace embedder embeds documents and queries with a model read from disk', async () => {
  const dir = writeTinyModel(fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-model-')));
  const t = await startTestServer();
  try {
    const index = t.client.index('things');
    await index.addDocuments([{ id: 1, title: 'a red cat' }, { id: 2, title: 'a blue truck' }, { id: 3, title: 'the fast dog' }]).waitTask();
    const set = await index.updateSettings({ embedders: { e: { source: 'huggingFace', model: dir, documentTemplate: '{{doc.title}}' } } as never }).waitTask();
    assert.equal(set.status, 'succeeded', JSON.stringify(set.error));
    const settings = (await t.fetch('GET', '/indexes/things/settings/embedders')).body as Record<string, Record<string, unknown>>;
    assert.deepEqual(settings.e, { source: 'huggingFace', model: dir, pooling: 'useModel', documentTemplate: '{{doc.title}}', documentTemplateMaxBytes: 400 });

    const doc = (await index.getDocument(1, { retrieveVectors: true } as never)) as { _vectors: { e: { embeddings: number[][]; regenerate: boolean } } };
    assert.equal(doc._vectors.e.regenerate, true);
    tinyMean(ids('a', 'red', 'cat')).forEach((x, d) => assert.ok(Math.abs(doc._vectors.e.embeddings[0]![d]! - x) < 1e-5));

    // additions are embedded too
    await index.addDocuments([{ id: 4, title: 'a kitten' }, { id: 5, title: 'red car' }]).waitTask();
    const stats = await index.getStats();
    assert.equal((stats as unknown as { numberOfEmbeddedDocuments: number }).numberOfEmbeddedDocuments, 5);

    // q is embedded with the same model: animals first for an animal, vehicles for a vehicle
    const semantic = async (q: string) => ((await t.fetch('POST', '/indexes/things/search', { body: { q, hybrid: { embedder: 'e', semanticRatio: 1 } } })).body as { hits: { id: number }[] }).hits.map((h) => h.id);
    assert.deepEqual(new Set((await semantic('puppy')).slice(0, 3)), new Set([1, 3, 4]));
    assert.deepEqual(new Set((await semantic('truck')).slice(0, 2)), new Set([2, 5]));
  } finally {
    await t.close();
  }
});

test('a huggingFace model that is not on the machine fails the settings task', async () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-hf-cache-'));
  // the scheduler's thread takes the environment when the server starts
  process.env.HF_HUB_CACHE = cache;
  const t = await startTestServer();
  try {
    const task = await t.client.index('things').updateSettings({ embedders: { e: { source: 'huggingFace' } } as never }).waitTask();
    assert.equal(task.status, 'failed');
    assert.equal(task.error?.code, 'vector_embedding_error');
    assert.equal(
      task.error?.message,
      'Index `things`: Error while generating embeddings: error: could not find the model `BAAI/bge-base-en-v1.5` at revision `617ca489d9e86b49b8167676d8220688b99db36e` on this machine.\n' +
        `  - Muninn does not download models: give \`model\` as the path of a directory holding \`tokenizer.json\` and \`model.onnx\` (or \`onnx/model.onnx\`), or put the model in the Hugging Face cache \`${cache}\``,
    );
    const settings = (await t.fetch('GET', '/indexes/things/settings/embedders')).body;
    assert.deepEqual(settings, {}, 'the failed task left no embedder');
  } finally {
    delete process.env.HF_HUB_CACHE;
    await t.close();
  }
});
