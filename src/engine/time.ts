// Wall-clock time in microseconds since the Unix epoch, the unit of every stored timestamp.

let last = 0;

/** Current time in µs; strictly increasing within this thread so that ordering by time is stable. */
export function nowMicros(): number {
  const t = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  last = t > last ? t : last + 1;
  return last;
}
