import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalUuid, parseUuid } from './uuid.ts';
import { anyPatternMatches, formatPatternList, isValidIndexUidPattern, matchesIndexPattern } from './index-pattern.ts';

const CANON = '67e55044-10b1-426f-9247-bb680e5fe0c8';

test('accepted UUID forms normalise to lowercase hyphenated', () => {
  for (const form of [
    CANON,
    '67e5504410b1426f9247bb680e5fe0c8',
    'urn:uuid:67e55044-10b1-426f-9247-bb680e5fe0c8',
    '{67e55044-10b1-426f-9247-bb680e5fe0c8}',
    '67E55044-10B1-426F-9247-BB680E5FE0C8',
  ]) {
    assert.deepEqual(parseUuid(form), { ok: true, uuid: CANON }, form);
  }
  assert.equal(canonicalUuid('00000000-0000-0000-0000-000000000000'), '00000000-0000-0000-0000-000000000000');
  assert.equal(canonicalUuid('not a uuid'), null);
});

test('UUID error messages of the uuid crate', () => {
  const cases: [string, string][] = [
    ['foo', 'invalid character: found `o` at 1'],
    ['aaaaabbbbbccc', 'invalid length: found 13'],
    ['', 'invalid length: found 0'],
    ['a'.repeat(46), 'invalid length: found 46'],
    ['!', 'invalid character: found `!` at 0'],
    ['67e5504410b1426f9247bb680e5fe0c', 'invalid length: found 31'],
    ['67e550X410b1426f9247bb680e5fe0cd', 'invalid character: found `X` at 6'],
    ['F9168C5E-CEB2-4faa-B6BF-329BF39FA1E45', 'invalid group length in group 4: expected 12, found 13'],
    ['F9168C5E-CEB2-4faa-BBF-329BF39FA1E4', 'invalid group length in group 3: expected 4, found 3'],
    ['F9168C5E-CEB-24fa-eB6BFF32-BF39FA1E4', 'invalid group length in group 1: expected 4, found 3'],
    ['F9168C5E-CEB2F4faaFB6BFF329BF39FA1E4', 'invalid group count: expected 5, found 2'],
    ['F9168C5E-CEB2-4faa', 'invalid group count: expected 5, found 3'],
    ['F9168C5E-CEB2-4faa-BGBF-329BF39FA1E4', 'invalid character: found `G` at 20'],
    ['é', 'invalid character: found `é` at 0'],
  ];
  for (const [input, reason] of cases) assert.deepEqual(parseUuid(input), { ok: false, reason }, input);
});

test('index uid patterns', () => {
  for (const ok of ['*', 'movies', 'prod*', 'a-b_C9', 'x'.repeat(400), 'x'.repeat(400) + '*']) assert.ok(isValidIndexUidPattern(ok), ok);
  for (const bad of ['', '**', 'pr*d', '*prod', 'a b', 'é', 'x'.repeat(401), 'a.b']) assert.ok(!isValidIndexUidPattern(bad), bad);
  assert.ok(matchesIndexPattern('*', 'anything'));
  assert.ok(matchesIndexPattern('prod*', 'products'));
  assert.ok(matchesIndexPattern('prod*', 'prod'));
  assert.ok(!matchesIndexPattern('prod*', 'pro'));
  assert.ok(matchesIndexPattern('dog', 'dog'));
  assert.ok(!matchesIndexPattern('dog', 'dogs'));
  assert.ok(anyPatternMatches(['cat', 'do*'], 'doggo'));
  assert.ok(!anyPatternMatches([], 'doggo'));
  assert.equal(formatPatternList(['b', 'a', 'b*', 'a']), '["a", "b", "b*"]');
  assert.equal(formatPatternList([]), '[]');
});
