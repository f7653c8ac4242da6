import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localModelClient, modelDirectory } from './local-model.ts';
import { EmbedError } from './embed-error.ts';
import { TINY_VOCAB, tinyId, tinyMean, tinyRow, writeTinyModel } from '../../test/fixtures/tiny-model.ts';
import { sharedDatasetPath } from '../../test/fixtures/paths.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'muninn-model-'));
const ids = (...tokens: string[]) => [tinyId('[CLS]'), ...tokens.map(tinyId), tinyId('[SEP]')];

function assertClose(actual: number[] | undefined, expected: number[]): void {
  assert.ok(actual !== undefined);
  assert.equal(actual.length, expected.length);
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]!) < 1e-5, `${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`));
}

const norm = (v: number[]) => {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

test('a model directory: WordPiece tokens with [CLS] and [SEP], mean pooling by default, order kept across batches', async () => {
  const dir = writeTinyModel(tmp());
  const client = localModelClient({ source: 'huggingFace', model: dir });
  const [a, b, c] = await client.embed(['The red cats', 'dog', 'zebra']);
  assertClose(a, tinyMean(ids('the', 'red', 'cat', '##s')));
  assertClose(b, tinyMean(ids('dog')));
  assertClose(c, tinyMean(ids('[UNK]')));
  // more texts than one run holds, of many lengths: each vector stays with its text
  const words = TINY_VOCAB.slice(4).filter((w) => !w.startsWith('##'));
  const texts = Array.from({ length: 100 }, (_, i) => Array.from({ length: 1 + ((i * 7) % 13) }, (_, k) => words[(i + k) % words.length]!));
  const out = await client.embed(texts.map((t) => t.join(' ')));
  texts.forEach((t, i) => assertClose(out[i], tinyMean(ids(...t))));
});

test('pooling follows the model (sentence-transformers 1_Pooling) unless forced; Normalize normalises', async () => {
  const cls = writeTinyModel(tmp(), { pooling: 'cls', normalize: true, weights: 'onnx/model.onnx' });
  const [v] = await localModelClient({ source: 'huggingFace', model: cls }).embed(['fast car']);
  assertClose(v, norm(tinyRow(tinyId('[CLS]'))));
  const [m] = await localModelClient({ source: 'huggingFace', model: cls, pooling: 'forceMean' }).embed(['fast car']);
  assertClose(m, norm(tinyMean(ids('fast', 'car'))));
  const mean = writeTinyModel(tmp(), { pooling: 'mean' });
  const [c] = await localModelClient({ source: 'huggingFace', model: mean, pooling: 'forceCls' }).embed(['fast car']);
  assertClose(c, tinyRow(tinyId('[CLS]')));
});

test("a long text is cut to the tokenizer's length, keeping [CLS] and [SEP]", async () => {
  const dir = writeTinyModel(tmp(), { maxLength: 4 });
  const [v] = await localModelClient({ source: 'huggingFace', model: dir }).embed(['red blue car truck dog']);
  assertClose(v, tinyMean(ids('red', 'blue')));
});

test('a model in the Hugging Face cache is found by name, at refs/main or at the given revision', async () => {
  const cache = tmp();
  const repo = path.join(cache, 'models--acme--tiny');
  writeTinyModel(path.join(repo, 'snapshots', 'aaaa'));
  writeTinyModel(path.join(repo, 'snapshots', 'bbbb'), { pooling: 'cls' });
  fs.mkdirSync(path.join(repo, 'refs'));
  fs.writeFileSync(path.join(repo, 'refs', 'main'), 'aaaa\n');
  const env = { HF_HUB_CACHE: cache };
  assert.equal(modelDirectory('acme/tiny', null, env), path.join(repo, 'snapshots', 'aaaa'));
  assert.equal(modelDirectory('acme/tiny', 'bbbb', env), path.join(repo, 'snapshots', 'bbbb'));
  // HF_HOME holds the cache in its hub folder
  const home = tmp();
  fs.renameSync(cache, path.join(home, 'hub'));
  assert.equal(modelDirectory('acme/tiny', 'bbbb', { HF_HOME: home }), path.join(home, 'hub', 'models--acme--tiny', 'snapshots', 'bbbb'));
  const [v] = await localModelClient({ source: 'huggingFace', model: 'acme/tiny' }, { HF_HOME: home }).embed(['cat']);
  assertClose(v, tinyMean(ids('cat')));
});

test('a missing model or missing weights fail with a user error that says where Muninn looked', async () => {
  const cache = tmp();
  await assert.rejects(localModelClient({ source: 'huggingFace', model: 'acme/absent', revision: 'cccc' }, { HF_HUB_CACHE: cache }).embed(['x']), (err: unknown) => {
    assert.ok(err instanceof EmbedError);
    assert.equal(err.kind, 'user');
    assert.match(err.message, /could not find the model `acme\/absent` at revision `cccc` on this machine/);
    assert.ok(err.message.includes(cache));
    return true;
  });
  // the default model is looked for at its default revision
  assert.throws(() => modelDirectory('BAAI/bge-base-en-v1.5', '617ca489d9e86b49b8167676d8220688b99db36e', { HF_HUB_CACHE: cache }), /BAAI\/bge-base-en-v1.5` at revision `617ca489/);
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), '{}');
  await assert.rejects(localModelClient({ source: 'huggingFace', model: dir }).embed(['x']), /has no ONNX weights/);
});

// The real all-MiniLM-L6-v2 (ONNX) against the MiniLM vectors of the fiori dataset, which were
// computed from each chunk's `content` with up to 512 tokens.
const minilm = process.env.MUNINN_TEST_MINILM_DIR;
const fiori = sharedDatasetPath('hybrid-fiori-docs-minilm384-778');
const skip = !minilm ? 'set MUNINN_TEST_MINILM_DIR to a directory with all-MiniLM-L6-v2 (tokenizer.json, model.onnx) to run it' : !fs.existsSync(fiori) ? `the dataset ${fiori} is absent` : false;
test('all-MiniLM-L6-v2 reproduces the vectors of the fiori dataset', { skip }, async () => {
  // the dataset's vectors come from 512 tokens: the same tokenizer without its truncation
  const dir = tmp();
  const tokenizer = JSON.parse(fs.readFileSync(path.join(minilm!, 'tokenizer.json'), 'utf8'));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify({ ...tokenizer, truncation: null, padding: null }));
  const weights = ['model.onnx', 'onnx/model.onnx'].map((f) => path.join(minilm!, f)).find((f) => fs.existsSync(f))!;
  fs.symlinkSync(weights, path.join(dir, 'model.onnx'));
  const docs = fs.readFileSync(path.join(fiori, 'docs.ndjson'), 'utf8').trim().split('\n').slice(0, 24).map((l) => JSON.parse(l) as { content: string; _vectors: { minilm: number[] } });
  const out = await localModelClient({ source: 'huggingFace', model: dir, pooling: 'forceMean' }).embed(docs.map((d) => d.content));
  docs.forEach((d, i) => {
    const a = norm(out[i]!);
    const cos = a.reduce((s, x, k) => s + x * d._vectors.minilm[k]!, 0);
    assert.ok(cos > 0.99, `document ${i}: cosine ${cos}`);
  });
});
