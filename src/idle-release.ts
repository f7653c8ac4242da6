// What a quiet server gives back: once nothing happened for a while (no request answered, no
// batch committed), `release` runs once, until the next activity.
//
// V8 collects when it allocates, never because the process is idle: after a burst of searches
// the main heap kept 154 MB used where a collection leaves 35 MB (107 MB of RSS), until the next
// request. `collectGarbage` runs that collection. `gc` is not exposed without a flag:
// `--expose-gc` set at run time applies to new contexts, which is where the function is taken
// from (the main context stays as it was).
import v8 from 'node:v8';
import vm from 'node:vm';

export interface QuietTimer {
  /** Something happened: `release` runs after the next quiet spell. */
  activity(): void;
  stop(): void;
}

/** Calls `release` once `quietMs` have passed since the last `activity()`. */
export function whenQuiet(quietMs: number, release: () => Promise<void>, onError: (err: unknown) => void): QuietTimer {
  let timer: NodeJS.Timeout | null = null;
  const fire = () => {
    timer = null;
    release().catch(onError);
  };
  return {
    activity() {
      if (timer) timer.refresh();
      else {
        timer = setTimeout(fire, quietMs);
        timer.unref();
      }
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

let gc: (() => void) | null | undefined;

/** A full garbage collection of this thread's heap; nothing when the runtime refuses to expose `gc`. */
export function collectGarbage(): void {
  if (gc === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const fn: unknown = vm.runInNewContext('gc');
      gc = typeof fn === 'function' ? (fn as () => void) : null;
    } catch {
      gc = null;
    }
  }
  gc?.();
}
