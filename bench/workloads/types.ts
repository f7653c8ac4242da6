// The contract between the runner and a workload.
import type { DiskUsage } from '../lib/disk.ts';
import type { MemPeak } from '../lib/rss.ts';

/** A task as returned by GET /tasks/{uid} (only the fields the workloads read). */
export interface TaskJson {
  uid: number;
  batchUid: number | null;
  indexUid: string | null;
  status: 'enqueued' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  type: string;
  details?: Record<string, unknown>;
  error: { message: string; code: string; type: string } | null;
  duration: string | null;
  enqueuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface HttpResult<T = unknown> {
  status: number;
  body: T;
  /** ms from the call to the end of the response body */
  ms: number;
}

export interface WorkloadContext {
  baseUrl: string;
  apiKey: string;
  /** absolute path of shared/datasets (the repo's ../shared/datasets) */
  datasetsDir: string;
  /** the run's temporary directory: the server's db is in db/, its dumps in dumps/, snapshots in snapshots/ */
  workDir: string;
  /** the repository root (to start another server) */
  repoRoot: string;
  report(name: string, value: number, unit: string): void;
  /** authenticated request (node:http, keep-alive); a string/Uint8Array body is sent as is, anything else as JSON */
  request<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult<T>>;
  /** polls GET /tasks/{uid} every 10 ms until succeeded/failed/canceled */
  waitForTask(taskUid: number, timeoutMs?: number): Promise<TaskJson>;
  /** ends a memory phase: returns the server's peak RSS since the previous call */
  memPhase(): MemPeak;
  /** the server's peak RSS over the whole run so far */
  memOverall(): MemPeak;
  /** bytes on disk of the server's db dir now */
  disk(): DiskUsage;
  /** runner options a workload may honour (`--engines`, `--max-queries`, `--index-without-search`) */
  options?: WorkloadOptions;
}

export interface WorkloadOptions {
  /** engines to run (search workloads); all when absent */
  engines?: string[];
  /** cap on the timed queries per query set (search workloads) */
  maxQueries?: number;
  /** search workloads: index into an engine whose search is not available yet, for the indexing figures */
  indexWithoutSearch?: boolean;
}

export interface Workload {
  name: string;
  description: string;
  /** dataset folder name under shared/datasets, for the JSON output */
  dataset: string;
  /** launch options the server needs for this workload (e.g. the network rule for a local stand-in) */
  serverArgs?: string[];
  run(ctx: WorkloadContext): Promise<void>;
}
