// Content-Type and `csvDelimiter` checks of the document routes (reference/documents.md §2.1–2.2),
// done before the body is read. Query parameters are validated first, as Meilisearch does.
import { ApiError } from '../errors/index.ts';
import type { PayloadFormat } from './messages.ts';
import { lossyHeader, parseMediaType } from '../validate/media-type.ts';

export type { PayloadFormat } from './messages.ts';

const ACCEPTED = '`application/json`, `application/x-ndjson`, `text/csv`';
const COMMA = 44;

/** The `csvDelimiter` query parameter as a byte. */
export function csvDelimiterByte(raw: string): number {
  const chars = [...raw];
  if (chars.length !== 1) {
    const found =
      chars.length === 0
        ? 'an empty string'
        : `the following string of ${chars.length} characters: \`${raw}\``;
    throw new ApiError(
      'invalid_document_csv_delimiter',
      `Invalid value in parameter \`csvDelimiter\`: expected a string of one character, but found ${found}`,
    );
  }
  const code = raw.codePointAt(0)!;
  if (code > 0x7f) {
    throw new ApiError('invalid_document_csv_delimiter', `csv delimiter must be an ascii character. Found: \`${raw}\``);
  }
  return code;
}

/** Validates Content-Type (+ csvDelimiter) before the body is read. */
export function documentFormat(
  contentType: string | undefined,
  csvDelimiter: string | undefined,
): { format: PayloadFormat; delimiter: number } {
  const delimiter = csvDelimiter === undefined ? null : csvDelimiterByte(csvDelimiter);
  if (contentType === undefined) {
    throw new ApiError(
      'missing_content_type',
      `A Content-Type header is missing. Accepted values for the Content-Type header are: ${ACCEPTED}`,
    );
  }
  const parsed = parseMediaType(contentType);
  // an unparsable header is printed as its bytes read as (lossy) UTF-8; a parsed one as
  // `type/subtype`, lower-cased, without suffix and parameters (`application/json+x` is JSON)
  const media = parsed === null ? null : `${parsed.type}/${parsed.subtype}`;
  if (media === 'application/json' || media === 'application/x-ndjson') {
    if (delimiter !== null) {
      throw new ApiError(
        'invalid_content_type',
        `The Content-Type \`${media}\` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type \`text/csv\`.`,
      );
    }
    return { format: media === 'application/json' ? 'json' : 'ndjson', delimiter: COMMA };
  }
  if (media === 'text/csv') return { format: 'csv', delimiter: delimiter ?? COMMA };
  throw new ApiError(
    'invalid_content_type',
    `The Content-Type \`${media ?? lossyHeader(contentType)}\` is invalid. Accepted values for the Content-Type header are: ${ACCEPTED}`,
  );
}
