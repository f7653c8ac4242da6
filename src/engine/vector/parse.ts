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

/**
 * Checks that a document's `_vectors` is an object; anything else (`null` too) fails the task with
 * the serde message Meilisearch 1.50 gives, as an `internal` error, whether embedders exist or
 * not (the reference's "is not an object" message is not what the binary answers).
 */
export function vectorsObject(value: unknown, _docId: string): Record<string, unknown> | null {
  if (value === undefined) return null;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  // serde reports a sequence at its start, any other value at its last character
  const column = Array.isArray(value) ? 0 : JSON.stringify(value).length;
  throw new EngineError('internal', `invalid type: ${serdeKind(value)}, expected a map at line 1 column ${column}`);
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
    const unknown = Object.keys(obj).find((k) => k !== 'embeddings' && k !== 'regenerate');
    if (unknown !== undefined) {
      // what the 1.50 binary answers: serde stops at the unknown key's colon
      const text = JSON.stringify(obj);
      const column = text.indexOf(`${JSON.stringify(unknown)}:`) + JSON.stringify(unknown).length + 1;
      throw typeError(docId, `Could not parse \`${path}\`: trailing characters at line 1 column ${column}`);
    }
    if (typeof obj.regenerate !== 'boolean') {
      // the column of the value's last character in the entry's compact text
      const text = JSON.stringify(obj);
      const column = text.indexOf('"regenerate":') + '"regenerate":'.length + JSON.stringify(obj.regenerate).length;
      throw typeError(docId, `Could not parse \`${path}.regenerate\`: invalid type: ${serdeKind(obj.regenerate)}, expected a boolean at line 1 column ${column}`);
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
      `Expected \`${path}\` to be an array of floats, an array of arrays of floats, or an object with at least the field \`regenerate\`, but got ${scalarOf(value)}`,
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
      const what = typeof v === 'number' ? `expected an array, but found ${kind(v)}` : `expected a number or an array, but found ${kind(v)}`;
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

/** How the binary names a scalar entry: ``the string `x` ``, ``the integer `3` ``, ``the number `-1.5` ``. */
function scalarOf(v: unknown): string {
  if (typeof v === 'string') return `the string \`${v}\``;
  if (typeof v === 'number') return Number.isInteger(v) ? `the integer \`${v}\`` : `the number \`${v}\``;
  return `the boolean \`${String(v)}\``;
}

/** deserr's name of a value's kind ("a boolean", "a positive integer", ...). */
function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'boolean':
      return 'a boolean';
    case 'number':
      return Number.isInteger(v) ? (v < 0 ? 'a negative integer' : 'a positive integer') : 'a number';
    case 'string':
      return 'a string';
    default:
      return 'an object';
  }
}

/** serde's "invalid type" wording: `string "x"`, ``integer `3` ``, ``boolean `true` ``, `null`, `map`, `sequence`. */
function serdeKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'sequence';
  switch (typeof v) {
    case 'string':
      return `string ${JSON.stringify(v)}`;
    case 'number':
      return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
    case 'boolean':
      return `boolean \`${v}\``;
    default:
      return 'map';
  }
}
