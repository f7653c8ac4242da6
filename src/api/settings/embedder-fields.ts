// Embedder field tables (vectors-embedders.md §2): declaration order, availability per source,
// mandatory fields, and the error messages milli builds from them.
import { ApiError } from '../errors/index.ts';
import { quoteList } from '../validate/index.ts';

export const EMBEDDER_SOURCES = ['openAi', 'huggingFace', 'ollama', 'userProvided', 'rest', 'composite'] as const;
export type EmbedderSource = (typeof EMBEDDER_SOURCES)[number];

export const POOLINGS = ['useModel', 'forceCls', 'forceMean'] as const;

/** Field declaration order: the "expected one of" list and the order of GET/details output. */
export const EMBEDDER_FIELDS = [
  'source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'binaryQuantized', 'documentTemplate',
  'documentTemplateMaxBytes', 'url', 'indexingFragments', 'searchFragments', 'request', 'response', 'headers',
  'searchEmbedder', 'indexingEmbedder', 'distribution',
] as const;
export type EmbedderField = (typeof EMBEDDER_FIELDS)[number];

/**
 * The keys a nested (composite) embedder's object may hold, in the order of its "expected one of"
 * list; the ones its source or its role cannot have are refused afterwards (`NestedRole`).
 */
export const NESTED_EMBEDDER_FIELDS: readonly EmbedderField[] = [
  'source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes',
  'url', 'indexingFragments', 'searchFragments', 'request', 'response', 'headers', 'distribution', 'binaryQuantized',
  'searchEmbedder', 'indexingEmbedder',
];

/** The role of a nested embedder; each leaves out fields its source has at the top level. */
export type NestedRole = 'search' | 'indexing';

const NOT_FOR_ROLE: Readonly<Record<NestedRole, readonly EmbedderField[]>> = {
  search: ['documentTemplate', 'documentTemplateMaxBytes', 'indexingFragments', 'distribution', 'binaryQuantized'],
  indexing: ['searchFragments', 'distribution', 'binaryQuantized'],
};

/** Whether a field is available to a source, at the top level or in a nested role. */
export function fieldAvailable(field: EmbedderField, source: EmbedderSource, role: NestedRole | null = null): boolean {
  return SOURCES_FOR_FIELD[field].includes(source) && (role === null || !NOT_FOR_ROLE[role].includes(field));
}

/** Order used by the "available fields for source" note (milli's constant order). */
const NOTE_ORDER: readonly EmbedderField[] = [
  'source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes',
  'url', 'indexingFragments', 'searchFragments', 'request', 'response', 'headers', 'searchEmbedder',
  'indexingEmbedder', 'distribution', 'binaryQuantized',
];

const ALL = EMBEDDER_SOURCES;
const TEMPLATED: readonly EmbedderSource[] = ['openAi', 'huggingFace', 'ollama', 'rest'];

export const SOURCES_FOR_FIELD: Readonly<Record<EmbedderField, readonly EmbedderSource[]>> = {
  source: ALL,
  model: ['openAi', 'huggingFace', 'ollama'],
  revision: ['huggingFace'],
  pooling: ['huggingFace'],
  apiKey: ['openAi', 'ollama', 'rest'],
  dimensions: ['openAi', 'ollama', 'userProvided', 'rest'],
  binaryQuantized: ALL,
  documentTemplate: TEMPLATED,
  documentTemplateMaxBytes: TEMPLATED,
  url: ['openAi', 'ollama', 'rest'],
  indexingFragments: ['rest'],
  searchFragments: ['rest'],
  request: ['rest'],
  response: ['rest'],
  headers: ['rest'],
  searchEmbedder: ['composite'],
  indexingEmbedder: ['composite'],
  distribution: ALL,
};

export const MANDATORY_FIELDS: Readonly<Record<EmbedderSource, readonly EmbedderField[]>> = {
  openAi: [],
  huggingFace: [],
  ollama: ['model'],
  userProvided: ['dimensions'],
  rest: ['url', 'request', 'response'],
  composite: ['searchEmbedder', 'indexingEmbedder'],
};

/** The fields a source accepts (in a nested role), in the order of the "available fields" note. */
export function fieldsForSource(source: EmbedderSource, role: NestedRole | null = null): EmbedderField[] {
  return NOTE_ORDER.filter((f) => fieldAvailable(f, source, role));
}

/**
 * A field sent for a source (in a nested role) that cannot have it; `context` is e.g.
 * `.embedders.manual` or `.embedders.c.searchEmbedder`. Meilisearch 1.50's wording, which says
 * when the role alone is what refuses the field.
 */
export function unavailableField(context: string, field: EmbedderField, source: EmbedderSource, role: NestedRole | null = null): ApiError {
  const where = role === null ? '' : ` for the ${role} embedder`;
  const available = `  - note: available fields for source \`${source}\`${where}: ${quoteList(fieldsForSource(source, role))}`;
  const lines = [`\`${context}\`: Field \`${field}\` unavailable for source \`${source}\`${where}.`];
  if (role !== null && SOURCES_FOR_FIELD[field].includes(source)) {
    lines.push(available, `  - note: \`${field}\` is available when source \`${source}\` is not${where}`);
  } else {
    lines.push(`  - note: \`${field}\` is available for sources: ${quoteList(EMBEDDER_SOURCES.filter((s) => SOURCES_FOR_FIELD[field].includes(s)))}`, available);
  }
  return new ApiError('invalid_settings_embedders', lines.join('\n'));
}

/** A mandatory field of the source is missing. */
export function missingForSource(context: string, field: EmbedderField, source: EmbedderSource): ApiError {
  return new ApiError(
    'invalid_settings_embedders',
    `\`${context}\`: Missing field \`${field}\` (note: this field is mandatory for source \`${source}\`)`,
  );
}

export const OPENAI_MODELS: Readonly<Record<string, { dimensions: number; overridable: boolean }>> = {
  'text-embedding-ada-002': { dimensions: 1536, overridable: false },
  'text-embedding-3-small': { dimensions: 1536, overridable: true },
  'text-embedding-3-large': { dimensions: 3072, overridable: true },
};

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';
export const DEFAULT_HF_MODEL = 'BAAI/bge-base-en-v1.5';
export const DEFAULT_HF_REVISION = '617ca489d9e86b49b8167676d8220688b99db36e';
export const MAX_EMBEDDERS = 256;
export const MAX_FRAGMENTS = 256;

/** OpenAI model name and dimension limits; `dimensions` may be undefined. */
export function checkOpenAiModel(context: string, model: string, dimensions: unknown): void {
  const known = OPENAI_MODELS[model];
  if (!known) {
    throw new ApiError(
      'invalid_settings_embedders',
      `\`${context}.model\`: Invalid model \`${model}\` for OpenAI. Supported models: ["text-embedding-ada-002", "text-embedding-3-small", "text-embedding-3-large"]`,
    );
  }
  if (typeof dimensions !== 'number') return;
  if (!known.overridable && dimensions !== known.dimensions) {
    throw new ApiError(
      'invalid_settings_embedders',
      `\`${context}.dimensions\`: Model \`${model}\` does not support overriding its native dimensions of ${known.dimensions}. Found ${dimensions}`,
    );
  }
  if (dimensions > known.dimensions) {
    throw new ApiError(
      'invalid_settings_embedders',
      `\`${context}.dimensions\`: Model \`${model}\` does not support overriding its dimensions to a value higher than ${known.dimensions}. Found ${dimensions}`,
    );
  }
}
