// `embedders` in a settings body: deserialization (deserr paths, relative to where the map sits)
// and the synchronous checks of milli's `validate_embedding_settings` (paths always
// `.embedders.<name>`, no "Invalid value" prefix). Checks needing the stored configuration
// (mandatory fields after a merge, binary quantization, counts) are in embedders.ts.
import { ApiError } from '../errors/index.ts';
import {
  EMBEDDER_FIELDS, EMBEDDER_SOURCES, MANDATORY_FIELDS, NESTED_EMBEDDER_FIELDS, POOLINGS,
  checkOpenAiModel, fieldAvailable, missingForSource, unavailableField, type NestedRole,
  type EmbedderField, type EmbedderSource,
} from './embedder-fields.ts';
import {
  at, bool, isObj, missingField, num, obj, oneOf, sortedMap, str, uint, unknownField, valueError, type Obj,
} from './deserr.ts';
import type { EmbedderPatch, SettingsFeatures } from './types.ts';
import { urlParseError } from '../validate/url.ts';
import { parseTemplate } from '../../engine/vector/template.ts';
import { FRAGMENT, RequestTemplate, ResponseTemplate, RestTemplateError } from '../../engine/vector/rest-template.ts';
import { FragmentTemplates } from '../../engine/vector/fragments.ts';

const EMBEDDING_ERROR = 'Error while generating embeddings: user error: ';
const TEXT_NOTE = '\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"';
// sic: Meilisearch's word
const FRAGMENT_NOTE = '\n  - Note: this template is using fragments, and so expects to contain the placeholder "{{fragment}}" rathern than "{{text}}"';

/** How many fragments an embedder's `indexingFragments` or `searchFragments` declares. */
export function fragmentCount(e: Record<string, unknown>, field: 'indexingFragments' | 'searchFragments'): number {
  const f = e[field];
  return isObj(f) ? Object.values(f).filter((v) => v !== null).length : 0;
}

/** Whether an embedder uses fragments (§2.4): its `request` then holds `{{fragment}}`. */
export function usesFragments(e: Record<string, unknown>): boolean {
  return fragmentCount(e, 'indexingFragments') + fragmentCount(e, 'searchFragments') > 0;
}

/** The REST templates' synchronous errors (400 `vector_embedding_error`, vectors-embedders.md §2.2). */
function checkRestTemplates(request: unknown, response: unknown, fragments: boolean): void {
  let parsed: RequestTemplate;
  try {
    parsed = fragments ? new RequestTemplate(request, FRAGMENT) : new RequestTemplate(request);
  } catch (err) {
    if (err instanceof RestTemplateError) throw new ApiError('vector_embedding_error', `${EMBEDDING_ERROR}${err.message}${fragments ? FRAGMENT_NOTE : TEXT_NOTE}`);
    throw err;
  }
  if (response === undefined || response === null) return;
  try {
    new ResponseTemplate(response, parsed);
  } catch (err) {
    if (err instanceof RestTemplateError) throw new ApiError('vector_embedding_error', `${EMBEDDING_ERROR}${err.message}`);
    throw err;
  }
}
import { setKey } from '../../engine/json.ts';

const CODE = 'invalid_settings_embedders';

/** Reads the `embedders` map (not null); `path` is `.embedders`, or `` on the sub-route. */
export function parseEmbedders(value: unknown, path: string): Record<string, EmbedderPatch | null> {
  const map = obj(value, path, CODE);
  const out: Record<string, EmbedderPatch | null> = {};
  for (const name of Object.keys(map)) {
    const v = map[name];
    setKey(out, name, v === null ? null : parseEmbedder(v, at(path, name), EMBEDDER_FIELDS));
  }
  return sortedMap(out);
}

function parseEmbedder(value: unknown, path: string, known: readonly EmbedderField[]): EmbedderPatch {
  const o = obj(value, path, CODE);
  const out: EmbedderPatch = {};
  for (const [key, v] of Object.entries(o)) {
    if (!(known as readonly string[]).includes(key)) throw unknownField(key, known, CODE, path);
    out[key] = v === null ? null : parseField(key as EmbedderField, v, at(path, key));
  }
  return out;
}

function parseField(field: EmbedderField, v: unknown, path: string): unknown {
  switch (field) {
    case 'source':
      return oneOf(v, path, EMBEDDER_SOURCES, CODE);
    case 'pooling':
      return oneOf(v, path, POOLINGS, CODE);
    case 'model':
    case 'revision':
    case 'apiKey':
    case 'documentTemplate':
    case 'url':
      return str(v, path, CODE);
    case 'dimensions':
    case 'documentTemplateMaxBytes':
      return uint(v, path, CODE);
    case 'binaryQuantized':
      return bool(v, path, CODE);
    case 'request':
    case 'response':
      return v;
    case 'headers': {
      const h = obj(v, path, CODE);
      const out: Record<string, string> = {};
      for (const [k, hv] of Object.entries(h)) setKey(out, k, str(hv, at(path, k), CODE));
      return sortedMap(out);
    }
    case 'indexingFragments':
    case 'searchFragments':
      return parseFragments(v, path);
    case 'searchEmbedder':
    case 'indexingEmbedder':
      return parseEmbedder(v, path, NESTED_EMBEDDER_FIELDS);
    case 'distribution':
      return parseDistribution(v, path);
  }
}

function parseFragments(v: unknown, path: string): Record<string, { value: unknown } | null> {
  const o = obj(v, path, CODE);
  const out: Record<string, { value: unknown } | null> = {};
  for (const [name, f] of Object.entries(o)) {
    if (f === null) {
      setKey(out, name, null);
      continue;
    }
    const fo = obj(f, at(path, name), CODE);
    // a fragment's unknown keys are ignored (Meilisearch 1.50)
    if (!('value' in fo)) throw missingField('value', CODE, at(path, name));
    setKey(out, name, { value: fo.value });
  }
  return sortedMap(out);
}

function parseDistribution(v: unknown, path: string): { mean: number; sigma: number } {
  const o = obj(v, path, CODE);
  const known = ['mean', 'sigma'];
  const read: Partial<Record<'mean' | 'sigma', number>> = {};
  for (const [k, fv] of Object.entries(o)) {
    if (!known.includes(k)) throw unknownField(k, known, CODE, path);
    read[k as 'mean' | 'sigma'] = num(fv, at(path, k), CODE);
  }
  if (read.mean === undefined) throw missingField('mean', CODE, path);
  if (read.sigma === undefined) throw missingField('sigma', CODE, path);
  if (read.mean < 0 || read.mean > 1) {
    throw valueError(path, `the distribution mean must be in the range [0, 1], got ${read.mean}`, CODE);
  }
  if (read.sigma <= 0 || read.sigma > 1) {
    throw valueError(path, `the distribution sigma must be in the range ]0, 1], got ${read.sigma}`, CODE);
  }
  return { mean: read.mean, sigma: read.sigma };
}

function gate(what: string, feature: string, link: string): ApiError {
  return new ApiError('feature_not_enabled', `${what} requires enabling the \`${feature}\` experimental feature. See ${link}`);
}

const COMPOSITE_LINK = 'https://github.com/orgs/meilisearch/discussions/816';
const MULTIMODAL_LINK = 'https://github.com/orgs/meilisearch/discussions/846';

/** The experimental-feature gates on embedders (checked before any other validation). */
export function checkEmbedderFeatures(embedders: Record<string, EmbedderPatch | null>, features: SettingsFeatures): void {
  for (const e of Object.values(embedders)) {
    if (e === null) continue;
    if (!features.compositeEmbedders) {
      if (e.source === 'composite') throw gate('using `"composite"` as source', 'composite embedders', COMPOSITE_LINK);
      if (isObj(e.searchEmbedder)) throw gate('setting `searchEmbedder`', 'composite embedders', COMPOSITE_LINK);
      if (isObj(e.indexingEmbedder)) throw gate('setting `indexingEmbedder`', 'composite embedders', COMPOSITE_LINK);
    }
    if (!features.multimodal) {
      if ('indexingFragments' in e) throw gate('setting `indexingFragments`', 'multimodal', MULTIMODAL_LINK);
      if ('searchFragments' in e) throw gate('setting `searchFragments`', 'multimodal', MULTIMODAL_LINK);
    }
  }
}

/** The synchronous checks of one embedder patch (400 `invalid_settings_embedders`). */
export function validateEmbedderPatch(name: string, e: EmbedderPatch): void {
  validateConfig(`.embedders.${name}`, e, false);
}

/**
 * Checks common to patches and merged configurations. The mandatory fields are required of a
 * merged configuration (`full`) and of a patch that names its source; a patch without `source`
 * skips the per-source checks.
 */
export function validateConfig(context: string, e: Record<string, unknown>, full: boolean, role: NestedRole | null = null): void {
  // a nested embedder's fields are checked against its source and role first (when the composite
  // is read); the top level's after its values (Meilisearch 1.50's order)
  if (role !== null) checkSourceFields(context, e, full, role);
  if (e.documentTemplateMaxBytes === 0) {
    throw new ApiError(CODE, `\`${context}.documentTemplateMaxBytes\`: \`documentTemplateMaxBytes\` cannot be zero`);
  }
  if (e.dimensions === 0) throw new ApiError(CODE, `\`${context}.dimensions\`: \`dimensions\` cannot be zero`);
  const fragments = usesFragments(e);
  // a patch that declares no fragments may still go to an embedder that has some: a request with
  // `{{fragment}}` is then checked when the task applies (`full`), as Meilisearch does
  const deferred = !full && !fragments && JSON.stringify(e.request ?? null).includes(JSON.stringify(FRAGMENT));
  if (fragments && typeof e.documentTemplate === 'string') {
    throw new ApiError(
      'vector_embedding_error',
      `${EMBEDDING_ERROR}cannot pass both fragments and a document template.\n  - Note: ${fragmentCount(e, 'indexingFragments')} fragments declared in \`indexingFragments\` and ${fragmentCount(e, 'searchFragments')} fragments declared in \`search_fragments_len\`.\n  - Hint: remove the declared fragments or remove the \`documentTemplate\``,
    );
  }
  for (const field of ['indexingFragments', 'searchFragments'] as const) {
    if (!isObj(e[field])) continue;
    try {
      new FragmentTemplates(e[field] as Record<string, { value: unknown } | null>);
    } catch (err) {
      // liquidjs words its error otherwise than Meilisearch's liquid-rust (docs/compat.md)
      throw new ApiError('vector_embedding_error', `${EMBEDDING_ERROR}error while parsing template: ${(err as Error).message}`);
    }
  }
  if (typeof e.documentTemplate === 'string') {
    try {
      parseTemplate(e.documentTemplate);
    } catch (err) {
      // liquidjs words its error otherwise than Meilisearch's liquid-rust (docs/compat.md)
      throw new ApiError(CODE, `\`${context}.documentTemplate\`: Invalid template: user error: cannot parse template: ${(err as Error).message}.`);
    }
  }
  if (typeof e.url === 'string') {
    const reason = urlParseError(e.url);
    if (reason) throw new ApiError(CODE, `\`${context}.url\`: could not parse \`${e.url}\`: ${reason}`);
  }
  if (e.request !== undefined && e.request !== null && !deferred) checkRestTemplates(e.request, e.response, fragments);
  if (role === null) checkSourceFields(context, e, full, role);
}

/** The per-source checks: `source` itself, the fields it may have, the mandatory ones, nested embedders. */
function checkSourceFields(context: string, e: Record<string, unknown>, full: boolean, role: NestedRole | null): void {
  const nested = role !== null;
  if (nested && typeof e.source !== 'string') {
    throw new ApiError(CODE, `\`${context}\`: Missing field \`source\`.\n  - note: this field is mandatory for nested embedders`);
  }
  const source = (typeof e.source === 'string' ? e.source : full ? 'openAi' : undefined) as EmbedderSource | undefined;
  if (source === undefined) return;
  if (nested && (source === 'composite' || source === 'userProvided')) {
    throw new ApiError(CODE, `\`${context}.source\`: Source \`${source}\` is not available in a nested embedder`);
  }
  for (const field of EMBEDDER_FIELDS) {
    if (!(field in e)) continue;
    // a `null` counts as present, like milli's `check_unset` on `Setting::Reset`
    if (!fieldAvailable(field, source, role)) throw unavailableField(context, field, source, role);
  }
  // a patch that names its source must carry that source's mandatory fields, whatever the
  // stored embedder has (Meilisearch checks the patch alone)
  // (a nested embedder's missing field is reported at the composite's path, as Meilisearch does)
  const mandatoryContext = nested ? context.slice(0, context.lastIndexOf('.')) : context;
  if (full || typeof e.source === 'string') checkMandatory(mandatoryContext, e, source);
  if (source === 'openAi' && typeof e.model === 'string') checkOpenAiModel(context, e.model, e.dimensions);
  if (source === 'composite') {
    for (const sub of ['searchEmbedder', 'indexingEmbedder'] as const) {
      if (isObj(e[sub])) validateConfig(`${context}.${sub}`, e[sub] as Obj, full, sub === 'searchEmbedder' ? 'search' : 'indexing');
    }
  }
}

function checkMandatory(context: string, e: Record<string, unknown>, source: EmbedderSource): void {
  for (const field of MANDATORY_FIELDS[source]) {
    if (e[field] === undefined || e[field] === null) throw missingForSource(context, field, source);
  }
}
