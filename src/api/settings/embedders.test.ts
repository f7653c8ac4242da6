import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { parseSettingsPatch } from './parse.ts';
import { embedderAction, embedderView, mergeEmbedder, mergeEmbedders } from './embedders.ts';
import { DEFAULT_DOCUMENT_TEMPLATE } from './types.ts';

function fails(fn: () => unknown, code: string, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.message, message);
    assert.equal(err.code, code);
    return true;
  });
}

const FIELDS = '`source`, `model`, `revision`, `pooling`, `apiKey`, `dimensions`, `binaryQuantized`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `indexingFragments`, `searchFragments`, `request`, `response`, `headers`, `searchEmbedder`, `indexingEmbedder`, `distribution`';

test('embedders: synchronous errors (vectors-embedders.md §2)', () => {
  const E = 'invalid_settings_embedders';
  const cases: [unknown, string, string][] = [
    [{ e: 'x' }, E, 'Invalid value type at `.embedders.e`: expected an object, but found a string: `"x"`'],
    [{ e: { sauce: 'rest' } }, E, `Unknown field \`sauce\` inside \`.embedders.e\`: expected one of ${FIELDS}`], // deserr allows one typo in 5 bytes: no suggestion (binary)
    [{ e: { xyz: 1 } }, E, `Unknown field \`xyz\` inside \`.embedders.e\`: expected one of ${FIELDS}`],
    [{ e: { source: 'openai' } }, E, 'Unknown value `openai` at `.embedders.e.source`: expected one of `openAi`, `huggingFace`, `ollama`, `userProvided`, `rest`, `composite`'],
    [{ e: { pooling: 'max' } }, E, 'Unknown value `max` at `.embedders.e.pooling`: expected one of `useModel`, `forceCls`, `forceMean`'],
    [{ e: { dimensions: -3 } }, E, 'Invalid value type at `.embedders.e.dimensions`: expected a positive integer, but found a negative integer: `-3`'],
    [{ e: { headers: { a: 1 } } }, E, 'Invalid value type at `.embedders.e.headers.a`: expected a string, but found a positive integer: `1`'],
    [{ manual: { source: 'userProvided', documentTemplate: 'x' } }, E, [
      '`.embedders.manual`: Field `documentTemplate` unavailable for source `userProvided`.',
      '  - note: `documentTemplate` is available for sources: `openAi`, `huggingFace`, `ollama`, `rest`',
      '  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`',
    ].join('\n')],
    [{ o: { source: 'openAi', revision: null } }, E, [
      '`.embedders.o`: Field `revision` unavailable for source `openAi`.',
      '  - note: `revision` is available for sources: `huggingFace`',
      '  - note: available fields for source `openAi`: `source`, `model`, `apiKey`, `dimensions`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `distribution`, `binaryQuantized`',
    ].join('\n')],
    [{ e: { source: 'userProvided', dimensions: 0 } }, E, '`.embedders.e.dimensions`: `dimensions` cannot be zero'],
    [{ e: { documentTemplateMaxBytes: 0 } }, E, '`.embedders.e.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero'],
    [{ rest: { source: 'rest', url: 'kefir' } }, E, '`.embedders.rest.url`: could not parse `kefir`: relative URL without a base'],
    [{ o: { source: 'openAi', documentTemplate: '{{' } }, E, '`.embedders.o.documentTemplate`: Invalid template: user error: cannot parse template: output "{{" not closed, line:1, col:1.'],
    [{ o: { source: 'openAi', model: 'gpt' } }, E,
      '`.embedders.o.model`: Invalid model `gpt` for OpenAI. Supported models: ["text-embedding-ada-002", "text-embedding-3-small", "text-embedding-3-large"]'],
    [{ o: { source: 'openAi', model: 'text-embedding-ada-002', dimensions: 512 } }, E,
      '`.embedders.o.dimensions`: Model `text-embedding-ada-002` does not support overriding its native dimensions of 1536. Found 512'],
    [{ o: { source: 'openAi', model: 'text-embedding-3-large', dimensions: 4000 } }, E,
      '`.embedders.o.dimensions`: Model `text-embedding-3-large` does not support overriding its dimensions to a value higher than 3072. Found 4000'],
    [{ e: { distribution: { mean: 2, sigma: 0.1 } } }, E, 'Invalid value at `.embedders.e.distribution`: the distribution mean must be in the range [0, 1], got 2'],
    [{ e: { distribution: { mean: 0.5, sigma: 0 } } }, E, 'Invalid value at `.embedders.e.distribution`: the distribution sigma must be in the range ]0, 1], got 0'],
    [{ e: { distribution: { mean: 0.5 } } }, E, 'Missing field `sigma` inside `.embedders.e.distribution`'],
    [{ c: { source: 'composite' } }, 'feature_not_enabled',
      'using `"composite"` as source requires enabling the `composite embedders` experimental feature. See https://github.com/orgs/meilisearch/discussions/816'],
    [{ c: { searchEmbedder: {} } }, 'feature_not_enabled',
      'setting `searchEmbedder` requires enabling the `composite embedders` experimental feature. See https://github.com/orgs/meilisearch/discussions/816'],
    [{ r: { source: 'rest', indexingFragments: null } }, 'feature_not_enabled',
      'setting `indexingFragments` requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846'],
  ];
  for (const [embedders, code, message] of cases) fails(() => parseSettingsPatch({ embedders }), code, message);

  const composite = { compositeEmbedders: true };
  fails(() => parseSettingsPatch({ embedders: { c: { source: 'composite', searchEmbedder: { model: 'x' }, indexingEmbedder: { source: 'huggingFace' } } } }, { features: composite }),
    E, '`.embedders.c.searchEmbedder`: Missing field `source`.\n  - note: this field is mandatory for nested embedders');
  // the composite's own mandatory fields come first (Meilisearch 1.50)
  fails(() => parseSettingsPatch({ embedders: { c: { source: 'composite', searchEmbedder: { source: 'userProvided' } } } }, { features: composite }),
    E, '`.embedders.c`: Missing field `indexingEmbedder` (note: this field is mandatory for source `composite`)');
  fails(() => parseSettingsPatch({ embedders: { c: { source: 'composite', searchEmbedder: { source: 'userProvided' }, indexingEmbedder: { source: 'huggingFace' } } } }, { features: composite }),
    E, '`.embedders.c.searchEmbedder.source`: Source `userProvided` is not available in a nested embedder');
  // a field its role leaves out, in Meilisearch's words
  fails(() => parseSettingsPatch({ embedders: { c: { source: 'composite', searchEmbedder: { source: 'ollama', model: 'm', documentTemplate: 'x' }, indexingEmbedder: { source: 'ollama', model: 'm' } } } }, { features: composite }),
    E, [
      '`.embedders.c.searchEmbedder`: Field `documentTemplate` unavailable for source `ollama` for the search embedder.',
      '  - note: available fields for source `ollama` for the search embedder: `source`, `model`, `apiKey`, `dimensions`, `url`',
      '  - note: `documentTemplate` is available when source `ollama` is not for the search embedder',
    ].join('\n'));
  fails(() => parseSettingsPatch({ embedders: { c: { source: 'composite', searchEmbedder: { source: 'ollama', model: 'm' }, indexingEmbedder: { source: 'openAi', pooling: 'useModel' } } } }, { features: composite }),
    E, [
      '`.embedders.c.indexingEmbedder`: Field `pooling` unavailable for source `openAi` for the indexing embedder.',
      '  - note: `pooling` is available for sources: `huggingFace`',
      '  - note: available fields for source `openAi` for the indexing embedder: `source`, `model`, `apiKey`, `dimensions`, `documentTemplate`, `documentTemplateMaxBytes`, `url`',
    ].join('\n'));
  // a nested object's keys are those of Meilisearch's list; without a source nothing more is checked
  // at once (the task then finds `searchEmbedder` unavailable for the default source, openAi)
  fails(() => parseSettingsPatch({ embedders: { c: { searchEmbedder: { sauce: null } } } }, { features: composite }),
    E, 'Unknown field `sauce` inside `.embedders.c.searchEmbedder`: expected one of `source`, `model`, `revision`, `pooling`, `apiKey`, `dimensions`, `documentTemplate`, `documentTemplateMaxBytes`, `url`, `indexingFragments`, `searchFragments`, `request`, `response`, `headers`, `distribution`, `binaryQuantized`, `searchEmbedder`, `indexingEmbedder`');
  assert.doesNotThrow(() => parseSettingsPatch({ embedders: { c: { searchEmbedder: { distribution: null } } } }, { features: composite }));
});

test('embedders: valid patches keep nulls and are sorted by name', () => {
  const patch = parseSettingsPatch({ embedders: { z: null, a: { source: 'rest', url: 'http://localhost:1/x', request: { input: '{{text}}' }, response: '{{embedding}}', apiKey: null } } });
  assert.deepEqual(Object.keys(patch.embedders!), ['a', 'z']);
  assert.equal(patch.embedders!.z, null);
  assert.equal(patch.embedders!.a!.apiKey, null);
});

test('mergeEmbedder: per-field merge, null resets, source change drops source fields', () => {
  const rest = { source: 'rest', url: 'http://a', request: '{{text}}', response: '{{embedding}}', apiKey: 'k', headers: { h: 'v' }, dimensions: 3 };
  assert.deepEqual(mergeEmbedder(rest, { apiKey: null, dimensions: 4 }),
    { source: 'rest', dimensions: 4, url: 'http://a', request: '{{text}}', response: '{{embedding}}', headers: { h: 'v' } });
  assert.deepEqual(mergeEmbedder(rest, { source: 'userProvided', dimensions: 2 }), { source: 'userProvided', dimensions: 2 });
  assert.deepEqual(mergeEmbedder(rest, { source: 'rest', url: 'http://b' }).url, 'http://b');
  assert.deepEqual(mergeEmbedder(undefined, { source: 'userProvided', dimensions: 3, distribution: null }), { source: 'userProvided', dimensions: 3 });
  const frag = mergeEmbedder({ source: 'rest', indexingFragments: { a: { value: 1 }, b: { value: 2 } } }, { indexingFragments: { a: null, c: { value: 3 } } });
  assert.deepEqual(frag.indexingFragments, { b: { value: 2 }, c: { value: 3 } });
  assert.deepEqual(mergeEmbedders({ a: { source: 'userProvided', dimensions: 1 }, b: { source: 'userProvided', dimensions: 2 } }, { a: null, c: { source: 'userProvided', dimensions: 3 } }),
    { b: { source: 'userProvided', dimensions: 2 }, c: { source: 'userProvided', dimensions: 3 } });
});

test('embedderView: defaults of each source (vectors-embedders.md §2.1), masked apiKey', () => {
  assert.deepEqual(embedderView({ source: 'userProvided', dimensions: 3 }), { source: 'userProvided', dimensions: 3 });
  assert.deepEqual(embedderView({ apiKey: 'short' }), {
    source: 'openAi', model: 'text-embedding-3-small', apiKey: 'XXX...',
    documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: 400,
  });
  assert.deepEqual(embedderView({ source: 'huggingFace' }), {
    source: 'huggingFace', model: 'BAAI/bge-base-en-v1.5', revision: '617ca489d9e86b49b8167676d8220688b99db36e',
    pooling: 'useModel', documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: 400,
  });
  assert.deepEqual(embedderView({ source: 'huggingFace', model: 'other/model' }), {
    source: 'huggingFace', model: 'other/model', pooling: 'useModel', documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: 400,
  });
  assert.deepEqual(embedderView({ source: 'ollama', model: 'nomic-embed-text', binaryQuantized: false }), {
    source: 'ollama', model: 'nomic-embed-text', binaryQuantized: false, documentTemplate: DEFAULT_DOCUMENT_TEMPLATE, documentTemplateMaxBytes: 400,
  });
  assert.deepEqual(embedderView({ response: 'r', request: 'q', url: 'http://x', source: 'rest', documentTemplate: '{{doc.name}}', dimensions: 3 }), {
    source: 'rest', dimensions: 3, documentTemplate: '{{doc.name}}', documentTemplateMaxBytes: 400, url: 'http://x', request: 'q', response: 'r', headers: {},
  });
  assert.equal(embedderView({ source: 'rest', apiKey: 'My super secret value you will never guess' }).apiKey, 'My suXXXXXX...');
  assert.equal(embedderView({ source: 'rest', apiKey: 'My super secret value you will never guess' }, true).apiKey, 'My super secret value you will never guess');
  const composite = embedderView({ source: 'composite', searchEmbedder: { source: 'huggingFace' }, indexingEmbedder: { source: 'rest', url: 'u', request: 1, response: 2 } });
  assert.equal((composite.searchEmbedder as Record<string, unknown>).documentTemplate, undefined);
  assert.equal((composite.indexingEmbedder as Record<string, unknown>).documentTemplate, DEFAULT_DOCUMENT_TEMPLATE);
});

test('embedderAction: what changes force (vectors-embedders.md §9)', () => {
  const rest = { source: 'rest', url: 'http://a', request: '{{text}}', response: '{{embedding}}' };
  const cases: [Record<string, unknown> | undefined, Record<string, unknown> | undefined, unknown][] = [
    [undefined, rest, { reindex: 'full', remove: false, quantize: false }],
    [rest, undefined, { reindex: null, remove: true, quantize: false }],
    [rest, { ...rest, url: 'http://b' }, { reindex: 'full', remove: false, quantize: false }],
    [rest, { ...rest, apiKey: 'k', headers: { a: 'b' }, dimensions: 4 }, null],
    [rest, { ...rest, documentTemplate: '{{doc.x}}' }, { reindex: 'prompts', remove: false, quantize: false }],
    [rest, { ...rest, documentTemplateMaxBytes: 800 }, { reindex: 'prompts', remove: false, quantize: false }],
    [rest, { ...rest, documentTemplateMaxBytes: 200 }, null],
    [rest, { ...rest, binaryQuantized: true }, { reindex: null, remove: false, quantize: true }],
    [{ source: 'openAi' }, { source: 'openAi', dimensions: 512 }, { reindex: 'full', remove: false, quantize: false }],
    [{ source: 'openAi' }, { source: 'openAi', url: 'http://proxy' }, null],
    [{ source: 'openAi' }, { source: 'openAi', model: 'text-embedding-3-small' }, null],
  ];
  for (const [before, after, expected] of cases) assert.deepEqual(embedderAction(before, after), expected);
});
