import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { documentFormat } from './content-type.ts';

const ACCEPTED = 'Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`';

const OK: [string, string | undefined, { format: string; delimiter: number }][] = [
  ['application/json', undefined, { format: 'json', delimiter: 44 }],
  ['application/json; charset=utf-8', undefined, { format: 'json', delimiter: 44 }],
  ['Application/JSON', undefined, { format: 'json', delimiter: 44 }],
  ['application/x-ndjson', undefined, { format: 'ndjson', delimiter: 44 }],
  ['text/csv', undefined, { format: 'csv', delimiter: 44 }],
  ['text/csv; charset=utf-8', ';', { format: 'csv', delimiter: 59 }],
  ['text/csv', '\t', { format: 'csv', delimiter: 9 }],
  ['text/csv', ',', { format: 'csv', delimiter: 44 }],
];

for (const [contentType, delimiter, expected] of OK) {
  test(`documentFormat(${contentType}, ${JSON.stringify(delimiter)})`, () => {
    assert.deepEqual(documentFormat(contentType, delimiter), expected);
  });
}

const ERRORS: [string | undefined, string | undefined, string, number, string][] = [
  [undefined, undefined, 'missing_content_type', 415, `A Content-Type header is missing. ${ACCEPTED}`],
  [undefined, ';', 'missing_content_type', 415, `A Content-Type header is missing. ${ACCEPTED}`],
  ['text/plain', undefined, 'invalid_content_type', 415, `The Content-Type \`text/plain\` is invalid. ${ACCEPTED}`],
  ['Text/Plain; charset=utf-8', undefined, 'invalid_content_type', 415, `The Content-Type \`text/plain\` is invalid. ${ACCEPTED}`],
  ['doggo', undefined, 'invalid_content_type', 415, `The Content-Type \`doggo\` is invalid. ${ACCEPTED}`],
  ['', undefined, 'invalid_content_type', 415, `The Content-Type \`\` is invalid. ${ACCEPTED}`],
  ['text/plain', ';', 'invalid_content_type', 415, `The Content-Type \`text/plain\` is invalid. ${ACCEPTED}`],
  ['application/json', ';', 'invalid_content_type', 415,
    'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.'],
  ['application/x-ndjson', ';', 'invalid_content_type', 415,
    'The Content-Type `application/x-ndjson` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.'],
  ['text/csv', '', 'invalid_document_csv_delimiter', 400,
    'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found an empty string'],
  ['text/csv', 'doggo', 'invalid_document_csv_delimiter', 400,
    'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 5 characters: `doggo`'],
  ['text/csv', '🍰', 'invalid_document_csv_delimiter', 400, 'csv delimiter must be an ascii character. Found: `🍰`'],
  ['text/csv', 'é', 'invalid_document_csv_delimiter', 400, 'csv delimiter must be an ascii character. Found: `é`'],
  // the query parameter is checked before the header
  ['application/json', 'doggo', 'invalid_document_csv_delimiter', 400,
    'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 5 characters: `doggo`'],
  [undefined, '🍰🍰', 'invalid_document_csv_delimiter', 400,
    'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 2 characters: `🍰🍰`'],
];

for (const [contentType, delimiter, code, status, message] of ERRORS) {
  test(`documentFormat(${JSON.stringify(contentType)}, ${JSON.stringify(delimiter)}) → ${code}`, () => {
    assert.throws(
      () => documentFormat(contentType, delimiter),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, code);
        assert.equal(error.status, status);
        assert.equal(error.message, message);
        return true;
      },
    );
  });
}
