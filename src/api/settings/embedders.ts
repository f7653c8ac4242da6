// Stored embedder configurations: per-embedder merge of a patch, the GET view with the defaults
// of each source, the checks that need the stored configuration (they fail the task), and what
// the indexer must redo per embedder (vectors-embedders.md §1, §2.1, §9).
import { ApiError } from '../errors/index.ts';
import { maskSecret } from '../tasks/details.ts';
import {
  DEFAULT_HF_MODEL, DEFAULT_HF_REVISION, DEFAULT_OPENAI_MODEL, EMBEDDER_FIELDS, MAX_EMBEDDERS, MAX_FRAGMENTS,
  SOURCES_FOR_FIELD, type EmbedderSource,
} from './embedder-fields.ts';
import { validateConfig } from './embedders-parse.ts';
import { deepEqual, isObj, sortedMap, type Obj } from './deserr.ts';
import { DEFAULT_DOCUMENT_TEMPLATE, DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES, type EmbedderPatch, type EmbedderSettings } from './types.ts';
import { setKey } from '../../engine/json.ts';
import type { EmbedderConfig } from '../../engine/vector/index.ts';

/** Fields that belong to a source: dropped when the source changes (milli's `apply_default_for_source`). */
const SOURCE_SPECIFIC = [
  'model', 'revision', 'pooling', 'dimensions', 'url', 'request', 'response', 'headers',
  'indexingFragments', 'searchFragments', 'searchEmbedder', 'indexingEmbedder',
] as const;

/** The source of a configuration (`openAi` when unset, its default). */
export function sourceOf(e: Obj | undefined): EmbedderSource {
  return (typeof e?.source === 'string' ? e.source : 'openAi') as EmbedderSource;
}

/** Applies one embedder's patch over its stored configuration (`undefined` = new embedder). */
export function mergeEmbedder(old: EmbedderSettings | undefined, patch: EmbedderPatch): EmbedderSettings {
  const out: Obj = old ? structuredClone(old) : {};
  if (old && 'source' in patch && sourceOf(old) !== sourceOf(patch)) {
    const next = sourceOf(patch);
    for (const f of SOURCE_SPECIFIC) delete out[f];
    // fields the new source cannot have would otherwise make the merged configuration invalid
    for (const f of EMBEDDER_FIELDS) if (f in out && !SOURCES_FOR_FIELD[f].includes(next)) delete out[f];
  }
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete out[field];
    else if ((field === 'indexingFragments' || field === 'searchFragments') && isObj(out[field])) {
      out[field] = mergeFragments(out[field] as Obj, value as Obj);
    } else if (field === 'indexingFragments' || field === 'searchFragments') {
      out[field] = mergeFragments({}, value as Obj);
    } else out[field] = structuredClone(value);
  }
  return ordered(out);
}

function mergeFragments(old: Obj, patch: Obj): Obj {
  const out: Obj = { ...old };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setKey(out, k, structuredClone(v));
  }
  return out;
}

function ordered(e: Obj): Obj {
  const out: Obj = {};
  for (const f of EMBEDDER_FIELDS) if (f in e) out[f] = e[f];
  return out;
}

/** Merges the `embedders` patch into the stored map (`null` deletes one embedder). */
export function mergeEmbedders(
  current: Record<string, EmbedderSettings>,
  patch: Record<string, EmbedderPatch | null>,
): Record<string, EmbedderSettings> {
  const out: Record<string, EmbedderSettings> = { ...current };
  for (const [name, p] of Object.entries(patch)) {
    if (p === null) delete out[name];
    else setKey(out, name, mergeEmbedder(Object.prototype.hasOwnProperty.call(current, name) ? current[name] : undefined, p));
  }
  return sortedMap(out);
}

/** GET form of one embedder: defaults of its source filled in, `apiKey` masked unless `reveal`. */
export function embedderView(e: EmbedderSettings, reveal = false, nested: 'search' | 'indexing' | null = null): Obj {
  const source = sourceOf(e);
  const v: Obj = { ...e, source };
  if (source === 'openAi') v.model ??= DEFAULT_OPENAI_MODEL;
  if (source === 'huggingFace') {
    // the default revision only goes with the default model (an explicit model clears it)
    if (e.model === undefined && e.revision === undefined) v.revision = DEFAULT_HF_REVISION;
    v.model ??= DEFAULT_HF_MODEL;
    v.pooling ??= 'useModel';
  }
  if (source === 'rest') v.headers ??= {};
  const templated = SOURCES_FOR_FIELD.documentTemplate.includes(source) && nested !== 'search';
  const fragments = source === 'rest' && (isObj(e.indexingFragments) || isObj(e.searchFragments));
  if (templated && !fragments) {
    v.documentTemplate ??= DEFAULT_DOCUMENT_TEMPLATE;
    v.documentTemplateMaxBytes ??= DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES;
  }
  if (typeof v.apiKey === 'string' && !reveal) v.apiKey = maskSecret(v.apiKey);
  if (isObj(e.searchEmbedder)) v.searchEmbedder = embedderView(e.searchEmbedder, reveal, 'search');
  if (isObj(e.indexingEmbedder)) v.indexingEmbedder = embedderView(e.indexingEmbedder, reveal, 'indexing');
  return ordered(v);
}

/**
 * Checks on the merged embedders that milli only makes while processing the task: count,
 * mandatory fields, source/field compatibility, irreversible binary quantization.
 */
export function checkMergedEmbedders(
  before: Record<string, EmbedderSettings>,
  after: Record<string, EmbedderSettings>,
  touched: readonly string[],
): void {
  const count = Object.keys(after).length;
  if (count > MAX_EMBEDDERS) {
    throw new ApiError('invalid_settings_embedders', `Too many embedders in the configuration. Found ${count}, but limited to ${MAX_EMBEDDERS}.`);
  }
  for (const name of touched) {
    const e = after[name];
    if (!e) continue;
    const context = `.embedders.${name}`;
    if (before[name]?.binaryQuantized === true && e.binaryQuantized !== true) {
      throw new ApiError(
        'invalid_settings_embedders',
        `\`${context}.binaryQuantized\`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.`,
      );
    }
    validateConfig(context, e, true);
    for (const f of ['indexingFragments', 'searchFragments'] as const) {
      const n = isObj(e[f]) ? Object.keys(e[f] as Obj).length : 0;
      if (n > MAX_FRAGMENTS) {
        throw new ApiError('invalid_settings_embedders', `Too many fragments in the configuration. Found ${n}, but limited to ${MAX_FRAGMENTS}.`);
      }
    }
    checkFragments(e);
  }
}

/** The fragment rules milli checks when the task applies (vectors-embedders.md §2.4). */
function checkFragments(e: EmbedderSettings): void {
  const names = (f: 'indexingFragments' | 'searchFragments') => (isObj(e[f]) ? Object.keys(e[f] as Obj) : []);
  const indexing = names('indexingFragments');
  const search = names('searchFragments');
  const error = (message: string) => new ApiError('vector_embedding_error', `Error while generating embeddings: user error: ${message}`);
  if (indexing.length > 0 && search.length === 0) {
    throw error(`inconsistent fragments: \`searchFragments\` is empty, but \`indexingFragments\` declares ${indexing.length} fragments: ${indexing.join(', ')}\n - Hint: declare at least one fragment in \`searchFragments\` or remove fragments from \`indexingFragments\` by setting them to \`null\``);
  }
  if (search.length > 0 && indexing.length === 0) {
    throw error(`inconsistent fragments: \`indexingFragments\` is empty, but \`searchFragments\` declares ${search.length} fragments: ${search.join(', ')}\n  - Hint: declare at least one fragment in \`indexingFragments\` or remove fragments from \`searchFragments\` by setting them to \`null\``);
  }
  if (indexing.length > 0 && typeof e.dimensions !== 'number') {
    throw error('cannot infer `dimensions` for an embedder using `indexingFragments`.\n  - Note: Specify `dimensions` explicitly or don\'t use `indexingFragments`.');
  }
}

/** What the indexer must do for one embedder after a settings change. */
export interface EmbedderAction {
  /** `full`: drop generated vectors and embed everything; `prompts`: re-embed documents whose rendered text changed. */
  reindex: 'full' | 'prompts' | null;
  /** Generated vectors dropped, user-provided ones written back into `_vectors.<name>`. */
  remove: boolean;
  /** Stored vectors must be binary-quantized in place. */
  quantize: boolean;
}

const FULL_REINDEX_FIELDS = [
  'source', 'model', 'revision', 'pooling', 'request', 'response', 'indexingFragments', 'searchFragments',
  'searchEmbedder', 'indexingEmbedder',
] as const;

/** The action for one embedder between two stored configurations; null when nothing is needed. */
export function embedderAction(before: EmbedderSettings | undefined, after: EmbedderSettings | undefined): EmbedderAction | null {
  if (!before && !after) return null;
  if (!after) return { reindex: null, remove: true, quantize: false };
  if (!before) return { reindex: 'full', remove: false, quantize: after.binaryQuantized === true };
  const b = embedderView(before, true);
  const a = embedderView(after, true);
  let reindex: EmbedderAction['reindex'] = null;
  if (FULL_REINDEX_FIELDS.some((f) => !deepEqual(b[f], a[f]))) reindex = 'full';
  const openAi = sourceOf(after) === 'openAi';
  // openAi truncates to `dimensions`, for the others it is only a hint; openAi's url is only a proxy
  if (openAi && !deepEqual(b.dimensions, a.dimensions)) reindex = 'full';
  if (!openAi && !deepEqual(b.url, a.url)) reindex = 'full';
  if (reindex === null) {
    const grew = Number(a.documentTemplateMaxBytes ?? 0) > Number(b.documentTemplateMaxBytes ?? 0);
    if (b.documentTemplate !== a.documentTemplate || grew) reindex = 'prompts';
  }
  const quantize = before.binaryQuantized !== true && after.binaryQuantized === true;
  return reindex === null && !quantize ? null : { reindex, remove: false, quantize };
}

/** What the engine needs of the embedders to store and search vectors (cosine on floats, Hamming when quantized). */
export function embedderConfigs(embedders: Record<string, EmbedderSettings>): EmbedderConfig[] {
  return Object.entries(embedders).map(([name, e]) => ({
    name,
    dimensions: typeof e.dimensions === 'number' ? e.dimensions : null,
    metric: 'cosine',
    quantized: e.binaryQuantized === true,
    userProvided: sourceOf(e) === 'userProvided',
  }));
}
