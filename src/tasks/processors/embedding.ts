// Vectors computed by embedders for a document batch (vectors-embedders.md §3, §9), before its
// write transactions start (they cannot wait for a network or a model): the batch's tasks are
// walked in order with the settings they will see, and
//   - each document of an addition gets, for each embedder that computes vectors (rest, openAi,
//     ollama servers; huggingFace models run here) and for which it brings no vectors of its own
//     and had none its user gave (`regenerate: false`, unless it now asks `regenerate: true`),
//     the embedding of its rendered template, or one per indexing fragment that renders: the
//     payload is written again with `_vectors.<name>: {embeddings, regenerate: true}` and the task
//     reads that copy (an update renders the stored document with its new fields);
//   - a settings update that adds such an embedder or changes what it computes (source, model,
//     URL, templates, fragments, dimensions...) re-embeds the documents stored before the batch and
//     those added earlier in it into a file, stored after the task applies (vectors users gave are
//     kept).
// A task whose rendering or embedding fails fails with Meilisearch's `vector_embedding_error` /
// `invalid_document_fields` messages. A cancelation aborts the requests in flight.
import fs from 'node:fs';
import { readLineBuffers } from '../../engine/files.ts';
import { EngineError } from '../../engine/errors.ts';
import type { Index } from '../../engine/index/index.ts';
import { parseDocument } from '../../engine/index/index.ts';
import { DocumentTemplate, TemplateError, docDrop } from '../../engine/vector/template.ts';
import { FragmentTemplates } from '../../engine/vector/fragments.ts';
import { VectorReader } from '../../engine/vector/index.ts';
import { applyPatch, checkSettingsAgainstIndex, fragmentCount, templateSearchable, type Settings, type SettingsPatch } from '../../api/settings/index.ts';
import { computesVectors, EmbedError, embedderClient, sideOf, type EmbedderClient } from '../embedders.ts';
import { storedSettings } from '../index-settings.ts';
import type { Task, TaskKind } from '../types.ts';
import { Aborted, type EmbeddedVectors, type ProcessContext } from './context.ts';

export interface EmbeddingPlan extends EmbeddedVectors {
  /** requests sent, and the last failure (the batch's `embedderRequests`) */
  requests: { total: number; failed: number; lastError?: string };
  /** files to remove once the batch ends */
  cleanup(): void;
}

type Generating = Record<string, Record<string, unknown>>;

/** The embedders of `settings` whose vectors a server computes. */
function generating(settings: Settings): Generating {
  const out: Generating = {};
  for (const [name, e] of Object.entries(settings.embedders)) {
    const indexing = sideOf(e as Record<string, unknown>, 'indexing');
    if (indexing !== null && computesVectors(indexing)) out[name] = indexing;
  }
  return out;
}

/** What an embedder computes: a change re-embeds every document (documentTemplateMaxBytes too, when it grows). */
function signature(e: Record<string, unknown>): string {
  const { distribution: _d, binaryQuantized: _b, apiKey: _k, documentTemplateMaxBytes: _m, searchFragments: _s, ...rest } = e;
  return JSON.stringify(rest);
}

const isSearchable = (settings: Settings) => templateSearchable(settings.searchableAttributes);

/**
 * What a document gives an embedder to embed, one input a vector: the text of its document
 * template, or the value of each of its indexing fragments that renders (vectors-embedders.md §2.4).
 */
interface Renderer {
  /** Throws a TemplateError when a document template needs a field the document lacks. */
  render(doc: Record<string, unknown>, searchable: (f: string) => boolean): unknown[];
}

function rendererOf(e: Record<string, unknown>): Renderer {
  if (fragmentCount(e, 'indexingFragments') > 0) {
    const templates = new FragmentTemplates(e.indexingFragments as Record<string, { value: unknown } | null>);
    return { render: (doc) => templates.renderAll({ doc: docDrop(doc) }).map((f) => f.value) };
  }
  const template = new DocumentTemplate(typeof e.documentTemplate === 'string' ? e.documentTemplate : undefined, typeof e.documentTemplateMaxBytes === 'number' ? e.documentTemplateMaxBytes : undefined);
  return { render: (doc, searchable) => [template.render(doc, searchable)] };
}

/** Plans the vectors of `tasks` on `target`; null when no embedder of the batch calls a server. */
export async function planEmbeddings(target: Index, tasks: readonly Task[], ctx: ProcessContext): Promise<EmbeddingPlan | null> {
  let settings = storedSettings(target);
  const involved = tasks.some((t) => t.kind.kind === 'settingsUpdate') || Object.keys(generating(settings)).length > 0;
  if (!involved) return null;
  const applied = (target.getMain('applied') ?? {}) as Record<string, unknown>;
  const written: string[] = [];
  const plan: EmbeddingPlan = {
    payloads: new Map(),
    regenerated: new Map(),
    failures: new Map(),
    requests: { total: 0, failed: 0 },
    cleanup: () => written.forEach((f) => fs.rmSync(f, { force: true })),
  };
  const abort = new AbortController();
  const watch = setInterval(() => ctx.shouldAbort() && abort.abort(new Aborted()), 50);
  // documents added earlier in the batch: external id → document as it will be stored
  const added = new Map<string, Record<string, unknown>>();
  const pk = () => target.meta().primaryKey;
  try {
    for (const task of tasks) {
      if (Object.prototype.hasOwnProperty.call(applied, String(task.uid))) continue;
      const kind = task.kind;
      if (kind.kind === 'settingsUpdate') {
        let next: Settings;
        try {
          next = applyPatch(settings, kind.settings as SettingsPatch);
          checkSettingsAgainstIndex(settings, kind.settings as SettingsPatch);
        } catch {
          continue; // the task fails when it applies
        }
        const before = generating(settings);
        // searchable attributes change what the default template renders (settings.md)
        const searchableChanged = JSON.stringify(settings.searchableAttributes) !== JSON.stringify(next.searchableAttributes);
        const changed = Object.entries(generating(next)).filter(([name, e]) => before[name] === undefined || searchableChanged || signature(before[name]!) !== signature(e));
        if (changed.length > 0) {
          try {
            // rest and ollama embedders without `dimensions`: Meilisearch embeds "test" to learn them
            for (const [name, e] of changed) {
              const whole = next.embedders[name] as Record<string, unknown>;
              // a composite embedder's two sides must agree on probe texts (vectors-embedders.md §2.3)
              if (whole.source === 'composite') await compareSides(whole, ctx, plan, abort.signal);
              else if (typeof e.dimensions !== 'number' && (e.source === 'rest' || e.source === 'ollama')) await probeDimensions(e, ctx, plan, abort.signal);
              // a model run here loads when its embedder is set, as Meilisearch fetches it then
              else if (e.source === 'huggingFace') await probeModel(e, abort.signal);
            }
            const perEmbedder = new Map<string, string>();
            for (const [name, e] of changed) {
              const out = ctx.files.reserve().path;
              written.push(out);
              await embedStored(out, target, added, name, e, before[name], settings, next, ctx, plan, abort.signal);
              perEmbedder.set(name, out);
            }
            plan.regenerated.set(task.uid, perEmbedder);
          } catch (err) {
            if (err instanceof Aborted || abort.signal.aborted) throw new Aborted();
            // the task fails: the tasks after it see the settings it leaves in place
            plan.failures.set(task.uid, asTaskError(err));
            continue;
          }
        }
        settings = next;
      } else if (kind.kind === 'documentAddition') {
        const embedders = generating(settings);
        if (Object.keys(embedders).length === 0 || kind.documentsCount === 0) continue;
        const out = `${ctx.files.path(kind.contentFile)}.embedded`;
        written.push(out);
        // the task's documents count as added only once the whole task succeeded
        const mine = new Map<string, Record<string, unknown>>();
        try {
          await embedPayload(kind, out, pk() ?? kind.primaryKey, { target, embedders, settings, added, mine, ctx, plan, signal: abort.signal });
          plan.payloads.set(task.uid, out);
          for (const [id, doc] of mine) added.set(id, doc);
        } catch (err) {
          if (err instanceof Aborted || abort.signal.aborted) throw new Aborted();
          fs.rmSync(out, { force: true });
          plan.failures.set(task.uid, asTaskError(err));
        }
      } else if (kind.kind === 'documentClear') added.clear();
    }
  } catch (err) {
    plan.cleanup();
    throw err;
  } finally {
    clearInterval(watch);
  }
  return plan;
}

function asTaskError(err: unknown): Error {
  if (err instanceof EngineError) return err;
  // the step that applies the task names the index
  if (err instanceof EmbedFailure) return new EngineError(err.code, err.message);
  return err as Error;
}

class EmbedFailure extends Error {
  constructor(
    readonly code: 'vector_embedding_error' | 'invalid_document_fields',
    message: string,
  ) {
    super(message);
  }
}

/** Embeds `texts` with the embedder, counting the requests; failures carry Meilisearch's message. */
async function embedTexts(client: EmbedderClient, name: string, texts: unknown[], plan: EmbeddingPlan, signal: AbortSignal): Promise<number[][]> {
  try {
    const out = await client.embed(texts, signal, () => plan.requests.total++);
    return out;
  } catch (err) {
    if (signal.aborted) throw new Aborted();
    plan.requests.failed++;
    if (err instanceof EmbedError) {
      plan.requests.lastError = err.full;
      throw new EmbedFailure('vector_embedding_error', `While embedding documents for embedder \`${name}\`: ${err.kind} error: ${err.message}`);
    }
    throw err;
  }
}

/** Embeds the text `test` once; a failure fails the settings task with Meilisearch's message. */
async function probeDimensions(e: Record<string, unknown>, ctx: ProcessContext, plan: EmbeddingPlan, signal: AbortSignal): Promise<void> {
  try {
    await embedderClient(e, { allowed: ctx.allowedNetworks ?? [] }).embed(['test'], signal, () => plan.requests.total++);
  } catch (err) {
    if (signal.aborted) throw new Aborted();
    if (!(err instanceof EmbedError)) throw err;
    plan.requests.failed++;
    plan.requests.lastError = err.full;
    throw new EmbedFailure(
      'vector_embedding_error',
      `Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with ${err.kind} error: ${err.message}`,
    );
  }
}

/** Loads a `huggingFace` embedder's model and embeds `test`; a failure fails the settings task. */
async function probeModel(e: Record<string, unknown>, signal: AbortSignal): Promise<void> {
  try {
    await embedderClient(e, { allowed: [] }).embed(['test'], signal);
  } catch (err) {
    if (signal.aborted) throw new Aborted();
    if (!(err instanceof EmbedError)) throw err;
    throw new EmbedFailure('vector_embedding_error', `Error while generating embeddings: error: ${err.message}`);
  }
}

const PROBES = ['test', 'a brave dog', 'This is a sample text. It is meant to compare similarity.'];

/** Embeds the probe texts with both sides of a composite embedder; they must be within 0.01 angular distance. */
async function compareSides(e: Record<string, unknown>, ctx: ProcessContext, plan: EmbeddingPlan, signal: AbortSignal): Promise<void> {
  const indexing = sideOf(e, 'indexing');
  const search = sideOf(e, 'search');
  if (indexing === null || search === null || !computesVectors(indexing) || !computesVectors(search)) return;
  const embed = async (side: Record<string, unknown>) => {
    try {
      return await embedderClient(side, { allowed: ctx.allowedNetworks ?? [] }).embed(PROBES, signal, () => plan.requests.total++);
    } catch (err) {
      if (signal.aborted) throw new Aborted();
      if (!(err instanceof EmbedError)) throw err;
      plan.requests.failed++;
      throw new EmbedFailure('vector_embedding_error', `Error while generating embeddings: runtime error: error while generating test embeddings.\n  - ${err.message}`);
    }
  };
  const [a, b] = [await embed(indexing), await embed(search)];
  for (let i = 0; i < PROBES.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.length !== y.length) {
      throw new EmbedFailure('vector_embedding_error', `Error while generating embeddings: user error: error while generating test embeddings.\n  - the dimensions of the embeddings produced at search time and at indexing time don't match.\n  - Search time dimensions: ${y.length}\n  - Indexing time dimensions: ${x.length}`);
    }
    let dot = 0, nx = 0, ny = 0;
    for (let k = 0; k < x.length; k++) {
      dot += x[k]! * y[k]!;
      nx += x[k]! * x[k]!;
      ny += y[k]! * y[k]!;
    }
    const distance = 1 - dot / (Math.sqrt(nx * ny) || 1);
    if (distance > 0.01) {
      throw new EmbedFailure('vector_embedding_error',
        `Error while generating embeddings: user error: error while generating test embeddings.\n  - the embeddings produced at search time and indexing time are not similar enough.\n  - angular distance ${distance.toFixed(2)}\n  - Meilisearch requires a maximum distance of 0.01.\n  - Note: check that both embedders produce similar embeddings.`);
    }
  }
}

/** `MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES` (cli.md): failures to let documents through without vectors. */
function failureModes(): Set<string> {
  return new Set((process.env.MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES ?? '').split(',').map((m) => m.trim()).filter((m) => m !== ''));
}

/** The inputs, or null for a document left without vectors (`ignore_document_template_failures`). */
function renderOrSkip(template: Renderer, doc: Record<string, unknown>, searchable: (f: string) => boolean, docId: string): unknown[] | null {
  try {
    return render(template, doc, searchable, docId);
  } catch (err) {
    if (err instanceof EmbedFailure && failureModes().has('ignore_document_template_failures')) return null;
    throw err;
  }
}

/** The embeddings, or null when the server failed and `ignore_embedder_failures` lets the documents through without them. */
async function embedOrSkip(client: EmbedderClient, name: string, texts: unknown[], plan: EmbeddingPlan, signal: AbortSignal): Promise<number[][] | null> {
  try {
    return await embedTexts(client, name, texts, plan, signal);
  } catch (err) {
    if (err instanceof EmbedFailure && failureModes().has('ignore_embedder_failures')) return null;
    throw err;
  }
}

function render(template: Renderer, doc: Record<string, unknown>, searchable: (f: string) => boolean, docId: string): unknown[] {
  try {
    return template.render(doc, searchable);
  } catch (err) {
    if (err instanceof TemplateError) throw new EmbedFailure('invalid_document_fields', `missing field in document \`${docId}\`: ${err.message}`);
    throw err;
  }
}

/** Whether a document's own `_vectors` entry for `name` stands (embeddings given, or `regenerate: false`). */
function ownEntry(doc: Record<string, unknown>, name: string): boolean {
  const v = doc._vectors;
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.prototype.hasOwnProperty.call(v, name)) return false;
  const entry = (v as Record<string, unknown>)[name];
  if (entry === null || Array.isArray(entry)) return true;
  if (typeof entry === 'object') {
    const e = entry as { embeddings?: unknown; regenerate?: unknown };
    return e.embeddings !== undefined && e.embeddings !== null ? true : e.regenerate === false;
  }
  return true;
}

/** What embedding an addition reads: the index, the batch's state at the task, where requests are counted. */
interface AdditionContext {
  target: Index;
  embedders: Generating;
  settings: Settings;
  /** documents added by earlier tasks of the batch, by external id */
  added: ReadonlyMap<string, Record<string, unknown>>;
  /** this task's documents so far (they count for its later chunks) */
  mine: Map<string, Record<string, unknown>>;
  ctx: ProcessContext;
  plan: EmbeddingPlan;
  signal: AbortSignal;
}

/** Documents embedded at a time: the texts and vectors of one chunk are all a payload keeps in memory. */
const CHUNK = 1000;

/** Writes the payload again, with the computed vectors, to `out`, a chunk at a time. */
async function embedPayload(kind: Extract<TaskKind, { kind: 'documentAddition' }>, out: string, primaryKey: string | null, c: AdditionContext): Promise<void> {
  const { ctx } = c;
  const fd = fs.openSync(out, 'w');
  try {
    let pk: string | null | undefined = primaryKey ?? undefined;
    let chunk: Record<string, unknown>[] = [];
    const flush = async () => {
      await embedChunk(chunk, kind.method, pk ?? null, c);
      fs.writeSync(fd, chunk.map((d) => JSON.stringify(d)).join('\n') + '\n');
      chunk = [];
    };
    for (const { doc } of ctx.files.read(kind.contentFile)) {
      pk ??= Object.keys(doc).find((k) => /id$/i.test(k)) ?? null;
      chunk.push(doc);
      if (chunk.length >= CHUNK) await flush();
    }
    if (chunk.length > 0) await flush();
  } finally {
    fs.closeSync(fd);
  }
}

/** Adds the computed vectors to `docs` (in place) and records them as added. */
async function embedChunk(docs: Record<string, unknown>[], method: 'replace' | 'update', pk: string | null, c: AdditionContext): Promise<void> {
  const { target, embedders, settings, added, mine, ctx, plan, signal } = c;
  const searchable = isSearchable(settings);
  const idOf = (doc: Record<string, unknown>) => (pk !== null && doc[pk] !== undefined && doc[pk] !== null ? String(doc[pk]) : null);
  // the document each one becomes: an update merges into the stored (or earlier added) one
  const previous = docs.map((doc) => {
    const id = idOf(doc);
    return id === null ? undefined : mine.get(id) ?? added.get(id) ?? storedDocument(target, id);
  });
  const merged = docs.map((doc, i) => (method === 'update' && previous[i] !== undefined ? { ...previous[i], ...doc } : doc));
  const embedderIds = (target.getMain('embedderIds') ?? {}) as Record<string, number>;
  const reader = new VectorReader(target);
  const computed: Record<string, { regenerate: true }>[] = docs.map(() => ({}));
  for (const [name, e] of Object.entries(embedders)) {
    const template = rendererOf(e);
    // each wanted document's inputs are `texts[starts[k]..starts[k + 1])`
    const wanted: number[] = [];
    const starts: number[] = [];
    const texts: unknown[] = [];
    merged.forEach((doc, i) => {
      if (ownEntry(docs[i]!, name)) return;
      const docId = idOf(doc) ?? String(i);
      const before = previous[i] === undefined ? null : previousRegenerate(previous[i]!, name, docId, embedderIds[name], target, reader);
      // vectors its user gave (`regenerate: false`) stay when a document changes, unless it asks
      // for `regenerate: true` (Meilisearch 1.50)
      if (before === false && !asksRegenerate(docs[i]!, name)) return;
      const inputs = renderOrSkip(template, doc, searchable, docId);
      if (inputs === null) return;
      // only a text that changed is embedded again: the vectors computed for the same text stay
      if (before === true && sameText(template, previous[i]!, searchable, inputs)) return;
      wanted.push(i);
      starts.push(texts.length);
      texts.push(...inputs);
    });
    if (wanted.length === 0) continue;
    starts.push(texts.length);
    const vectors = texts.length === 0 ? [] : await embedOrSkip(embedderClient(e, { allowed: ctx.allowedNetworks ?? [] }), name, texts, plan, signal);
    if (vectors === null) continue;
    wanted.forEach((i, k) => {
      const doc = docs[i]!;
      const own = doc._vectors !== null && typeof doc._vectors === 'object' && !Array.isArray(doc._vectors) ? (doc._vectors as Record<string, unknown>) : {};
      doc._vectors = { ...own, [name]: { embeddings: vectors.slice(starts[k]!, starts[k + 1]!), regenerate: true } };
      computed[i]![name] = { regenerate: true };
    });
  }
  // later tasks of the batch see these documents; computed vectors are remembered by a mark only
  merged.forEach((doc, i) => {
    const id = idOf(doc);
    if (id === null) return;
    const own = docs[i]!._vectors;
    const vectors = own !== null && typeof own === 'object' && !Array.isArray(own) ? { ...(own as Record<string, unknown>), ...computed[i] } : computed[i];
    mine.set(id, { ...doc, _vectors: vectors });
  });
}

/** Whether the document's own `_vectors` entry for `name` is `{ regenerate: true }` without embeddings. */
function asksRegenerate(doc: Record<string, unknown>, name: string): boolean {
  const v = doc._vectors;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const entry = (v as Record<string, unknown>)[name];
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry) && (entry as { regenerate?: unknown }).regenerate === true;
}

/**
 * The `regenerate` flag of the vectors the document had for `name` before this task (as added
 * earlier in the batch, else as stored): false for vectors its user gave (an array, `null`, or
 * `regenerate: false`), true for computed ones or ones to compute; null when it had none.
 */
function previousRegenerate(doc: Record<string, unknown>, name: string, docId: string, embedderId: number | undefined, target: Index, reader: VectorReader): boolean | null {
  const v = doc._vectors;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, name)) {
    const entry = (v as Record<string, unknown>)[name];
    if (entry === null || Array.isArray(entry)) return false;
    if (typeof entry === 'object') {
      const regenerate = (entry as { regenerate?: unknown }).regenerate;
      if (typeof regenerate === 'boolean') return regenerate;
    }
  }
  if (embedderId === undefined) return null;
  const internal = target.internalId(docId);
  return internal === undefined ? null : (reader.embeddings(embedderId, internal)?.regenerate ?? null);
}

function sameText(template: Renderer, doc: Record<string, unknown>, searchable: (f: string) => boolean, inputs: unknown[]): boolean {
  try {
    return JSON.stringify(template.render(doc, searchable)) === JSON.stringify(inputs);
  } catch {
    return false;
  }
}

function storedDocument(target: Index, externalId: string): Record<string, unknown> | undefined {
  const id = target.internalId(externalId);
  if (id === undefined) return undefined;
  const bytes = target.documents.get(id);
  return bytes === undefined ? undefined : parseDocument(bytes);
}

/**
 * The vectors of every document (stored before the batch, or added earlier in it) for one
 * embedder, written to `out` as lines of `[externalId, vectors]` a chunk of documents at a time:
 * only one chunk's texts and vectors are in memory (read back by `generatedVectors`).
 */
async function embedStored(
  out: string,
  target: Index,
  added: Map<string, Record<string, unknown>>,
  name: string,
  e: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
  oldSettings: Settings,
  settings: Settings,
  ctx: ProcessContext,
  plan: EmbeddingPlan,
  signal: AbortSignal,
): Promise<void> {
  const template = rendererOf(e);
  const searchable = isSearchable(settings);
  // only the template changed: the documents whose text stays the same keep their vectors
  const { documentTemplate: _t, ...now } = e;
  const oldRest = old === undefined ? undefined : (({ documentTemplate: _o, ...r }) => r)(old);
  const oldTemplate = oldRest !== undefined && signature(oldRest) === signature(now) ? rendererOf(old!) : null;
  const oldSearchable = isSearchable(oldSettings);
  const pk = target.meta().primaryKey;
  const client = embedderClient(e, { allowed: ctx.allowedNetworks ?? [] });
  const fd = fs.openSync(out, 'w');
  try {
    let ids: string[] = [];
    let starts: number[] = [];
    let texts: unknown[] = [];
    const flush = async () => {
      if (ids.length === 0) return;
      starts.push(texts.length);
      const vectors = texts.length === 0 ? [] : await embedOrSkip(client, name, texts, plan, signal);
      if (vectors !== null) fs.writeSync(fd, ids.map((id, i) => JSON.stringify([id, vectors.slice(starts[i]!, starts[i + 1]!)])).join('\n') + '\n');
      ids = [];
      starts = [];
      texts = [];
    };
    const seen = new Set<string>();
    const take = async (id: string, doc: Record<string, unknown>) => {
      if (seen.has(id)) return;
      seen.add(id);
      if (ownEntry(doc, name)) return;
      const inputs = renderOrSkip(template, doc, searchable, id);
      if (inputs === null) return;
      if (oldTemplate !== null && sameText(oldTemplate, doc, oldSearchable, inputs)) return;
      ids.push(id);
      starts.push(texts.length);
      texts.push(...inputs);
      if (ids.length >= CHUNK) await flush();
    };
    for (const [id, doc] of added) await take(id, doc);
    if (pk !== null) {
      // vectors a user gave (`regenerate: false`) stay: their documents are not sent
      const embedderId = ((target.getMain('embedderIds') ?? {}) as Record<string, number>)[name];
      const kept = new Set<number>();
      if (embedderId !== undefined) for (const [doc, { regenerate }] of new VectorReader(target).entryFlags(embedderId)) if (!regenerate) kept.add(doc);
      // the ids first: documents are read a chunk at a time, between the requests
      const internals = [...target.documents.keys()].filter((id) => !kept.has(id));
      for (const internal of internals) {
        const value = target.documents.get(internal);
        if (value === undefined) continue;
        const doc = parseDocument(value);
        const id = doc[pk];
        if (id !== undefined && id !== null) await take(String(id), doc);
      }
    }
    await flush();
  } finally {
    fs.closeSync(fd);
  }
}

/** The vectors `embedStored` wrote, by external id, read a line at a time. */
export function* generatedVectors(file: string): Generator<[string, number[][]]> {
  for (const line of readLineBuffers(file)) yield JSON.parse(line.toString('utf8')) as [string, number[][]];
}
