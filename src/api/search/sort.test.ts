// The `sort` parameter (search.md §6, milli asc_desc.rs). Properties checked:
// 1. `field:asc|desc` split on the last `:`; other suffixes are syntax errors
// 2. `_geoPoint(lat, lng)` with Rust float syntax; malformed points, reserved names, bad coordinates
// 3. index checks: the `sort` ranking rule must exist, fields must be sortable (nested children
//    of a sortable field too), `_geoPoint` needs `_geo` sortable; hidden sortable names masked
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../errors/index.ts';
import { defaultSettings } from '../settings/index.ts';
import { checkSort, parseSort } from './sort.ts';

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 'invalid_search_sort');
    return err.message;
  }
  assert.fail('no error');
};

test('syntax', () => {
  assert.deepEqual(parseSort(['a:b:desc', 'price:asc']), [
    { kind: 'field', field: 'a:b', asc: false },
    { kind: 'field', field: 'price', asc: true },
  ]);
  assert.deepEqual(parseSort(['_geoPoint(42., 59.895):desc']), [{ kind: 'geo', lat: 42, lng: 59.895, asc: false }]);
  assert.deepEqual(parseSort(['truc(12, 13):desc']), [{ kind: 'field', field: 'truc(12, 13)', asc: false }]);
  assert.equal(message(() => parseSort(['truc:deesc'])), 'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `truc:deesc`.');
  assert.equal(
    message(() => parseSort(['_geoPoint(42,12 , 59,598):desc'])),
    'Invalid syntax for the geo parameter: expected expression formated like `_geoPoint(latitude, longitude)` and ending by `:asc` or `:desc`, found `_geoPoint(42,12 , 59,598)`.',
  );
  assert.equal(message(() => parseSort(['_geoPoint(200, 200):asc'])), 'Bad latitude `200`. Latitude must be contained between -90 and 90 degrees.');
  assert.equal(
    message(() => parseSort(['_geoPoint(12, -2021):desc'])),
    'Bad longitude `-2021`. Longitude must be contained between -180 and 180 degrees. Hint: try using `139` instead.',
  );
  assert.equal(
    message(() => parseSort(['_geo:asc'])),
    "`_geo` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
  );
  assert.equal(message(() => parseSort(['_geoDistance:asc'])), "`_geoDistance` is a reserved keyword and thus can't be used as a sort expression.");
});

test('index checks', () => {
  const s = { ...defaultSettings(), sortableAttributes: ['doggos', 'price'] };
  assert.doesNotThrow(() => checkSort(parseSort(['doggos.age:asc', 'price:desc']), s, 'movies'));
  assert.equal(
    message(() => checkSort(parseSort(['title:asc']), s, 'movies')),
    'Index `movies`: Attribute `title` is not sortable. Available sortable attributes are: `doggos, price`.',
  );
  assert.equal(
    message(() => checkSort(parseSort(['_geoPoint(1, 2):asc']), s, 'movies')),
    'Index `movies`: Attribute `_geo` is not sortable. Available sortable attributes are: `doggos, price`.',
  );
  assert.equal(
    message(() => checkSort(parseSort(['title:asc']), { ...s, sortableAttributes: [] }, 'movies')),
    'Index `movies`: Attribute `title` is not sortable. This index does not have configured sortable attributes.',
  );
  assert.equal(
    message(() => checkSort(parseSort(['title:asc']), { ...s, displayedAttributes: ['price'] }, 'movies')),
    'Index `movies`: Attribute `title` is not sortable. Available sortable attributes are: `price, <..hidden-attributes>`.',
  );
  assert.equal(
    message(() => checkSort(parseSort(['price:asc']), { ...s, rankingRules: ['words'] }, 'movies')),
    'Index `movies`: You must specify where `sort` is listed in the rankingRules setting to use the sort parameter at search time.',
  );
  assert.doesNotThrow(() => checkSort([], { ...s, rankingRules: ['words'] }, 'movies'));
});
