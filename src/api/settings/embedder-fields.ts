// Embedder field tables (vectors-embedders.md §2): declaration order, availability per source,
// mandatory fields, and the error messages milli builds from them.
import { ApiError } from '../errors/index.ts';
import { quoteList } from '../validate/index.ts';

export const EMBEDDER_SOURCES = ['openAi', 'huggingFace', 'ollama', 'userProvided', 'rest', 'composite'] as const;
export type EmbedderSource = (typeof EMBEDDER_SOURCES)[number];

export const POOLINGS = ['useModel', 'forceMean', 'forceCls'] as const;

/** Field declaration order: the "expected one of" list and the order of GET/details output. */
export const EMBEDDER_FIELDS = [
  'source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'binaryQuantized', 'documentTemplate',
  'documentTemplateMaxBytes', 'url', 'indexingFragments', 'searchFragments', 'request', 'response', 'headers',
  'searchEmbedder', 'indexingEmbedder', 'distribution',
] as const;
export type EmbedderField = (typeof EMBEDDER_FIELDS)[number];

/** Fields of a nested (composite) embedder. */
export const NESTED_EMBEDDER_FIELDS: readonly EmbedderField[] = EMBEDDER_FIELDS.filter(
  (f) => f !== 'searchEmbedder' && f !== 'indexingEmbedder' && f !== 'distribution' && f !== 'binaryQuantized',
);

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

/** The fields a source accepts, in the order of the "available fields" note. */
export function fieldsForSource(source: EmbedderSource): EmbedderField[] {
  return NOTE_ORDER.filter((f) => SOURCES_FOR_FIELD[f].includes(source));
}

/** A field sent for a source that cannot have it; `context` is e.g. `.embedders.manual` or `.embedders.c.searchEmbedder`. */
export function unavailableField(context: string, field: EmbedderField, source: EmbedderSource, nested = false): ApiError {
  const lines = [
    `\`${context}\`: Field \`${field}\` unavailable for source \`${source}\`.`,
    `  - note: \`${field}\` is available for sources: ${quoteList(EMBEDDER_SOURCES.filter((s) => SOURCES_FOR_FIELD[field].includes(s)))}`,
    `  - note: available fields for source \`${source}\`: ${quoteList(fieldsForSource(source))}`,
  ];
  if (nested) lines.push(`  - note: \`${field}\` is not available in a nested search embedder`);
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
