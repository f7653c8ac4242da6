// Background threads (the index writer, the extractor) yield the CPU to the HTTP thread:
// on Linux, setpriority on a thread id renices that thread only. Best effort elsewhere.
import fs from 'node:fs';
import os from 'node:os';

/** Lowers the scheduling priority of the calling thread (nice 10); a no-op where unsupported. */
export function lowerThreadPriority(niceness = 10): void {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, niceness);
  } catch {
    // not Linux, or not permitted: keep the default priority
  }
}
