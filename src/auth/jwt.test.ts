// Tenant token decoding (jwt.ts, base64url.ts, serde-json.ts). Checks:
// 1. HS256 / HS384 / HS512 tokens verify with the key value of `apiKeyUid`; other algorithms fail
// 2. fewer than two dots is "not a JWT"; every other failure carries jsonwebtoken's wording
// 3. base64url refusals (symbols, padding, length, trailing bits) with the crate's texts
// 4. JSON errors of serde_json with their positions (the two of Meilisearch's tests included)
// 5. claims: missing ones, wrong types, UUID forms, `exp`, `aud`, the TryParse quirks
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { decodeBase64Url } from './base64url.ts';
import { decodeTenantToken } from './jwt.ts';

const MASTER = 'MASTER_KEY';
const UID = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';
const keyValue = (uid: string) => crypto.createHmac('sha256', MASTER).update(uid).digest('hex');
const KEY = keyValue(UID);

const enc = (part: unknown) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url');
const HS = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' } as const;

/** A JWT over raw parts (`header` / `claims` strings are used verbatim). */
function sign(header: unknown, claims: unknown, opts: { secret?: string; hash?: string } = {}): string {
  const message = `${enc(header)}.${enc(claims)}`;
  const hash = opts.hash ?? 'sha256';
  return `${message}.${crypto.createHmac(hash, opts.secret ?? KEY).update(message).digest('base64url')}`;
}

const H256 = { alg: 'HS256', typ: 'JWT' };
const CLAIMS = { searchRules: ['*'], apiKeyUid: UID };

function reason(token: string): string {
  const d = decodeTenantToken(token, keyValue);
  assert.equal(d.kind, 'invalid', JSON.stringify(d));
  return (d as { reason: string }).reason;
}

test('HS256, HS384 and HS512 tokens verify with the parent key value', () => {
  for (const alg of ['HS256', 'HS384', 'HS512'] as const) {
    const token = sign({ alg, typ: 'JWT' }, { ...CLAIMS, exp: 2_000_000_000 }, { hash: HS[alg] });
    const d = decodeTenantToken(token, keyValue);
    assert.equal(d.kind, 'valid', alg);
    if (d.kind !== 'valid') continue;
    assert.equal(d.claims.keyUid, UID);
    assert.equal(d.claims.exp, 2_000_000_000n);
    assert.deepEqual(d.claims.rules.patterns, ['*']);
    // the algorithm of the header decides the hash
    assert.equal(reason(sign({ alg }, CLAIMS, { hash: alg === 'HS256' ? 'sha512' : 'sha256' })), 'InvalidSignature');
  }
});

test('the signature is checked with the key of apiKeyUid, whatever key exists', () => {
  assert.equal(reason(sign(H256, CLAIMS, { secret: keyValue('11111111-1111-1111-1111-111111111111') })), 'InvalidSignature');
  assert.equal(reason(sign(H256, CLAIMS, { secret: MASTER })), 'InvalidSignature');
  const other = '11111111-1111-1111-1111-111111111111';
  const d = decodeTenantToken(sign(H256, { ...CLAIMS, apiKeyUid: other }, { secret: keyValue(other) }), keyValue);
  assert.equal(d.kind, 'valid');
  // a modified payload with the original signature
  const good = sign(H256, { searchRules: ['movies'], apiKeyUid: UID });
  const alt = sign(H256, CLAIMS);
  const [h, , s] = good.split('.');
  assert.equal(reason(`${h}.${alt.split('.')[1]}.${s}`), 'InvalidSignature');
});

test('uid forms accepted by the uuid crate are canonicalised before deriving the key', () => {
  for (const form of [UID.toUpperCase(), UID.replace(/-/g, ''), `{${UID}}`, `urn:uuid:${UID}`]) {
    const d = decodeTenantToken(sign(H256, { searchRules: ['*'], apiKeyUid: form }), keyValue);
    assert.equal(d.kind, 'valid', form);
    if (d.kind === 'valid') assert.equal(d.claims.keyUid, UID);
  }
});

test('not a JWT: fewer than two dots', () => {
  for (const token of ['', 'abc', KEY, 'a.b', `${enc(H256)}.${enc(CLAIMS)}`]) {
    assert.deepEqual(decodeTenantToken(token, keyValue), { kind: 'not-jwt' }, token);
  }
});

test('algorithms other than HMAC fail before the claims are read', () => {
  for (const alg of ['RS256', 'ES256', 'ES512', 'PS384', 'EdDSA']) assert.equal(reason(sign({ alg }, 'garbage')), 'InvalidKeyFormat', alg);
  assert.equal(
    reason(sign({ alg: 'none' }, CLAIMS)),
    'JSON error: unknown variant `none`, expected one of `HS256`, `HS384`, `HS512`, `ES256`, `ES384`, `ES512`, `RS256`, ' +
      '`RS384`, `RS512`, `PS256`, `PS384`, `PS512`, `EdDSA` at line 1 column 13',
  );
  assert.equal(reason(sign({ typ: 'JWT' }, CLAIMS)), 'JSON error: missing field `alg` at line 1 column 13');
  assert.equal(reason(sign({ alg: 5 }, CLAIMS)), 'JSON error: expected value at line 1 column 8');
  assert.equal(reason(sign({ alg: 'HS256', typ: 5 }, CLAIMS)), 'JSON error: invalid type: integer `5`, expected a string at line 1 column 22');
  assert.equal(decodeTenantToken(sign({ alg: 'HS256', alg2: [1, { a: null }] }, CLAIMS), keyValue).kind, 'valid');
  assert.equal(reason(sign({ alg: 'HS256', x5c: 'a' }, CLAIMS)), 'JSON error: invalid type: string "a", expected a sequence at line 1 column 24');
  assert.equal(decodeTenantToken(sign({ alg: { HS256: null } }, CLAIMS), keyValue).kind, 'valid');
  assert.equal(decodeTenantToken(sign({ alg: 'HS256', kid: 'k1', jwk: { kty: 'oct' }, x5c: ['a'] }, CLAIMS), keyValue).kind, 'valid');
});

test('base64url errors of each part', () => {
  const claims = enc(CLAIMS);
  assert.equal(reason(`!!!.${claims}.x`), 'Base64 error: Invalid symbol 33, offset 0.');
  assert.equal(reason(`${enc(H256)}.${claims}+.x`), `Base64 error: Invalid symbol 43, offset ${claims.length}.`);
  // standard base64 with padding in the header
  const padded = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JW' })).toString('base64');
  assert.ok(padded.endsWith('='));
  assert.equal(reason(`${padded}.${claims}.x`), 'Base64 error: Invalid padding');
  // a signature that is not base64url: only after the claims were read
  assert.equal(reason(`${enc(H256)}.${claims}.a/b`), 'Base64 error: Invalid symbol 47, offset 1.');
  assert.equal(reason(`${enc(H256)}.${claims}.`), 'InvalidSignature');
  assert.equal(reason(`${enc(H256)}.${enc({ nope: 1 })}.!`), 'JSON error: missing field `searchRules` at line 1 column 10');
});

test('base64url decoding as the base64 crate does', () => {
  const err = (text: string) => {
    const d = decodeBase64Url(Buffer.from(text, 'latin1'));
    return d.ok ? `ok:${d.bytes.toString('latin1')}` : d.reason;
  };
  assert.equal(err(''), 'ok:');
  assert.equal(err('Zm9v'), 'ok:foo');
  assert.equal(err('Zm9vYg'), 'ok:foob');
  assert.equal(err('Zm9vYmE'), 'ok:fooba');
  assert.equal(err('A'), 'Invalid input length: 1');
  assert.equal(err('Zm9vY'), 'Invalid input length: 5');
  assert.equal(err('Zm9v\n'), 'Invalid symbol 10, offset 4.');
  assert.equal(err('Zg=='), 'Invalid padding');
  assert.equal(err('Zm8='), 'Invalid padding');
  assert.equal(err('Z==='), 'Invalid symbol 61, offset 1.');
  assert.equal(err('Zm9v=Zm9'), 'Invalid symbol 61, offset 4.');
  assert.equal(err('Zg=a'), 'Invalid symbol 61, offset 2.');
  assert.equal(err('Zh'), 'Invalid last symbol 104, offset 1.');
  assert.equal(err('Zm8'), 'ok:fo');
  assert.equal(err('Zm9'), 'Invalid last symbol 57, offset 2.');
  assert.equal(err('Zm+v'), 'Invalid symbol 43, offset 2.');
  assert.equal(err('Zm/v'), 'Invalid symbol 47, offset 2.');
  assert.equal(err('-_-_'), `ok:${Buffer.from([0xfb, 0xff, 0xbf]).toString('latin1')}`);
});

test("JSON errors of the claims, positioned as serde_json does (Meilisearch's own cases)", () => {
  // from crates/meilisearch/tests/auth/errors.rs
  assert.equal(reason(sign(H256, { tamo: 'kefir' })), 'JSON error: missing field `searchRules` at line 1 column 16');
  assert.equal(
    reason(sign(H256, { searchRules: 'kefir' })),
    'JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 23',
  );
  // the untagged error is placed after the value when more keys follow
  assert.equal(
    reason(sign(H256, { searchRules: 'kefir', apiKeyUid: UID })),
    'JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 22',
  );
  assert.equal(reason(sign(H256, { searchRules: ['*'] })), 'JSON error: missing field `apiKeyUid` at line 1 column 21');
  assert.equal(reason(sign(H256, '')), 'JSON error: EOF while parsing a value at line 1 column 0');
  assert.equal(reason(sign(H256, '{')), 'JSON error: EOF while parsing an object at line 1 column 1');
  assert.equal(reason(sign(H256, '{"a":1,}')), 'JSON error: trailing comma at line 1 column 8');
  assert.equal(reason(sign(H256, '{"a" 1}')), 'JSON error: expected `:` at line 1 column 6');
  assert.equal(reason(sign(H256, '{"a":1 "b":2}')), 'JSON error: expected `,` or `}` at line 1 column 8');
  assert.equal(reason(sign(H256, '{a:1}')), 'JSON error: key must be a string at line 1 column 2');
  assert.equal(reason(sign(H256, '{"a":tru}')), 'JSON error: expected ident at line 1 column 9');
  assert.equal(reason(sign(H256, '{"a":[1,]}')), 'JSON error: expected value at line 1 column 9');
  assert.equal(reason(sign(H256, '{"a":01}')), 'JSON error: invalid number at line 1 column 7');
  assert.equal(reason(sign(H256, '{"a":"\\q"}')), 'JSON error: invalid escape at line 1 column 8');
  assert.equal(reason(sign(H256, '{"searchRules":["\\ud800"]}')), 'JSON error: unexpected end of hex escape at line 1 column 24');
  assert.equal(reason(sign(H256, '{"searchRules":["a\u0001"]}')), 'JSON error: control character (\\u0000-\\u001F) found while parsing a string at line 1 column 19');
  assert.equal(reason(sign(H256, '{\n"tamo": 1\n}')), 'JSON error: missing field `searchRules` at line 3 column 1');
  assert.equal(reason(sign(H256, `${JSON.stringify(CLAIMS)} x`)), `JSON error: trailing characters at line 1 column ${JSON.stringify(CLAIMS).length + 2}`);
  assert.equal(reason(sign(H256, '[1]')), 'JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 3');
  assert.equal(reason(sign(H256, '"x"')), 'JSON error: invalid type: string "x", expected struct Claims at line 1 column 3');
  assert.equal(reason(sign(H256, `${'['.repeat(200)}`)).endsWith('recursion limit exceeded at line 1 column 128'), true);
  // invalid UTF-8 inside a string
  const badUtf8 = `${enc(H256)}.${Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('base64url')}`;
  assert.equal(reason(`${badUtf8}.x`), 'JSON error: invalid unicode code point at line 1 column 4');
});

test('claim types', () => {
  const withClaims = (claims: Record<string, unknown>) => reason(sign(H256, claims));
  assert.equal(withClaims({ searchRules: ['*'], apiKeyUid: 'foo' }), 'JSON error: UUID parsing failed: invalid character: found `o` at 1 at line 1 column 38');
  assert.equal(withClaims({ searchRules: ['*'], apiKeyUid: 5 }), 'JSON error: invalid type: integer `5`, expected a UUID string at line 1 column 34');
  assert.equal(withClaims({ apiKeyUid: [] , searchRules: ['*'] }), 'JSON error: invalid type: sequence, expected a UUID string at line 1 column 13');
  assert.equal(withClaims({ exp: 1.5, ...CLAIMS }), 'JSON error: invalid type: floating point `1.5`, expected i64 at line 1 column 10');
  assert.equal(withClaims({ exp: 1e20, ...CLAIMS }), 'JSON error: invalid type: floating point `1e20`, expected i64 at line 1 column 28');
  assert.equal(reason(sign(H256, '{"exp":18446744073709551615}')), 'JSON error: invalid value: integer `18446744073709551615`, expected i64 at line 1 column 27');
  assert.equal(withClaims({ exp: '1', ...CLAIMS }), 'JSON error: invalid type: string "1", expected i64 at line 1 column 10');
  assert.equal(withClaims({ exp: true, ...CLAIMS }), 'JSON error: invalid type: boolean `true`, expected i64 at line 1 column 11');
  assert.equal(reason(sign(H256, '{"exp":1,"exp":2}')), 'JSON error: duplicate field `exp` at line 1 column 14');
  assert.equal(reason(sign(H256, '{"exp":-0}')), 'JSON error: invalid type: floating point `-0.0`, expected i64 at line 1 column 9');
  const ok = (claims: Record<string, unknown>) => decodeTenantToken(sign(H256, claims), keyValue);
  const neg = ok({ ...CLAIMS, exp: -5 });
  assert.equal(neg.kind === 'valid' && neg.claims.exp, -5n);
  const none = ok({ ...CLAIMS, exp: null });
  assert.equal(none.kind === 'valid' && none.claims.exp, null);
  const big = decodeTenantToken(sign(H256, '{"searchRules":["*"],"apiKeyUid":"' + UID + '","exp":9223372036854775807}'), keyValue);
  assert.equal(big.kind === 'valid' && big.claims.exp, 9_223_372_036_854_775_807n);
  // unknown and registered claims are not validated, except `aud`
  assert.equal(ok({ ...CLAIMS, iat: 'x', nbf: -1, iss: 5, sub: 'me', tamo: { a: [1] } }).kind, 'valid');
  assert.equal(withClaims({ ...CLAIMS, aud: 'x' }), 'InvalidAudience');
  assert.equal(withClaims({ ...CLAIMS, aud: [] }), 'InvalidAudience');
  assert.equal(ok({ ...CLAIMS, aud: 5 }).kind, 'valid');
  assert.equal(ok({ ...CLAIMS, aud: null }).kind, 'valid');
  // a `sub` or `nbf` jsonwebtoken cannot read leaves its reader inside the value
  assert.equal(withClaims({ ...CLAIMS, sub: { a: 1 } }), 'JSON error: expected `,` or `}` at line 1 column 79');
  assert.equal(withClaims({ ...CLAIMS, nbf: [1] }), 'JSON error: expected `,` or `}` at line 1 column 80');
  assert.equal(ok({ ...CLAIMS, nbf: [] }).kind, 'valid');
  assert.equal(ok({ ...CLAIMS, sub: 5 }).kind, 'valid');
  assert.equal(reason(sign(H256, `{"searchRules":["*"],"apiKeyUid":"${UID}","aud":1,"aud":2}`)), 'JSON error: duplicate field `aud` at line 1 column 85');
});

test('claims as a sequence (serde struct-from-sequence)', () => {
  // Claims reads [rules, exp, uid], but jsonwebtoken's own claims struct then fails on it
  assert.equal(reason(sign(H256, `[["*"],null,"${UID}"]`)), 'JSON error: expected `,` or `]` at line 1 column 3');
  assert.equal(reason(sign(H256, `[[],null,"${UID}"]`)), 'JSON error: invalid length 3, expected struct ClaimsForValidation with 5 elements at line 1 column 48');
  assert.equal(reason(sign(H256, '[["*"]]')), 'JSON error: invalid length 1, expected struct Claims with 3 elements at line 1 column 7');
});
