// toApiError: errors of the lower layers (auth, engine) become the ApiError the wire carries.
//
// 1. Every AuthError kind becomes the ApiError of the same code, with the message unchanged and
//    the status and type of the code table (what Meilisearch answers for it).
// 2. An ApiError passes through as is.
// 3. Engine errors keep their kind as code and get the task prefix only when prefixed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, toApiError } from './index.ts';
import { AuthError, type AuthErrorKind } from '../../auth/errors.ts';
import {
  MSG_INVALID_API_KEY,
  MSG_MISSING_AUTHORIZATION_HEADER,
  MSG_MISSING_MASTER_KEY,
  apiKeyAlreadyExists,
  apiKeyNotFound,
  metricsNeedsAllIndexes,
} from '../../auth/index.ts';
import { EngineError } from '../../engine/errors.ts';

test('AuthError → ApiError keeps code and message; status and type from the table', () => {
  const cases: [AuthError, AuthErrorKind, number, string, string][] = [
    [
      new AuthError('missing_authorization_header', MSG_MISSING_AUTHORIZATION_HEADER),
      'missing_authorization_header',
      401,
      'auth',
      MSG_MISSING_AUTHORIZATION_HEADER,
    ],
    [new AuthError('invalid_api_key', MSG_INVALID_API_KEY), 'invalid_api_key', 403, 'auth', MSG_INVALID_API_KEY],
    [new AuthError('missing_master_key', MSG_MISSING_MASTER_KEY), 'missing_master_key', 401, 'auth', MSG_MISSING_MASTER_KEY],
    [apiKeyNotFound('doggo'), 'api_key_not_found', 404, 'invalid_request', 'API key `doggo` not found.'],
    [
      apiKeyAlreadyExists('4bc0887a-0e41-4f3b-935d-0c451dcee9c8'),
      'api_key_already_exists',
      409,
      'invalid_request',
      '`uid` field value `4bc0887a-0e41-4f3b-935d-0c451dcee9c8` is already an existing API key.',
    ],
    [
      metricsNeedsAllIndexes(),
      'invalid_api_key',
      403,
      'auth',
      'The provided API key is invalid. The API key for the `/metrics` route must allow access to all indexes.',
    ],
  ];
  for (const [err, code, status, type, message] of cases) {
    // the task prefix is for engine errors only
    const api = toApiError(err, { enginePrefix: 'Index `x`: ' });
    assert.ok(api instanceof ApiError);
    assert.equal(api.status, status);
    assert.deepEqual(api.toBody(), { message, code, type, link: `https://docs.meilisearch.com/errors#${code}` });
  }
});

test('an ApiError passes through unchanged', () => {
  const err = new ApiError('index_not_found', 'Index `x` not found.');
  assert.equal(toApiError(err), err);
});

test('engine errors keep their kind; the prefix applies to prefixed ones only', () => {
  const prefixed = toApiError(new EngineError('document_not_found', 'Document `1` not found.'), { enginePrefix: 'Index `x`: ' });
  assert.deepEqual([prefixed.code, prefixed.message, prefixed.status], ['document_not_found', 'Index `x`: Document `1` not found.', 404]);
  const plain = toApiError(new EngineError('index_not_found', 'Index `x` not found.', { prefixed: false }), { enginePrefix: 'Index `x`: ' });
  assert.deepEqual([plain.code, plain.message], ['index_not_found', 'Index `x` not found.']);
});
