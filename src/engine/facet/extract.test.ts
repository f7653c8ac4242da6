// Facet data of a document (filters.md §3, settings.md §6.3/6.4/6.9, documents.md §2.7). Checks:
// 1. normalization: Rust's trim set, NFKD, lowercase, 468-byte cut on a character boundary, −0 → 0
// 2. which paths are faceted: legacy rules cover nested fields, pattern rules do not, the first
//    matching rule decides, distinct is exact, sortable and asc/desc fields are faceted
// 3. the walk: multi-valued arrays, arrays of objects, null/empty only on a base key, booleans,
//    whitespace-only strings, originals kept, `_vectors` and `_geo` skipped
// 4. `_geo`: every invalid_document_geo_field message in milli's order, numeric strings accepted,
//    lenient removal extraction
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileFacetConfig, defaultFacetConfig, type FacetConfig } from './config.ts';
import { extractFacets, type FacetRecord } from './extract.ts';
import { normalizeFacetString, truncateUtf8, facetNumber } from './normalize.ts';
import { EngineError } from '../errors.ts';

const extract = (config: Partial<FacetConfig>, doc: Record<string, unknown>, id = '1'): FacetRecord =>
  extractFacets(doc, compileFacetConfig(defaultFacetConfig(config)), id);

/** path → compact description of its values */
function summary(r: FacetRecord): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of r.fields) {
    const parts: string[] = [];
    if (f.numbers.length) parts.push(`n:${f.numbers.join(',')}`);
    if (f.strings.length) parts.push(`s:${f.strings.map((s, i) => (s === f.originals[i] ? s : `${s}(${f.originals[i]})`)).join(',')}`);
    if (f.isNull) parts.push('null');
    if (f.isEmpty) parts.push('empty');
    out[f.path] = parts.join(' ') || 'exists';
  }
  return out;
}

test('normalization', () => {
  assert.equal(normalizeFacetString('  Blue '), 'blue');
  assert.equal(normalizeFacetString('\u0085Ｂlue\u3000'), 'blue'); // NEL and ideographic space trimmed, fullwidth folded
  assert.equal(normalizeFacetString('\ufeffblue'), '\ufeffblue'); // BOM is not White_Space in Rust
  assert.equal(normalizeFacetString('Café'), 'cafe\u0301'); // NFKD keeps the combining accent
  assert.equal(normalizeFacetString('ΣΑΣ'), 'σας'); // final sigma
  assert.equal(normalizeFacetString('   '), '');
  const long = 'é'.repeat(300); // NFKD: e + U+0301, 3 bytes each: 900 bytes
  const n = normalizeFacetString(long);
  assert.ok(Buffer.byteLength(n) <= 468);
  assert.equal(Buffer.byteLength(n), 468);
  assert.equal(truncateUtf8('a😀b', 4), 'a');
  assert.equal(truncateUtf8('a😀b', 5), 'a😀');
  assert.equal(truncateUtf8('ab', 10), 'ab');
  assert.ok(Object.is(facetNumber(-0), 0));
});

test('legacy rules cover nested fields; pattern rules and distinct are exact; first rule decides', () => {
  const doc = { id: 1, doggo: { name: 'Bobby', age: 2 }, genre: 'Rock', genres: ['a'], price: 10, release_year: 2020 };
  assert.deepEqual(summary(extract({ filterable: [{ field: 'doggo' }] }, doc)), { doggo: 'exists', 'doggo.name': 's:bobby(Bobby)', 'doggo.age': 'n:2' });
  assert.deepEqual(summary(extract({ filterable: [{ patterns: ['doggo'], faceted: true }] }, doc)), { doggo: 'exists' });
  assert.deepEqual(summary(extract({ filterable: [{ patterns: ['doggo.age'], faceted: true }] }, doc)), { 'doggo.age': 'n:2' });
  assert.deepEqual(summary(extract({ filterable: [{ patterns: ['release_*', 'genre'], faceted: true }] }, doc)), { genre: 's:rock(Rock)', release_year: 'n:2020' });
  // a first rule without features hides the field from later rules
  assert.deepEqual(summary(extract({ filterable: [{ patterns: ['price'], faceted: false }, { field: 'price' }] }, doc)), {});
  assert.deepEqual(summary(extract({ filterable: [{ patterns: ['*'], faceted: true }] }, { a: { b: 1 } })), { a: 'exists', 'a.b': 'n:1' });
  // `*suffix` does not reach into objects it does not match (milli walks only matched or parent keys)
  assert.deepEqual(summary(extract({ filterable: [{ patterns: ['*_id'], faceted: true }] }, { a: { b_id: 1 }, c_id: 2 })), { c_id: 'n:2' });
  assert.deepEqual(summary(extract({ distinct: 'doggo.name' }, doc)), { 'doggo.name': 's:bobby(Bobby)' });
  assert.deepEqual(summary(extract({ distinct: 'doggo' }, doc)), { doggo: 'exists' });
  assert.deepEqual(summary(extract({ sortable: ['doggo'] }, doc)), { doggo: 'exists', 'doggo.name': 's:bobby(Bobby)', 'doggo.age': 'n:2' });
  assert.deepEqual(summary(extract({ ascDesc: ['price'] }, doc)), { price: 'n:10' });
  assert.deepEqual(extract({}, doc), { fields: [], geo: null });
});

test('walk: arrays, nested objects, null and empty on base keys only, booleans, originals', () => {
  const all = { filterable: [{ patterns: ['*'], faceted: true }] };
  assert.deepEqual(
    summary(extract(all, { tags: ['Blue', ' blue', 3, true, null, '', [4, 'x']], n: null, e: [], o: {}, s: '', w: '   ', b: false })),
    { tags: 'n:3,4 s:blue(Blue),true,x', n: 'null', e: 'empty', o: 'empty', s: 'empty', w: 's:(   )', b: 's:false' },
  );
  // keys of objects inside arrays are base keys (null/empty count); items of arrays are not
  assert.deepEqual(
    summary(extract(all, { doggos: [{ name: 'A', age: null }, { name: 'B', age: 4, toys: [] }, {}, []] })),
    { doggos: 'exists', 'doggos.name': 's:a(A),b(B)', 'doggos.age': 'n:4 null', 'doggos.toys': 'empty' },
  );
  assert.deepEqual(summary(extract(all, { a: { b: {} } })), { a: 'exists', 'a.b': 'empty' });
  assert.deepEqual(summary(extract(all, { 'a.b': 1, a: { b: 2 } })), { 'a.b': 'n:1,2', a: 'exists' });
  assert.deepEqual(summary(extract(all, { _vectors: { x: [1] }, _geo: { lat: 1, lng: 2 } })), {});
  // multi-valued: duplicates collapse, past the linear search as well
  const many = Array.from({ length: 40 }, (_, i) => i % 20);
  assert.deepEqual(extract(all, { m: many }).fields[0]!.numbers, Array.from({ length: 20 }, (_, i) => i));
});

test('_geo: validation messages and geo facets', () => {
  const geo = { filterable: [{ field: '_geo' }], geo: true };
  const err = (value: unknown, id = '11'): string => {
    try {
      extract(geo, { id, _geo: value }, id);
    } catch (e) {
      assert.ok(e instanceof EngineError);
      assert.equal(e.kind, 'invalid_document_geo_field');
      assert.equal(e.prefixed, true);
      return e.message;
    }
    assert.fail('no error');
  };
  const id = '`"11"`';
  assert.equal(err('foobar'), `The \`_geo\` field in the document with the id: ${id} is not an object. Was expecting an object with the \`_geo.lat\` and \`_geo.lng\` fields but instead got \`"foobar"\`.`);
  assert.equal(err([1, 2]), `The \`_geo\` field in the document with the id: ${id} is not an object. Was expecting an object with the \`_geo.lat\` and \`_geo.lng\` fields but instead got \`[1,2]\`.`);
  assert.equal(err({ lat: 1, lng: 2, doggo: 'are the best' }), `The \`_geo\` field in the document with the id: ${id} contains the following unexpected fields: \`{"doggo":"are the best"}\`.`);
  // serde_json's swap_remove order
  assert.equal(
    err({ lat: 1, lng: 2, doggo: 'are the best', and: { all: ['cats', { are: 'beautiful' }] } }),
    `The \`_geo\` field in the document with the id: ${id} contains the following unexpected fields: \`{"and":{"all":["cats",{"are":"beautiful"}]},"doggo":"are the best"}\`.`,
  );
  // extra fields are reported before bad values
  assert.match(err({ lat: 'x', lng: 2, z: 1 }), /unexpected fields: `\{"z":1\}`/);
  assert.equal(err({}), `Could not find latitude nor longitude in the document with the id: ${id}. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.`);
  assert.equal(err({ lng: 12 }), `Could not find latitude in the document with the id: ${id}. Was expecting a \`_geo.lat\` field.`);
  assert.equal(err({ lat: 12 }), `Could not find longitude in the document with the id: ${id}. Was expecting a \`_geo.lng\` field.`);
  assert.equal(err({ lat: true, lng: 12 }), `Could not parse latitude in the document with the id: ${id}. Was expecting a finite number but instead got \`true\`.`);
  assert.equal(err({ lat: 12, lng: 'lol' }), `Could not parse longitude in the document with the id: ${id}. Was expecting a finite number but instead got \`"lol"\`.`);
  assert.equal(err({ lat: null, lng: [1] }), `Could not parse latitude nor longitude in the document with the id: ${id}. Was expecting finite numbers but instead got \`null\` and \`[1]\`.`);
  assert.match(err({ lat: ' 1', lng: 2 }), /Could not parse latitude/); // no whitespace in Rust floats
  assert.match(err({ lat: 'inf', lng: 2 }), /Could not parse latitude/);
  assert.match(err({ lat: '0x10', lng: 2 }), /Could not parse latitude/);

  const ok = extract(geo, { _geo: { lat: '45.5', lng: -1e1 } });
  assert.deepEqual(ok.geo, [45.5, -10]);
  assert.deepEqual(summary(ok), {});
  assert.deepEqual(extract(geo, { _geo: null }), { fields: [], geo: null });
  assert.deepEqual(extract(geo, { _geo: { lat: '+.5e1', lng: '1.' } }).geo, [5, 1]);
  // geo off: `_geo` is not validated
  assert.deepEqual(extract({ sortable: ['x'] }, { _geo: 'foobar' }), { fields: [], geo: null });
  // removal of an old version: lenient
  assert.deepEqual(extractFacets({ _geo: 'foobar' }, compileFacetConfig(defaultFacetConfig(geo))), { fields: [], geo: null });
});
