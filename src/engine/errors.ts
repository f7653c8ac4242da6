// Errors raised by the engine: a kind and a user message, never an HTTP status.
// Kinds are named after the Meilisearch error codes they become (src/api/errors maps them).

export type EngineErrorKind =
  | 'index_not_found'
  | 'index_already_exists'
  | 'index_primary_key_already_exists'
  | 'index_primary_key_no_candidate_found'
  | 'index_primary_key_multiple_candidates_found'
  | 'invalid_document_id'
  | 'missing_document_id'
  | 'max_fields_limit_exceeded'
  | 'invalid_document_geo_field'
  | 'invalid_document_geojson_field'
  | 'invalid_document_filter'
  | 'document_not_found'
  | 'malformed_payload'
  | 'invalid_vectors_type'
  | 'invalid_vector_dimensions'
  | 'too_many_vectors'
  | 'vector_embedding_error'
  | 'invalid_document_fields'
  | 'invalid_state'
  | 'internal';

/** An error of the engine. `prefixed` errors get ``Index `uid`: `` in front when stored in a task. */
export class EngineError extends Error {
  readonly kind: EngineErrorKind;
  readonly prefixed: boolean;

  constructor(kind: EngineErrorKind, message: string, opts: { prefixed?: boolean } = {}) {
    super(message);
    this.kind = kind;
    this.prefixed = opts.prefixed ?? true;
  }
}
