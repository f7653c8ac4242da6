// The default separator lists (charabia separators.rs), checked on sample members.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SEPARATORS, HARD_SEPARATORS } from './separators.ts';

const defaults = new Set(DEFAULT_SEPARATORS);

test('default separators: punctuation, spaces, maths, three strings', () => {
  assert.equal(defaults.size, 1059);
  const members = [
    '. ', ', ', '\u17d4\u179b\u17d4', ' ', '\t', '\n', '\r', '\u0000', '`', '-', '_', "'", '"', '.', ',', ':',
    ';', '!', '?', '/', '\\', '@', '#', '%', '&', '*', '+', '(', ')', '[', ']', '{', '}', '«', '»', '‘', '’',
    '“', '”', '·', '•', '†', '…', '‥', '¡', '¿', '§', '¶', '±', '×', '÷', '−', '∓', '≠', '≤', '⋿', '、', '。',
    '！', '，', '．', '：', '；', '？', '｡', '､', '\u3000', '\u2002', '\u2029', '\u037e', '\u0387', '\u2329',
    '𐄀', '𞥟',
  ];
  for (const m of members) assert.ok(defaults.has(m), JSON.stringify(m));
  const nonMembers = [
    '$', '^', '|', '~', '<', '=', '>', '€', '°', '´', '\u00a0', '\u2007', '\u202f', '\u2011', '\u0f0c',
    '\u066b', '\u2028', '∀', '\u061d', '\u2e53', 'a', '1',
  ];
  for (const m of nonMembers) assert.ok(!defaults.has(m), JSON.stringify(m));
});

test('hard separators', () => {
  const hard = ['. ', ', ', '!', '?', ';', '¡', '¿', '§', '¶', '\u037e', '\u0000', '…', '‼', '※', '、', '。', '！',
    '，', '．', '：', '；', '？', '｡', '､', '،', '؟', '।', '।', '។', '´'];
  for (const h of hard) assert.ok(HARD_SEPARATORS.has(h), JSON.stringify(h));
  const soft = ['.', ',', ':', '-', ' ', '\n', "'", '"', '(', '/', '·', '•', '«'];
  for (const s of soft) assert.ok(!HARD_SEPARATORS.has(s), JSON.stringify(s));
});
