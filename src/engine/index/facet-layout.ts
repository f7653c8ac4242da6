// The facet and geo tables of an index (docs/decisions/0004), declared once. Readers go through
// engine/facet (reader.ts); writes through its writer. Values are binary unless said otherwise;
// bitmaps are portable roaring bitmaps of internal ids.
import { table, type Env, type Table } from '../store/index.ts';

/** Field ids are the ranks of `fieldsOrder`; levels are 0 (one value per key) and ≥ 1 (groups). */
export const FACET_STRINGS = table<[number, number, string], Uint8Array>(
  'facet-strings',
  'ordered',
  'binary',
  'maps (field id, level, normalized string) to documents: at level 0 one value with the original spelling of its smallest document, above a group of consecutive keys (left bound, size, right bound)',
);
export const FACET_NUMBERS = table<[number, number, number], Uint8Array>(
  'facet-numbers',
  'ordered',
  'binary',
  'maps (field id, level, f64) to documents: at level 0 one value, above a group of consecutive keys (left bound, size, right bound)',
);
export const FACET_FIELD_DOCIDS = table<[number, number], Uint8Array>(
  'facet-field-docids',
  'ordered',
  'binary',
  'maps (field id, 0 exists | 1 null | 2 empty) to the documents in that state',
);
export const FACET_DOC_VALUES = table<number, Uint8Array>(
  'facet-doc-values',
  'uint32',
  'binary',
  'maps an internal id to the facet values of the document, per field id (sorted numbers, sorted normalized strings with their originals)',
);
export const GEO_POINTS = table<number, Uint8Array>('geo-points', 'uint32', 'binary', 'maps an internal id to its `_geo` point (lat, lng as two f64)');
export const GEO_CELLS = table<[number, number], Uint8Array>(
  'geo-cells',
  'ordered',
  'binary',
  'maps (grid level, Morton code of a cell) to the documents whose point lies in it; at the finest level, to the points themselves (id, lat, lng)',
);
export const GEOJSON_SHAPES = table<number, Uint8Array>(
  'geojson-shapes',
  'uint32',
  'binary',
  'maps an internal id to its `_geojson` shape: points, lines and exterior rings, densified along great circles (facet/geojson.ts)',
);
export const GEOJSON_CELLS = table<[number, number], Uint8Array>(
  'geojson-cells',
  'ordered',
  'binary',
  'maps (grid level, Morton code of a cell) to the documents whose shape parts are filed there, each with the box of those parts (facet/geojson-grid.ts)',
);
export const FACET_META = table<string, unknown>('facet-meta', 'string', 'msgpack', 'maps a bookkeeping key (configuration indexed, level sizes per field) to its value');

/** Exists / null / empty sets of a field, as the second key part of FACET_FIELD_DOCIDS. */
export const FIELD_EXISTS = 0;
export const FIELD_NULL = 1;
export const FIELD_EMPTY = 2;

/** The facet tables of an index. */
export interface FacetTables {
  strings: Table<[number, number, string], Uint8Array>;
  numbers: Table<[number, number, number], Uint8Array>;
  fieldDocids: Table<[number, number], Uint8Array>;
  docValues: Table<number, Uint8Array>;
  geoPoints: Table<number, Uint8Array>;
  geoCells: Table<[number, number], Uint8Array>;
  geojsonShapes: Table<number, Uint8Array>;
  geojsonCells: Table<[number, number], Uint8Array>;
  meta: Table<string, unknown>;
}

export function openFacetTables(env: Env): FacetTables {
  return {
    strings: env.table(FACET_STRINGS),
    numbers: env.table(FACET_NUMBERS),
    fieldDocids: env.table(FACET_FIELD_DOCIDS),
    docValues: env.table(FACET_DOC_VALUES),
    geoPoints: env.table(GEO_POINTS),
    geoCells: env.table(GEO_CELLS),
    geojsonShapes: env.table(GEOJSON_SHAPES),
    geojsonCells: env.table(GEOJSON_CELLS),
    meta: env.table(FACET_META),
  };
}
