// `performanceDetails` (search.md §1: "map step → duration string; content is implementation-
// specific"): the steps of one search, named as Meilisearch names its own (`wait in queue`,
// `search > …`), each timed from the end of the step before.
import { formatStepDuration } from '../format/time.ts';

export class Timings {
  readonly #steps = new Map<string, number>();
  readonly #started: number;
  #last: number;

  constructor(started: number = performance.now()) {
    this.#started = started;
    this.#last = started;
  }

  /** Ends a step begun where the last one ended (a step named twice adds up). */
  step(name: string): void {
    const now = performance.now();
    this.#steps.set(name, (this.#steps.get(name) ?? 0) + now - this.#last);
    this.#last = now;
  }

  /** The steps and their total under `total`, preceded by the time spent waiting (ms). */
  view(total: string, waitedMs?: number): Record<string, string> {
    const out: Record<string, string> = {};
    if (waitedMs !== undefined) out['wait in queue'] = formatStepDuration(waitedMs);
    for (const [name, ms] of this.#steps) out[name] = formatStepDuration(ms);
    out[total] = formatStepDuration(performance.now() - this.#started);
    return out;
  }
}

/** A step recorder that records nothing (`showPerformanceDetails` is off). */
export const NO_TIMINGS = { step: (_name: string) => undefined };
export type StepRecorder = Pick<Timings, 'step'>;
