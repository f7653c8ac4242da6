// `POST /render-template` (experimental `renderRoute`): a document template rendered with a
// document, as an embedder would render it. The body and its errors as Meilisearch 1.50 answers
// them (probed on the binary): `template` picks an embedder's template or an inline one, `input`
// a stored document or an inline one (none: nothing is rendered). Fragments (an embedder's, or
// inline ones) render with a document or an inline search (`q`, `media`) once `multimodal` is on;
// chat templates belong to a feature Muninn does not have (`chatCompletions`).
import { ApiError } from '../errors/index.ts';
import { checkFields, expectObject, missingField, typeError, unknownValue, type JsonObject } from '../validate/index.ts';

const BODY_FIELDS = ['template', 'input'] as const;
const TEMPLATE_FIELDS = ['kind', 'indexUid', 'embedder', 'fragment', 'inline', 'documentTemplateMaxBytes'] as const;
const INPUT_FIELDS = ['kind', 'indexUid', 'id', 'inline'] as const;
const TEMPLATE_KINDS = ['documentTemplate', 'chatDocumentTemplate', 'indexingFragment', 'searchFragment', 'inlineDocumentTemplate', 'inlineFragment'] as const;
const INPUT_KINDS = ['indexDocument', 'inlineDocument', 'inlineSearch'] as const;

export type RenderTemplate =
  | { kind: 'documentTemplate'; indexUid: string; embedder: string }
  | { kind: 'inlineDocumentTemplate'; inline: string }
  | { kind: 'indexingFragment' | 'searchFragment'; indexUid: string; embedder: string; fragment: string }
  | { kind: 'inlineFragment'; inline: unknown };

export type RenderInput =
  | { kind: 'indexDocument'; indexUid: string; id: string }
  | { kind: 'inlineDocument'; inline: Record<string, unknown> }
  | { kind: 'inlineSearch'; inline: Record<string, unknown> }
  | null;

export interface RenderRequest {
  template: RenderTemplate;
  input: RenderInput;
}

export interface RenderFeatures {
  multimodal: boolean;
  chatCompletions: boolean;
}

const MULTIMODAL = 'https://github.com/orgs/meilisearch/discussions/846';

function part(obj: unknown, name: 'template' | 'input', fields: readonly string[], kinds: readonly string[], code: 'invalid_render_template' | 'invalid_render_input'): JsonObject & { kind: string } {
  const o = expectObject(obj, `.${name}`, code);
  for (const [k, v] of Object.entries(o)) {
    if (!fields.includes(k)) throw new ApiError(code, `Unknown field \`${k}\` inside \`.${name}\`: expected one of ${fields.map((f) => `\`${f}\``).join(', ')}`);
    if (k === 'kind') {
      if (typeof v !== 'string') throw typeError(`.${name}.kind`, 'a string', v, code);
      if (!kinds.includes(v)) throw unknownValue(`.${name}.kind`, v, kinds, code);
    } else if ((k === 'indexUid' || k === 'id' || k === 'embedder' || k === 'fragment') && v !== null && typeof v !== 'string') {
      throw typeError(`.${name}.${k}`, 'a string', v, code);
    } else if (k === 'documentTemplateMaxBytes' && v !== null && !(typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
      throw typeError(`.${name}.${k}`, 'a positive integer', v, code);
    }
  }
  if (!('kind' in o)) throw new ApiError(code, `Missing field \`kind\` inside \`.${name}\``);
  return o as JsonObject & { kind: string };
}

/** Validates the body (deserr's order: fields as they come, then the missing `template`). */
export function parseRenderBody(body: unknown): { template: JsonObject & { kind: string }; input: (JsonObject & { kind: string }) | null } {
  const obj = expectObject(body);
  let template: (JsonObject & { kind: string }) | undefined;
  let input: (JsonObject & { kind: string }) | null = null;
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'template') template = part(v, 'template', TEMPLATE_FIELDS, TEMPLATE_KINDS, 'invalid_render_template');
    else if (k === 'input') input = v === null ? null : part(v, 'input', INPUT_FIELDS, INPUT_KINDS, 'invalid_render_input');
    else checkFields({ [k]: v }, { known: BODY_FIELDS });
  }
  if (template === undefined) throw missingField('template', 'bad_request');
  return { template, input };
}

const fetching = (what: 'template' | 'input', code: 'invalid_render_template' | 'invalid_render_input', message: string) =>
  new ApiError(code, `error while fetching ${what}: ${message}`);

/** What the template names, checked as the binary checks it (after the feature gate). */
export function resolveRenderRequest(raw: ReturnType<typeof parseRenderBody>, features: RenderFeatures): RenderRequest {
  const t = raw.template;
  const missing = (param: string, kind: string, what: 'template' | 'input') =>
    fetching(what, what === 'template' ? 'invalid_render_template' : 'invalid_render_input', `parameter \`${param}\` missing for kind \`${kind}\``);
  let template: RenderTemplate;
  switch (t.kind) {
    case 'documentTemplate':
      if (typeof t.indexUid !== 'string') throw missing('index_uid', t.kind, 'template');
      if (typeof t.embedder !== 'string') throw missing('embedder', t.kind, 'template');
      template = { kind: t.kind, indexUid: t.indexUid, embedder: t.embedder };
      break;
    case 'inlineDocumentTemplate':
      if (!('inline' in t) || t.inline === null) throw missing('inline', t.kind, 'template');
      if (typeof t.inline !== 'string') throw fetching('template', 'invalid_render_template', 'inline document templates must be strings');
      template = { kind: t.kind, inline: t.inline };
      break;
    case 'chatDocumentTemplate':
      if (!features.chatCompletions) {
        throw new ApiError('feature_not_enabled', 'error while fetching template: accessing chat settings requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835');
      }
      throw fetching('template', 'invalid_render_template', 'chat templates cannot be rendered by this version of Muninn');
    case 'inlineFragment':
      if (!features.multimodal) throw new ApiError('feature_not_enabled', `error while fetching template: rendering an inline fragment requires enabling the \`multimodal\` experimental feature. See ${MULTIMODAL}`);
      if (!('inline' in t) || t.inline === null) throw missing('inline', t.kind, 'template');
      template = { kind: t.kind, inline: t.inline };
      break;
    default:
      if (!features.multimodal) throw new ApiError('feature_not_enabled', `error while fetching template: accessing fragments requires enabling the \`multimodal\` experimental feature. See ${MULTIMODAL}`);
      if (typeof t.indexUid !== 'string') throw missing('index_uid', t.kind, 'template');
      if (typeof t.embedder !== 'string') throw missing('embedder', t.kind, 'template');
      if (typeof t.fragment !== 'string') throw missing('fragment', t.kind, 'template');
      template = { kind: t.kind as 'indexingFragment' | 'searchFragment', indexUid: t.indexUid, embedder: t.embedder, fragment: t.fragment };
  }
  const i = raw.input;
  let input: RenderInput = null;
  if (i !== null) {
    switch (i.kind) {
      case 'indexDocument':
        if (typeof i.indexUid !== 'string') throw missing('indexUid', i.kind, 'input');
        if (i.id === undefined || i.id === null) throw missing('id', i.kind, 'input');
        input = { kind: i.kind, indexUid: i.indexUid, id: i.id as string };
        break;
      case 'inlineDocument':
        if (i.inline === undefined || i.inline === null) throw missing('inline', i.kind, 'input');
        if (typeof i.inline !== 'object' || Array.isArray(i.inline)) {
          throw fetching('input', 'invalid_render_input', `parsing inline document: invalid type: ${serdeKind(i.inline)}, expected a map at line 1 column 0\n  - Note: the inline document must be a JSON map`);
        }
        input = { kind: i.kind, inline: i.inline as Record<string, unknown> };
        break;
      default:
        if (!features.multimodal) throw new ApiError('feature_not_enabled', `error while fetching input: rendering search requires enabling the \`multimodal\` experimental feature. See ${MULTIMODAL}`);
        if (i.inline === undefined || i.inline === null) throw missing('inline', i.kind, 'input');
        if (typeof i.inline !== 'object' || Array.isArray(i.inline)) {
          throw fetching('input', 'invalid_render_input', `parsing inline search: invalid type: ${serdeKind(i.inline)}, expected a map at line 1 column 0\n  - Note: the inline search query must be a JSON map containing \`q\` and/or \`media\``);
        }
        input = { kind: 'inlineSearch', inline: i.inline as Record<string, unknown> };
    }
  }
  return { template, input };
}

/** serde_json's name of a JSON value in `invalid type` messages. */
function serdeKind(v: unknown): string {
  if (Array.isArray(v)) return 'sequence';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  return 'null';
}

export function renderFeatureNotEnabled(): ApiError {
  return new ApiError('feature_not_enabled', 'calling the /render-template route requires enabling the `render_route` experimental feature. See https://github.com/orgs/meilisearch/discussions/888');
}

export function templateIndexNotFound(uid: string): ApiError {
  return new ApiError('index_not_found', `error while fetching template: cannot open index \`${uid}\`: Index \`${uid}\` not found.`);
}

export function embedderNotFound(name: string, uid: string): ApiError {
  return fetching('template', 'invalid_render_template', `cannot find embedder \`${name}\` in index \`${uid}\``);
}

export function renderDocumentNotFound(id: string, uid: string): ApiError {
  return new ApiError('render_document_not_found', `error while fetching input: document \`${id}\` not found in \`${uid}\``);
}

export function templateParsingError(message: string): ApiError {
  return new ApiError('template_parsing_error', `error while fetching template: user error: cannot parse template: ${message}`);
}

/** An embedder's fragment that does not exist (Meilisearch names an indexing fragment for a search fragment of a missing embedder). */
export function fragmentNotFound(kind: 'indexing' | 'search', fragment: string, embedder: string, uid: string): ApiError {
  return fetching('template', 'invalid_render_template', `cannot find ${kind} fragment \`${fragment}\` for embedder \`${embedder}\` in index \`${uid}\``);
}

export function fragmentParsingError(message: string): ApiError {
  return new ApiError('template_parsing_error', `error while fetching template: error while parsing template: ${message}`);
}

/** A fragment that needs what the input lacks; `path` is where in the fragment's value. */
export function fragmentRenderingError(path: string, message: string): ApiError {
  return new ApiError('template_rendering_error', `error while rendering template: ${path === '' ? '' : `in \`\`${path}\`\`, `}error while rendering template: ${message}`);
}

export function noDocumentTemplate(embedder: string, uid: string): ApiError {
  return fetching('template', 'invalid_render_template', `embedder \`${embedder}\` in index \`${uid}\` does not use a document template.`);
}

export function documentTemplateWithSearch(): ApiError {
  return new ApiError('template_rendering_error', 'error while rendering template: cannot render a document template with a search query');
}

export function templateRenderingError(message: string): ApiError {
  return new ApiError('template_rendering_error', `error while rendering template: user error: missing field in document: ${message}`);
}
