// multi-ecommerce: the search page of a shop as one request. For each real e-commerce query, a
// multi-search of three queries (the hits, a facet panel, query suggestions from another index)
// and the same as one federated search over the two indexes, measured in-process against the
// three single searches they replace, and over HTTP; then what a tenant token costs. See
// bench/README.md ("Workload `multi-ecommerce`").
import fs from 'node:fs';
import path from 'node:path';
import { generateTenantToken } from 'meilisearch/token';
import type { Muninn } from '../../src/lib.ts';
import { decodeTenantToken } from '../../src/auth/index.ts';
import { forceGc } from '../lib/gc.ts';
import { makeTempDir, randomKey } from '../lib/server.ts';
import { nowMs, percentile } from '../lib/stats.ts';
import { readNdjson, Rng, type Doc } from '../lib/text.ts';
import type { Workload, WorkloadContext } from './types.ts';

const DATASET = 'ecommerce-bestbuy-3291';
const SEED = 3291;
const PRODUCTS = 'products';
const SUGGESTIONS = 'suggestions';
const FACETS = ['brand', 'categories'];
const WARMUP = 50;
/** wall-clock budget of one timed pass */
const PASS_BUDGET_MS = 30_000;
/** target: a multi-search costs at most this many times the single searches it replaces */
const RATIO_TARGET = 1.3;
/** target: authorizing a request with a tenant token, in ms */
const TOKEN_TARGET_MS = 0.1;

interface Suggestion {
  query: string;
  popularity: number;
}

type Body = Record<string, unknown>;

/** The three intents of a search page for `q`, as single-search bodies. */
function intents(q: string): { hits: Body; panel: Body; suggest: Body } {
  return {
    hits: { q, limit: 10 },
    panel: { q, limit: 0, facets: FACETS },
    suggest: { q, limit: 5 },
  };
}

const multiBody = (q: string): Body => {
  const i = intents(q);
  return {
    queries: [
      { indexUid: PRODUCTS, ...i.hits },
      { indexUid: PRODUCTS, ...i.panel },
      { indexUid: SUGGESTIONS, ...i.suggest },
    ],
  };
};

/** One merged list of products and suggestions, with the products' facets. */
const federatedBody = (q: string): Body => ({
  federation: { limit: 10, facetsByIndex: { [PRODUCTS]: FACETS } },
  queries: [{ indexUid: PRODUCTS, q }, { indexUid: SUGGESTIONS, q }],
});

/** What the federated search replaces: the products with their facets, and the suggestions. */
const federatedSingles = (q: string): [string, Body][] => [
  [PRODUCTS, { q, limit: 10, facets: FACETS }],
  [SUGGESTIONS, { q, limit: 10 }],
];

const multiSingles = (q: string): [string, Body][] => {
  const i = intents(q);
  return [[PRODUCTS, i.hits], [PRODUCTS, i.panel], [SUGGESTIONS, i.suggest]];
};

const INDEXES: { uid: string; settings: Body }[] = [
  { uid: PRODUCTS, settings: { searchableAttributes: ['name', 'brand', 'categories', 'description'], filterableAttributes: FACETS } },
  { uid: SUGGESTIONS, settings: { searchableAttributes: ['query'] } },
];

type Call = (method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) => Promise<{ status: number; body: any }>;
type Wait = (uid: number) => Promise<{ status: string; error?: unknown }>;

async function setUp(call: Call, wait: Wait, products: Doc[], suggestions: Doc[]): Promise<void> {
  const check = async (what: string, res: { status: number; body: any }) => {
    if (res.status !== 202) throw new Error(`${what} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    const task = await wait(res.body.taskUid);
    if (task.status !== 'succeeded') throw new Error(`${what}: task ${task.status}: ${JSON.stringify(task.error)}`);
  };
  for (const { uid, settings } of INDEXES) {
    await check(`POST /indexes ${uid}`, await call('POST', '/indexes', { uid, primaryKey: 'id' }));
    await check(`PATCH settings ${uid}`, await call('PATCH', `/indexes/${uid}/settings`, settings));
  }
  await check('products', await call('POST', `/indexes/${PRODUCTS}/documents`, products));
  await check('suggestions', await call('POST', `/indexes/${SUGGESTIONS}/documents`, suggestions));
}

interface Timings {
  multi: number[];
  singles: number[];
}

/**
 * Times `multi(q)` against `singles(q)` (run one after the other) query by query, alternating which
 * goes first so that neither always finds the other's reads cached.
 */
async function interleaved(stream: readonly string[], multi: (q: string) => Promise<unknown> | unknown, singles: (q: string) => Promise<unknown> | unknown): Promise<Timings> {
  const out: Timings = { multi: [], singles: [] };
  const deadline = nowMs() + PASS_BUDGET_MS;
  for (let k = 0; k < stream.length && nowMs() < deadline; k++) {
    const q = stream[k]!;
    const runMulti = async () => {
      const s = nowMs();
      await multi(q);
      out.multi.push(nowMs() - s);
    };
    const runSingles = async () => {
      const s = nowMs();
      await singles(q);
      out.singles.push(nowMs() - s);
    };
    if (k % 2 === 0) {
      await runMulti();
      await runSingles();
    } else {
      await runSingles();
      await runMulti();
    }
  }
  return out;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function reportLatencies(ctx: WorkloadContext, prefix: string, xs: readonly number[]): void {
  if (xs.length === 0) return;
  ctx.report(`${prefix}.p50`, percentile(xs, 50), 'ms');
  ctx.report(`${prefix}.p95`, percentile(xs, 95), 'ms');
  ctx.report(`${prefix}.p99`, percentile(xs, 99), 'ms');
}

/** Latencies of both forms, their ratio (total time, and p50s) and whether it meets the target. */
function reportComparison(ctx: WorkloadContext, prefix: string, t: Timings, target: number | null): number {
  reportLatencies(ctx, `${prefix}.request`, t.multi);
  reportLatencies(ctx, `${prefix}.singles_sum`, t.singles);
  ctx.report(`${prefix}.timed_queries`, t.multi.length, 'queries');
  const ratio = sum(t.multi) / sum(t.singles);
  ctx.report(`${prefix}.ratio_vs_singles`, ratio, 'x');
  ctx.report(`${prefix}.ratio_vs_singles_p50`, percentile(t.multi, 50) / percentile(t.singles, 50), 'x');
  if (target !== null) ctx.report(`${prefix}.ratio_target_met`, ratio <= target ? 1 : 0, 'bool');
  return ratio;
}

/** ms per call of `fn` over `n` calls (after a warm-up). */
function perCall(n: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(1000, n); i++) fn();
  const s = nowMs();
  for (let i = 0; i < n; i++) fn();
  return (nowMs() - s) / n;
}

export const multiEcommerce: Workload = {
  name: 'multi-ecommerce',
  description: 'Best Buy products + query suggestions: multi-search and federated search per real query, tenant tokens',
  dataset: DATASET,
  async run(ctx) {
    const dir = path.join(ctx.datasetsDir, DATASET);
    const products = readNdjson(path.join(dir, 'products.ndjson'));
    const raw = fs
      .readFileSync(path.join(dir, 'queries-algolia-query-suggestions.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Suggestion);
    const suggestions: Doc[] = raw.map((s, i) => ({ id: i + 1, query: s.query, popularity: s.popularity }));
    // the stream of search-ecommerce: each query popularity+1 times, shuffled
    const stream: string[] = [];
    for (const s of raw) for (let k = 0; k <= s.popularity; k++) stream.push(s.query);
    new Rng(SEED).shuffle(stream);
    const timed = ctx.options?.maxQueries ? stream.slice(0, ctx.options.maxQueries) : stream;
    ctx.report('dataset.products', products.length, 'docs');
    ctx.report('dataset.suggestions', suggestions.length, 'docs');
    ctx.report('dataset.stream_queries', timed.length, 'queries');
    const distinct = [...new Set(timed)];

    // ---- in-process: Muninn.multiSearch against the Muninn.search calls it replaces
    const lib = await import('../../src/lib.ts');
    const dbPath = makeTempDir('muninn-bench-multi-');
    const masterKey = randomKey();
    const m: Muninn = await lib.Muninn.open({ dbPath, masterKey, payloadSizeLimit: 1_000_000_000 });
    try {
      const t0 = nowMs();
      await setUp(
        (method, url, body) => m.request(method, url, body),
        async (uid) => (await m.waitForTask(uid, { timeoutMs: 30 * 60_000 })) as { status: string; error?: unknown },
        products,
        suggestions,
      );
      ctx.report('inprocess.index_time', (nowMs() - t0) / 1000, 's');
      // same answers both ways (hits of the multi-search = the single searches' hits)
      for (const q of distinct.slice(0, 200)) {
        const multi = m.multiSearch(multiBody(q)) as { results: { hits: unknown[]; facetDistribution?: unknown }[] };
        multiSingles(q).forEach(([uid, body], i) => {
          const single = m.search(uid, body);
          const same = JSON.stringify(single.hits) === JSON.stringify(multi.results[i]!.hits) &&
            JSON.stringify(single.facetDistribution) === JSON.stringify(multi.results[i]!.facetDistribution);
          if (!same) throw new Error(`multi-search query ${i} of ${JSON.stringify(q)} differs from its single search`);
        });
      }
      // warm every query once in both forms (JIT, the shared read cache of the index generation)
      for (const q of distinct) {
        m.multiSearch(multiBody(q));
        m.multiSearch(federatedBody(q));
        for (const [uid, body] of [...multiSingles(q), ...federatedSingles(q)]) m.search(uid, body);
      }
      forceGc();
      const multi = await interleaved(timed, (q) => m.multiSearch(multiBody(q)), (q) => {
        for (const [uid, body] of multiSingles(q)) m.search(uid, body);
      });
      const ratio = reportComparison(ctx, 'inprocess.multi', multi, RATIO_TARGET);
      forceGc();
      const federated = await interleaved(timed, (q) => m.multiSearch(federatedBody(q)), (q) => {
        for (const [uid, body] of federatedSingles(q)) m.search(uid, body);
      });
      const fedRatio = reportComparison(ctx, 'inprocess.federated', federated, RATIO_TARGET);
      console.error(`[bench] in-process: multi-search ${ratio.toFixed(3)}× its three single searches, federated ${fedRatio.toFixed(3)}× its two`);

      // ---- tenant tokens: the authorization step itself, in-process (the server's Authorizer)
      const created = await m.request<{ uid: string; key: string }>('POST', '/keys', { actions: ['search'], indexes: ['*'], expiresAt: null });
      if (created.status !== 201) throw new Error(`POST /keys -> ${created.status}: ${JSON.stringify(created.body)}`);
      const key = created.body;
      const token = await generateTenantToken({
        apiKey: key.key,
        apiKeyUid: key.uid,
        searchRules: { [PRODUCTS]: { filter: 'brand = Apple' }, [SUGGESTIONS]: null },
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      });
      const auth = m.instance.auth;
      const req = (secret: string) => ({ authorization: `Bearer ${secret}`, action: 'search', indexUid: PRODUCTS, keysRoute: false });
      const tokenReq = req(token);
      const n = 100_000;
      const tokenMs = perCall(n, () => auth.authorize(tokenReq).searchRuleFilter(PRODUCTS));
      const keyReq = req(key.key);
      const keyMs = perCall(n, () => auth.authorize(keyReq));
      const masterReq = req(masterKey);
      const masterMs = perCall(n, () => auth.authorize(masterReq));
      const decodeMs = perCall(20_000, () => decodeTenantToken(token, (uid) => m.instance.keys.keyValue(uid)));
      ctx.report('auth.tenant_token_cached', tokenMs * 1000, 'µs');
      ctx.report('auth.tenant_token_first_verify', decodeMs * 1000, 'µs');
      ctx.report('auth.api_key', keyMs * 1000, 'µs');
      ctx.report('auth.master_key', masterMs * 1000, 'µs');
      ctx.report('auth.tenant_token_target_met', tokenMs < TOKEN_TARGET_MS ? 1 : 0, 'bool');
    } finally {
      await m.close();
      fs.rmSync(dbPath, { recursive: true, force: true });
    }
    forceGc();

    // ---- over HTTP: the runner's server
    const call: Call = (method, url, body) => ctx.request(method, url, body);
    const t1 = nowMs();
    await setUp(call, ctx.waitForTask, products, suggestions);
    ctx.report('http.index_time', (nowMs() - t1) / 1000, 's');
    const post = async (url: string, body: Body, headers?: Record<string, string>) => {
      const res = await ctx.request('POST', url, body, headers);
      if (res.status !== 200) throw new Error(`POST ${url} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      return res;
    };
    for (const q of distinct.slice(0, WARMUP)) {
      await post('/multi-search', multiBody(q));
      await post('/multi-search', federatedBody(q));
    }
    const httpMulti = await interleaved(timed, (q) => post('/multi-search', multiBody(q)), async (q) => {
      for (const [uid, body] of multiSingles(q)) await post(`/indexes/${uid}/search`, body);
    });
    reportComparison(ctx, 'http.multi', httpMulti, null);
    const httpFederated = await interleaved(timed, (q) => post('/multi-search', federatedBody(q)), async (q) => {
      for (const [uid, body] of federatedSingles(q)) await post(`/indexes/${uid}/search`, body);
    });
    reportComparison(ctx, 'http.federated', httpFederated, null);

    // the same search with a tenant token and with the master key (rules without filter: same work)
    const created = await ctx.request<{ uid: string; key: string }>('POST', '/keys', { actions: ['search'], indexes: ['*'], expiresAt: null });
    if (created.status !== 201) throw new Error(`POST /keys -> ${created.status}: ${JSON.stringify(created.body)}`);
    const token = await generateTenantToken({ apiKey: created.body.key, apiKeyUid: created.body.uid, searchRules: ['*'] });
    const withToken = { Authorization: `Bearer ${token}` };
    const queries = distinct.slice(0, 2000);
    const master: number[] = [];
    const tenant: number[] = [];
    for (let k = 0; k < queries.length; k++) {
      const body = { q: queries[k], limit: 10 };
      const a = async () => master.push((await post(`/indexes/${PRODUCTS}/search`, body)).ms);
      const b = async () => tenant.push((await post(`/indexes/${PRODUCTS}/search`, body, withToken)).ms);
      if (k % 2 === 0) {
        await a();
        await b();
      } else {
        await b();
        await a();
      }
    }
    reportLatencies(ctx, 'http.search_master_key', master);
    reportLatencies(ctx, 'http.search_tenant_token', tenant);
    ctx.report('http.tenant_token_overhead_p50', percentile(tenant, 50) - percentile(master, 50), 'ms');
  },
};
