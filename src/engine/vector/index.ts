// The vector store of an index: embeddings per (embedder, document) and HNSW graphs in LMDB.
export { VectorReader, embedderSpecs, DEFAULT_LINEAR_SCAN } from './store.ts';
export { kernelKind } from './kernels.ts';
export type { EmbedderConfig, EmbedderSpec, LinearScan, Nearest, NearestQuery } from './store.ts';
export { StoredEmbeddings } from './embeddings.ts';
export { VectorIndexWriter } from './writer.ts';
export { parseVectorsEntry, vectorsObject, MAX_VECTORS_PER_DOCUMENT } from './parse.ts';
export type { VectorsEntry } from './parse.ts';
export type { Metric } from './distance.ts';
export { DEFAULT_HNSW } from './hnsw.ts';
export type { HnswParams } from './hnsw.ts';
