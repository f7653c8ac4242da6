import { ingestCities } from './ingest-cities.ts';
import type { Workload } from './types.ts';

export const workloads: Record<string, Workload> = {
  [ingestCities.name]: ingestCities,
};
