import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFacetedBy, matchDistinctField, matchFieldLegacy, matchPattern, matchPatterns, type PatternMatch } from './patterns.ts';

test('legacy matching: exact or nested below; ancestors are parents', () => {
  const cases: [string, string, PatternMatch][] = [
    ['doggo', 'doggo', 'match'],
    ['doggo', 'doggo.name', 'match'],
    ['doggo', 'doggo.name.first', 'match'],
    ['doggo', 'doggos', 'noMatch'],
    ['doggo', 'dog', 'noMatch'],
    ['doggo.name', 'doggo', 'parent'],
    ['doggo.name', 'doggo.name', 'match'],
    ['doggo.name', 'doggo.age', 'noMatch'],
    ['a.b.c', 'a', 'parent'],
    ['a.b.c', 'a.b', 'parent'],
  ];
  for (const [rule, field, expected] of cases) assert.equal(matchFieldLegacy(rule, field), expected, `${rule} vs ${field}`);
  assert.equal(isFacetedBy('a.b', 'a'), true);
  assert.equal(isFacetedBy('ab', 'a'), false);
});

test('pattern matching: *, *infix*, *suffix, prefix*, exact; inner stars literal', () => {
  const cases: [string, string, PatternMatch][] = [
    ['*', 'anything.at.all', 'match'],
    ['**', 'x', 'match'],
    ['*test*', 'atesta', 'match'],
    ['*test*', 'test', 'match'],
    ['*test', 'atest', 'match'],
    ['*test', 'testa', 'noMatch'],
    ['test*', 'testa', 'match'],
    ['test*', 'atest', 'noMatch'],
    ['release_*', 'release_date', 'match'],
    ['genre', 'genre', 'match'],
    ['genre', 'genre.x', 'noMatch'],
    ['genre.x', 'genre', 'parent'],
    ['test*test', 'test', 'noMatch'],
    ['a*c', 'abc', 'noMatch'],
    ['a*c', 'a*c', 'match'],
  ];
  for (const [pattern, field, expected] of cases) assert.equal(matchPattern(pattern, field), expected, `${pattern} vs ${field}`);
  assert.equal(matchPatterns(['x.y', 'title'], 'x'), 'parent');
  assert.equal(matchPatterns(['x.y', '*_ja'], 'title_ja'), 'match');
  assert.equal(matchPatterns([], 'a'), 'noMatch');
});

test('distinct attribute: exact only', () => {
  assert.equal(matchDistinctField('a.b', 'a.b'), 'match');
  assert.equal(matchDistinctField('a.b', 'a'), 'parent');
  assert.equal(matchDistinctField('a', 'a.b'), 'noMatch');
  assert.equal(matchDistinctField(null, 'a'), 'noMatch');
});
