// Memory sampling of the server process through /proc/<pid>/status (Linux only).
import fs from 'node:fs';

export interface MemReading {
  /** kB values as printed by the kernel; 0 when the line is missing */
  vmRSS: number;
  vmHWM: number;
  rssAnon: number;
  rssFile: number;
}

export interface MemPeak {
  /** max(VmHWM, every sampled VmRSS), in bytes */
  peakRss: number;
  /** max sampled RssAnon (heap, stacks: excludes mmapped files such as LMDB), in bytes */
  peakAnon: number;
  samples: number;
}

export function readMem(pid: number): MemReading | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null; // process gone
  }
  const kb = (key: string): number => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  };
  return { vmRSS: kb('VmRSS'), vmHWM: kb('VmHWM'), rssAnon: kb('RssAnon'), rssFile: kb('RssFile') };
}

/**
 * Samples VmRSS every `intervalMs` and keeps two peaks: one for the whole run and one for the
 * current phase. `phase()` closes the current phase (returning its peak) and, when the kernel
 * lets us, resets VmHWM (`echo 5 > /proc/<pid>/clear_refs`) so the next phase's HWM is its own.
 */
export class RssSampler {
  readonly #pid: number;
  readonly #timer: NodeJS.Timeout;
  #run: MemPeak = { peakRss: 0, peakAnon: 0, samples: 0 };
  #cur: MemPeak = { peakRss: 0, peakAnon: 0, samples: 0 };
  /** true once a clear_refs write succeeded: per-phase HWM is then exact */
  hwmResettable = false;

  constructor(pid: number, intervalMs = 50) {
    this.#pid = pid;
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref();
    this.sample();
  }

  sample(): MemReading | null {
    const r = readMem(this.#pid);
    if (!r) return null;
    for (const p of [this.#run, this.#cur]) {
      p.peakRss = Math.max(p.peakRss, r.vmRSS * 1024, r.vmHWM * 1024);
      p.peakAnon = Math.max(p.peakAnon, r.rssAnon * 1024);
      p.samples++;
    }
    return r;
  }

  /** Ends the current phase: returns its peak and starts a new one. */
  phase(): MemPeak {
    this.sample();
    const done = this.#cur;
    try {
      fs.writeFileSync(`/proc/${this.#pid}/clear_refs`, '5');
      this.hwmResettable = true;
    } catch {
      this.hwmResettable = false;
    }
    this.#cur = { peakRss: 0, peakAnon: 0, samples: 0 };
    this.sample();
    return done;
  }

  /** Peak over the whole run (HWM readings taken before every reset are included). */
  overall(): MemPeak {
    this.sample();
    return { ...this.#run };
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** Resets the kernel's VmHWM of a process (`echo 5 > /proc/<pid>/clear_refs`); false when not allowed. */
export function resetHwm(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
