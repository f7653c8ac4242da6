// Searches that hit their cutoff (`searchCutoffMs`) and answered with what they had ranked by then:
// `meilisearch_degraded_search_requests`. Each thread counts its own; the search threads report
// theirs with each answer (pool.ts), so the HTTP thread's count is the process's.
let degraded = 0;

export function noteDegraded(n = 1): void {
  degraded += n;
}

export function degradedSearches(): number {
  return degraded;
}
