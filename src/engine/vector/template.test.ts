import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentTemplate, TemplateError, parseTemplate, truncateBytes } from './template.ts';

const render = (template: string, doc: Record<string, unknown>, searchable?: (f: string) => boolean) => new DocumentTemplate(template).render(doc, searchable);

test('templates render as Meilisearch 1.50 renders them (answers of its render route)', () => {
  assert.equal(render('{{doc.id}}', { id: 3, t: 'x' }), '3');
  // arrays print their items, objects each key then its value, null nothing
  assert.equal(
    render('{{doc.a}}|{{doc.o}}|{{doc.n}}|{{doc.f}}|{{doc.b}}', { id: 1, a: [1, 'x', [2, 3]], o: { k: 'v', n: { m: 1 } }, n: null, f: 1.5, b: true }),
    '1x23|kvnm1||1.5|true',
  );
  assert.equal(render('{{ fields[0].name }}{{ doc }}', { id: 1 }), 'idid1');
  assert.equal(render('{{ doc.o.n.m }}', { o: { n: { m: 7 } } }), '7');
  assert.equal(render('{{ doc.title | upcase }} {{ doc.title | truncate: 3 }}', { title: 'hello' }), 'HELLO ...');
  assert.equal(render('{% if doc.n == nil %}nil{% endif %}', { n: null }), 'nil');
  // a condition on a missing field is false; printing one fails
  assert.equal(render('{% if doc.missing %}y{% else %}n{% endif %}', { id: 1 }), 'n');
  assert.throws(() => render('{{doc.missing}}', { id: 1 }), TemplateError);
  assert.throws(() => render('{{ x }}', { id: 1 }), TemplateError);
  assert.throws(() => parseTemplate('{{'), TemplateError);
});

test('the default template: one line per searchable, non-null top-level field; _vectors, _geo and _geojson hidden', () => {
  const doc = { id: 1, title: 'Hello', year: 2001, _vectors: { x: [1] }, _geo: { lat: 1, lng: 2 }, n: null, tags: ['a', 'b'], o: { k: 1 } };
  assert.equal(new DocumentTemplate().render(doc), 'id: 1\ntitle: Hello\nyear: 2001\ntags: ab\no: k1\n');
  assert.equal(new DocumentTemplate().render(doc, (f) => f === 'title'), 'title: Hello\n');
  assert.equal(render('{{ fields.size }} {% for f in fields %}[{{f.name}}={{f.value}}:{{f.is_searchable}}]{% endfor %}', { id: 1, title: 'Hello', n: null }), '3 [id=1:true][title=Hello:true][n=:true]');
});

test('documentTemplateMaxBytes cuts on a character boundary', () => {
  assert.equal(truncateBytes('héllo', 2), 'h');
  assert.equal(truncateBytes('héllo', 3), 'hé');
  assert.equal(truncateBytes('abc', 400), 'abc');
  assert.equal(new DocumentTemplate('{{doc.t}}', 5).render({ t: '日本語' }), '日');
});
