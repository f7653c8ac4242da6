// The search queue of Meilisearch (cli.md: `--experimental-search-queue-size`,
// `--experimental-drop-search-after`, `--experimental-nb-searches-per-core`; errors.md: 503
// `too_many_search_requests`). `permits` searches may be in progress at once (cores × searches per
// core); the others wait, at most `capacity` of them: past it, a waiting search chosen at random is
// answered 503 to make room for the new one (none wait at capacity 0), and a search that waited
// longer than `dropAfterMs` is answered 503 instead of being run.
//
// A search is "in progress" from its arrival to its answer, not only while it computes: Muninn
// searches on the HTTP thread (or a search thread) one at a time, so requests that arrived and wait
// for their turn are what the queue bounds. A search enters at arrival (`arrive`), waits for its
// permit before computing (`ready`) and leaves when answered (`leave`).
import { ApiError } from '../errors/index.ts';

export interface SearchQueueOptions {
  /** searches waiting beyond the ones in progress */
  capacity: number;
  /** searches in progress at once */
  permits: number;
  /** ms a search may wait before it is dropped */
  dropAfterMs: number;
}

export interface SearchTicket {
  readonly arrivedAt: number;
  /** ms spent waiting for the permit (set by `ready`) */
  waitedMs: number;
}

interface Ticket extends SearchTicket {
  state: 'running' | 'waiting' | 'dropped' | 'left';
  wake: (() => void) | null;
}

export class SearchQueue {
  readonly #opts: SearchQueueOptions;
  #running = 0;
  readonly #waiting: Ticket[] = [];
  readonly #now: () => number;

  constructor(opts: SearchQueueOptions, now: () => number = () => performance.now()) {
    this.#opts = opts;
    this.#now = now;
  }

  get capacity(): number {
    return this.#opts.capacity;
  }

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** A search arrived: it holds a permit now, or waits (evicting a random waiting one when full). */
  arrive(): SearchTicket {
    const ticket: Ticket = { arrivedAt: this.#now(), waitedMs: 0, state: 'waiting', wake: null };
    if (this.#running < this.#opts.permits && this.#waiting.length === 0) {
      ticket.state = 'running';
      this.#running++;
      return ticket;
    }
    if (this.#opts.capacity === 0) {
      ticket.state = 'dropped';
      return ticket;
    }
    if (this.#waiting.length >= this.#opts.capacity) {
      const evicted = this.#waiting.splice(Math.floor(Math.random() * this.#waiting.length), 1)[0]!;
      evicted.state = 'dropped';
      evicted.wake?.();
    }
    this.#waiting.push(ticket);
    return ticket;
  }

  /** Resolves when the search may run; throws 503 `too_many_search_requests` when it was dropped. */
  async ready(t: SearchTicket): Promise<void> {
    const ticket = t as Ticket;
    while (ticket.state === 'waiting') await new Promise<void>((resolve) => (ticket.wake = resolve));
    ticket.wake = null;
    ticket.waitedMs = this.#now() - ticket.arrivedAt;
    if (ticket.state === 'running' && ticket.waitedMs > this.#opts.dropAfterMs) {
      this.leave(ticket);
      ticket.state = 'dropped';
    }
    if (ticket.state === 'dropped') throw this.#tooMany();
  }

  /** The search was answered (or its request ended): its permit goes to the longest waiting one. */
  leave(t: SearchTicket): void {
    const ticket = t as Ticket;
    if (ticket.state === 'running') {
      this.#running--;
      this.#next();
    } else if (ticket.state === 'waiting') {
      const i = this.#waiting.indexOf(ticket);
      if (i >= 0) this.#waiting.splice(i, 1);
    }
    ticket.state = 'left';
  }

  #next(): void {
    while (this.#running < this.#opts.permits && this.#waiting.length > 0) {
      const ticket = this.#waiting.shift()!;
      ticket.state = 'running';
      this.#running++;
      ticket.wake?.();
    }
  }

  #tooMany(): ApiError {
    return new ApiError('too_many_search_requests', `Too many search requests running at the same time: ${this.#opts.capacity}. Retry after 10s.`);
  }
}
