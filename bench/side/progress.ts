// Watches an ingest until its tasks are done, and measures progress stalls: the longest interval in
// which nothing the API shows moved. "Moved" means one of: a task of ours reached a final status,
// the latest batch changed (a new uid, or it finished), or its `progress` (steps and their
// finished/total counts, percentage) changed. Polled every POLL_MS from the first POST, so a stall
// is known to ± POLL_MS.
import type { Request } from '../lib/http.ts';
import { nowMs } from '../lib/stats.ts';
import type { TaskJson } from '../workloads/types.ts';

const POLL_MS = 50;
const FINAL = new Set(['succeeded', 'failed', 'canceled']);

interface BatchJson {
  uid: number;
  progress: unknown;
  finishedAt: string | null;
}

export interface IngestOutcome {
  /** ms from the start to the poll that saw every task final */
  doneMs: number;
  /** the longest interval without any advance, and where it began (ms from the start) */
  longestStallMs: number;
  longestStallAtMs: number;
  /** what the API showed when the longest stall began, and what ended it (tasks final | batch | progress) */
  longestStallSeen: [string, string];
  /** polls made, and how many of them saw an advance */
  polls: number;
  advances: number;
  /** distinct batch uids the tasks went through */
  batches: number;
  failed: TaskJson[];
}

export class IngestWatcher {
  readonly #request: Request;
  readonly #t0: number;
  readonly #uids: number[] = [];
  #allSent = false;
  #aborted = false;

  constructor(request: Request, t0: number) {
    this.#request = request;
    this.#t0 = t0;
  }

  /** A task was enqueued (its 202 came back). */
  add(uid: number): void {
    this.#uids.push(uid);
  }

  /** Every payload is sent: the watch ends once their tasks are final. */
  sent(): void {
    this.#allSent = true;
  }

  /** Sending failed: the watch ends at its next poll (run() rejects). */
  abort(): void {
    this.#aborted = true;
  }

  async run(timeoutMs = 6 * 3600_000): Promise<IngestOutcome> {
    let last = '';
    let lastAdvance = this.#t0;
    let longest = 0;
    let longestAt = 0;
    let longestSeen: [string, string] = ['', ''];
    let polls = 0;
    let advances = 0;
    for (;;) {
      if (this.#aborted) throw new Error('ingest aborted');
      const uids = [...this.#uids];
      const [tasks, batch] = await Promise.all([this.#tasks(uids), this.#latestBatch()]);
      const now = nowMs();
      polls++;
      const final = tasks.filter((t) => FINAL.has(t.status));
      const signature = `${final.length}|${batch ? `${batch.uid}|${batch.finishedAt ?? ''}|${JSON.stringify(batch.progress)}` : ''}`;
      if (signature !== last) {
        if (now - lastAdvance > longest) {
          longest = now - lastAdvance;
          longestAt = lastAdvance - this.#t0;
          longestSeen = [last, signature];
        }
        last = signature;
        lastAdvance = now;
        advances++;
      }
      if (this.#allSent && uids.length === this.#uids.length && final.length === uids.length) {
        return {
          doneMs: now - this.#t0,
          longestStallMs: longest,
          longestStallAtMs: longestAt,
          longestStallSeen: longestSeen,
          polls,
          advances,
          batches: new Set(tasks.map((t) => t.batchUid)).size,
          failed: final.filter((t) => t.status !== 'succeeded'),
        };
      }
      if (now - this.#t0 > timeoutMs) throw new Error(`ingest not finished after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  async #tasks(uids: number[]): Promise<TaskJson[]> {
    if (uids.length === 0) return [];
    const res = await this.#request<{ results: TaskJson[] }>('GET', `/tasks?uids=${uids.join(',')}&limit=${uids.length}`);
    if (res.status !== 200) throw new Error(`GET /tasks -> ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return res.body.results;
  }

  async #latestBatch(): Promise<BatchJson | null> {
    const res = await this.#request<{ results: BatchJson[] }>('GET', '/batches?limit=1');
    if (res.status !== 200) throw new Error(`GET /batches -> ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return res.body.results[0] ?? null;
  }
}
