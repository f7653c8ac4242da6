import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { applyPatch } from './apply.ts';
import { checkSettingsAgainstIndex } from './check.ts';
import { parseSettingsPatch } from './parse.ts';
import { defaultSettings, type Settings } from './types.ts';

const features = { chatCompletions: true, compositeEmbedders: true, multimodal: true };

function failsInTask(current: Settings, body: unknown, code: string, message: string): void {
  const patch = parseSettingsPatch(body, { features });
  assert.throws(() => checkSettingsAgainstIndex(current, patch, { indexUid: 'movies' }), (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.message, `Index \`movies\`: ${message}`);
    return true;
  });
}

test('minWordSizeForTypos: a partial update is checked against the stored value, in the task', () => {
  const stored = applyPatch(defaultSettings(), { typoTolerance: { minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 } } });
  failsInTask(stored, { typoTolerance: { minWordSizeForTypos: { oneTypo: 10 } } }, 'invalid_settings_typo_tolerance',
    '`minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 10` and twoTypos: 9`.');
  // a reset takes the default, which is then compared with the stored other value
  const low = applyPatch(defaultSettings(), { typoTolerance: { minWordSizeForTypos: { oneTypo: 1, twoTypos: 3 } } });
  failsInTask(low, { typoTolerance: { minWordSizeForTypos: { oneTypo: null } } }, 'invalid_settings_typo_tolerance',
    '`minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 5` and twoTypos: 3`.');
  assert.doesNotThrow(() => checkSettingsAgainstIndex(stored, parseSettingsPatch({ typoTolerance: { minWordSizeForTypos: { oneTypo: 9 } } })));
});

function refusedAtOnce(body: unknown, code: string, message: string): void {
  assert.throws(() => parseSettingsPatch(body, { features }), (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.message, message);
    return true;
  });
}

test('embedders: mandatory fields and binary quantization are checked on the merged configuration', () => {
  const E = 'invalid_settings_embedders';
  // a patch that names its source is refused at once without that source's mandatory fields
  // (Meilisearch 1.50 answers 400; a nested embedder's is reported at the composite's path)
  refusedAtOnce({ embedders: { rest: { source: 'rest', url: 'http://x' } } }, E,
    '`.embedders.rest`: Missing field `request` (note: this field is mandatory for source `rest`)');
  refusedAtOnce({ embedders: { o: { source: 'ollama' } } }, E,
    '`.embedders.o`: Missing field `model` (note: this field is mandatory for source `ollama`)');
  refusedAtOnce({ embedders: { m: { source: 'userProvided' } } }, E,
    '`.embedders.m`: Missing field `dimensions` (note: this field is mandatory for source `userProvided`)');
  refusedAtOnce({ embedders: { c: { source: 'composite', searchEmbedder: { source: 'ollama' }, indexingEmbedder: { source: 'huggingFace' } } } }, E,
    '`.embedders.c`: Missing field `model` (note: this field is mandatory for source `ollama`)');
  const stored = applyPatch(defaultSettings(), { embedders: { m: { source: 'userProvided', dimensions: 2, binaryQuantized: true }, o: {} } });
  failsInTask(stored, { embedders: { m: { binaryQuantized: false } } }, E,
    '`.embedders.m.binaryQuantized`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.');
  // a field the stored source cannot have, sent without `source`
  failsInTask(stored, { embedders: { m: { documentTemplate: 'x' } } }, E, [
    '`.embedders.m`: Field `documentTemplate` unavailable for source `userProvided`.',
    '  - note: `documentTemplate` is available for sources: `openAi`, `huggingFace`, `ollama`, `rest`',
    '  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`',
  ].join('\n'));
  const many: Record<string, unknown> = {};
  for (let i = 0; i < 257; i++) many[`e${i}`] = { source: 'userProvided', dimensions: 1 };
  failsInTask(defaultSettings(), { embedders: many }, E, 'Too many embedders in the configuration. Found 257, but limited to 256.');
  assert.doesNotThrow(() => checkSettingsAgainstIndex(stored, parseSettingsPatch({ embedders: { m: { dimensions: 3 }, o: null } })));
});

test('chat: zero documentTemplateMaxBytes fails the task; no prefix without an index uid', () => {
  failsInTask(defaultSettings(), { chat: { documentTemplateMaxBytes: 0 } }, 'invalid_settings_index_chat',
    '`.chat.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero');
  assert.throws(() => checkSettingsAgainstIndex(defaultSettings(), parseSettingsPatch({ chat: { documentTemplateMaxBytes: 0 } }, { features })),
    { message: '`.chat.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero' });
});
