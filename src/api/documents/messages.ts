// The payload errors of the documents routes (reference/documents.md §2.2–2.3), word for word.
import { ApiError } from '../errors/index.ts';

export type PayloadFormat = 'json' | 'ndjson' | 'csv';

/** serde_json's reason when a valid JSON value is not an object (nor an array of objects). */
export const DATA_ERROR = 'data are neither an object nor a list of objects';

/** Keeps the first 50 and last 85 characters of a long parser message (meilisearch#2107). */
export function truncateParserMessage(message: string): string {
  if (message.length > 50 + 85 + 3) return message.slice(0, 50) + '...' + message.slice(message.length - 85);
  return message;
}

export function malformedJson(format: 'json' | 'ndjson', reason: string): ApiError {
  return new ApiError(
    'malformed_payload',
    `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${truncateParserMessage(reason)}\`.`,
  );
}

export function malformedCsv(reason: string): ApiError {
  return new ApiError('malformed_payload', `The \`csv\` payload provided is malformed: \`${reason}\`.`);
}

export function missingPayload(format: PayloadFormat): ApiError {
  return new ApiError('missing_payload', `A ${format} payload is missing.`);
}

export function payloadTooLarge(limitText: string): ApiError {
  return new ApiError(
    'payload_too_large',
    `The provided payload reached the size limit. The maximum accepted payload size is ${limitText}.`,
  );
}

export function incompletePayload(): ApiError {
  return new ApiError('bad_request', 'The provided payload is incomplete and cannot be parsed');
}

/** Rust's `{:?}` of a string: quoted, with `"`, `\` and control characters escaped. */
export function rustDebugString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code === 0) out += '\\0';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}
