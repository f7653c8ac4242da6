// The `_vectors` field of a document (vectors-embedders.md §4): one entry per embedder, each an
// array of floats, an array of arrays of floats, `null`, or `{ embeddings, regenerate }`. Entries
// of configured embedders leave the stored document for the vector store; the others stay in it.
import { EngineError } from '../errors.ts';

/** At most this many vectors per document and embedder. */
export const MAX_VECTORS_PER_DOCUMENT = 256;

/** What a document says about one embedder. */
export interface VectorsEntry {
  /** the vectors given (possibly none); `undefined`: none given, keep what is stored */
  vectors: number[][] | undefined;
  regenerate: boolean;
}

/** Checks that `_vectors` is an object (``The `_vectors` field … is not an object``). */
export function vectorsObject(value: unknown, docId: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new EngineError(
    'invalid_vectors_type',
    `The \`_vectors\` field in the document with id: \`${docId}\` is not an object. Was expecting an object with a key for each embedder with manually provided vectors, but instead got \`${JSON.stringify(value)}\``,
  );
}

/** Parses the entry of embedder `name` (`dimensions`: what the embedder requires). */
export function parseVectorsEntry(value: unknown, name: string, docId: string, dimensions: number | null): VectorsEntry {
  const path = `._vectors.${name}`;
  let entry: VectorsEntry;
  if (value === null) entry = { vectors: [], regenerate: false };
  else if (Array.isArray(value)) entry = { vectors: embeddings(value, path, docId), regenerate: false };
  else if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (!('regenerate' in obj)) {
      throw typeError(
        docId,
        `Missing field \`${path}.regenerate\`\n  - note: \`${path}\` must be an array of floats, an array of arrays of floats, or an object with field \`regenerate\``,
      );
    }
    if (typeof obj.regenerate !== 'boolean') {
      throw typeError(docId, `Could not parse \`${path}.regenerate\`: invalid type: ${serdeKind(obj.regenerate)}, expected a boolean`);
    }
    const given = obj.embeddings;
    let vectors: number[][] | undefined;
    if (given === undefined || given === null) vectors = undefined;
    else if (Array.isArray(given)) vectors = embeddings(given, `${path}.embeddings`, docId);
    else throw typeError(docId, `Invalid value type at \`${path}.embeddings\`: expected null or an array, but found ${kind(given)}: \`${JSON.stringify(given)}\``);
    entry = { vectors, regenerate: obj.regenerate };
  } else {
    throw typeError(
      docId,
      `Invalid value type at \`${path}\`: expected an array of floats, an array of arrays of floats, or an object with field \`regenerate\`, but found ${kind(value)}: \`${JSON.stringify(value)}\``,
    );
  }
  const vectors = entry.vectors ?? [];
  if (vectors.length > MAX_VECTORS_PER_DOCUMENT) {
    throw new EngineError('too_many_vectors', `Too many vectors for document with id ${docId}: found ${vectors.length}, but limited to ${MAX_VECTORS_PER_DOCUMENT}.`);
  }
  if (dimensions !== null) {
    vectors.forEach((v, i) => {
      if (v.length !== dimensions) {
        throw new EngineError(
          'invalid_vector_dimensions',
          `Invalid vector dimensions in document with id \`${docId}\` in \`${path}\`.\n  - note: embedding #${i} has dimensions ${v.length}\n  - note: embedder \`${name}\` requires ${dimensions}`,
        );
      }
    });
  }
  return entry;
}

/** An array of floats (one vector) or of arrays of floats (several); `[]` is no vector. */
function embeddings(items: unknown[], path: string, docId: string): number[][] {
  if (items.length === 0) return [];
  if (typeof items[0] === 'number') {
    items.forEach((x, i) => {
      if (typeof x === 'number') return;
      const found = Array.isArray(x) ? 'an array' : kind(x);
      throw typeError(docId, `Invalid value type at \`${path}[${i}]\`: expected a number, but found ${found}: \`${JSON.stringify(x)}\``);
    });
    return [items as number[]];
  }
  return items.map((v, i) => {
    if (!Array.isArray(v)) {
      const what = typeof v === 'number' ? 'expected an array, but found a number' : `expected a number or an array, but found ${kind(v)}`;
      throw typeError(docId, `Invalid value type at \`${path}[${i}]\`: ${what}: \`${JSON.stringify(v)}\``);
    }
    v.forEach((x, j) => {
      if (typeof x !== 'number') throw typeError(docId, `Invalid value type at \`${path}[${i}][${j}]\`: expected a number, but found ${kind(x)}: \`${JSON.stringify(x)}\``);
    });
    return v as number[];
  });
}

function typeError(docId: string, detail: string): EngineError {
  return new EngineError('invalid_vectors_type', `Bad embedder configuration in the document with id: \`${docId}\`. ${detail}`);
}

/** serde_json's name of a value's kind ("a boolean", "a string", ...). */
function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'boolean':
      return 'a boolean';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    default:
      return 'an object';
  }
}

/** serde's "invalid type" wording: `string "x"`, `integer `3``, `map`, `sequence`. */
function serdeKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'sequence';
  switch (typeof v) {
    case 'string':
      return `string ${JSON.stringify(v)}`;
    case 'number':
      return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
    default:
      return 'map';
  }
}
