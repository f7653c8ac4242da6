// The side-by-side workloads: Muninn alone, or Muninn then Meilisearch with --vs-meili.
import type { SideWorkload } from '../types.ts';
import { sideCities } from './cities.ts';
import { growth } from './growth.ts';
import { sideMovies } from './movies.ts';
import { sideProducts } from './products.ts';
import { sideSotu } from './sotu.ts';

/** what `--vs-meili` without a workload runs (growth is left out: it is long; name it) */
export const SIDE_DEFAULT = [sideCities, sideProducts, sideMovies, sideSotu];

export const sideWorkloads: Record<string, SideWorkload> = Object.fromEntries([...SIDE_DEFAULT, growth].map((w) => [w.name, w]));
