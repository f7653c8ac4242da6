// Primary key inference and document ids (reference/documents.md §2.5–2.6).
//
// These errors are `prefixed: false`: Meilisearch reports them through the per-payload
// document-operation stats (`milli::Error::UserError(e).into()`), not through the index
// scheduler's ``Index `uid`: `` wrapper — its tests show `missing_document_id`,
// `invalid_document_id` and `index_primary_key_no_candidate_found` task errors without prefix.
import { EngineError } from '../errors.ts';

const SPLIT = '.';
const MIN_I64 = -(2n ** 63n);
const MAX_U64 = 2n ** 64n - 1n;
const ID_CHARS = /^[A-Za-z0-9_-]+$/;
const MANUAL = 'Please specify the primary key manually using the `primaryKey` query parameter.';

/** serde_json::to_string of a parsed document/value (bigint written as its digits). */
export function compactJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => compactJson(item === undefined ? null : item)).join(',')}]`;
  let out = '';
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function') continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${compactJson(item)}`;
  }
  return `{${out}}`;
}

/** Byte-wise (UTF-8, i.e. code point) order, like Rust's `str` ordering. */
function compareCodePoints(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** documents.md §2.5 step 3: infer from the first document's top-level keys ending with `id` (case-insensitive). */
export function inferPrimaryKey(firstDocument: Record<string, unknown>): string {
  const candidates = Object.keys(firstDocument)
    .filter((key) => key.toLowerCase().endsWith('id'))
    .sort(compareCodePoints);
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new EngineError(
      'index_primary_key_no_candidate_found',
      `The primary key inference failed as the engine did not find any field ending with \`id\` in its name. ${MANUAL}`,
      { prefixed: false },
    );
  }
  throw new EngineError(
    'index_primary_key_multiple_candidates_found',
    `The primary key inference failed as the engine found ${candidates.length} fields ending with \`id\` in their names: '${candidates[0]}' and '${candidates[1]}'. ${MANUAL}`,
    { prefixed: false },
  );
}

/**
 * Validates a user-given id value (documents, delete-batch, fetch ids) — §2.6: a string of
 * 1–511 ASCII `a-z A-Z 0-9 - _`, or an integer (i64 or u64) written in decimal. Returns the
 * canonical string or null when invalid. Floats (and `-0`) are invalid; exact digits of
 * integers beyond 2^53 need the value as a bigint.
 */
export function canonicalId(value: unknown): string | null {
  if (typeof value === 'string') return value.length < 512 && ID_CHARS.test(value) ? value : null;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || Object.is(value, -0)) return null;
    if (Number.isSafeInteger(value)) return String(value);
    const big = BigInt(value);
    return big >= MIN_I64 && big <= MAX_U64 + 1n ? big.toString() : null;
  }
  if (typeof value === 'bigint') return value >= MIN_I64 && value <= MAX_U64 ? value.toString() : null;
  return null;
}

function invalidId(value: unknown): EngineError {
  return new EngineError(
    'invalid_document_id',
    `Document identifier \`${compactJson(value)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
    { prefixed: false },
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Every value whose dotted path is exactly `path`, in document order: `{"a.b": 1}` and
 * `{"a": {"b": 1}}` both match `a.b`; arrays are not walked into. Each match is validated
 * when found; a second match is an error (milli's `match_component`).
 */
function findNested(object: Record<string, unknown>, path: string, found: string[], tooMany: () => EngineError): void {
  for (const [key, value] of Object.entries(object)) {
    if (key === path) {
      const id = canonicalId(value);
      if (id === null) throw invalidId(value);
      if (found.length > 0) throw tooMany();
      found.push(id);
    } else if (path.startsWith(key + SPLIT) && isObject(value)) {
      findNested(value, path.slice(key.length + 1), found, tooMany);
    }
  }
}

/**
 * Returns the canonical external id string of a document (integers → decimal string), or
 * throws EngineError missing_document_id / invalid_document_id with the exact messages.
 * Supports nested primary keys (`product.sku`) per §2.5.4.
 */
export function documentId(document: Record<string, unknown>, primaryKey: string): string {
  let id: string | undefined;
  if (!primaryKey.includes(SPLIT)) {
    const value = Object.prototype.hasOwnProperty.call(document, primaryKey) ? document[primaryKey] : undefined;
    if (value !== undefined) {
      const canonical = canonicalId(value);
      if (canonical === null) throw invalidId(value);
      id = canonical;
    }
  } else {
    const found: string[] = [];
    const tooMany = (): EngineError =>
      new EngineError(
        'invalid_document_id',
        `Document have too many matching \`${primaryKey}\` attribute: \`${compactJson(document)}\`.`,
        { prefixed: false },
      );
    findNested(document, primaryKey, found, tooMany);
    id = found[0];
  }
  if (id === undefined) {
    throw new EngineError(
      'missing_document_id',
      `Document doesn't have a \`${primaryKey}\` attribute: \`${compactJson(document)}\`.`,
      { prefixed: false },
    );
  }
  return id;
}
