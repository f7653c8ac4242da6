// `huggingFace` embedders (vectors-embedders.md §2): a sentence-embedding model run on this
// machine's CPU with ONNX Runtime. Meilisearch downloads the model from the Hugging Face hub;
// Muninn never downloads anything, so the model is read from disk (docs/compat.md):
//   - `model` naming a directory (absolute, or relative to the working directory), or
//   - the Hugging Face cache (`HF_HUB_CACHE`, else `$HF_HOME/hub`, else
//     `~/.cache/huggingface/hub`): `models--<org>--<name>/snapshots/<revision>`, the revision
//     being `revision` or the one `refs/main` names.
// The directory holds `tokenizer.json`, ONNX weights (`model.onnx` or `onnx/model.onnx`) and,
// optionally, `config.json`, `tokenizer_config.json`, sentence-transformers' `modules.json` and
// `1_Pooling/config.json`. Texts are tokenised with the tokenizer's own truncation (else the
// model's positions, at most 512 tokens), run in batches of similar length, pooled (the model's
// pooling for `useModel`, mean when it names none; or the forced one), and normalised when the
// model's modules end with `Normalize`, as sentence-transformers does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { DEFAULT_HF_MODEL, DEFAULT_HF_REVISION } from '../api/settings/embedder-fields.ts';
import { EmbedError, type EmbedderClient, type EmbedderSettingsJson } from './embed-error.ts';

type Pooling = 'useModel' | 'forceMean' | 'forceCls';

interface Tokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

/** texts run together at most, and tokens (texts × longest) in one run */
const BATCH_TEXTS = 8;
const BATCH_TOKENS = 4096;

/** The directory of `model` at `revision`, or an error saying where it was looked for. */
export function modelDirectory(model: string, revision: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const direct = path.resolve(model);
  if (fs.existsSync(path.join(direct, 'tokenizer.json'))) return direct;
  const cache = env.HF_HUB_CACHE ?? (env.HF_HOME ? path.join(env.HF_HOME, 'hub') : path.join(os.homedir(), '.cache', 'huggingface', 'hub'));
  const repo = path.join(cache, `models--${model.replaceAll('/', '--')}`);
  let rev = revision;
  if (rev === null) {
    try {
      rev = fs.readFileSync(path.join(repo, 'refs', 'main'), 'utf8').trim();
    } catch {
      rev = null;
    }
  }
  const snapshot = rev === null ? null : path.join(repo, 'snapshots', rev);
  if (snapshot !== null && fs.existsSync(path.join(snapshot, 'tokenizer.json'))) return snapshot;
  throw new EmbedError(
    `could not find the model \`${model}\`${revision === null ? '' : ` at revision \`${revision}\``} on this machine.\n` +
      `  - Muninn does not download models: give \`model\` as the path of a directory holding \`tokenizer.json\` and \`model.onnx\` (or \`onnx/model.onnx\`), or put the model in the Hugging Face cache \`${cache}\``,
    'user',
  );
}

class LocalModel {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly session: InferenceSession,
    readonly ort: typeof import('onnxruntime-node'),
    readonly tokenizer: Tokenizer,
    readonly maxTokens: number,
    /** the special tokens around a text (`[CLS]` … `[SEP]`), kept when a text is truncated */
    readonly around: { before: number[]; after: number[] },
    readonly pooling: 'mean' | 'cls',
    readonly normalize: boolean,
  ) {}

  /** The token ids of `text`, cut to the model's length with its special tokens kept. */
  tokens(text: string): number[] {
    const ids = this.tokenizer.encode(text).ids;
    if (ids.length <= this.maxTokens) return ids;
    const { before, after } = this.around;
    const inner = this.tokenizer.encode(text, { add_special_tokens: false }).ids;
    return [...before, ...inner.slice(0, Math.max(0, this.maxTokens - before.length - after.length)), ...after];
  }

  /** The embeddings of `texts`, in order; runs one after the other on this model. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const run = this.#queue.then(() => this.#embed(texts, signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const encoded = texts.map((t) => this.tokens(t));
    // texts of similar length run together, so that little of each run is padding
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const out: number[][] = new Array(texts.length);
    for (let start = 0; start < order.length; ) {
      signal?.throwIfAborted();
      let end = start + 1;
      while (end < order.length && end - start < BATCH_TEXTS && (end - start + 1) * encoded[order[end]!]!.length <= BATCH_TOKENS) end++;
      const batch = order.slice(start, end).map((i) => encoded[i]!);
      const vectors = await this.#run(batch);
      order.slice(start, end).forEach((i, k) => (out[i] = vectors[k]!));
      start = end;
    }
    return out;
  }

  async #run(batch: number[][]): Promise<number[][]> {
    const { ort, session } = this;
    const rows = batch.length;
    const width = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(rows * width);
    const mask = new BigInt64Array(rows * width);
    batch.forEach((tokens, r) => tokens.forEach((id, c) => ((ids[r * width + c] = BigInt(id)), (mask[r * width + c] = 1n))));
    const feeds: Record<string, Tensor> = {};
    for (const name of session.inputNames) {
      if (name === 'input_ids') feeds[name] = new ort.Tensor('int64', ids, [rows, width]);
      else if (name === 'attention_mask') feeds[name] = new ort.Tensor('int64', mask, [rows, width]);
      else if (name === 'token_type_ids') feeds[name] = new ort.Tensor('int64', new BigInt64Array(rows * width), [rows, width]);
    }
    const results = await session.run(feeds);
    const output = results[session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0]!]!;
    const data = output.data as Float32Array;
    const dims = output.dims;
    const vectors: number[][] = [];
    if (dims.length === 2) {
      // the model pools itself (a `sentence_embedding` output)
      const size = dims[1]!;
      for (let r = 0; r < rows; r++) vectors.push(this.#finish(data.subarray(r * size, (r + 1) * size)));
      return vectors;
    }
    const size = dims[2]!;
    for (let r = 0; r < rows; r++) {
      const sum = new Float32Array(size);
      if (this.pooling === 'cls') sum.set(data.subarray(r * width * size, r * width * size + size));
      else {
        const n = batch[r]!.length;
        for (let t = 0; t < n; t++) {
          const at = (r * width + t) * size;
          for (let d = 0; d < size; d++) sum[d]! += data[at + d]!;
        }
        for (let d = 0; d < size; d++) sum[d]! /= n;
      }
      vectors.push(this.#finish(sum));
    }
    return vectors;
  }

  #finish(v: Float32Array): number[] {
    if (!this.normalize) return Array.from(v);
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    return Array.from(v, (x) => x / norm);
  }
}

function readJson(file: string): Record<string, unknown> | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

async function load(dir: string, pooling: Pooling): Promise<LocalModel> {
  const weights = ['model.onnx', path.join('onnx', 'model.onnx')].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (weights === undefined) throw new EmbedError(`the model in \`${dir}\` has no ONNX weights (\`model.onnx\` or \`onnx/model.onnx\`)`, 'user');
  let ort: typeof import('onnxruntime-node');
  try {
    ort = await import('onnxruntime-node');
  } catch (err) {
    throw new EmbedError(`ONNX Runtime could not be loaded on this machine, so \`huggingFace\` embedders cannot run:\n  - ${(err as Error).message}`, 'runtime');
  }
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizerJson = readJson(path.join(dir, 'tokenizer.json'));
  if (tokenizerJson === null) throw new EmbedError(`could not read \`tokenizer.json\` in \`${dir}\``, 'user');
  const tokenizer = new Tokenizer(tokenizerJson, readJson(path.join(dir, 'tokenizer_config.json')) ?? {}) as unknown as Tokenizer;
  const config = readJson(path.join(dir, 'config.json')) ?? {};
  const truncation = tokenizerJson.truncation as { max_length?: number } | null | undefined;
  const positions = typeof config.max_position_embeddings === 'number' ? config.max_position_embeddings : 512;
  const maxTokens = Math.min(typeof truncation?.max_length === 'number' ? truncation.max_length : positions, positions);
  // where a text sits between the special tokens
  const plain = tokenizer.encode('a', { add_special_tokens: false }).ids;
  const full = tokenizer.encode('a').ids;
  const at = full.findIndex((_, i) => plain.every((id, k) => full[i + k] === id));
  const around = at < 0 ? { before: [], after: [] } : { before: full.slice(0, at), after: full.slice(at + plain.length) };
  const modules = (readJson(path.join(dir, 'modules.json')) as unknown as { type?: string; path?: string }[] | null) ?? [];
  const poolingModule = Array.isArray(modules) ? modules.find((m) => m.type?.endsWith('Pooling')) : undefined;
  const poolingConfig = readJson(path.join(dir, poolingModule?.path ?? '1_Pooling', 'config.json'));
  const pool = pooling === 'forceCls' ? 'cls' : pooling === 'forceMean' ? 'mean' : poolingConfig?.pooling_mode_cls_token === true ? 'cls' : 'mean';
  const normalize = Array.isArray(modules) && modules.some((m) => m.type?.endsWith('Normalize'));
  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(weights, { graphOptimizationLevel: 'all', intraOpNumThreads: os.availableParallelism(), enableCpuMemArena: false, enableMemPattern: false });
  } catch (err) {
    throw new EmbedError(`could not load the ONNX model \`${weights}\`:\n  - ${(err as Error).message}`, 'user');
  }
  return new LocalModel(session, ort, tokenizer, maxTokens, around, pool, normalize);
}

/** Models loaded in this thread, by directory and pooling: a model is read from disk once. */
const loaded = new Map<string, Promise<LocalModel>>();

function model(dir: string, pooling: Pooling): Promise<LocalModel> {
  const key = `${pooling}\u0000${dir}`;
  let m = loaded.get(key);
  if (m === undefined) {
    m = load(dir, pooling);
    loaded.set(key, m);
    // a failure is not kept: the files may be put in place later
    m.catch(() => loaded.delete(key));
  }
  return m;
}

/** A client for a `huggingFace` embedder's settings; the model loads on the first texts. */
export function localModelClient(e: EmbedderSettingsJson, env: NodeJS.ProcessEnv = process.env): EmbedderClient {
  const name = typeof e.model === 'string' ? e.model : DEFAULT_HF_MODEL;
  const revision = typeof e.revision === 'string' ? e.revision : e.model === undefined ? DEFAULT_HF_REVISION : null;
  const pooling = (typeof e.pooling === 'string' ? e.pooling : 'useModel') as Pooling;
  return {
    async embed(texts, signal) {
      const m = await model(modelDirectory(name, revision, env), pooling);
      return m.embed(texts.map(String), signal);
    },
  };
}
