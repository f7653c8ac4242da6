import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestTemplate, ResponseTemplate, RestTemplateError } from './rest-template.ts';

const requestError = (t: unknown) => {
  try {
    new RequestTemplate(t);
  } catch (err) {
    assert.ok(err instanceof RestTemplateError);
    return err.message;
  }
  return null;
};

test('request templates: the errors Meilisearch 1.50 answers on the settings route', () => {
  assert.equal(requestError({ input: 'x' }), 'in `request`: "{{text}}" not found');
  assert.equal(requestError({ input: { repeat: '{{..}}', t: '{{text}}' } }), 'in `request.input.repeat`: "{{..}}" appears outside of an array');
  assert.equal(requestError({ input: ['{{..}}', '{{text}}'] }), 'in `request.input`: "{{..}}" expected at position #1, but found at position #0');
  assert.equal(requestError({ input: ['x', '{{..}}'], t: '{{text}}' }), 'in `request.input[0]`: Expected "{{text}}" inside of the repeated value');
  assert.equal(requestError({ input: '{{text}}', data: '{{text}}' }), 'in `request.data`: Found "{{text}}", but it was already present in `request.input`');
  assert.equal(requestError({ input: ['{{text}}', '{{..}}'], data: '{{..}}' }), 'in `request.data`: "{{..}}" appears outside of an array');
  assert.equal(requestError({ input: [['{{text}}', '{{..}}'], '{{..}}'] }), 'in `request.input`: "{{..}}" appears nested inside of a value that is itself repeated');
  assert.equal(requestError({ input: '{{text}}' }), null);
});

test('requests for a batch, and the embeddings of their answers', () => {
  const single = new RequestTemplate({ model: 'm', prompt: '{{text}}' });
  assert.equal(single.batchSize, 1);
  assert.deepEqual(single.render(['hello']), { model: 'm', prompt: 'hello' });
  const one = new ResponseTemplate({ embedding: '{{embedding}}' }, single);
  assert.deepEqual(one.extract({ embedding: [1, 2], other: 3 }), [[1, 2]]);
  assert.throws(() => one.extract({ embedding: 'x' }), RestTemplateError);

  const batched = new RequestTemplate({ input: [{ t: '{{text}}', kind: 'x' }, '{{..}}'], model: 'm' });
  assert.equal(batched.batchSize, 10);
  assert.deepEqual(batched.render(['a', 'b']), { input: [{ t: 'a', kind: 'x' }, { t: 'b', kind: 'x' }], model: 'm' });
  const many = new ResponseTemplate({ data: [{ embedding: '{{embedding}}' }, '{{..}}'] }, batched);
  assert.deepEqual(many.extract({ data: [{ embedding: [1] }, { embedding: [2] }] }), [[1], [2]]);
  assert.throws(() => new ResponseTemplate({ e: '{{embedding}}' }, batched), /`response` has a single embedding, but `request` has multiple texts to embed/);
  assert.throws(() => new ResponseTemplate({ e: ['{{embedding}}', '{{..}}'] }, single), /`response` has multiple embeddings, but `request` has only one text to embed/);
  assert.throws(() => new ResponseTemplate({ e: 'x' }, single), /in `response`: "\{\{embedding\}\}" not found/);
});
