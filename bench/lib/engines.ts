// Engine adapters for the search workloads: one interface, five engines.
//
//   muninn-http       Muninn over HTTP (the server the runner started), node:http keep-alive client
//   muninn-inprocess  Muninn as a library in this process (src/lib.ts, Muninn.request = fastify inject)
//   minisearch        MiniSearch 7 in this process
//   orama             Orama 3 in this process
//   flexsearch        FlexSearch 0.8 (Document index) in this process
//
// Every adapter receives the dataset's documents as they are, plus the workload's settings (primary
// key and searchable attributes, most important first), and returns ids (as strings) in rank order.
// The in-process peers are configured for typo-tolerant prefix search as close to Meilisearch's
// defaults as each library allows; bench/README.md ("Engines") documents every choice.
//
// Muninn's search route is being built. Both Muninn adapters probe it first: when
// POST /indexes/{uid}/search is not routed (an empty 404, or 405), `probe()` returns the reason and
// the workload skips that engine (figure `<engine>.available = 0`). Nothing is faked.
import fs from 'node:fs';
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { create as oramaCreate, insertMultiple as oramaInsertMultiple, search as oramaSearch, type AnyOrama } from '@orama/orama';
import type { TaskJson } from '../workloads/types.ts';
import { diskUsage, type DiskUsage } from './disk.ts';
import type { EngineName } from './engine-names.ts';
import type { Request } from './http.ts';
import { makeTempDir } from './server.ts';
import { fieldText, tokenize, type Doc } from './text.ts';

export interface IndexSettings {
  /** index uid, for Muninn */
  uid: string;
  primaryKey: string;
  /** searchable attributes, most important first */
  searchableAttributes: string[];
}

export interface SearchEngine {
  readonly name: string;
  /** 'http': the engine runs in the server process; 'in-process': in the runner's own process */
  readonly kind: 'http' | 'in-process';
  /** one line describing the configuration, printed with the results */
  readonly config: string;
  /** null when the engine can run the workload, otherwise why it cannot (the workload skips it) */
  probe(): Promise<string | null>;
  index(docs: readonly Doc[], settings: IndexSettings): Promise<void>;
  /** ids of the best `limit` documents, best first */
  search(query: string, limit: number): Promise<string[]>;
  close(): Promise<void>;
  /** bytes on disk of the engine's data, for engines that keep any */
  disk?(): DiskUsage;
  /** extra figures the adapter knows after indexing (name relative to the engine, value, unit) */
  figures?(): Array<[string, number, string]>;
}

/** Thrown by `search` when Muninn's search route turns out not to exist. */
export class EngineUnavailable extends Error {}

export { ENGINE_NAMES, type EngineName } from './engine-names.ts';

export interface EngineDeps {
  /** authenticated client of the runner's server (muninn-http) */
  request: Request;
  waitForTask(taskUid: number, timeoutMs?: number): Promise<TaskJson>;
  /** the server's db dir size (muninn-http) */
  serverDisk(): DiskUsage;
}

export function createEngine(name: EngineName, deps: EngineDeps): SearchEngine {
  switch (name) {
    case 'muninn-http':
      return new MuninnHttpEngine(deps);
    case 'muninn-inprocess':
      return new MuninnInProcessEngine();
    case 'minisearch':
      return new MiniSearchEngine();
    case 'orama':
      return new OramaEngine();
    case 'flexsearch':
      return new FlexSearchEngine();
  }
}

/**
 * Field boosts for the peers, from the searchable-attributes order: the first attribute gets 2,
 * the last 1, linearly in between (Meilisearch's `attribute` rule prefers earlier attributes).
 */
export function boosts(fields: readonly string[]): Record<string, number> {
  const n = fields.length;
  return Object.fromEntries(fields.map((f, i) => [f, n === 1 ? 1 : 2 - i / (n - 1)]));
}

/** Meilisearch's default typo budget: 1 typo from 5 characters, 2 from 9. */
export const typoBudget = (term: string): number => (term.length >= 9 ? 2 : term.length >= 5 ? 1 : 0);

function checkFields(settings: IndexSettings): void {
  if (settings.searchableAttributes.includes(settings.primaryKey) || settings.searchableAttributes.includes('id')) {
    throw new Error('the peers keep the primary key in `id`: it cannot also be a searchable attribute');
  }
}

/** {id: String(pk), field: text, ...} with every searchable attribute flattened to one string. */
function flat(doc: Doc, settings: IndexSettings): Record<string, string> {
  const out: Record<string, string> = { id: String(doc[settings.primaryKey]) };
  for (const f of settings.searchableAttributes) out[f] = fieldText(doc[f]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// MiniSearch

class MiniSearchEngine implements SearchEngine {
  readonly name = 'minisearch';
  readonly kind = 'in-process';
  readonly config =
    'minisearch@7.2.0: BM25+, combineWith OR, prefix on the last query term, fuzzy = Meilisearch typo budget ' +
    '(1 edit from 5 chars, 2 from 9), boosts 2..1 by attribute order, shared Unicode tokenizer with diacritics folded';
  #ms: MiniSearch<Record<string, string>> | null = null;

  async probe(): Promise<string | null> {
    return null;
  }

  async index(docs: readonly Doc[], settings: IndexSettings): Promise<void> {
    checkFields(settings);
    const fields = settings.searchableAttributes;
    this.#ms = new MiniSearch<Record<string, string>>({
      idField: 'id',
      fields,
      storeFields: [],
      tokenize: (text) => tokenize(text),
      processTerm: (term) => term,
      searchOptions: {
        tokenize: (text) => tokenize(text),
        processTerm: (term) => term,
        combineWith: 'OR',
        prefix: (_term, i, terms) => i === terms.length - 1,
        fuzzy: (term) => typoBudget(term) || false,
        boost: boosts(fields),
      },
    });
    this.#ms.addAll(docs.map((d) => flat(d, settings)));
  }

  async search(query: string, limit: number): Promise<string[]> {
    const ms = this.#ms;
    if (!ms) throw new Error('minisearch: search before index');
    const results = ms.search(query);
    const ids: string[] = [];
    for (let i = 0; i < results.length && i < limit; i++) ids.push(String(results[i]!.id));
    return ids;
  }

  async close(): Promise<void> {
    this.#ms = null;
  }
}

// ---------------------------------------------------------------------------------------------
// Orama

class OramaEngine implements SearchEngine {
  readonly name = 'orama';
  readonly kind = 'in-process';
  readonly config =
    '@orama/orama@3.1.18: BM25, threshold 1 (OR), prefix matching on every term (Orama always does), tolerance 1 ' +
    '(Levenshtein 1 on every term: Orama has no length-dependent budget), boosts 2..1 by attribute order, shared ' +
    'Unicode tokenizer with diacritics folded (the default English splitter drops letters such as ö, ß, ł)';
  #db: AnyOrama | null = null;
  #fields: string[] = [];
  #boost: Record<string, number> = {};

  async probe(): Promise<string | null> {
    return null;
  }

  async index(docs: readonly Doc[], settings: IndexSettings): Promise<void> {
    checkFields(settings);
    this.#fields = [...settings.searchableAttributes];
    this.#boost = boosts(this.#fields);
    const schema = Object.fromEntries(this.#fields.map((f) => [f, 'string' as const]));
    const db = oramaCreate({
      schema,
      components: {
        tokenizer: {
          language: 'english',
          normalizationCache: new Map<string, string>(),
          // Orama's own tokenizer de-duplicates tokens per value (allowDuplicates false): kept.
          tokenize: (raw: string) => [...new Set(tokenize(raw))],
        },
      },
    }) as unknown as AnyOrama;
    await oramaInsertMultiple(db, docs.map((d) => flat(d, settings)), 1000);
    this.#db = db;
  }

  async search(query: string, limit: number): Promise<string[]> {
    const db = this.#db;
    if (!db) throw new Error('orama: search before index');
    const res = await oramaSearch(db, { term: query, properties: this.#fields, tolerance: 1, threshold: 1, limit, boost: this.#boost } as never);
    return (res as { hits: Array<{ id: string }> }).hits.map((h) => String(h.id));
  }

  async close(): Promise<void> {
    this.#db = null;
  }
}

// ---------------------------------------------------------------------------------------------
// FlexSearch

interface FlexDocument {
  add(doc: Record<string, string>): unknown;
  search(query: string, opts: Record<string, unknown>): Array<{ id: string | number }>;
}

class FlexSearchEngine implements SearchEngine {
  readonly name = 'flexsearch';
  readonly kind = 'in-process';
  readonly config =
    'flexsearch@0.8.212 Document index: one field index per searchable attribute, tokenize "forward" (prefixes of every ' +
    'term), encoder Charset.LatinBalance (case/diacritics normalisation, letter de-duplication, basic phonetic ' +
    'folding), search with suggest: true (partial matches when not every term matches) and merge: true (fields in ' +
    'attribute order). FlexSearch has no edit-distance typo tolerance.';
  #doc: FlexDocument | null = null;

  async probe(): Promise<string | null> {
    return null;
  }

  async index(docs: readonly Doc[], settings: IndexSettings): Promise<void> {
    checkFields(settings);
    const { Document, Charset } = FlexSearch;
    const index = settings.searchableAttributes.map((field) => ({ field, tokenize: 'forward', encoder: Charset.LatinBalance }));
    const doc = new Document({ document: { id: 'id', index } } as never) as unknown as FlexDocument;
    for (const d of docs) doc.add(flat(d, settings));
    this.#doc = doc;
  }

  async search(query: string, limit: number): Promise<string[]> {
    const doc = this.#doc;
    if (!doc) throw new Error('flexsearch: search before index');
    // with merge, each field contributes up to `limit` ids: cut the merged list
    return doc
      .search(query, { limit, suggest: true, merge: true })
      .slice(0, limit)
      .map((r) => String(r.id));
  }

  async close(): Promise<void> {
    this.#doc = null;
  }
}

// ---------------------------------------------------------------------------------------------
// Muninn (shared by the HTTP and in-process adapters)

interface MuninnReply<T = unknown> {
  status: number;
  body: T;
}
type Call = <T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, ndjson?: boolean) => Promise<MuninnReply<T>>;
type Wait = (taskUid: number) => Promise<{ status: string; error?: unknown; type?: string }>;

const NOT_AVAILABLE = 'not available yet: POST /indexes/{uid}/search is not routed (empty 404)';
const isMissingRoute = (r: MuninnReply): boolean =>
  r.status === 405 || (r.status === 404 && (r.body === null || r.body === '' || (r.body as { code?: string }).code !== 'index_not_found'));

/** A search on an index that does not exist: `index_not_found` means the route exists. */
async function probeSearchRoute(call: Call): Promise<string | null> {
  const res = await call<{ code?: string }>('POST', '/indexes/muninn-bench-probe-missing/search', { q: 'probe', limit: 1 });
  if (isMissingRoute(res)) return NOT_AVAILABLE;
  if (res.status === 404 || res.status === 200) return null;
  return `search probe answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`;
}

async function enqueued(what: string, res: MuninnReply<{ taskUid?: number }>, wait: Wait): Promise<void> {
  if (res.status !== 202 || typeof res.body?.taskUid !== 'number') {
    throw new Error(`${what} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  const task = await wait(res.body.taskUid);
  if (task.status !== 'succeeded') throw new Error(`${what}: task ${res.body.taskUid} ${task.status}: ${JSON.stringify(task.error)}`);
}

const MAX_PAYLOAD = 50_000_000; // bytes per documents POST (the server's default limit is 100 MB)

/** Creates the index, applies searchableAttributes when the settings route exists, adds the documents. */
async function muninnIndex(call: Call, wait: Wait, docs: readonly Doc[], s: IndexSettings, ndjson: boolean): Promise<{ settingsApplied: boolean }> {
  await enqueued(`POST /indexes ${s.uid}`, await call('POST', '/indexes', { uid: s.uid, primaryKey: s.primaryKey }), wait);
  const patch = await call<{ taskUid?: number }>('PATCH', `/indexes/${s.uid}/settings`, { searchableAttributes: s.searchableAttributes });
  let settingsApplied = false;
  if (patch.status === 404 || patch.status === 405) {
    console.error(`[bench]   PATCH /indexes/${s.uid}/settings -> ${patch.status}: settings route missing, every attribute is searchable`);
  } else {
    await enqueued(`PATCH /indexes/${s.uid}/settings`, patch, wait);
    settingsApplied = true;
  }
  const lines = ndjson ? docs.map((d) => JSON.stringify(d)) : [];
  const tasks: number[] = [];
  const path = `/indexes/${s.uid}/documents?primaryKey=${encodeURIComponent(s.primaryKey)}`;
  if (ndjson) {
    for (let i = 0; i < lines.length; ) {
      let bytes = 0;
      const start = i;
      while (i < lines.length && (i === start || bytes + lines[i]!.length + 1 <= MAX_PAYLOAD)) bytes += lines[i++]!.length + 1;
      const res = await call<{ taskUid?: number }>('POST', path, lines.slice(start, i).join('\n') + '\n', true);
      if (res.status !== 202 || typeof res.body?.taskUid !== 'number') throw new Error(`POST ${path} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
      tasks.push(res.body.taskUid);
    }
  } else {
    const res = await call<{ taskUid?: number }>('POST', path, docs);
    if (res.status !== 202 || typeof res.body?.taskUid !== 'number') throw new Error(`POST ${path} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    tasks.push(res.body.taskUid);
  }
  for (const uid of tasks) {
    const task = await wait(uid);
    if (task.status !== 'succeeded') throw new Error(`documents task ${uid} ${task.status}: ${JSON.stringify(task.error)}`);
  }
  const distinct = new Set(docs.map((d) => String(d[s.primaryKey]))).size;
  const stats = await call<{ numberOfDocuments?: number }>('GET', `/indexes/${s.uid}/stats`);
  if (stats.status !== 200 || stats.body?.numberOfDocuments !== distinct) {
    throw new Error(`${s.uid}: expected numberOfDocuments ${distinct}, got ${stats.status} ${JSON.stringify(stats.body).slice(0, 200)}`);
  }
  return { settingsApplied };
}

async function muninnSearch(call: Call, s: IndexSettings, query: string, limit: number): Promise<string[]> {
  const res = await call<{ hits?: Doc[] }>('POST', `/indexes/${s.uid}/search`, { q: query, limit });
  if (res.status === 200 && Array.isArray(res.body?.hits)) return res.body.hits.map((h) => String(h[s.primaryKey]));
  if (isMissingRoute(res)) throw new EngineUnavailable(NOT_AVAILABLE);
  throw new Error(`POST /indexes/${s.uid}/search ${JSON.stringify(query)} -> ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
}

class MuninnHttpEngine implements SearchEngine {
  readonly name = 'muninn-http';
  readonly kind = 'http';
  readonly config =
    'Muninn server (child process) over HTTP/1.1 keep-alive (node:http): index created with the primary key, ' +
    'searchableAttributes via PATCH /indexes/{uid}/settings, documents as NDJSON, POST /indexes/{uid}/search {q, limit} ' +
    '(full documents returned), every other setting at its Meilisearch default';
  readonly #deps: EngineDeps;
  readonly #call: Call;
  readonly #wait: Wait;
  #settings: IndexSettings | null = null;
  #settingsApplied = false;

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    this.#call = (method, path, body, ndjson) =>
      deps.request(method, path, body, ndjson ? { 'Content-Type': 'application/x-ndjson' } : {});
    this.#wait = (uid) => deps.waitForTask(uid);
  }

  probe(): Promise<string | null> {
    return probeSearchRoute(this.#call);
  }

  async index(docs: readonly Doc[], settings: IndexSettings): Promise<void> {
    this.#settings = settings;
    this.#settingsApplied = (await muninnIndex(this.#call, this.#wait, docs, settings, true)).settingsApplied;
  }

  search(query: string, limit: number): Promise<string[]> {
    if (!this.#settings) throw new Error('muninn-http: search before index');
    return muninnSearch(this.#call, this.#settings, query, limit);
  }

  disk(): DiskUsage {
    return this.#deps.serverDisk();
  }

  figures(): Array<[string, number, string]> {
    return [['settings_applied', this.#settingsApplied ? 1 : 0, 'bool']];
  }

  async close(): Promise<void> {
    // the index stays: the runner measures the db dir once more at the end
  }
}

interface MuninnLib {
  Muninn: {
    open(opts: { dbPath?: string; masterKey?: string; payloadSizeLimit?: number }): Promise<{
      request<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; body: T }>;
      waitForTask(taskUid: number, opts?: { timeoutMs?: number; intervalMs?: number }): Promise<Record<string, unknown>>;
      search(indexUid: string, body: Record<string, unknown>): { hits: Doc[] };
      close(): Promise<void>;
    }>;
  };
}
type MuninnInstance = Awaited<ReturnType<MuninnLib['Muninn']['open']>>;

class MuninnInProcessEngine implements SearchEngine {
  readonly name = 'muninn-inprocess';
  readonly kind = 'in-process';
  readonly config =
    'Muninn as a library (src/lib.ts) in this process, a fresh db in a temp dir, indexing through Muninn.request ' +
    '(fastify inject), searches through Muninn.search (a direct engine call: no HTTP encoding), same search body as muninn-http';
  #m: MuninnInstance | null = null;
  #dir: string | null = null;
  #settings: IndexSettings | null = null;
  #settingsApplied = false;

  #call: Call = (method, path, body) => {
    if (!this.#m) throw new Error('muninn-inprocess: not open');
    return this.#m.request(method, path, body);
  };
  #wait: Wait = async (uid) => {
    if (!this.#m) throw new Error('muninn-inprocess: not open');
    return (await this.#m.waitForTask(uid, { timeoutMs: 30 * 60_000 })) as { status: string; error?: unknown };
  };

  async probe(): Promise<string | null> {
    const lib = (await import('../../src/lib.ts')) as unknown as MuninnLib;
    this.#dir = makeTempDir('muninn-bench-inprocess-');
    this.#m = await lib.Muninn.open({ dbPath: this.#dir, payloadSizeLimit: 1_000_000_000 });
    return probeSearchRoute(this.#call); // the workload closes the engine in every case
  }

  async index(docs: readonly Doc[], settings: IndexSettings): Promise<void> {
    this.#settings = settings;
    this.#settingsApplied = (await muninnIndex(this.#call, this.#wait, docs, settings, false)).settingsApplied;
  }

  async search(query: string, limit: number): Promise<string[]> {
    if (!this.#settings || !this.#m) throw new Error('muninn-inprocess: search before index');
    const key = this.#settings.primaryKey;
    return this.#m.search(this.#settings.uid, { q: query, limit }).hits.map((h) => String(h[key]));
  }

  disk(): DiskUsage {
    if (!this.#dir) return { apparentBytes: 0, allocatedBytes: 0, files: 0 };
    return diskUsage(this.#dir);
  }

  figures(): Array<[string, number, string]> {
    return [['settings_applied', this.#settingsApplied ? 1 : 0, 'bool']];
  }

  async close(): Promise<void> {
    const m = this.#m;
    this.#m = null;
    if (m) await m.close();
    if (this.#dir) fs.rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = null;
  }
}
