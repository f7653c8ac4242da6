// Embedders that compute vectors over HTTP (vectors-embedders.md §2): `rest` with its request and
// response templates, and `openAi` and `ollama`, which are REST embedders with fixed templates.
// Requests follow Meilisearch's rules: `Authorization: Bearer <apiKey>` when a key is set, the
// `headers` of a REST embedder, a 30 s timeout, up to 10 retries (429: after 100 + 10^n ms; 5xx,
// network errors and unreadable answers: after 10^n ms; at most 60 s, times a random factor in
// [0.5, 1]); 400, 401 and other 4xx answers fail at once. Every request goes through the
// private-network rule of outgoing.ts. The errors carry Meilisearch's messages.
import { FRAGMENT, RequestTemplate, ResponseTemplate, RestTemplateError } from '../engine/vector/rest-template.ts';
import { usesFragments } from '../api/settings/index.ts';
import { EmbedError, type EmbedderClient, type EmbedderSettingsJson } from './embed-error.ts';
import { localModelClient } from './local-model.ts';
import { send, sleep, OutgoingError, type AllowedNetworks } from './outgoing.ts';

export { EmbedError, type EmbedderClient, type EmbedderSettingsJson };

export interface ClientOptions {
  allowed: AllowedNetworks;
  env?: NodeJS.ProcessEnv;
  /** ms per attempt (default 30 s, `MEILI_EXPERIMENTAL_REST_EMBEDDER_TIMEOUT_SECONDS`) */
  timeoutMs?: number;
  /** retries after the first attempt (default 10) */
  retries?: number;
  /** ms the longest wait between attempts (default 60 s) */
  maxWaitMs?: number;
}

/** requests one embedding call keeps in flight */
const CONCURRENCY = 8;
const OPENAI_URL = 'https://api.openai.com/v1/embeddings';
const OLLAMA_URL = 'http://localhost:11434/api/embeddings';

interface Rest {
  url: string;
  request: RequestTemplate;
  response: ResponseTemplate;
  headers: Record<string, string>;
  dimensions: number | null;
  /** OpenAI: a 400 is retried with the texts cut to the model's tokens */
  openAi?: boolean;
}

/** The REST shape of an embedder's settings (null for sources that do not call a server). */
function restOf(e: EmbedderSettingsJson, env: NodeJS.ProcessEnv): Rest | null {
  const source = (e.source as string | undefined) ?? 'openAi';
  const dimensions = typeof e.dimensions === 'number' ? e.dimensions : null;
  const apiKey = typeof e.apiKey === 'string' ? e.apiKey : null;
  const auth = (key: string | null): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  if (source === 'rest') {
    const request = usesFragments(e) ? new RequestTemplate(e.request, FRAGMENT) : new RequestTemplate(e.request);
    return { url: String(e.url), request, response: new ResponseTemplate(e.response, request), headers: { ...auth(apiKey), ...((e.headers ?? {}) as Record<string, string>) }, dimensions };
  }
  if (source === 'openAi') {
    const model = (e.model as string | undefined) ?? 'text-embedding-3-small';
    const request = new RequestTemplate({ model, input: ['{{text}}', '{{..}}'], ...(dimensions !== null && model !== 'text-embedding-ada-002' ? { dimensions } : {}) });
    const key = apiKey ?? env.MEILI_OPENAI_API_KEY ?? env.OPENAI_API_KEY ?? null;
    return { url: (e.url as string | undefined) ?? OPENAI_URL, request, response: new ResponseTemplate({ data: [{ embedding: '{{embedding}}' }, '{{..}}'] }, request), headers: auth(key), dimensions, openAi: true };
  }
  if (source === 'ollama') {
    const url = (e.url as string | undefined) ?? env.MEILI_OLLAMA_URL ?? OLLAMA_URL;
    const model = String(e.model);
    if (url.endsWith('/api/embed')) {
      const request = new RequestTemplate({ model, input: ['{{text}}', '{{..}}'] });
      return { url, request, response: new ResponseTemplate({ embeddings: ['{{embedding}}', '{{..}}'] }, request), headers: auth(apiKey), dimensions };
    }
    if (url.endsWith('/api/embeddings')) {
      const request = new RequestTemplate({ model, prompt: '{{text}}' });
      return { url, request, response: new ResponseTemplate({ embedding: '{{embedding}}' }, request), headers: auth(apiKey), dimensions };
    }
    throw new EmbedError(`unsupported Ollama URL.\n  - For \`ollama\` sources, the URL must end with \`/api/embed\` or \`/api/embeddings\`\n  - Got \`${url}\``, 'user');
  }
  return null;
}

/**
 * The settings that compute an embedder's vectors for documents (`indexing`) or search texts
 * (`search`): a `composite` embedder's nested one (vectors-embedders.md §2.3), else its own.
 */
export function sideOf(e: EmbedderSettingsJson, side: 'indexing' | 'search'): EmbedderSettingsJson | null {
  if (e.source !== 'composite') return e;
  const nested = e[side === 'indexing' ? 'indexingEmbedder' : 'searchEmbedder'];
  return nested !== null && typeof nested === 'object' ? (nested as EmbedderSettingsJson) : null;
}

/** Whether an embedder's source computes vectors: through a server, or with a model run here (`huggingFace`). */
export function computesVectors(e: EmbedderSettingsJson): boolean {
  const source = (e.source as string | undefined) ?? 'openAi';
  return source === 'rest' || source === 'openAi' || source === 'ollama' || source === 'huggingFace';
}

/** A client for an embedder's settings (`rest`, `openAi`, `ollama`, `huggingFace`). */
export function embedderClient(e: EmbedderSettingsJson, opts: ClientOptions): EmbedderClient {
  const env = opts.env ?? process.env;
  if (e.source === 'huggingFace') return localModelClient(e, env);
  const rest = restOf(e, env);
  if (rest === null) throw new EmbedError(`embedders of source \`${String(e.source)}\` cannot embed texts in this version of Muninn`, 'runtime');
  const timeoutMs = opts.timeoutMs ?? Number(env.MEILI_EXPERIMENTAL_REST_EMBEDDER_TIMEOUT_SECONDS ?? 30) * 1000;
  const maxWaitMs = opts.maxWaitMs ?? Number(env.MEILI_EXPERIMENTAL_REST_EMBEDDER_MAX_RETRY_DURATION_SECONDS ?? 60) * 1000;
  const retries = opts.retries ?? 10;
  const url = new URL(rest.url);

  /** One request: the embeddings, or the failure and the wait its retry adds to 10^n ms (null: no retry). */
  const attempt = async (body: string, count: number, signal?: AbortSignal): Promise<{ vectors: number[][] } | { error: EmbedError; wait: number | null; status?: number }> => {
    let res;
    try {
      res = await send(url, { method: 'POST', headers: { 'content-type': 'application/json', ...rest.headers }, body }, { allowed: opts.allowed, timeoutMs, attempts: 1, anyStatus: true, ...(signal ? { signal } : {}) });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const message = (err as Error).message;
      if (err instanceof OutgoingError && /non-global address/.test(message)) return { error: new EmbedError(message, 'user'), wait: null };
      return { error: new EmbedError(`could not reach embedding server:\n  - ${message.replace(/ \(after \d+ attempts?\)$/, '')}`, 'runtime'), wait: 0 };
    }
    if (res.status < 200 || res.status >= 300) return { error: statusError(res.status, res.text), wait: res.status === 429 ? 100 : res.status >= 500 ? 0 : null, status: res.status };
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      return { error: new EmbedError(`could not parse the answer of the embedding server\n  - server replied with \`${res.text.slice(0, 500)}\``, 'runtime'), wait: 0 };
    }
    try {
      return { vectors: check(rest.response.extract(parsed), count, rest.dimensions) };
    } catch (err) {
      if (err instanceof RestTemplateError) return { error: new EmbedError(`error extracting embeddings from the response:\n  - ${err.message}`, 'runtime'), wait: null };
      if (err instanceof EmbedError) return { error: err, wait: null };
      throw err;
    }
  };

  const once = async (texts: readonly unknown[], signal?: AbortSignal, onRequest?: () => void, tokenized = false): Promise<number[][]> => {
    const body = JSON.stringify(rest.request.render(texts));
    for (let n = 0; ; n++) {
      onRequest?.();
      const result = await attempt(body, texts.length, signal);
      if ('vectors' in result) return result.vectors;
      // OpenAI answers 400 to a text over the model's tokens: Meilisearch sends each text again,
      // those over 8,191 tokens as their first 8,191 tokens (cl100k)
      if (result.status === 400 && rest.openAi && !tokenized) return byTokens(texts, signal, onRequest);
      if (result.wait === null || n >= retries) throw result.error;
      await sleep(Math.min(result.wait + 10 ** n, maxWaitMs) * (0.5 + Math.random() / 2), signal);
    }
  };

  const byTokens = async (texts: readonly unknown[], signal?: AbortSignal, onRequest?: () => void): Promise<number[][]> => {
    const out: number[][] = [];
    for (const text of texts) {
      // a token holds at least one character: a shorter text goes as it is
      const tokens = String(text).length < OPENAI_MAX_TOKENS ? null : await firstTokens(String(text), OPENAI_MAX_TOKENS);
      const input = tokens === null || tokens.length < OPENAI_MAX_TOKENS ? text : tokens;
      out.push(...(await once([input], signal, onRequest, true)));
    }
    return out;
  };

  return {
    async embed(texts, signal, onRequest) {
      const size = rest.request.batchSize;
      const out: number[][][] = [];
      let next = 0;
      // a fixed pool of requests in flight, as Meilisearch's
      const worker = async () => {
        for (let i = next++; i * size < texts.length; i = next++) out[i] = await once(texts.slice(i * size, (i + 1) * size), signal, onRequest);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, Math.ceil(texts.length / size)) }, worker));
      return out.flat();
    },
  };
}

/** tokens OpenAI's embedding models take (all three) */
const OPENAI_MAX_TOKENS = 8191;

let tokenizer: Promise<{ encode(text: string): number[] }> | null = null;

/** OpenAI's cl100k tokenizer (special tokens read as ordinary text), loaded on the first text it must cut (its ranks are 1 MB). */
function cl100k(): Promise<{ encode(text: string): number[] }> {
  tokenizer ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]).then(([{ Tiktoken }, ranks]) => {
    const t = new Tiktoken(ranks.default);
    return { encode: (text: string) => t.encode(text, [], []) };
  });
  return tokenizer;
}

/**
 * The first `max` cl100k tokens of `text` (fewer when it has fewer). The text is tokenised a
 * slice of about a thousand characters at a time, cut before a space where there is one, and only
 * until `max` tokens are found: byte-pair merging is quadratic in the length of a run of letters,
 * and a cut before a space splits no token.
 */
async function firstTokens(text: string, max: number): Promise<number[]> {
  const tokenizer = await cl100k();
  const tokens: number[] = [];
  for (let at = 0; at < text.length && tokens.length < max; ) {
    let end = Math.min(text.length, at + 1000);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > at) end = space;
    }
    tokens.push(...tokenizer.encode(text.slice(at, end)));
    at = end;
  }
  return tokens.slice(0, max);
}

function check(embeddings: number[][], expected: number, dimensions: number | null): number[][] {
  if (embeddings.length !== expected) {
    throw new EmbedError(`received \`${embeddings.length}\` embeddings, expected \`${expected}\``, 'runtime');
  }
  if (dimensions !== null) {
    const bad = embeddings.find((v) => v.length !== dimensions);
    if (bad) throw new EmbedError(`was expecting embeddings of dimension \`${dimensions}\`, got embeddings of dimensions \`${bad.length}\``, 'user');
  }
  return embeddings;
}

function statusError(status: number, text: string): EmbedError {
  const replied = `\n  - server replied with \`${text.slice(0, 500)}\``;
  if (status === 400) {
    return new EmbedError(`sent a bad request to embedding server\n  - Hint: check that the \`request\` in the embedder configuration matches the remote server's API${replied}`, 'user');
  }
  if (status === 401) return new EmbedError(`could not authenticate against embedding server${replied}\n  - Hint: Check the \`apiKey\` parameter in the embedder configuration`, 'user');
  if (status === 429) return new EmbedError(`too many requests to the embedding server${replied}`, 'runtime');
  if (status >= 500) return new EmbedError(`the embedding server had an internal error (status ${status})${replied}`, 'runtime');
  return new EmbedError(`the embedding server answered with status ${status}${replied}`, 'user');
}
