// A full garbage collection on demand, without requiring `node --expose-gc`: the flag is set at run
// time and V8 hands the `gc` function to a fresh context. Used between in-process engines so that
// one engine's garbage is not counted in the next one's memory figures.
import v8 from 'node:v8';
import vm from 'node:vm';

let gcFn: (() => void) | null | undefined;

/** Runs a full GC (twice, for weak references and finalizers); false when it cannot be had. */
export function forceGc(): boolean {
  if (gcFn === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    } catch {
      gcFn = null;
    }
  }
  if (!gcFn) return false;
  gcFn();
  gcFn();
  return true;
}
