// The uid of a dump: the UTC start time of its processing as `YYYYMMDD-HHMMSSmmm` (dumps-snapshots.md §1).

export function dumpUid(micros: number): string {
  const d = new Date(Math.floor(micros / 1000));
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(d.getUTCMilliseconds(), 3)}`;
}
