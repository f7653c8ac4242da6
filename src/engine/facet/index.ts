// Facet and geo indexing of documents, and the reader of its tables (docs/decisions/0004).
export { facetReader, type Bound, type FacetReader } from './reader.ts';
export { normalizeFacetString, MAX_FACET_VALUE_BYTES } from './normalize.ts';
export { compileFacetConfig, defaultFacetConfig, facetSignature, type CompiledFacetConfig, type FacetConfig, type FacetRule } from './config.ts';
export { extractFacets, type FacetRecord, type FieldFacets } from './extract.ts';
export { FacetChunkBuilder, facetChunkBuffers, JobIds, type FacetChunk, type FacetSource, type SourcedFacetChunk } from './chunk.ts';
export { FacetIndexWriter, MAX_FACET_DELTA_BYTES, type FacetCheckpoint, type FacetWriterOptions } from './writer.ts';
export { haversineMeters } from './geo-grid.ts';
export { parseGeoField, geoPointOf, type GeoPoint } from './geo-field.ts';
export { parseGeoJsonField, geoJsonShapeOf, type Shape } from './geojson.ts';
export { queryRegion, regionMeetsShape, type ShapeQuery } from './geojson-reader.ts';
