import { facetsEcommerce } from './facets-ecommerce.ts';
import { filterEcommerce } from './filter-ecommerce.ts';
import { filterRangeCities } from './filter-range-cities.ts';
import { geoCities } from './geo-cities.ts';
import { ingestCities } from './ingest-cities.ts';
import { multiEcommerce } from './multi-ecommerce.ts';
import { searchCities } from './search-cities.ts';
import { searchCommedia } from './search-commedia.ts';
import { searchEcommerce } from './search-ecommerce.ts';
import { searchEmails } from './search-emails.ts';
import { searchGames } from './search-games.ts';
import { searchMovies } from './search-movies.ts';
import type { Workload } from './types.ts';
import { vectorsGlove } from './vectors-glove.ts';
import { vectorsLibrary } from './vectors-library.ts';
import { hybridFiori } from './hybrid-fiori.ts';
import { dumpCities } from './dump-cities.ts';
import { compressionMovies } from './compression-movies.ts';
import { metricsMovies } from './metrics-movies.ts';
import { embedFiori } from './embed-fiori.ts';
import { embedFioriLocal } from './embed-fiori-local.ts';

export const workloads: Record<string, Workload> = Object.fromEntries(
  [
    ingestCities,
    searchEcommerce,
    searchMovies,
    searchCities,
    searchCommedia,
    searchGames,
    searchEmails,
    filterEcommerce,
    facetsEcommerce,
    geoCities,
    filterRangeCities,
    multiEcommerce,
    vectorsGlove,
    vectorsLibrary,
    hybridFiori,
    dumpCities,
    compressionMovies,
    metricsMovies,
    embedFiori,
    embedFioriLocal,
  ].map((w) => [w.name, w]),
);
