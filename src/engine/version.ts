// The storage format of Muninn's database, named by the Muninn release that introduced it. The
// instance (`<db>/muninn-version`), the task queue (meta `storageVersion`) and each index (main
// `storageVersion`) record the format they are in; a database without records is `0.1.0`, the
// format before the vector store (decision 0010) and before records existed. `--upgrade-db` moves
// an older database to this one (docs/decisions/0011).
export const STORAGE_VERSION = '0.2.0';

/** The format of a database, task queue or index that records none. */
export const UNVERSIONED = '0.1.0';

/** `[major, minor, patch]` of a version string (throws on anything else). */
export function versionTriple(v: string): [number, number, number] {
  const parts = v.trim().split('.');
  if (parts.length !== 3 || !parts.every((p) => /^\d+$/.test(p))) throw new Error(`not a version: ${JSON.stringify(v)}`);
  return [Number(parts[0]), Number(parts[1]), Number(parts[2])];
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const x = versionTriple(a);
  const y = versionTriple(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
