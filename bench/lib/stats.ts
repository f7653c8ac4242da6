// Small numeric helpers shared by the runner and the workloads.

/** Nearest-rank percentile (p in 0..100) of a non-empty sample; p100 is the max. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Bytes to decimal megabytes (1 MB = 10^6 bytes). */
export const toMB = (bytes: number): number => bytes / 1e6;

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export const nowMs = (): number => performance.now();

/** Seconds in an ISO 8601 duration such as "PT1.25S" or "PT2M3.5S" (Meilisearch task `duration`). */
export function isoDurationSeconds(d: string | null | undefined): number | null {
  if (!d) return null;
  const m = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(d);
  if (!m) return null;
  const [, days, h, min, s] = m.map((x) => (x === undefined ? 0 : Number(x)));
  return days! * 86400 + h! * 3600 + min! * 60 + s!;
}
