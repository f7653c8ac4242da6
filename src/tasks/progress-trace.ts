// The `progressTrace` of a batch (tasks.md §12): how long each step of the batch took, measured
// where the scheduler does the work. Shaped as Meilisearch 1.50 shapes it:
//
//   { "processing tasks > indexing > adding documents": "12.31ms",   ← nested steps joined by " > "
//     "processing tasks > indexing": "14.02ms",                       ← listed as steps finish, so a
//     "processing tasks": "15.77ms",                                    child comes before its parent
//     "writing tasks to disk > tasks": "80.12µs", ... }
//
// A step run more than once (one per task of the batch) adds up under one path.
import { formatStepDuration } from '../api/format/time.ts';

export class ProgressTrace {
  readonly #now: () => number;
  readonly #open: { name: string; start: number }[] = [];
  /** step path → milliseconds, in the order the steps first finished */
  readonly #totals = new Map<string, number>();

  /** `now` gives milliseconds (tests pass a fake clock). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Runs `fn` as a step nested in the open ones. */
  time<T>(name: string, fn: () => T): T {
    this.#start(name);
    try {
      return fn();
    } finally {
      this.#end();
    }
  }

  /** `time` for a step that awaits. */
  async timeAsync<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.#start(name);
    try {
      return await fn();
    } finally {
      this.#end();
    }
  }

  /** Records a step measured by the caller (one that ends outside a callback, like a commit). */
  add(name: string, ms: number): void {
    const path = [...this.#open.map((s) => s.name), name].join(' > ');
    this.#totals.set(path, (this.#totals.get(path) ?? 0) + ms);
  }

  /** The finished steps as the batch shows them: path → duration text. */
  view(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, ms] of this.#totals) out[path] = formatStepDuration(ms);
    return out;
  }

  #start(name: string): void {
    this.#open.push({ name, start: this.#now() });
  }

  #end(): void {
    const step = this.#open.pop()!;
    this.add(step.name, this.#now() - step.start);
  }
}
