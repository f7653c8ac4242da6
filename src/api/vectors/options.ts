// Process-wide vector search options read from the environment, as Meilisearch reads them
// (cli.md, environment variables without a flag): the exact-scan thresholds of filtered vector
// search. Read once; a malformed value keeps the default.
import { DEFAULT_LINEAR_SCAN, type LinearScan } from '../../engine/vector/index.ts';

let linear: LinearScan | undefined;

/** `MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW` (300,000) and `MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW_RATIO` (0.1). */
export function linearScan(env: NodeJS.ProcessEnv = process.env): LinearScan {
  if (linear !== undefined && env === process.env) return linear;
  const below = Number(env.MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW);
  const ratio = Number(env.MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW_RATIO);
  const out = {
    below: env.MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW !== undefined && Number.isInteger(below) && below >= 0 ? below : DEFAULT_LINEAR_SCAN.below,
    ratio: env.MEILI_EXPERIMENTAL_HNSW_LINEAR_BELOW_RATIO !== undefined && ratio >= 0 && ratio <= 1 ? ratio : DEFAULT_LINEAR_SCAN.ratio,
  };
  if (env === process.env) linear = out;
  return out;
}

/**
 * `HANNOY_READER_PREFETCH_MEMORY`: bytes of graph links and vectors read into memory before an
 * embedder's first search of an index generation (`true`: all of them; unset or 0: none).
 */
export function prefetchBudget(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HANNOY_READER_PREFETCH_MEMORY?.trim();
  if (raw === undefined || raw === '') return 0;
  if (raw.toLowerCase() === 'true') return Infinity;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
