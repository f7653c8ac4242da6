// The engine names the search workloads know (kept apart from engines.ts so that the runner can
// validate `--engines` without loading the peers' libraries).
export const ENGINE_NAMES = ['muninn-http', 'minisearch', 'orama', 'flexsearch', 'muninn-inprocess'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];
