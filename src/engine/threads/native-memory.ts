// Memory that threads freed but the C allocator kept. glibc gives freed memory back to the system
// only from the top of each arena; a worker thread that built a graph or wrote a batch leaves its
// arena full of free chunks below live ones, and an exited thread's arena is kept for the next
// thread. After the 100k GloVe vectors were indexed the server held ~150 MB of such memory, in
// use by nothing. `malloc_trim(0)` hands the free pages of every arena back (madvise), which
// JavaScript cannot ask for: it is called through koffi (an optional dependency, decision 0014).
// Nothing happens on other C libraries (musl, macOS, Windows) or when koffi is missing.
import { createRequire } from 'node:module';

type Trim = () => void;
let trim: Trim | null | undefined;

/** Gives the memory freed in every malloc arena back to the system; false where that cannot be asked. */
export function releaseFreedNativeMemory(): boolean {
  if (trim === undefined) trim = loadTrim();
  if (!trim) return false;
  trim();
  return true;
}

interface Koffi {
  load(path: string): { func(signature: string): (pad: number) => number };
}

function loadTrim(): Trim | null {
  if (process.platform !== 'linux' || process.env.MUNINN_MALLOC_TRIM === '0') return null;
  // musl has no libc.so.6 (and no malloc_trim): koffi throws, and nothing is trimmed
  try {
    const koffi = createRequire(import.meta.url)('koffi') as Koffi;
    const mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return () => void mallocTrim(0);
  } catch {
    return null;
  }
}
